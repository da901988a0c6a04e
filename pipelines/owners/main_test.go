package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/internal/cdctest"
	"github.com/icebeam/icebeam/internal/launch"
	"github.com/icebeam/icebeam/internal/launch/launchtest"
	"github.com/icebeam/icebeam/transforms/icebergio"
)

var (
	pipelineBin = &launchtest.Binary{Pipeline: "owners", Version: "v0.0.0-test.owners"}
	cdcBin      = &launchtest.Binary{Pipeline: "cdc", Version: "v0.0.0-test.cdc"}
)

func TestMain(m *testing.M) {
	code := m.Run()
	pipelineBin.Remove()
	cdcBin.Remove()
	os.Exit(code)
}

func TestVetRunner(t *testing.T) {
	out, err := launchtest.Run(t, t.TempDir(), pipelineBin.Path(t), nil, "--runner=vet")
	if err != nil {
		t.Fatalf("--runner=vet: %v\n%s", err, out)
	}
}

// totals is an owner's row in the view, or in the recount.
type totals struct{ balance, accounts int64 }

// recount groups the accounts table's current rows (read with
// iceberg-go's own scan, deletes applied) by owner: what the view must
// hold.
func recount(t *testing.T, src *table.Table) map[string]totals {
	t.Helper()
	rows, _, _ := cdctest.ReadRows(t, src)
	out := map[string]totals{}
	for _, r := range rows {
		v := out[r.Owner]
		v.balance += r.BalanceCents
		v.accounts++
		out[r.Owner] = v
	}
	return out
}

// readView reads the view with iceberg-go's scan.
func readView(t *testing.T, tbl *table.Table) map[string]totals {
	t.Helper()
	at, err := tbl.Scan(table.WithSelectedFields("owner", "balance_cents", "accounts")).ToArrowTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer at.Release()
	out := map[string]totals{}
	tr := array.NewTableReader(at, 1<<16)
	defer tr.Release()
	for tr.Next() {
		rec := tr.RecordBatch()
		col := func(name string) int { return rec.Schema().FieldIndices(name)[0] }
		owners := rec.Column(col("owner")).(*array.String)
		bals := rec.Column(col("balance_cents")).(*array.Int64)
		accts := rec.Column(col("accounts")).(*array.Int64)
		for i := range int(rec.NumRows()) {
			if _, dup := out[owners.Value(i)]; dup {
				t.Errorf("the view holds owner %s twice", owners.Value(i))
			}
			out[owners.Value(i)] = totals{bals.Value(i), accts.Value(i)}
		}
	}
	return out
}

// requireRecount fails t unless the view equals the recount of the
// source's current rows, owner by owner.
func requireRecount(t *testing.T, view, want map[string]totals) {
	t.Helper()
	if len(want) < 10 {
		t.Fatalf("only %d owners in the source: too few to compare", len(want))
	}
	bad := 0
	for o, w := range want {
		if g, ok := view[o]; !ok || g != w {
			bad++
			t.Errorf("owner %s: the view holds %+v (present %v), the source's rows add up to %+v", o, g, ok, w)
		}
	}
	for o, g := range view {
		if _, ok := want[o]; !ok {
			bad++
			t.Errorf("owner %s: the view holds %+v, the source has no account of it", o, g)
		}
	}
	if bad == 0 {
		t.Logf("the view's %d owners equal the recount of the source's rows", len(want))
	}
}

// sourceChanges counts the row-level changes the source's snapshots made,
// from their summaries, to show the run had updates and deletes.
func sourceChanges(src *table.Table) (snapshots int, changes, deleted int64) {
	for _, s := range src.Metadata().Snapshots() {
		if s.Summary == nil {
			continue
		}
		snapshots++
		var n, d int64
		fmt.Sscan(s.Summary.Properties[icebergio.ChangeRowsKey], &n)
		fmt.Sscan(s.Summary.Properties[icebergio.DeletedRowsKey], &d)
		changes, deleted = changes+n, deleted+d
	}
	return
}

// TestViewEqualsRecount runs the cdc pipeline on prism writing a run of
// changes (inserts, updates that move balances and change owners,
// deletes) into a format v3 table (deletion vectors) and a v2 one
// (equality deletes) while the view pipeline follows it: at the end the
// view equals a recount of the source table's current rows. On the v3
// table a second run is refused (the view holds rows) and --rebuild builds
// the same view again from the source's history.
func TestViewEqualsRecount(t *testing.T) {
	if testing.Short() {
		t.Skip("streams for about 30 s per table")
	}
	bin, writer := pipelineBin.Path(t), cdcBin.Path(t)
	for _, c := range []struct {
		version int
		changes string
	}{{3, "mixed"}, {2, "cycle"}} {
		t.Run(fmt.Sprintf("v%d", c.version), func(t *testing.T) {
			ctx := context.Background()
			cfg, stop, err := launch.Catalog(ctx, catalog.Config{LocalDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer stop()
			cat, err := catalog.Open(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			const writeFor, followFor = 12 * time.Second, 25 * time.Second
			written := make(chan error, 1)
			go func() {
				out, err := launchtest.Run(t, t.TempDir(), writer, nil, "--catalog_uri="+cfg.URI,
					fmt.Sprintf("--format_version=%d", c.version), "--changes="+c.changes, "--keys=120",
					"--interval=5ms", "--duration="+writeFor.String(), "--triggering_frequency_seconds=1")
				if err != nil {
					err = fmt.Errorf("cdc: %v\n%s", err, launchtest.Tail(out))
				}
				written <- err
			}()
			// The view starts once the source exists, while it changes.
			ident := table.Identifier{"cdc", "accounts"}
			for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
				if ok, _ := cat.CheckTableExists(ctx, ident); ok {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("the cdc pipeline created no table in a minute")
				}
			}
			follow := func(d time.Duration, extra ...string) (string, error) {
				return launchtest.Run(t, t.TempDir(), bin, nil, append([]string{"--catalog_uri=" + cfg.URI,
					"--window=2s", "--poll_interval=200ms", "--triggering_frequency_seconds=1", "--duration=" + d.String()}, extra...)...)
			}
			start := time.Now()
			out, err := follow(followFor)
			if err != nil {
				t.Fatalf("owners: %v\n%s", err, launchtest.Tail(out))
			}
			if err := <-written; err != nil {
				t.Fatal(err)
			}
			src, err := cat.LoadTable(ctx, ident)
			if err != nil {
				t.Fatal(err)
			}
			if last := time.UnixMilli(src.CurrentSnapshot().TimestampMs); !last.Before(start.Add(followFor)) {
				t.Fatalf("the source's last snapshot (%v) came after the view stopped reading: make the view follow longer", last)
			}
			cdctest.RequireDeleteKind(t, src, c.version)
			// 120 inserts, then updates (5 of 7 changes in the cycle, 3
			// of 5 in the mixed stream) and deletes.
			snaps, changes, deleted := sourceChanges(src)
			t.Logf("the source has %d snapshots: %d changes applied, %d rows deleted", snaps, changes, deleted)
			if snaps < 5 || changes < 1000 || deleted == 0 {
				t.Fatalf("the source did not stream changes: %d snapshots, %d changes, %d deletes", snaps, changes, deleted)
			}
			want := recount(t, src)
			viewID := table.Identifier{"cdc", "owners"}
			view, err := cat.LoadTable(ctx, viewID)
			if err != nil {
				t.Fatal(err)
			}
			requireRecount(t, readView(t, view), want)
			_, viewChanges, viewDeleted := sourceChanges(view)
			t.Logf("the view has %d snapshots: %d changes applied, %d owners deleted", len(view.Metadata().Snapshots()), viewChanges, viewDeleted)
			// (The v2 run's cycle stream spreads accounts evenly over the
			// owners: none runs out.)
			if c.version == 3 && viewDeleted == 0 {
				t.Error("no owner was deleted from the view: the run did not test owners whose last account goes")
			}
			if c.version != 3 || t.Failed() {
				return
			}

			// A second job would count the view's totals again: refused.
			out, err = follow(time.Second)
			if err == nil || !strings.Contains(out, "already holds a view") {
				t.Errorf("a second run on a view that holds rows: %v, want it refused\n%s", err, launchtest.Tail(out))
			}
			// --rebuild drops the view and builds it from the history.
			if out, err := follow(6*time.Second, "--rebuild"); err != nil {
				t.Fatalf("owners --rebuild: %v\n%s", err, launchtest.Tail(out))
			}
			view, err = cat.LoadTable(ctx, viewID)
			if err != nil {
				t.Fatal(err)
			}
			requireRecount(t, readView(t, view), want)
		})
	}
}
