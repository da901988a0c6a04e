package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/internal/launch"
	"github.com/icebeam/icebeam/internal/launch/launchtest"
	"github.com/icebeam/icebeam/transforms/taxi"
)

// An input without a valid trip commits nothing: the run says so, fails,
// and leaves the table (and its current snapshot) as it was; it never
// reports the previous run's snapshot as its own.
func TestEmptyResultKeepsTheTable(t *testing.T) {
	ctx := context.Background()
	cfg, stop, err := launch.Catalog(ctx, catalog.Config{LocalDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = stop() })
	bin := pipelineBin.Path(t)
	dir := t.TempDir()
	run := func(args ...string) (string, error) {
		return launchtest.Run(t, dir, bin, nil, append([]string{"--catalog_uri=" + cfg.URI}, args...)...)
	}
	if out, err := run("--sample_rows=300"); err != nil {
		t.Fatalf("first run: %v\n%s", err, out)
	}
	snapshot := func() int64 {
		cat, err := catalog.Open(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		tbl, err := cat.LoadTable(ctx, table.Identifier{"nyc_taxi", "yellow_trips_analyzed"})
		if err != nil {
			t.Fatal(err)
		}
		return tbl.CurrentSnapshot().SnapshotID
	}
	first := snapshot()

	empty := filepath.Join(dir, "empty.parquet")
	if err := taxi.WriteSampleFile(empty, 0, 1); err != nil {
		t.Fatal(err)
	}
	out, err := run("--input=" + empty)
	if err == nil {
		t.Errorf("a run over an input without trips exited 0:\n%s", out)
	}
	if want := "no valid trips in the input: nothing committed, table nyc_taxi.yellow_trips_analyzed left as it was"; !strings.Contains(out, want) {
		t.Errorf("output lacks %q:\n%s", want, out)
	}
	if strings.Contains(out, "Wrote Iceberg table") {
		t.Errorf("output reports a write:\n%s", out)
	}
	if got := snapshot(); got != first {
		t.Errorf("current snapshot %d after the empty run, want %d", got, first)
	}

	for _, n := range []string{"0", "-5"} {
		out, err := run("--sample_rows=" + n)
		if want := "--sample_rows=" + n + ": the generated sample needs at least 1 row"; err == nil || !strings.Contains(out, want) {
			t.Errorf("--sample_rows=%s: err %v, output lacks %q:\n%s", n, err, want, out)
		}
	}
}
