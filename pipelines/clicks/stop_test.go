package main

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/internal/faulttest"
	"github.com/icebeam/icebeam/internal/launch"
	"github.com/icebeam/icebeam/internal/launch/launchtest"
	"github.com/icebeam/icebeam/internal/syncbuf"
)

var summaryLine = regexp.MustCompile(`Committed (\d+) rows in 1 snapshots to 1 table\(s\)`)

// The first SIGINT stops the generator and commits the open window (the
// default 20 s trigger has not fired yet): the job exits 0 and the table
// holds every row generated, 0..N-1, once.
func TestInterruptCommitsTheOpenWindow(t *testing.T) {
	cfg, stop, err := launch.Catalog(context.Background(), catalog.Config{LocalDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = stop() })
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, pipelineBin.Path(t), "--catalog_uri="+cfg.URI, "--seq_column", "--interval=10ms")
	cmd.Dir = t.TempDir()
	out := &syncbuf.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(5 * time.Second)
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	interrupted := time.Now()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("clicks after SIGINT: %v\n%s", err, launchtest.Tail(out.String()))
	}
	t.Logf("exited %v after SIGINT", time.Since(interrupted).Round(time.Millisecond))
	m := summaryLine.FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no summary of one commit:\n%s", launchtest.Tail(out.String()))
	}
	n, _ := strconv.Atoi(m[1])
	seqs := faulttest.ReadSeqs(t, loadTable(t, cfg.URI, "clicks.user_clicks").Scan())
	slices.Sort(seqs)
	for i, s := range seqs {
		if s != int64(i) {
			t.Fatalf("row %d of the table has seq %d: not 0..N-1 once each", i, s)
		}
	}
	if len(seqs) != n {
		t.Errorf("the table holds %d rows, the summary says %d", len(seqs), n)
	}
	// Rows fall due every 10 ms from start: at least a second's worth
	// were due by the signal.
	if n < 100 {
		t.Errorf("%d rows committed; the stream ran for seconds at one row per 10 ms", n)
	}
}
