package kafkaiceberg

import (
	"context"
	"errors"
	"fmt"
	"log"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	icecatalog "github.com/apache/iceberg-go/catalog"

	"github.com/icebeam/icebeam/transforms/debezium"
	"github.com/icebeam/icebeam/transforms/icebergio"
	"github.com/icebeam/icebeam/transforms/internal/batches"
	"github.com/icebeam/icebeam/transforms/kafkaio"
)

// The op and order columns of Debezium's batches (debezium.Options),
// icebergio's Config.Op and Config.Order: not written to the tables.
const (
	OpColumn    = "__op"
	OrderColumn = "__order"
)

func init() {
	register.DoFn3x1[context.Context, kafkaio.Record, func(string, []byte), error](&debeziumFn{})
}

// debeziumFlushEvents is how many change events the decode step gathers
// before it sends their batches on, besides at the end of each bundle.
const debeziumFlushEvents = 1 << 16

// debeziumFn turns Debezium change events into batches of changes of
// their tables (icebergio's Changes mode: the row, its op and its order in
// the source's log), each tagged with the offsets it covers, and events
// that cannot be applied into rows of the rejected table. An event below
// the offsets its table held when the job started has landed before, and
// is dropped.
//
// A table's batches must have the columns the job's sink of the table
// declares (Table.Schema, the newest schema the topic held when the job
// was planned). Columns the events lack (dropped in the source, or not
// there yet in older events) land as nulls; a column of another type
// rejects its events, with the reason. A column the source added after
// the job started fails the job, with the reason, before any of its
// table's events of that schema is decoded: started again, the job takes
// the new schema (Plan reads the newest events) and its first commit to
// the table adds the column.
//
// With TransactionTopic (Config.TransactionTopic) the batches of keyed
// tables go to the gate (txgate.go) instead, each of one partition and
// with its events' transactions, and so do the ENDs of the transaction
// topic.
type debeziumFn struct {
	Tables           []Table
	Rejected         Table
	Unplanned        map[string]string // Config.Unplanned
	TransactionTopic string

	byTopic  map[string]*dest
	bySource map[string]*dest
	declared map[*arrow.Schema]bool // batch schemas checked against their table's
	rejected *dest
	dec      *debezium.Decoder
	probe    *debezium.Decoder // for events landed before: would they be rejected?
	events   int
	// added is why the job must start again: a source table added a
	// column its table, as the job writes it, lacks.
	added error
	// The gate's: the tables its ENDs count events of, by the name the
	// transaction topic gives them, and the partition of the events
	// decoded since the last flush.
	byCollection map[string]*dest
	part         string
}

func (f *debeziumFn) Setup() error {
	f.byTopic, f.bySource = map[string]*dest{}, map[string]*dest{}
	for _, t := range f.Tables {
		d, err := newDest(t)
		if err != nil {
			return err
		}
		f.byTopic[t.Topic] = d
		f.bySource[t.Source] = d
	}
	f.byCollection = map[string]*dest{}
	for _, d := range f.byTopic {
		if f.gated(d) {
			f.byCollection[d.t.Collection] = d
		}
	}
	var err error
	if f.rejected, err = newDest(f.Rejected); err != nil {
		return err
	}
	f.rejected.rows = newRowDecoder(f.Rejected.Name, f.rejected.schema, false)
	f.declared = map[*arrow.Schema]bool{}
	f.dec = debezium.NewDecoder(f.options())
	f.probe = debezium.NewDecoder(f.options())
	return nil
}

func (f *debeziumFn) options() debezium.Options {
	o := debezium.Options{OpColumn: OpColumn, OrderColumn: OrderColumn, Accept: f.accept}
	if slices.ContainsFunc(f.Tables, Table.appendOnly) {
		o.Refuse = f.refuse
	}
	return o
}

// refuse sends the changes of existing rows of a table without a primary
// key to the rejected table: its table is append-only (there is no key to
// find the row by), and applying them as inserts would land rows the
// source no longer has.
func (f *debeziumFn) refuse(t debezium.Table, op debezium.Op) error {
	d := f.bySource[t.String()]
	if d == nil || !d.t.appendOnly() || op == debezium.OpCreate || op == debezium.OpRead {
		return nil
	}
	what := map[debezium.Op]string{debezium.OpUpdate: "an update", debezium.OpDelete: "a delete", debezium.OpTruncate: "a truncate"}[op]
	return fmt.Errorf("%s (op %c) of a table without a primary key: table %s takes its inserts only (no key to find a row by), so the change is not applied", what, op, d.t.Name)
}

// appendOnly says the table is of a Debezium topic whose source table has
// no primary key: its inserts and snapshot rows are appended, without the
// op column (every row an insert).
func (t Table) appendOnly() bool { return t.Source != "" && len(t.Key) == 0 }

// withoutColumn is rec without column name (rec itself when it has none);
// the caller releases both.
func withoutColumn(rec arrow.RecordBatch, name string) arrow.RecordBatch {
	i := rec.Schema().FieldIndices(name)
	if len(i) != 1 {
		rec.Retain()
		return rec
	}
	cols := slices.Delete(slices.Clone(rec.Columns()), i[0], i[0]+1)
	return array.NewRecordBatch(withoutField(rec.Schema(), name), cols, rec.NumRows())
}

// withoutField is sc without field name.
func withoutField(sc *arrow.Schema, name string) *arrow.Schema {
	return arrow.NewSchema(slices.DeleteFunc(slices.Clone(sc.Fields()), func(f arrow.Field) bool { return f.Name == name }), nil)
}

// accept says whether the batches of a table's events of schema sc fit
// the table's sink: its columns are the sink's, with their types, and
// those it lacks are optional there.
func (f *debeziumFn) accept(t debezium.Table, sc *arrow.Schema) error {
	d := f.bySource[t.String()]
	if d == nil {
		return fmt.Errorf("table %s is not one this job lands: one source table per topic", t)
	}
	for _, c := range sc.Fields() {
		i := d.schema.FieldIndices(c.Name)
		if len(i) != 1 {
			f.added = fmt.Errorf("kafkaiceberg: table %s: its source %s has column %s (%s), which it did not have when the job started: start the job again to add it to the table (it resumes after what has landed)", d.t.Name, t, c.Name, c.Type)
			return f.added
		}
		if w := d.schema.Field(i[0]); !arrow.TypeEqual(w.Type, c.Type) {
			return fmt.Errorf("column %s is %s in the source and %s in table %s as this job writes it: the source changed it after the job started (start the job again to take it, if it is a widening)", c.Name, c.Type, w.Type, d.t.Name)
		}
	}
	for _, w := range d.schema.Fields() {
		if !sc.HasField(w.Name) && !w.Nullable {
			return fmt.Errorf("required column %s of table %s is not in the source's row", w.Name, d.t.Name)
		}
	}
	return nil
}

// gated says d's batches go to the gate.
func (f *debeziumFn) gated(d *dest) bool {
	return f.TransactionTopic != "" && !d.t.appendOnly()
}

func (f *debeziumFn) ProcessElement(ctx context.Context, r kafkaio.Record, emit func(string, []byte)) error {
	if r.Topic == f.TransactionTopic {
		return f.transaction(r, emit)
	}
	rj := f.rejected
	d, part, land, check := route(f.byTopic, rj, f.Unplanned, r)
	if d == nil {
		return f.flushRejected(emit, false)
	}
	if !land && !check {
		return nil
	}
	if f.TransactionTopic != "" && part != f.part {
		// The gate's batches are of one partition each.
		if err := f.flush(emit); err != nil {
			return err
		}
		f.part = part
	}
	m := debezium.Message{Key: r.Key, Value: r.Value, Where: r.Position(), Offset: r.Offset}
	dec := f.dec
	if !land {
		// Landed in its table before: decoded only to know whether the
		// rejected table, which did not get it yet, must.
		dec = f.probe
	}
	ev, err := dec.Decode(m)
	if f.added != nil {
		// Not a record's fault: every record of the table from here on
		// has the column. The job stops, having landed what came before.
		return f.added
	}
	if land {
		d.cover(part, r.Offset)
		if f.gated(d) {
			d.note(ev, r.Offset, err == nil)
		}
	}
	if check {
		rj.cover(part, r.Offset)
		if err != nil {
			var de *debezium.Error
			why := err.Error()
			if errors.As(err, &de) {
				why = strings.TrimPrefix(why, de.Where+": ")
			}
			rj.reject(r, why)
		}
	}
	if !land {
		for _, b := range f.probe.Flush() {
			if b.Record != nil {
				b.Record.Release()
			}
		}
	}
	if f.events++; f.events >= debeziumFlushEvents {
		if err := f.flush(emit); err != nil {
			return err
		}
	}
	return f.flushRejected(emit, false)
}

func (f *debeziumFn) FinishBundle(ctx context.Context, emit func(string, []byte)) error {
	if err := f.flush(emit); err != nil {
		return err
	}
	return f.flushRejected(emit, true)
}

func (f *debeziumFn) Teardown() {
	if f.dec != nil {
		f.dec.Release()
		f.probe.Release()
	}
}

func (f *debeziumFn) flushRejected(emit func(string, []byte), all bool) error {
	if all || f.rejected.rows.rows() >= jobRecords {
		return f.rejected.flush(emit)
	}
	return nil
}

// flush sends the batches decoded so far on, each table's last one with
// the offsets its events cover (a table's batches travel in order, in
// this bundle), and the offsets alone of tables without a batch.
func (f *debeziumFn) flush(emit func(string, []byte)) error {
	f.events = 0
	batches := f.dec.Flush()
	last := map[*dest]int{}
	for i, b := range batches {
		if d := f.bySource[b.Table.String()]; d != nil {
			last[d] = i
		}
	}
	for i, b := range batches {
		d := f.bySource[b.Table.String()]
		if d == nil {
			// accept refuses other tables' schemas: none of their rows
			// reach a batch.
			return fmt.Errorf("kafkaiceberg: a batch of table %s, which the job does not land", b.Table)
		}
		rec, err := f.dec.Changes(b, d.schema)
		if b.Record != nil {
			b.Record.Release()
		}
		if err != nil {
			return fmt.Errorf("kafkaiceberg: table %s: %w", d.t.Name, err)
		}
		if d.t.appendOnly() {
			all := rec
			rec = withoutColumn(all, OpColumn)
			all.Release()
		}
		if f.gated(d) {
			d.gate = append(d.gate, rec)
			continue
		}
		var ranges map[string]icebergio.SourceRange
		if last[d] == i {
			ranges, d.ranges = d.ranges, nil
		}
		enc, err := icebergio.EncodeRecordsFrom(rec, ranges)
		rec.Release()
		if err != nil {
			return fmt.Errorf("kafkaiceberg: table %s: %w", d.t.Name, err)
		}
		emit(d.t.Name, enc)
	}
	for _, d := range f.byTopic {
		if f.gated(d) {
			if err := d.flushGate(f.part, emit); err != nil {
				return err
			}
			continue
		}
		if err := d.flushRanges(emit); err != nil {
			return err
		}
	}
	return nil
}

// note adds an event of d's batch in the making to its runs: a change
// that made a row or was refused (err), or a tombstone.
func (d *dest) note(ev debezium.Event, offset int64, row bool) {
	n := len(d.runs)
	switch {
	case ev.Tombstone && n > 0:
		return // it follows its delete, in the same run
	case n == 0 || d.runs[n-1].Txn != ev.Transaction:
		d.runs = append(d.runs, run{Txn: ev.Transaction, First: offset})
		n++
	}
	r := &d.runs[n-1]
	if !ev.Tombstone {
		r.Events++
	}
	if row && !ev.Tombstone {
		r.Rows++
	}
}

// flushGate sends d's batches decoded since the last flush, all of
// partition part, to the gate as one item with their runs.
func (d *dest) flushGate(part string, emit func(string, []byte)) error {
	recs := d.gate
	d.gate = nil
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	if len(d.ranges) == 0 {
		return nil
	}
	rng, ok := d.ranges[part]
	if !ok || len(d.ranges) != 1 {
		return fmt.Errorf("kafkaiceberg: table %s: a batch for the gate covers %v, not partition %s alone", d.t.Name, d.ranges, part)
	}
	rec, err := batches.Concat(memory.DefaultAllocator, d.schema, recs)
	if err != nil {
		return fmt.Errorf("kafkaiceberg: table %s: %w", d.t.Name, err)
	}
	defer rec.Release()
	rows := 0
	for _, r := range d.runs {
		rows += r.Rows
	}
	if int64(rows) != rec.NumRows() {
		return fmt.Errorf("kafkaiceberg: table %s: %d rows for the gate, but its events made %d", d.t.Name, rec.NumRows(), rows)
	}
	b, err := icebergio.EncodeRecords(rec)
	if err != nil {
		return err
	}
	it := gateItem{Table: d.t.Name, Part: part, Range: rng, Runs: d.runs, Records: b}
	d.ranges, d.runs = nil, nil
	emit(gateKey, it.encode())
	return nil
}

// transaction sends an END of the transaction topic to the gate, with its
// events by table (of the tables the gate holds batches of), and a record
// that is not a transaction event to the rejected table.
func (f *debeziumFn) transaction(r kafkaio.Record, emit func(string, []byte)) error {
	rj := f.rejected
	part := rj.part(r.Topic, r.Partition)
	ev, err := debezium.DecodeTransaction(r.Value)
	if err != nil {
		if r.Offset >= rj.t.Offsets[part] {
			rj.cover(part, r.Offset)
			rj.reject(r, fmt.Sprintf("%v: not an event of Debezium's transaction topic, so no change waits for it", err))
		}
		return f.flushRejected(emit, false)
	}
	if ev.Status != "END" {
		return nil
	}
	it := gateItem{Part: part, Range: icebergio.SourceRange{First: r.Offset, Last: r.Offset}, Txn: ev.ID, Events: map[string]int64{}}
	for c, n := range ev.Events {
		if d, ok := f.byCollection[c]; ok {
			it.Events[d.t.Name] += n
		}
	}
	emit(gateKey, it.encode())
	return nil
}

// flushRanges sends d's offsets alone, when no batch took them.
func (d *dest) flushRanges(emit func(string, []byte)) error {
	if len(d.ranges) == 0 {
		return nil
	}
	rec := array.NewRecordBatch(d.schema, emptyColumns(d.schema), 0)
	defer rec.Release()
	b, err := icebergio.EncodeRecordsFrom(rec, d.ranges)
	if err != nil {
		return fmt.Errorf("kafkaiceberg: table %s: %w", d.t.Name, err)
	}
	d.ranges = nil
	emit(d.t.Name, b)
	return nil
}

func emptyColumns(sc *arrow.Schema) []arrow.Array {
	cols := make([]arrow.Array, sc.NumFields())
	for i, f := range sc.Fields() {
		cols[i] = array.MakeArrayOfNull(memory.DefaultAllocator, f.Type, 0)
	}
	return cols
}

// planDebezium is the table of a Debezium topic: the source table its
// newest change events are of, their columns (the newest schema the topic
// holds) and key; or, for a topic without a change event (a streaming
// job waits for a first record), why it has none.
func planDebezium(ctx context.Context, cat icecatalog.Catalog, k *kafka, pc PlanConfig, topic string) (t Table, why string, err error) {
	recs, err := k.sample(ctx, topic, pc.SampleRecords, !pc.Read.Bounded, true)
	if err != nil {
		return t, "", err
	}
	dec := debezium.NewDecoder(debezium.Options{OpColumn: OpColumn, OrderColumn: OrderColumn})
	defer dec.Release()
	var (
		src  debezium.Table
		sc   *arrow.Schema
		keys []string
	)
	for _, r := range recs {
		if _, err := dec.Decode(debezium.Message{Key: r.Key, Value: r.Value, Offset: r.Offset,
			Where: fmt.Sprintf("%s/%d/%d", r.Topic, r.Partition, r.Offset)}); err != nil {
			continue // rejected when the job reads it
		}
		for _, b := range dec.Flush() {
			if b.Record == nil {
				continue
			}
			if sc != nil && b.Table != src {
				b.Record.Release()
				return t, "", fmt.Errorf("kafkaiceberg: topic %s holds changes of tables %s and %s: one table per topic", topic, src, b.Table)
			}
			src, sc, keys = b.Table, b.Record.Schema(), b.Keys
			b.Record.Release()
		}
	}
	if sc == nil {
		log.Printf("kafkaiceberg: topic %s holds no change event to take its table's columns from: nothing to land", topic)
		if len(recs) == 0 {
			return t, "it was empty when the job started", nil
		}
		return t, "none of the records read of it when the job started was a change event to take the table's columns from", nil
	}
	schema := src.Schema
	if schema == "" {
		schema = src.DB // MySQL's database is its schema
	}
	name := TableName(strings.NewReplacer("{db}", src.DB, "{schema}", schema, "{table}", src.Table).Replace(pc.Table), topic)
	if t, err = loadTable(ctx, cat, topic, name, pc.WriterID); err != nil {
		return t, "", err
	}
	t.Evolve, t.Source, t.Key = false, src.String(), keys
	t.Collection, t.TransactionTopic = src.Collection(), src.Server+".transaction"
	if t.Schema, err = icebergio.EncodeSchema(sc); err != nil {
		return t, "", err
	}
	if t.appendOnly() {
		log.Printf("kafkaiceberg: topic %s: table %s has no primary key (its events have no record key): table %s takes its inserts and snapshot rows, appended; its updates, deletes and truncates go to the rejected table", topic, src, name)
	}
	return t, "", nil
}
