package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	icetable "github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/internal/jobservertest"
	"github.com/icebeam/icebeam/internal/launch"
)

// TestEvolutionOnFlink streams v1 rows, then v2 rows, into one table on
// Beam's portable Flink runner (parallelism 2, checkpoints every 2 s: the
// commit step sees only checkpointed panes): the table gains v2's columns
// once, and every seq of both runs is there exactly once, v1's with the
// widened click_count they were written with.
func TestEvolutionOnFlink(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Flink job server")
	}
	js := jobservertest.Start(t, "flink")
	dir := t.TempDir()
	bin := filepath.Join(dir, "evolvestream")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ctx := context.Background()
	cfg, stop, err := launch.Catalog(ctx, catalog.Config{LocalDir: filepath.Join(dir, "lakehouse")})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	const n = 1000 // rows per run: 5 s at 5 ms
	for i, version := range []string{"1", "2"} {
		cmd := exec.Command(bin, "--runner=flink", "--endpoint="+js.Endpoint,
			"--environment_type=LOOPBACK", "--checkpointing_interval=2s", "--catalog_uri="+cfg.URI,
			"--iceberg_table=flink.evolving", "--row_version="+version, "--seq_offset="+[]string{"0", "1000"}[i],
			"--interval=5ms", "--duration=5s", "--triggering_frequency_seconds=2")
		cmd.Dir = t.TempDir()
		if _, err := js.Run(t, 5*time.Minute, cmd); err != nil {
			t.Fatalf("v%s on Flink: %v", version, err)
		}
	}
	cat, err := catalog.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := cat.LoadTable(ctx, icetable.Identifier{"flink", "evolving"})
	if err != nil {
		t.Fatal(err)
	}
	if got := len(tbl.Metadata().Schemas()); got != 2 {
		t.Errorf("%d schemas, want 2 (v1's and the one evolution)", got)
	}
	at, err := tbl.Scan(icetable.WithSelectedFields("seq", "click_count", "session")).ToArrowTable(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer at.Release()
	var seqs []int64
	tr := array.NewTableReader(at, 1<<16)
	defer tr.Release()
	for tr.Next() {
		rec := tr.RecordBatch()
		seq, count, session := rec.Column(0).(*array.Int64), rec.Column(1).(*array.Int64), rec.Column(2)
		for r := range int(rec.NumRows()) {
			s := seq.Value(r)
			seqs = append(seqs, s)
			want := s % 100
			if s >= n {
				want <<= 32
			}
			if count.Value(r) != want || session.IsNull(r) != (s < n) {
				t.Errorf("seq %d: click_count %d (want %d), session null %v", s, count.Value(r), want, session.IsNull(r))
			}
		}
	}
	slices.Sort(seqs)
	for i, s := range seqs {
		if s != int64(i) {
			t.Fatalf("seqs are not 0..%d each once: position %d holds %d (%d rows)", 2*n-1, i, s, len(seqs))
		}
	}
	if len(seqs) != 2*n {
		t.Fatalf("%d rows, want %d", len(seqs), 2*n)
	}
	t.Logf("%d rows, each seq once; %d completed checkpoints", len(seqs), js.Count("Completed checkpoint"))
}
