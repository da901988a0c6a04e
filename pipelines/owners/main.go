// Command owners keeps a downstream view of the accounts table the cdc
// pipeline maintains: one row per owner with the owner's total balance and
// number of accounts, kept up to date through row-level upserts as the
// accounts table changes.
//
//	go run ./pipelines/cdc --interval=10ms --duration=10m &
//	go run ./pipelines/owners --window=10s --duration=10m
//
// It reads the accounts table's row-level change stream
// (icebergio.ReadChanges with RowChanges) from its first snapshot, turns
// each change into a delta of its owner's totals, sums them per owner in
// fixed windows of commit time, and adds each window's sum to the owner's
// running total, kept in Beam state (cdc.OwnerTotals); the new totals are
// written with icebergio.Changes, the end of their window ordering them.
// An owner with no accounts left is deleted from the view. The view starts
// empty: a job refuses a view table that holds rows (--rebuild drops it and
// builds it again from the source's history).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"reflect"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/google/uuid"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/internal/launch"
	"github.com/icebeam/icebeam/transforms/cdc"
	"github.com/icebeam/icebeam/transforms/icebergio"
	_ "github.com/icebeam/icebeam/transforms/portable" // exactly once on Beam's portable Flink runner
)

var (
	sourceTable  = flag.String("source_table", "cdc.accounts", "the accounts table to read (kept by the cdc pipeline), namespace.table")
	icebergTable = flag.String("iceberg_table", "cdc.owners", "the per-owner view to keep, namespace.table")
	rebuild      = flag.Bool("rebuild", false, "drop the view table if it exists and build it again from the source's history")

	windows      launch.Windows
	catalogFlags catalog.Config

	// version is stamped at build time (-ldflags "-X main.version=...").
	version = "dev"
)

func init() {
	windows.RegisterFlags(flag.CommandLine, "window of commit time in which an owner's changes are summed: the view changes at most once per owner and window")
	catalogFlags.RegisterFlags(flag.CommandLine)
}

func main() {
	launch.Start("owners", version, "Keeps a per-owner view (total balance, number of accounts) of the cdc pipeline's accounts table,\n"+
		"from its row-level change stream, as an Iceberg table updated through upserts.")
	ctx := context.Background()
	cfg, stop := launch.Begin(ctx, "owners", catalogFlags, windows.Check)
	defer stop()

	start := time.Now()
	changes := icebergio.ChangesConfig{
		Catalog:      cfg,
		Table:        *sourceTable,
		From:         icebergio.Earliest,
		Mode:         icebergio.RowChanges,
		Columns:      []string{"id", "owner", "balance_cents"},
		PollInterval: windows.PollInterval,
	}
	if windows.Duration > 0 {
		changes.StopAt = start.Add(windows.Duration)
	}
	if launch.Waits() {
		note, err := prepare(ctx, cfg, *sourceTable, *icebergTable, *rebuild)
		if err != nil {
			stop()
			launch.Fatalf("owners: %v", err)
		}
		log.Printf("owners: %s", note)
	}
	p, s := beam.NewPipelineWithRoot()
	rows := icebergio.ReadChanges(s.Scope("ReadFromIceberg"), changes, reflect.TypeFor[cdc.AccountChange]())
	totals := cdc.OwnerTotals(s, windows.Window, rows)
	icebergio.Write(s.Scope("WriteToIceberg"), icebergio.Config{
		Catalog:             cfg,
		Table:               *icebergTable,
		Mode:                icebergio.Changes,
		Key:                 []string{"owner"},
		Op:                  "op",
		Order:               "as_of",
		TriggeringFrequency: windows.Trigger(),
		WriterID:            "owners-" + uuid.NewString(),
	}, totals)
	if err := beamx.Run(ctx, p); err != nil {
		stop()
		launch.Fatalf("owners: job failed: %v", launch.Failed(err))
	}
	if launch.Waits() {
		log.Printf("owners: done in %v; the view is %s", time.Since(start).Round(time.Second), *icebergTable)
	}
}

// prepare checks that the view can be built exactly: the source exists and
// its history goes back to its first snapshot (the totals are the sum of
// every change since the table was empty), and the view holds nothing
// (with rebuild, a view that exists is dropped first). It returns a line
// saying what the job will do.
func prepare(ctx context.Context, cfg catalog.Config, source, view string, rebuild bool) (string, error) {
	cat, err := catalog.Open(ctx, cfg)
	if err != nil {
		return "", err
	}
	sourceID, err := catalog.ParseTable(source)
	if err != nil {
		return "", err
	}
	viewID, err := catalog.ParseTable(view)
	if err != nil {
		return "", err
	}
	src, err := cat.LoadTable(ctx, sourceID)
	if err != nil {
		return "", fmt.Errorf("source table %s: %w", source, err)
	}
	snaps := 0
	for snap := src.CurrentSnapshot(); snap != nil; {
		snaps++
		if snap.ParentSnapshotID == nil {
			break
		}
		parent := src.Metadata().SnapshotByID(*snap.ParentSnapshotID)
		if parent == nil {
			return "", fmt.Errorf("source table %s: snapshot %d's parent %d has expired: the changes before it cannot be read, and the totals would miss them", source, snap.SnapshotID, *snap.ParentSnapshotID)
		}
		snap = parent
	}
	tbl, err := cat.LoadTable(ctx, viewID)
	switch {
	case errors.Is(err, icecatalog.ErrNoSuchTable):
	case err != nil:
		return "", fmt.Errorf("table %s: %w", view, err)
	case rebuild:
		if err := cat.DropTable(ctx, viewID); err != nil {
			return "", fmt.Errorf("--rebuild: dropping %s: %w", view, err)
		}
		return fmt.Sprintf("dropped %s; building it again from the %d snapshots of %s, then following it", view, snaps, source), nil
	case tbl.CurrentSnapshot() != nil:
		return "", fmt.Errorf("table %s already holds a view: its totals would be counted again on top of themselves; pass --rebuild to drop it and build it again, or another --iceberg_table", view)
	}
	return fmt.Sprintf("building %s from the %d snapshots of %s, then following it", view, snaps, source), nil
}
