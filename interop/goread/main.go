// Command goread is the interop suite's reader for icebergio.Read: it reads
// a table on prism into a Go struct and prints the rows as JSON lines, keyed
// by the struct's beam tags, for the Python checks to compare with other
// engines' reads of the same table. --row picks the struct:
//
//   - events (default): the Spark-made reads.events (merge-on-read deletes
//     and updates, a widened and an added column)
//   - pyevents: the pyiceberg-made reads.py_events (partitioned, appends, an
//     int widened to long, an added column, copy-on-write deletes and an
//     overwrite)
//   - taxi: our taxi pipeline's table, as its own row type taxi.DailyStat
//   - evolve: internal/cmd/evolvestream's table in its v2 schema
//
// Usage:
//
//	goread --catalog_uri=http://127.0.0.1:8181 --table=reads.events [--row=events] [--filter="id < 100"] [--snapshot_id=N]
//
// With --changes=N it reads with icebergio.ReadChanges in RowChanges mode
// instead: the row-level changes of the table's first N snapshots (replace
// snapshots not counted) into ChangeEvent (or --row), each line with the
// change metadata (_change_type, _change_ordinal, _commit_snapshot_id,
// _commit_timestamp), for interop/tests/test_changelog.py.
//
// With --sum=COLUMN it is interop/bench-read.sh's scan instead: it reads the
// table's Arrow record batches with icebergio.ReadRecords (every column, or
// --columns), counts the rows and sums COLUMN, and prints one JSON object
// {"rows": N, "sum": S}. Each batch is decoded, tallied and dropped in the
// workers, as a consumer would, without holding the table in memory.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"reflect"
	"runtime/pprof"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/internal/evolve"
	"github.com/icebeam/icebeam/internal/launch"
	"github.com/icebeam/icebeam/transforms/icebergio"
	"github.com/icebeam/icebeam/transforms/taxi"
)

// Event is a row of reads.events, its current schema.
type Event struct {
	ID     int64    `beam:"id"`
	User   *string  `beam:"user"`
	Amount *float64 `beam:"amount"`
	Day    *int32   `beam:"day" iceberg:"date"`
	Note   *string  `beam:"note"`
}

// PyEvent is a row of reads.py_events, its current schema; ts and day are
// microseconds and days since the epoch.
type PyEvent struct {
	ID       int64    `beam:"id"`
	Category *string  `beam:"category"`
	Qty      *int64   `beam:"qty"`
	Amount   *float64 `beam:"amount"`
	TS       *int64   `beam:"ts" iceberg:"timestamp"`
	Day      *int32   `beam:"day" iceberg:"date"`
	Note     *string  `beam:"note"`
}

// ChangeEvent is a row-level change of the tables of
// interop/tests/test_changelog.py.
type ChangeEvent struct {
	ID         int64   `beam:"id"`
	V          *string `beam:"v"`
	N          *int64  `beam:"n"`
	Kind       string  `beam:"_change_type"`
	Ordinal    int64   `beam:"_change_ordinal"`
	SnapshotID int64   `beam:"_commit_snapshot_id"`
	CommitTime int64   `beam:"_commit_timestamp"`
}

// AccountChange is a row-level change of pipelines/cdc's accounts table.
type AccountChange struct {
	LSN          int64  `beam:"lsn"`
	ID           int64  `beam:"id"`
	Owner        string `beam:"owner"`
	BalanceCents int64  `beam:"balance_cents"`
	UpdatedAt    int64  `beam:"updated_at" iceberg:"timestamp"`
	Kind         string `beam:"_change_type"`
	Ordinal      int64  `beam:"_change_ordinal"`
	SnapshotID   int64  `beam:"_commit_snapshot_id"`
	CommitTime   int64  `beam:"_commit_timestamp"`
}

var rowTypes = map[string]reflect.Type{
	"changes":         reflect.TypeFor[ChangeEvent](),
	"account_changes": reflect.TypeFor[AccountChange](),
	"events":          reflect.TypeFor[Event](),
	"pyevents":        reflect.TypeFor[PyEvent](),
	"taxi":            reflect.TypeFor[taxi.DailyStat](),
	"evolve":          reflect.TypeFor[evolve.ClickV2](),
}

var (
	mu   sync.Mutex
	rows []any
)

// collect gathers rows in this process: prism runs the workers here.
func collect(row beam.X) {
	mu.Lock()
	defer mu.Unlock()
	rows = append(rows, row)
}

// jsonValue is v with structs as objects keyed by their beam tags, so that
// any row type prints with its column names.
func jsonValue(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return jsonValue(v.Elem())
	case reflect.Struct:
		m := map[string]any{}
		for i := 0; i < v.NumField(); i++ {
			if tag := v.Type().Field(i).Tag.Get("beam"); tag != "" {
				m[tag] = jsonValue(v.Field(i))
			}
		}
		return m
	}
	return v.Interface()
}

// Tally is a --sum scan's result: rows counted and the column's sum.
type Tally struct {
	Rows int64
	Sum  float64
}

// sumFn tallies each of ReadRecords' batches. It emits the tallies for a
// combine instead of adding them up in place: a stage without outputs
// makes prism (Beam 2.77) spin a core for as long as its bundles run.
type sumFn struct {
	Column string
}

func (f *sumFn) ProcessElement(b []byte, emit func(Tally)) error {
	rec, err := icebergio.DecodeRecords(b)
	if err != nil {
		return err
	}
	defer rec.Release()
	idx := rec.Schema().FieldIndices(f.Column)
	if len(idx) != 1 {
		return fmt.Errorf("goread: batch has no column %q (schema %v)", f.Column, rec.Schema())
	}
	t := Tally{Rows: rec.NumRows()}
	switch col := rec.Column(idx[0]).(type) {
	case *array.Float64:
		for i, v := range col.Float64Values() {
			if col.IsValid(i) {
				t.Sum += v
			}
		}
	case *array.Int64:
		for i, v := range col.Int64Values() {
			if col.IsValid(i) {
				t.Sum += float64(v)
			}
		}
	case *array.Int32:
		for i, v := range col.Int32Values() {
			if col.IsValid(i) {
				t.Sum += float64(v)
			}
		}
	default:
		return fmt.Errorf("goread: --sum column %q is %v, not a number", f.Column, col.DataType())
	}
	emit(t)
	return nil
}

func addTallies(a, b Tally) Tally { return Tally{a.Rows + b.Rows, a.Sum + b.Sum} }

var total Tally

func collectTally(t Tally) { total = t }

func init() {
	register.Function1x0(collect)
	register.DoFn2x1[[]byte, func(Tally), error](&sumFn{})
	register.Emitter1[Tally]()
	register.Function2x1(addTallies)
	register.Function1x0(collectTally)
	beam.RegisterType(reflect.TypeFor[Tally]())
	for _, t := range rowTypes {
		beam.RegisterType(t)
	}
}

func main() {
	var cfg catalog.Config
	cfg.RegisterFlags(flag.CommandLine)
	name := flag.String("table", "reads.events", "table to read, namespace.table")
	filter := flag.String("filter", "", "icebergio.ReadConfig.Filter")
	snapshot := flag.Int64("snapshot_id", 0, "read this snapshot (time travel)")
	rowName := flag.String("row", "events", "row struct: events, pyevents, taxi, evolve, or with --changes: changes (default) or account_changes")
	changes := flag.Int("changes", 0, "stream the row-level changes of the first N snapshots (ReadChanges, RowChanges mode)")
	sum := flag.String("sum", "", "scan with ReadRecords, count rows and sum this column (bench-read.sh)")
	columns := flag.String("columns", "", "with --sum: comma-separated columns to read (default all)")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the run (workers included: prism runs them here) to this file")
	launch.Parse()
	beam.Init()
	launch.ConfigureRunner()
	ctx := context.Background()
	p, s := beam.NewPipelineWithRoot()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			launch.Fatalf("goread: %v", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			launch.Fatalf("goread: %v", err)
		}
		defer pprof.StopCPUProfile()
	}
	if *sum != "" {
		read := icebergio.ReadConfig{Catalog: cfg, Table: *name, Filter: *filter, SnapshotID: *snapshot}
		if *columns != "" {
			read.Columns = strings.Split(*columns, ",")
		}
		tallies := beam.ParDo(s, &sumFn{Column: *sum}, icebergio.ReadRecords(s, read))
		beam.ParDo0(s, collectTally, beam.Combine(s, addTallies, tallies))
		if err := beamx.Run(ctx, p); err != nil {
			launch.Fatalf("goread: %v", err)
		}
		out, _ := json.Marshal(map[string]any{"rows": total.Rows, "sum": total.Sum})
		fmt.Println(string(out))
		return
	}
	if *changes > 0 && !isFlagSet("row") {
		*rowName = "changes"
	}
	rowType, ok := rowTypes[*rowName]
	if !ok {
		launch.Fatalf("goread: unknown --row=%s", *rowName)
	}
	if *changes > 0 {
		// A bound, should the stream not reach N snapshots.
		stop := time.Now().Add(3 * time.Minute)
		beam.ParDo0(s, collect, icebergio.ReadChanges(s, icebergio.ChangesConfig{Catalog: cfg, Table: *name, Filter: *filter,
			Mode: icebergio.RowChanges, MaxSnapshots: *changes, PollInterval: 200 * time.Millisecond, StopAt: stop}, rowType))
	} else {
		read := icebergio.ReadConfig{Catalog: cfg, Table: *name, Filter: *filter, SnapshotID: *snapshot}
		if err := icebergio.CheckRead(ctx, read, rowType); err != nil {
			launch.Fatalf("goread: %v", err)
		}
		beam.ParDo0(s, collect, icebergio.Read(s, read, rowType))
	}
	if err := beamx.Run(ctx, p); err != nil {
		launch.Fatalf("goread: %v", err)
	}
	out := json.NewEncoder(os.Stdout)
	for _, r := range rows {
		if err := out.Encode(jsonValue(reflect.ValueOf(r))); err != nil {
			launch.Fatalf("goread: %v", err)
		}
	}
	fmt.Fprintf(os.Stderr, "goread: %d rows\n", len(rows))
}

func isFlagSet(name string) bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
