package taxi

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
)

func TestMain(m *testing.M) { ptest.Main(m) }

// column is one column of a hand-made test file; a nil value is NULL.
type column struct {
	name string
	typ  arrow.DataType
	vals []any
}

// writeColumns writes a one-row-group Parquet file with exactly these
// columns. int96 stores timestamps the deprecated way.
func writeColumns(t *testing.T, path string, int96 bool, cols ...column) {
	t.Helper()
	writeRowGroups(t, path, int96, 0, cols...)
}

// writeRowGroups is writeColumns with rowGroupLen rows per row group (0: one
// row group).
func writeRowGroups(t *testing.T, path string, int96 bool, rowGroupLen int64, cols ...column) {
	t.Helper()
	var fields []arrow.Field
	for _, c := range cols {
		fields = append(fields, arrow.Field{Name: c.name, Type: c.typ, Nullable: true})
	}
	sc := arrow.NewSchema(fields, nil)
	b := array.NewRecordBuilder(memory.NewGoAllocator(), sc)
	defer b.Release()
	for i, c := range cols {
		fb := b.Field(i)
		for _, v := range c.vals {
			if v == nil {
				fb.AppendNull()
				continue
			}
			switch fb := fb.(type) {
			case *array.Int32Builder:
				fb.Append(int32(v.(int)))
			case *array.Int64Builder:
				fb.Append(int64(v.(int)))
			case *array.Uint8Builder:
				fb.Append(uint8(v.(int)))
			case *array.Float32Builder:
				fb.Append(float32(v.(float64)))
			case *array.Float64Builder:
				switch v := v.(type) {
				case int:
					fb.Append(float64(v))
				default:
					fb.Append(v.(float64))
				}
			case *array.StringBuilder:
				fb.Append(fmt.Sprint(v))
			case *array.TimestampBuilder:
				fb.Append(arrow.Timestamp(v.(int64)))
			case *array.Date32Builder:
				fb.Append(arrow.Date32(v.(int)))
			default:
				t.Fatalf("writeColumns: no case for %T", fb)
			}
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	props := parquet.NewWriterProperties()
	if rowGroupLen > 0 {
		props = parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(rowGroupLen))
	}
	fw, err := pqarrow.NewFileWriter(sc, f, props, pqarrow.NewArrowWriterProperties(pqarrow.WithDeprecatedInt96Timestamps(int96)))
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
}

func writeSampleFile(t *testing.T, path string, n int, seed int64, opts SampleOptions) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteSample(f, n, seed, opts); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// Pipeline output is collected in memory: prism runs the SDK harness in
// this process.
var (
	collectMu sync.Mutex
	collected = map[string][]DailyStat{}
)

type collectFn struct {
	Run string `json:"run"`
}

func (fn *collectFn) ProcessElement(s DailyStat) {
	collectMu.Lock()
	defer collectMu.Unlock()
	collected[fn.Run] = append(collected[fn.Run], s)
}

func init() { register.DoFn1x0[DailyStat](&collectFn{}) }

// runDailyStats runs DailyStats(input) on prism and returns its rows keyed
// by "date|payment".
func runDailyStats(t *testing.T, input string) (map[string]DailyStat, error) {
	t.Helper()
	return runStats(t, func(s beam.Scope) beam.PCollection { return DailyStats(s, input) })
}

// runStats runs the pipeline that stats builds on prism and returns its
// rows keyed by "date|payment".
func runStats(t *testing.T, stats func(beam.Scope) beam.PCollection) (map[string]DailyStat, error) {
	t.Helper()
	p, s := beam.NewPipelineWithRoot()
	run := t.Name()
	// The Reshuffle makes the rows go through their coder (the schema row
	// coder, with its optional fields), as they will on the way to a sink.
	beam.ParDo0(s, &collectFn{Run: run}, beam.Reshuffle(s, stats(s)))
	collectMu.Lock()
	delete(collected, run)
	collectMu.Unlock()
	if _, err := ptest.RunWithMetrics(p); err != nil {
		return nil, err
	}
	collectMu.Lock()
	defer collectMu.Unlock()
	out := map[string]DailyStat{}
	for _, r := range collected[run] {
		k := statKey(r.TripDate, r.PaymentType)
		if _, dup := out[k]; dup {
			t.Errorf("group %s emitted twice", k)
		}
		out[k] = r
	}
	return out, nil
}

// runDailyStatsB runs DailyStats(input) on prism and returns the number
// of rows.
func runDailyStatsB(input string) (int, error) {
	p, s := beam.NewPipelineWithRoot()
	run := "bench"
	beam.ParDo0(s, &collectFn{Run: run}, DailyStats(s, input))
	collectMu.Lock()
	delete(collected, run)
	collectMu.Unlock()
	if _, err := ptest.RunWithMetrics(p); err != nil {
		return 0, err
	}
	collectMu.Lock()
	defer collectMu.Unlock()
	return len(collected[run]), nil
}

func statKey(date *int32, pt *int64) string {
	d, p := "NULL", "NULL"
	if date != nil {
		d = fmt.Sprint(*date)
	}
	if pt != nil {
		p = fmt.Sprint(*pt)
	}
	return d + "|" + p
}

func show(s DailyStat) string {
	f := func(p *float64) string {
		if p == nil {
			return "NULL"
		}
		return fmt.Sprint(*p)
	}
	return fmt.Sprintf("trips=%d passengers=%d avg_distance=%v avg_fare=%v avg_tip_percentage=%s total_revenue=%s",
		s.TotalTrips, s.TotalPassengers, s.AvgDistance, s.AvgFare, f(s.AvgTipPercentage), f(s.TotalRevenue))
}

// compare requires got and want to hold the same groups with identical
// values.
func compare(t *testing.T, got, want map[string]DailyStat) {
	t.Helper()
	var keys []string
	for k := range want {
		keys = append(keys, k)
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	bad := 0
	for _, k := range keys {
		g, gok := got[k]
		w, wok := want[k]
		switch {
		case !gok:
			t.Errorf("group %s missing; want %s", k, show(w))
		case !wok:
			t.Errorf("group %s unexpected: %s", k, show(g))
		case show(g) != show(w):
			t.Errorf("group %s:\n got %s\nwant %s", k, show(g), show(w))
		default:
			continue
		}
		if bad++; bad > 10 {
			t.Fatalf("too many differences")
		}
	}
}

var ctx = context.Background()
