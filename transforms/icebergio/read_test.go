package icebergio

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/transforms/icebergio/internal/rowcodec"
)

var (
	rowsMu  sync.Mutex
	rowsGot = map[string][]any{}
)

// collectAnyFn gathers rows in the test process (prism runs loopback).
type collectAnyFn struct{ Key string }

func (f *collectAnyFn) ProcessElement(row beam.X) {
	rowsMu.Lock()
	defer rowsMu.Unlock()
	rowsGot[f.Key] = append(rowsGot[f.Key], row)
}

func init() {
	register.DoFn1x0[beam.X](&collectAnyFn{})
	for _, t := range []any{allTypesExported{}, point{}, single{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
}

// collectRows gathers col's elements, as T, once the pipeline has run.
func collectRows[T any](s beam.Scope, col beam.PCollection) func() []T {
	key := fmt.Sprint("rows-", collectSeq.Add(1))
	beam.ParDo0(s, &collectAnyFn{Key: key}, col)
	return func() []T {
		rowsMu.Lock()
		defer rowsMu.Unlock()
		var out []T
		for _, r := range rowsGot[key] {
			out = append(out, r.(T))
		}
		delete(rowsGot, key)
		return out
	}
}

// runRead reads cfg into rows of type T on prism and returns them with the
// icebergio counters.
func runRead[T any](t *testing.T, cfg ReadConfig) ([]T, map[string]int64) {
	t.Helper()
	p, s := beam.NewPipelineWithRoot()
	got := collectRows[T](s, Read(s, cfg, reflect.TypeFor[T]()))
	pr, err := ptest.RunWithMetrics(p)
	require.NoError(t, err)
	counters := map[string]int64{}
	for _, c := range pr.Metrics().AllMetrics().Counters() {
		if c.Namespace() == "icebergio" {
			counters[c.Name()] += c.Result()
		}
	}
	return got(), counters
}

func sortBy[T any](rows []T, key func(T) string) []T {
	rows = slices.Clone(rows)
	sort.SliceStable(rows, func(i, j int) bool { return key(rows[i]) < key(rows[j]) })
	return rows
}

func tripKey(r tripV1) string { return fmt.Sprintf("%d|%s|%08d|%s", r.Day, r.Payment, r.Trips, r.Note) }

// The sink writes, Read reads back the same multiset of rows.
func TestReadEqualsWritten(t *testing.T) {
	cat := launch(t)
	rows := tripsV1(3000)
	runWrite(t, Config{Catalog: cat, Table: "read.trips", PartitionBy: []string{"payment_type"}}, rows)
	runWrite(t, Config{Catalog: cat, Table: "read.trips"}, rows[:100])

	got, m := runRead[tripV1](t, ReadConfig{Catalog: cat, Table: "read.trips"})
	want := append(slices.Clone(rows), rows[:100]...)
	require.Equal(t, sortBy(want, tripKey), sortBy(got, tripKey))
	require.EqualValues(t, 3100, m["read_rows"])
	require.EqualValues(t, 4, m["read_files_planned"], "two partitions, written twice")

	// Rows as pointers.
	ptrs, _ := runRead[*tripV1](t, ReadConfig{Catalog: cat, Table: "read.trips", Filter: "trips < 3"})
	var deref []tripV1
	for _, p := range ptrs {
		deref = append(deref, *p)
	}
	require.Equal(t, sortBy(append(slices.Clone(rows[:3]), rows[:3]...), tripKey), sortBy(deref, tripKey))

	// A table without a snapshot reads as empty.
	createEventsTable(t, openCat(t, cat), "read.empty", nil)
	empty, m := runRead[event](t, ReadConfig{Catalog: cat, Table: "read.empty"})
	require.Empty(t, empty)
	require.Zero(t, m["read_files_planned"])
}

// Every type the sink writes reads back into the same struct: pointers,
// nested structs, lists of structs and of pointers, binary, dates and
// timestamps, a pointer-shaped struct.
func TestReadAllTypes(t *testing.T) {
	cfg := Config{Catalog: launch(t), Table: "types.all"}
	s := newTestSink[allTypes](t, cfg)
	rows := allTypesRows(1000)
	_, err := s.commit(context.Background(), "types.all", chunksOf(t, s, rows, 300), nil)
	require.NoError(t, err)

	// Beam cannot encode a type with unexported fields (allTypes.skip):
	// read into the same struct without it.
	read, _ := runRead[allTypesExported](t, ReadConfig{Catalog: cfg.Catalog, Table: "types.all"})
	var got []allTypes
	for _, r := range read {
		got = append(got, *(*allTypes)(unsafe.Pointer(&r))) // same layout
	}
	slices.SortFunc(got, func(a, b allTypes) int { return int(a.ID - b.ID) })
	require.Equal(t, normalize(rows), normalize(got))

	ss := newTestSink[single](t, Config{Catalog: cfg.Catalog, Table: "types.single"})
	_, err = ss.commit(context.Background(), "types.single", chunksOf(t, ss, []single{{V: ptr(int64(5))}, {}, {V: ptr(int64(-1))}}, 2), nil)
	require.NoError(t, err)
	gotSingle, _ := runRead[single](t, ReadConfig{Catalog: cfg.Catalog, Table: "types.single"})
	var vals []string
	for _, g := range gotSingle {
		if g.V == nil {
			vals = append(vals, "nil")
		} else {
			vals = append(vals, fmt.Sprint(*g.V))
		}
	}
	slices.Sort(vals)
	require.Equal(t, []string{"-1", "5", "nil"}, vals)
}

// allTypesExported is allTypes with an exported last field, which Beam can
// encode; it has allTypes' layout.
type allTypesExported struct {
	ID   int64   `beam:"id"`
	S    string  `beam:"s"`
	I32  int32   `beam:"i32"`
	I16  int16   `beam:"i16"`
	I    int     `beam:"i"`
	U32  uint32  `beam:"u32"`
	F32  float32 `beam:"f32"`
	F64  float64 `beam:"f64"`
	B    bool    `beam:"b"`
	Bin  []byte  `beam:"bin"`
	Day  int32   `beam:"day" iceberg:"date"`
	TS   int64   `beam:"ts" iceberg:"timestamp"`
	TSZ  int64   `beam:"tsz" iceberg:"timestamptz"`
	OptS *string `beam:"opt_s"`
	OptI *int64  `beam:"opt_i"`
	OptD *int32  `beam:"opt_d" iceberg:"date"`
	P    point   `beam:"p"`
	OptP *point  `beam:"opt_p"`
	L    []int64 `beam:"l"`
	LS   []string
	LP   []point  `beam:"lp"`
	LO   []*int32 `beam:"lo"`
	Skip int      `beam:"-"`
}

// event is the row of tables the tests write with iceberg-go directly.
type event struct {
	ID     int64  `beam:"id"`
	User   string `beam:"user"`
	Amount int32  `beam:"amount"`
}

func eventFor(i int64) event {
	return event{ID: i, User: fmt.Sprintf("user-%d", i%10), Amount: int32(i % 50)}
}

func eventsFrom(from, to int64, keep func(int64) bool) []event {
	var out []event
	for i := from; i < to; i++ {
		if keep == nil || keep(i) {
			out = append(out, eventFor(i))
		}
	}
	return out
}

func eventKey(e event) string { return fmt.Sprintf("%08d", e.ID) }

// createEventsTable creates an unpartitioned table of events with props.
func createEventsTable(t testing.TB, cat icecatalog.Catalog, name string, props iceberg.Properties) *table.Table {
	t.Helper()
	ctx := context.Background()
	ident, err := parseIdent(name)
	require.NoError(t, err)
	_ = cat.CreateNamespace(ctx, icecatalog.NamespaceFromIdent(ident), nil)
	sc := iceberg.NewSchema(0,
		iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.PrimitiveTypes.Int64, Required: true},
		iceberg.NestedField{ID: 2, Name: "user", Type: iceberg.PrimitiveTypes.String, Required: true},
		iceberg.NestedField{ID: 3, Name: "amount", Type: iceberg.PrimitiveTypes.Int32, Required: true})
	tbl, err := cat.CreateTable(ctx, ident, sc, icecatalog.WithProperties(props))
	require.NoError(t, err)
	return tbl
}

// eventsBatch builds a record batch of events in tbl's current schema.
func eventsBatch(t testTB, tbl *table.Table, rows []event) arrow.RecordBatch {
	t.Helper()
	sc, err := table.SchemaToArrowSchema(tbl.Schema(), nil, true, false)
	require.NoError(t, err)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	for _, r := range rows {
		b.Field(0).(*array.Int64Builder).Append(r.ID)
		b.Field(1).(*array.StringBuilder).Append(r.User)
		b.Field(2).(*array.Int32Builder).Append(r.Amount)
	}
	return b.NewRecordBatch()
}

// appendEvents appends rows in one snapshot written by iceberg-go.
func appendEvents(t testTB, tbl *table.Table, rows []event) *table.Table {
	t.Helper()
	rec := eventsBatch(t, tbl, rows)
	defer rec.Release()
	tx := tbl.NewTransaction()
	rdr, err := array.NewRecordReader(rec.Schema(), []arrow.RecordBatch{rec})
	require.NoError(t, err)
	defer rdr.Release()
	require.NoError(t, tx.Append(context.Background(), rdr, nil))
	tbl, err = tx.Commit(context.Background())
	require.NoError(t, err)
	return tbl
}

func init() { beam.RegisterType(reflect.TypeOf(event{})) }

// Position deletes (merge-on-read) and equality deletes written by
// iceberg-go apply, each to the data files older than itself; the file's
// row groups are read as separate units when no delete applies.
func TestReadDeletes(t *testing.T) {
	ctx := context.Background()
	cfg := launch(t)
	cat := openCat(t, cfg)
	tbl := createEventsTable(t, cat, "del.events", iceberg.Properties{
		table.PropertyFormatVersion: "2", table.WriteDeleteModeKey: table.WriteModeMergeOnRead,
		table.ParquetRowGroupLimitKey: "100",
	})
	tbl = appendEvents(t, tbl, eventsFrom(0, 1000, nil))
	before := tbl.CurrentSnapshot().SnapshotID
	files, err := currentDataFiles(ctx, tbl)
	require.NoError(t, err)
	require.Len(t, files, 1)
	require.Len(t, files[0].SplitOffsets(), 10, "100-row row groups")

	got, m := runRead[event](t, ReadConfig{Catalog: cfg, Table: "del.events"})
	require.Equal(t, eventsFrom(0, 1000, nil), sortBy(got, eventKey))
	require.EqualValues(t, 10, m["read_row_groups"], "each row group a unit of work")

	// Position deletes for [150, 160) and 777.
	tx := tbl.NewTransaction()
	require.NoError(t, tx.Delete(ctx, iceberg.NewOr(
		iceberg.NewAnd(iceberg.GreaterThanEqual(iceberg.Reference("id"), int64(150)), iceberg.LessThan(iceberg.Reference("id"), int64(160))),
		iceberg.EqualTo(iceberg.Reference("id"), int64(777))), nil))
	tbl, err = tx.Commit(ctx)
	require.NoError(t, err)
	// Equality deletes of user-3, then new rows of user-3, which stay.
	tx = tbl.NewTransaction()
	userID := 2
	del := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema([]arrow.Field{{Name: "user", Type: arrow.BinaryTypes.String,
		Metadata: arrow.NewMetadata([]string{table.ArrowParquetFieldIDKey}, []string{"2"})}}, nil))
	del.Field(0).(*array.StringBuilder).Append("user-3")
	delRec := del.NewRecordBatch()
	require.NoError(t, tx.CommitEqualityDeletes(ctx, []int{userID}, func(yield func(arrow.RecordBatch, error) bool) { yield(delRec, nil) }, nil))
	tbl, err = tx.Commit(ctx)
	require.NoError(t, err)
	tbl = appendEvents(t, tbl, eventsFrom(1000, 1100, nil))

	rs, err := rowcodec.New(reflect.TypeFor[event]())
	require.NoError(t, err)
	p, err := planRead(ctx, cat, ReadConfig{Catalog: cfg, Table: "del.events"}, rs)
	require.NoError(t, err)
	var pos, eq int
	for _, task := range p.tasks {
		pos += len(task.PosDeletes)
		eq += len(task.EqDeletes)
	}
	require.Equal(t, 1, pos, "the old file has a position delete file")
	require.Equal(t, 1, eq, "the old file has an equality delete file, the new one none")

	want := eventsFrom(0, 1100, func(i int64) bool {
		return !(i >= 150 && i < 160) && i != 777 && !(i < 1000 && i%10 == 3)
	})
	got, m = runRead[event](t, ReadConfig{Catalog: cfg, Table: "del.events"})
	require.Equal(t, want, sortBy(got, eventKey))
	require.EqualValues(t, len(want), m["read_rows"])

	// With a filter, and at the snapshot before the deletes.
	got, _ = runRead[event](t, ReadConfig{Catalog: cfg, Table: "del.events", Filter: "amount < 5 AND id < 800"})
	require.Equal(t, eventsFrom(0, 800, func(i int64) bool {
		return i%50 < 5 && !(i >= 150 && i < 160) && i != 777 && i%10 != 3
	}), sortBy(got, eventKey))
	got, _ = runRead[event](t, ReadConfig{Catalog: cfg, Table: "del.events", SnapshotID: before})
	require.Equal(t, eventsFrom(0, 1000, nil), sortBy(got, eventKey))
}

// tripDays is a projection of the trips tables: two of their four columns.
type tripDays struct {
	Day   int32 `beam:"trip_date" iceberg:"date"`
	Trips int32 `beam:"trips"`
}

func init() { beam.RegisterType(reflect.TypeOf(tripDays{})) }

// Projection reads only the struct's (or Columns') columns; the filter
// prunes partitions and, from column statistics, files; the rows that
// remain are filtered exactly.
func TestReadProjectionAndFilter(t *testing.T) {
	ctx := context.Background()
	cfg := launch(t)
	rows := tripsV1(1000) // Trips = i
	// Four appends of disjoint trips ranges: one file each, with min/max.
	for k := 0; k < 4; k++ {
		runWrite(t, Config{Catalog: cfg, Table: "proj.trips"}, rows[k*250:(k+1)*250])
	}
	rs, err := rowcodec.New(reflect.TypeFor[tripDays]())
	require.NoError(t, err)
	p, err := planRead(ctx, openCat(t, cfg), ReadConfig{Catalog: cfg, Table: "proj.trips"}, rs)
	require.NoError(t, err)
	require.Equal(t, []string{"trip_date", "trips"}, p.columns, "only the struct's columns are read")

	got, m := runRead[tripDays](t, ReadConfig{Catalog: cfg, Table: "proj.trips", Filter: "trips < 100"})
	var want []tripDays
	for _, r := range rows[:100] {
		want = append(want, tripDays{Day: r.Day, Trips: r.Trips})
	}
	key := func(r tripDays) string { return fmt.Sprintf("%08d", r.Trips) }
	require.Equal(t, want, sortBy(got, key))
	require.EqualValues(t, 1, m["read_files_planned"], "column statistics prune three of four files")

	day := time.Unix(20002*86400, 0).UTC().Format(time.DateOnly)
	got, m = runRead[tripDays](t, ReadConfig{Catalog: cfg, Table: "proj.trips", Filter: "trips BETWEEN 240 AND 259 AND trip_date >= '" + day + "'"})
	want = nil
	for _, r := range rows[240:260] {
		if r.Day >= 20002 {
			want = append(want, tripDays{Day: r.Day, Trips: r.Trips})
		}
	}
	require.Equal(t, want, sortBy(got, key))
	require.EqualValues(t, 2, m["read_files_planned"])

	// Columns narrows the struct's columns: the others stay zero.
	full, _ := runRead[tripV1](t, ReadConfig{Catalog: cfg, Table: "proj.trips", Columns: []string{"trips"}, Filter: "payment_type = 'cash'"})
	var wantFull []tripV1
	for _, r := range rows {
		if r.Payment == "cash" {
			wantFull = append(wantFull, tripV1{Trips: r.Trips})
		}
	}
	require.Equal(t, wantFull, sortBy(full, tripKey), "the filter's column need not be read")

	// Partition pruning.
	runWrite(t, Config{Catalog: cfg, Table: "proj.by_payment", PartitionBy: []string{"payment_type"}}, rows)
	got2, m := runRead[tripV1](t, ReadConfig{Catalog: cfg, Table: "proj.by_payment", Filter: "payment_type = 'cash' AND trips < 10"})
	require.Equal(t, []tripV1{rows[1], rows[3], rows[5], rows[7], rows[9]}, sortBy(got2, tripKey))
	require.EqualValues(t, 1, m["read_files_planned"], "one partition of two")
}

// Time travel: a snapshot id, a tag (with the snapshot's rows), a branch
// (main's rows and its own), and the snapshot current at a time.
func TestReadTimeTravel(t *testing.T) {
	ctx := context.Background()
	cfg := launch(t)
	cat := openCat(t, cfg)
	tbl := createEventsTable(t, cat, "tt.events", nil)
	var snaps []table.Snapshot
	for k := int64(0); k < 3; k++ {
		tbl = appendEvents(t, tbl, eventsFrom(k*100, (k+1)*100, nil))
		snaps = append(snaps, *tbl.CurrentSnapshot())
		time.Sleep(20 * time.Millisecond)
	}
	// A tag on the second snapshot, a branch from the third with more rows.
	_, _, err := cat.CommitTable(ctx, tbl.Identifier(), nil, []table.Update{
		table.NewSetSnapshotRefUpdate("v2", snaps[1].SnapshotID, table.TagRef, -1, -1, -1)})
	require.NoError(t, err)
	tbl = loadTable(t, cat, "tt.events")
	rec := eventsBatch(t, tbl, eventsFrom(1000, 1010, nil))
	tx := tbl.NewTransactionOnBranch("dev")
	rdr, err := array.NewRecordReader(rec.Schema(), []arrow.RecordBatch{rec})
	require.NoError(t, err)
	require.NoError(t, tx.Append(ctx, rdr, nil))
	_, err = tx.Commit(ctx)
	require.NoError(t, err)

	read := func(rc ReadConfig) []event {
		rc.Catalog, rc.Table = cfg, "tt.events"
		got, _ := runRead[event](t, rc)
		return sortBy(got, eventKey)
	}
	require.Equal(t, eventsFrom(0, 100, nil), read(ReadConfig{SnapshotID: snaps[0].SnapshotID}))
	require.Equal(t, eventsFrom(0, 200, nil), read(ReadConfig{Ref: "v2"}))
	require.Equal(t, append(eventsFrom(0, 300, nil), eventsFrom(1000, 1010, nil)...), read(ReadConfig{Ref: "dev"}))
	require.Equal(t, eventsFrom(0, 300, nil), read(ReadConfig{}))
	require.Equal(t, eventsFrom(0, 300, nil), read(ReadConfig{Ref: "main"}))
	between := time.UnixMilli(snaps[1].TimestampMs + 1)
	require.Less(t, between.UnixMilli(), snaps[2].TimestampMs)
	require.Equal(t, eventsFrom(0, 200, nil), read(ReadConfig{AsOf: between}))
	require.Equal(t, eventsFrom(0, 100, nil), read(ReadConfig{AsOf: time.UnixMilli(snaps[0].TimestampMs)}))

	// What cannot be read fails at planning.
	rt := reflect.TypeFor[event]()
	require.ErrorContains(t, CheckRead(ctx, ReadConfig{Catalog: cfg, Table: "tt.events", AsOf: time.UnixMilli(snaps[0].TimestampMs - 1000)}, rt),
		"table tt.events had no snapshot at")
	require.ErrorContains(t, CheckRead(ctx, ReadConfig{Catalog: cfg, Table: "tt.events", SnapshotID: 42}, rt), "table tt.events has no snapshot 42")
	require.ErrorContains(t, CheckRead(ctx, ReadConfig{Catalog: cfg, Table: "tt.events", Ref: "nope"}, rt), `table tt.events has no branch or tag "nope"`)
	require.Panics(t, func() {
		Read(beam.NewPipeline().Root(), ReadConfig{Catalog: cfg, Table: "tt.events", Ref: "dev", SnapshotID: 1}, rt)
	})
}

// evoEvent reads events after their schema evolved: amount became a long,
// note was added, extra never existed.
type evoEvent struct {
	ID     int64    `beam:"id"`
	User   string   `beam:"user"`
	Amount int64    `beam:"amount"`
	Note   *string  `beam:"note"`
	Extra  *float64 `beam:"extra"`
}

type (
	needsExtra struct {
		ID    int64   `beam:"id"`
		Extra float64 `beam:"extra"`
	}
	narrowAmount struct {
		Amount int32 `beam:"amount"`
	}
	requiredNote struct {
		ID   int64  `beam:"id"`
		Note string `beam:"note"`
	}
)

func init() {
	for _, t := range []any{evoEvent{}, needsExtra{}, narrowAmount{}, requiredNote{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
}

func evoFor(i int64) evoEvent {
	e := eventFor(i)
	r := evoEvent{ID: e.ID, User: e.User, Amount: int64(e.Amount)}
	if i >= 100 {
		r.Amount = i * 10_000_000_000 // needs a long
		if i%2 == 0 {
			r.Note = ptr(fmt.Sprint("n", i))
		}
	}
	return r
}

// A table whose schema evolved (a column added, int promoted to long)
// reads into one struct: old files give nulls for the new column and widen
// the promoted one; time travel reads the old schema.
func TestReadSchemaEvolution(t *testing.T) {
	ctx := context.Background()
	cfg := launch(t)
	cat := openCat(t, cfg)
	tbl := createEventsTable(t, cat, "evo.events", nil)
	tbl = appendEvents(t, tbl, eventsFrom(0, 100, nil))
	first := tbl.CurrentSnapshot().SnapshotID

	tx := tbl.NewTransaction()
	require.NoError(t, tx.UpdateSchema(true, false).
		AddColumn([]string{"note"}, iceberg.PrimitiveTypes.String, "", false, nil).
		UpdateColumn([]string{"amount"}, table.ColumnUpdate{FieldType: iceberg.Optional[iceberg.Type]{Valid: true, Val: iceberg.PrimitiveTypes.Int64}}).
		Commit())
	tbl, err := tx.Commit(ctx)
	require.NoError(t, err)
	sc, err := table.SchemaToArrowSchema(tbl.Schema(), nil, true, false)
	require.NoError(t, err)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	for i := int64(100); i < 200; i++ {
		r := evoFor(i)
		b.Field(0).(*array.Int64Builder).Append(r.ID)
		b.Field(1).(*array.StringBuilder).Append(r.User)
		b.Field(2).(*array.Int64Builder).Append(r.Amount)
		if r.Note != nil {
			b.Field(3).(*array.StringBuilder).Append(*r.Note)
		} else {
			b.Field(3).AppendNull()
		}
	}
	rec := b.NewRecordBatch()
	tx = tbl.NewTransaction()
	rdr, err := array.NewRecordReader(sc, []arrow.RecordBatch{rec})
	require.NoError(t, err)
	require.NoError(t, tx.Append(ctx, rdr, nil))
	_, err = tx.Commit(ctx)
	require.NoError(t, err)

	var want []evoEvent
	for i := int64(0); i < 200; i++ {
		want = append(want, evoFor(i))
	}
	key := func(e evoEvent) string { return fmt.Sprintf("%08d", e.ID) }
	got, _ := runRead[evoEvent](t, ReadConfig{Catalog: cfg, Table: "evo.events"})
	require.Equal(t, want, sortBy(got, key))
	got, _ = runRead[evoEvent](t, ReadConfig{Catalog: cfg, Table: "evo.events", SnapshotID: first})
	require.Equal(t, want[:100], sortBy(got, key), "the first snapshot, in its own schema")

	// Structs that do not fit fail at planning, naming table, column and
	// types; nulls for a non-pointer field fail when they are read.
	check := func(rt reflect.Type) error {
		return CheckRead(ctx, ReadConfig{Catalog: cfg, Table: "evo.events"}, rt)
	}
	require.ErrorContains(t, check(reflect.TypeFor[needsExtra]()),
		`icebergio: table evo.events has no column "extra" for field icebergio.needsExtra.Extra (float64); make the field a pointer to read it as nil`)
	require.ErrorContains(t, check(reflect.TypeFor[narrowAmount]()),
		"icebergio: table evo.events: column amount is long, which field icebergio.narrowAmount.Amount (int32) cannot hold")
	require.NoError(t, CheckRead(ctx, ReadConfig{Catalog: cfg, Table: "evo.events", SnapshotID: first}, reflect.TypeFor[narrowAmount]()),
		"the first snapshot's amount is an int")
	require.NoError(t, check(reflect.TypeFor[requiredNote]()))
	require.ErrorContains(t, CheckRead(ctx, ReadConfig{Catalog: cfg, Table: "evo.events", Filter: "nope = 1"}, reflect.TypeFor[evoEvent]()),
		`icebergio: table evo.events: filter "nope = 1": `)

	p, s := beam.NewPipelineWithRoot()
	Read(s, ReadConfig{Catalog: cfg, Table: "evo.events"}, reflect.TypeFor[needsExtra]())
	require.ErrorContains(t, ptest.Run(p), `table evo.events has no column "extra"`)
	p, s = beam.NewPipelineWithRoot()
	Read(s, ReadConfig{Catalog: cfg, Table: "evo.events"}, reflect.TypeFor[requiredNote]())
	err = ptest.Run(p)
	require.ErrorContains(t, err, "icebergio: table evo.events: reading ")
	require.ErrorContains(t, err, "which field icebergio.requiredNote.Note (string) cannot hold; make the field a pointer")
}

// ReadRecords emits Arrow record batches (as IPC) of the selected columns,
// deletes applied.
func TestReadRecords(t *testing.T) {
	ctx := context.Background()
	cfg := launch(t)
	cat := openCat(t, cfg)
	tbl := createEventsTable(t, cat, "rec.events", iceberg.Properties{table.PropertyFormatVersion: "2",
		table.WriteDeleteModeKey: table.WriteModeMergeOnRead, table.ParquetRowGroupLimitKey: "64"})
	tbl = appendEvents(t, tbl, eventsFrom(0, 500, nil))
	tx := tbl.NewTransaction()
	require.NoError(t, tx.Delete(ctx, iceberg.EqualTo(iceberg.Reference("id"), int64(42)), nil))
	_, err := tx.Commit(ctx)
	require.NoError(t, err)

	p, s := beam.NewPipelineWithRoot()
	got := collectRows[[]byte](s, ReadRecords(s, ReadConfig{Catalog: cfg, Table: "rec.events", Columns: []string{"id"}, Filter: "amount < 10"}))
	require.NoError(t, ptest.Run(p))
	var ids []int64
	for _, b := range got() {
		rec, err := DecodeRecords(b)
		require.NoError(t, err)
		require.Equal(t, []string{"id"}, []string{rec.Schema().Field(0).Name})
		require.EqualValues(t, 1, rec.NumCols())
		ids = append(ids, rec.Column(0).(*array.Int64).Int64Values()...)
		rec.Release()
	}
	slices.Sort(ids)
	var want []int64
	for _, e := range eventsFrom(0, 500, func(i int64) bool { return i%50 < 10 && i != 42 }) {
		want = append(want, e.ID)
	}
	require.Equal(t, want, ids)
}
