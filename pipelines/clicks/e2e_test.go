package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/catalog/rest"
	"github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/internal/launch/launchtest"
)

// The end-to-end runs stream for e2eDuration at one row per e2eInterval,
// committing every 2 s: 2,400 rows in about six commits per table.
const (
	e2eInterval = 5 * time.Millisecond
	e2eDuration = 12 * time.Second
	e2eTrigger  = 2 * time.Second
)

// TestStreamToStandaloneCatalog runs the built pipeline against `icebeam
// serve` and reads what it committed with iceberg-go's own REST client and
// scan, which share no code with the sink.
func TestStreamToStandaloneCatalog(t *testing.T) {
	if testing.Short() {
		t.Skip("streams for 12 s")
	}
	uri := serveCatalog(t)
	bin := pipelineBin.Path(t)
	wantRows := int(e2eDuration / e2eInterval)

	t.Run("one table", func(t *testing.T) {
		t.Parallel()
		commits := runClicks(t, bin, uri, "clicks.user_clicks")
		tbl := loadTable(t, uri, "clicks.user_clicks")
		got := countPairs(t, tbl)
		checkStream(t, tbl, commits["clicks.user_clicks"], total(got))
		if n := total(got); n != wantRows {
			t.Errorf("table holds %d rows; a %v stream at one row per %v has %d", n, e2eDuration, e2eInterval, wantRows)
		}
		if diff := diffPairs(got, expectedPairs(wantRows, -1)); diff != "" {
			t.Errorf("rows differ from i = 0..%d: %s", wantRows-1, diff)
		}
	})

	t.Run("table per user", func(t *testing.T) {
		t.Parallel()
		commits := runClicks(t, bin, uri, "clicks.user_{user_id}")
		if len(commits) != 10 {
			t.Errorf("commits logged for %d tables, want 10: %v", len(commits), commits)
		}
		sum := 0
		for u := 0; u < 10; u++ {
			name := fmt.Sprintf("clicks.user_user_%d", u) // "user-3" -> user_3
			tbl := loadTable(t, uri, name)
			got := countPairs(t, tbl)
			checkStream(t, tbl, commits[name], total(got))
			sum += total(got)
			if diff := diffPairs(got, expectedPairs(wantRows, u)); diff != "" {
				t.Errorf("%s: rows differ from i = 0..%d with i%%10 == %d: %s", name, wantRows-1, u, diff)
			}
		}
		if sum != wantRows {
			t.Errorf("the 10 tables hold %d rows, want %d", sum, wantRows)
		}
	})
}

// serveCatalog starts `icebeam serve` on a free port in a temp dir and
// returns its URL.
func serveCatalog(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command(launchtest.Icebeam(t), "serve", "--addr=127.0.0.1:0", "--local_dir="+filepath.Join(dir, "lakehouse"))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	})
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "icebeam: serving the Iceberg REST catalog at "); ok {
				urls <- strings.TrimSpace(rest)
			}
		}
	}()
	select {
	case u := <-urls:
		return u
	case <-time.After(30 * time.Second):
		t.Fatal("icebeam serve printed no URL within 30 s")
		return ""
	}
}

var committedLine = regexp.MustCompile(`icebergio: committed table=(\S+) commit=(\S+) snapshot=(-?\d+) files=(\d+) rows=(\d+)`)

// runClicks runs the pipeline to completion and returns the snapshot ids of
// the commits it logged, per table.
func runClicks(t *testing.T, bin, uri, dest string) map[string][]int64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin,
		"--catalog_uri="+uri, "--iceberg_table="+dest,
		"--interval="+e2eInterval.String(), "--duration="+e2eDuration.String(),
		"--triggering_frequency_seconds="+strconv.Itoa(int(e2eTrigger/time.Second)))
	cmd.Dir = t.TempDir()
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("clicks --iceberg_table=%s: %v\n%s", dest, err, out)
	}
	commits := map[string][]int64{}
	for _, m := range committedLine.FindAllStringSubmatch(string(out), -1) {
		id, _ := strconv.ParseInt(m[3], 10, 64)
		commits[m[1]] = append(commits[m[1]], id)
	}
	t.Logf("clicks --iceberg_table=%s: %d tables committed in %v", dest, len(commits), time.Since(start).Round(time.Millisecond))
	// The summary counts what the catalog holds from this run: every row
	// of the stream, in the commits the sink logged.
	snaps := 0
	for _, ids := range commits {
		snaps += len(ids)
	}
	want := fmt.Sprintf("Committed %d rows in %d snapshots to %d table(s)", int(e2eDuration/e2eInterval), snaps, len(commits))
	if !strings.Contains(string(out), want) {
		t.Errorf("clicks --iceberg_table=%s: output lacks the summary %q:\n%s", dest, want, launchtest.Tail(string(out)))
	}
	// The command it prints to look at the table works as printed.
	launchtest.CheckLookCommand(t, string(out), cmd.Dir)
	return commits
}

var catalogs sync.Map // uri -> catalog.Catalog

func loadTable(t *testing.T, uri, name string) *table.Table {
	t.Helper()
	ctx := context.Background()
	c, ok := catalogs.Load(uri)
	if !ok {
		cat, err := rest.NewCatalog(ctx, "e2e", uri)
		if err != nil {
			t.Fatalf("connecting to %s: %v", uri, err)
		}
		c, _ = catalogs.LoadOrStore(uri, cat)
	}
	tbl, err := c.(catalog.Catalog).LoadTable(ctx, catalog.ToIdentifier(name))
	if err != nil {
		t.Fatalf("loading %s: %v", name, err)
	}
	return tbl
}

type pair struct {
	user   string
	clicks int64
}

// countPairs scans tbl and counts each (user_id, click_count).
func countPairs(t *testing.T, tbl *table.Table) map[pair]int {
	t.Helper()
	at, err := tbl.Scan().ToArrowTable(context.Background())
	if err != nil {
		t.Fatalf("scanning %v: %v", tbl.Identifier(), err)
	}
	defer at.Release()
	got := map[pair]int{}
	tr := array.NewTableReader(at, 1<<16)
	defer tr.Release()
	for tr.Next() {
		rec := tr.RecordBatch()
		users, ok1 := rec.Column(int(rec.Schema().FieldIndices("user_id")[0])).(*array.String)
		counts, ok2 := rec.Column(int(rec.Schema().FieldIndices("click_count")[0])).(*array.Int64)
		if !ok1 || !ok2 {
			t.Fatalf("%v: schema %v, want user_id string and click_count long", tbl.Identifier(), rec.Schema())
		}
		for r := 0; r < int(rec.NumRows()); r++ {
			got[pair{users.Value(r), counts.Value(r)}]++
		}
	}
	return got
}

// expectedPairs counts the rows of the Java example for i = 0..n-1, only
// those of user u unless u < 0; written out from its lambda, not from
// transforms/clicks.
func expectedPairs(n, u int) map[pair]int {
	want := map[pair]int{}
	for i := 0; i < n; i++ {
		if u < 0 || i%10 == u {
			want[pair{"user-" + strconv.Itoa(i%10), int64(i % 100)}]++
		}
	}
	return want
}

func total(m map[pair]int) (n int) {
	for _, c := range m {
		n += c
	}
	return n
}

// diffPairs describes up to five differences between got and want.
func diffPairs(got, want map[pair]int) string {
	var diffs []string
	for p, w := range want {
		if g := got[p]; g != w {
			diffs = append(diffs, fmt.Sprintf("%s/%d: %d rows, want %d", p.user, p.clicks, g, w))
		}
	}
	for p, g := range got {
		if _, ok := want[p]; !ok {
			diffs = append(diffs, fmt.Sprintf("%s/%d: %d unexpected rows", p.user, p.clicks, g))
		}
	}
	if len(diffs) > 5 {
		diffs = append(diffs[:5], fmt.Sprintf("and %d more", len(diffs)-5))
	}
	return strings.Join(diffs, "; ")
}

// checkStream checks the table's history against the commits the pipeline
// logged: one snapshot per logged commit, each appending one data file, and
// their added-records adding up to the rows the table holds. Together with
// the rows matching i = 0..n-1 exactly this leaves no room for a lost or
// duplicated row.
func checkStream(t *testing.T, tbl *table.Table, logged []int64, rows int) {
	t.Helper()
	name := strings.Join(tbl.Identifier(), ".")
	snaps := tbl.Metadata().Snapshots()
	if len(snaps) != len(logged) {
		t.Errorf("%s: %d snapshots, %d commits logged", name, len(snaps), len(logged))
	}
	// A 12 s stream with a 2 s trigger fires about six times.
	if len(snaps) < 4 || len(snaps) > 8 {
		t.Errorf("%s: %d snapshots; a %v stream with a %v trigger makes about %d", name, len(snaps), e2eDuration, e2eTrigger, int(e2eDuration/e2eTrigger))
	}
	isLogged := map[int64]bool{}
	for _, id := range logged {
		isLogged[id] = true
	}
	added := 0
	for _, sn := range snaps {
		sum := sn.Summary.Properties
		if !isLogged[sn.SnapshotID] {
			t.Errorf("%s: snapshot %d was not logged as a commit", name, sn.SnapshotID)
		}
		if sum["added-data-files"] != "1" {
			t.Errorf("%s: snapshot %d added %s data files, want 1", name, sn.SnapshotID, sum["added-data-files"])
		}
		n, err := strconv.Atoi(sum["added-records"])
		if err != nil || n <= 0 {
			t.Errorf("%s: snapshot %d added-records %q", name, sn.SnapshotID, sum["added-records"])
		}
		added += n
	}
	if added != rows {
		t.Errorf("%s: snapshots added %d records, the table holds %d", name, added, rows)
	}
}
