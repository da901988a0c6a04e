package main

import (
	"context"
	"fmt"
	"math"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/catalog/rest"

	"github.com/icebeam/icebeam/catalog/localcatalog"
	"github.com/icebeam/icebeam/internal/jobservertest"
	"github.com/icebeam/icebeam/internal/launch/launchtest"
	"github.com/icebeam/icebeam/internal/tabletest"
	"github.com/icebeam/icebeam/transforms/taxi"
)

// TestRunnersAgree runs taxi on prism and on Beam's portable Flink and Spark
// runners (parallelism 2, so the shuffle really crosses workers and the
// Java side decodes the group keys) over the same files, and requires the
// three tables to be equal row for row, doubles to the bit. The input has
// pickups in 2009 and in the old layout: the dates whose binary group keys
// the Java runners used to mangle. Each runner also reads trips from an
// Iceberg table (--input=iceberg:, a splittable read of its row groups)
// whose data file is one of the files: its table must equal prism's over
// that file.
func TestRunnersAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("runs taxi on three runners")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := os.MkdirAll(in, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, layout := range []taxi.Layout{taxi.Layout2024, taxi.LayoutOld} {
		f, err := os.Create(filepath.Join(in, fmt.Sprintf("yellow_%d.parquet", i)))
		if err != nil {
			t.Fatal(err)
		}
		if err := taxi.WriteSample(f, 30_000, int64(i+1), taxi.SampleOptions{Layout: layout, RowGroupSize: 7_000}); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	h, err := localcatalog.Open(localcatalog.Options{Dir: filepath.Join(dir, "catalog")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)

	tripsFile := filepath.Join(in, "yellow_0.parquet")
	setup, err := rest.NewCatalog(context.Background(), "setup", srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	tabletest.AddFiles(t, setup, "trips.yellow_0", tripsFile)

	bin := pipelineBin.Path(t)
	run := func(t *testing.T, input, namespace string, runnerArgs ...string) []string {
		args := append([]string{"--input=" + input, "--catalog_uri=" + srv.URL, "--namespace=" + namespace}, runnerArgs...)
		out, err := launchtest.Run(t, t.TempDir(), bin, nil, args...)
		if err != nil {
			t.Fatalf("taxi %s: %v\n%s", strings.Join(runnerArgs, " "), err, launchtest.Tail(out))
		}
		return tableRows(t, srv.URL, namespace+".yellow_trips_analyzed")
	}
	want := run(t, in, "prism")
	wantIceberg := run(t, tripsFile, "prism_file")
	if got := run(t, "iceberg:trips.yellow_0", "prism_iceberg"); !slices.Equal(got, wantIceberg) {
		t.Errorf("prism's table from the Iceberg table differs from the one from its file:\n%s", rowDiff(got, wantIceberg))
	}
	if len(want) < 100 {
		t.Fatalf("prism's table has %d rows; the sample makes over a hundred groups", len(want))
	}
	if !slices.ContainsFunc(want, func(r string) bool { return strings.HasPrefix(r, "trip_date=14245 ") }) {
		t.Fatal("no 2009-01-01 group in prism's table: the input no longer covers the keys Java runners mangled")
	}
	for _, runner := range []string{"flink", "spark"} {
		t.Run(runner, func(t *testing.T) {
			js := jobservertest.Start(t, runner)
			args := []string{"--runner=" + runner, "--endpoint=" + js.Endpoint, "--environment_type=LOOPBACK"}
			got := run(t, in, runner, args...)
			if !slices.Equal(got, want) {
				t.Errorf("%s's table differs from prism's:\n%s", runner, rowDiff(got, want))
			}
			got = run(t, "iceberg:trips.yellow_0", runner+"_iceberg", args...)
			if !slices.Equal(got, wantIceberg) {
				t.Errorf("%s's table from the Iceberg table differs from prism's over its file:\n%s", runner, rowDiff(got, wantIceberg))
			}
		})
	}
}

// tableRows reads a table with iceberg-go's own client and returns its rows
// as sorted strings, each value printed exactly (doubles by their bits).
func tableRows(t *testing.T, uri, name string) []string {
	t.Helper()
	ctx := context.Background()
	cat, err := rest.NewCatalog(ctx, "check", uri)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := cat.LoadTable(ctx, catalog.ToIdentifier(name))
	if err != nil {
		t.Fatal(err)
	}
	at, err := tbl.Scan().ToArrowTable(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer at.Release()
	var rows []string
	tr := array.NewTableReader(at, 1<<14)
	defer tr.Release()
	for tr.Next() {
		rec := tr.RecordBatch()
		for r := 0; r < int(rec.NumRows()); r++ {
			var b strings.Builder
			for c, f := range rec.Schema().Fields() {
				fmt.Fprintf(&b, "%s=%s ", f.Name, cell(rec.Column(c), r))
			}
			rows = append(rows, b.String())
		}
	}
	slices.Sort(rows)
	return rows
}

func cell(a arrow.Array, r int) string {
	if a.IsNull(r) {
		return "null"
	}
	switch a := a.(type) {
	case *array.Float64:
		return fmt.Sprintf("%v(%x)", a.Value(r), math.Float64bits(a.Value(r)))
	case *array.Date32:
		return fmt.Sprint(int32(a.Value(r)))
	default:
		return a.ValueStr(r)
	}
}

// rowDiff describes up to five rows in one list and not the other.
func rowDiff(got, want []string) string {
	var out []string
	for _, r := range want {
		if !slices.Contains(got, r) {
			out = append(out, "missing: "+r)
		}
	}
	for _, r := range got {
		if !slices.Contains(want, r) {
			out = append(out, "extra:   "+r)
		}
	}
	out = append(out, fmt.Sprintf("(%d rows, want %d)", len(got), len(want)))
	return strings.Join(out[max(0, len(out)-6):], "\n")
}
