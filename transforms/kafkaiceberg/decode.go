package kafkaiceberg

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/icebeam/icebeam/transforms/icebergio"
	"github.com/icebeam/icebeam/transforms/kafkaio"
)

func init() {
	register.DoFn3x1[context.Context, kafkaio.Record, func(string, []byte), error](&decodeFn{})
	register.Emitter2[string, []byte]()
}

// jobRecords is how many records of a topic the decode step hands a
// decoding goroutine at once, and so the rows of the batches it sends on.
const jobRecords = 1 << 13

// decodeFn turns JSON records into Arrow batches of their table's columns,
// and records that do not fit into rows of the rejected table, each batch
// tagged with the offsets it covers (icebergio.EncodeRecordsFrom). A
// record below the offsets its table held when the job started has landed
// there before, and is dropped.
//
// Records are decoded on every core: the step gathers a topic's records
// and hands each jobRecords to a goroutine, and sends the batches on in
// the order it handed them out, at most 2 per core in flight (memory: that
// many jobs' records and batches).
type decodeFn struct {
	Tables    []Table
	Rejected  Table
	Unplanned map[string]string // Config.Unplanned

	byTopic  map[string]*dest
	rejected *dest
	jobs     []*decodeJob // handed out, in order
	sem      chan struct{}
}

// route finds r's table, and says whether the table gets it (it is at or
// above the table's offsets) and whether the rejected table must know if
// it fits (at or above the rejected table's: a record that landed in its
// table before may have been refused). A record of a topic without a
// table goes to the rejected table, saying why (unplanned, else it is a
// topic that came to match the pattern after the job started), and d is
// nil.
func route(byTopic map[string]*dest, rj *dest, unplanned map[string]string, r kafkaio.Record) (d *dest, part string, land, check bool) {
	d = byTopic[r.Topic]
	if d == nil {
		part = rj.part(r.Topic, r.Partition)
		if r.Offset >= rj.t.Offsets[part] {
			rj.cover(part, r.Offset)
			why, ok := unplanned[r.Topic]
			if !ok {
				why = "it came to match the topic pattern after the job started"
			}
			rj.reject(r, fmt.Sprintf("topic %s has no table in this job: %s (start the job again to create its table and land its records there from the start)", r.Topic, why))
		}
		return nil, part, false, false
	}
	part = d.part(r.Topic, r.Partition)
	return d, part, r.Offset >= d.t.Offsets[part], r.Offset >= rj.t.Offsets[part]
}

// dest is a table's batch in the making.
type dest struct {
	t Table
	// mu guards schema, the columns records decode into: the table's, and
	// those its records brought (Table.Evolve), which the sink adds to it.
	mu     sync.Mutex
	schema *arrow.Schema
	rows   *rowDecoder // the rejected table's batch
	parts  map[int32]string
	ranges map[string]icebergio.SourceRange
	// gate and runs are a Debezium table's changes for the gate since
	// the last flush, and their events' transactions (txgate.go).
	gate []arrow.RecordBatch
	runs []run
	job  *decodeJob // records gathered for the next job
	// decoders are the jobs' rowDecoders, kept for the next jobs: a
	// builder keeps its dictionaries and maps.
	decoders sync.Pool
}

func newDest(t Table) (*dest, error) {
	sc, err := icebergio.DecodeSchema(t.Schema)
	if err != nil {
		return nil, fmt.Errorf("kafkaiceberg: table %s: %w", t.Name, err)
	}
	return &dest{t: t, schema: sc, parts: map[int32]string{}}, nil
}

// part is the PartitionKey of partition p of d's topic.
func (d *dest) part(topic string, p int32) string {
	k, ok := d.parts[p]
	if !ok {
		k = kafkaio.PartitionKey(topic, p)
		d.parts[p] = k
	}
	return k
}

func (f *decodeFn) Setup() error {
	f.byTopic = map[string]*dest{}
	for _, t := range f.Tables {
		d, err := newDest(t)
		if err != nil {
			return err
		}
		f.byTopic[t.Topic] = d
	}
	var err error
	if f.rejected, err = newDest(f.Rejected); err != nil {
		return err
	}
	f.rejected.rows = newRowDecoder(f.Rejected.Name, f.rejected.schema, false)
	f.sem = make(chan struct{}, 2*runtime.GOMAXPROCS(0))
	return nil
}

func (f *decodeFn) ProcessElement(ctx context.Context, r kafkaio.Record, emit func(string, []byte)) error {
	d, part, land, check := route(f.byTopic, f.rejected, f.Unplanned, r)
	if d == nil {
		return f.flushRejected(emit, false)
	}
	if !land && !check {
		return nil
	}
	if d.job == nil {
		d.job = &decodeJob{dest: d}
	}
	d.job.recs = append(d.job.recs, jobRecord{Record: r, part: part, land: land, check: check})
	if len(d.job.recs) >= jobRecords {
		return f.start(ctx, d, emit)
	}
	return nil
}

func (f *decodeFn) FinishBundle(ctx context.Context, emit func(string, []byte)) error {
	for _, d := range f.byTopic {
		if d.job != nil {
			if err := f.start(ctx, d, emit); err != nil {
				return err
			}
		}
	}
	for len(f.jobs) > 0 {
		if err := f.finishOldest(emit); err != nil {
			return err
		}
	}
	return f.flushRejected(emit, true)
}

// start hands d's gathered records to a decoding goroutine, first sending
// on the oldest job's batches while as many are in flight as allowed.
func (f *decodeFn) start(ctx context.Context, d *dest, emit func(string, []byte)) error {
	j := d.job
	d.job = nil
	for {
		select {
		case f.sem <- struct{}{}:
			j.done = make(chan struct{})
			f.jobs = append(f.jobs, j)
			go j.run()
			return nil
		default:
		}
		if err := f.finishOldest(emit); err != nil {
			return err
		}
	}
}

// finishOldest waits for the oldest job and sends its batch on, and its
// rejected records to the rejected table's batch.
func (f *decodeFn) finishOldest(emit func(string, []byte)) error {
	j := f.jobs[0]
	f.jobs = f.jobs[1:]
	<-j.done
	<-f.sem // its records and batch go once it is sent on
	if j.err != nil {
		return j.err
	}
	for _, b := range j.batches {
		emit(j.dest.t.Name, b)
	}
	// The rejected table covers a job's records once it has their
	// rejections: a batch of it never claims records whose rejection
	// could come in a later one.
	for _, r := range j.rejects {
		f.rejected.reject(r.Record, r.why)
	}
	for part, r := range j.checked {
		f.rejected.cover(part, r.First)
		f.rejected.cover(part, r.Last)
	}
	return f.flushRejected(emit, false)
}

// flushRejected sends the rejected table's batch on when it is full, or
// with all, whatever it holds (its offsets at least).
func (f *decodeFn) flushRejected(emit func(string, []byte), all bool) error {
	if all || f.rejected.rows.rows() >= jobRecords {
		return f.rejected.flush(emit)
	}
	return nil
}

// decodeJob is records of one topic, decoded by a goroutine of their own.
type decodeJob struct {
	dest *dest
	recs []jobRecord

	done    chan struct{}
	batches [][]byte // the table's rows, and the offsets they cover
	rejects []rejected
	checked map[string]icebergio.SourceRange // the offsets of the records checked for the rejected table
	err     error
}

type jobRecord struct {
	kafkaio.Record
	part  string
	land  bool // at or above the table's offsets: its rows get it
	check bool // at or above the rejected table's: it gets it if it does not fit
}

type rejected struct {
	kafkaio.Record
	why string
}

func (j *decodeJob) run() {
	defer close(j.done)
	d := j.dest
	rows := d.decoder()
	rows.reserve(len(j.recs))
	var ranges map[string]icebergio.SourceRange
	for i, r := range j.recs {
		why := rows.fit(r.Value)
		if why == "" && len(rows.more) > 0 {
			// Fields the columns lack: the table takes them as columns,
			// and the rows so far go in a batch of the columns before.
			var sc *arrow.Schema
			if sc, why = d.widen(rows); sc != nil {
				if j.finish(rows, ranges); j.err != nil {
					return
				}
				ranges = nil
				rows.release()
				rows = newRowDecoder(d.t.Name, sc, d.t.Evolve)
				rows.reserve(len(j.recs) - i)
				why = rows.fit(r.Value)
			}
		}
		if r.land {
			ranges = cover(ranges, r.part, r.Offset)
			if why == "" {
				rows.appendRow()
			}
		}
		if r.check {
			j.checked = cover(j.checked, r.part, r.Offset)
			if why != "" {
				j.rejects = append(j.rejects, rejected{r.Record, why})
			}
		}
	}
	j.finish(rows, ranges)
	d.keep(rows)
}

// finish adds rows, and the offsets they cover, to j's batches.
func (j *decodeJob) finish(rows *rowDecoder, ranges map[string]icebergio.SourceRange) {
	if ranges == nil {
		return
	}
	rec := rows.rb.NewRecordBatch()
	defer rec.Release()
	b, err := icebergio.EncodeRecordsFrom(rec, ranges)
	if err != nil {
		j.err = fmt.Errorf("kafkaiceberg: table %s: %w", j.dest.t.Name, err)
		return
	}
	j.batches = append(j.batches, b)
}

// decoder is a rowDecoder of d's columns as they are now.
func (d *dest) decoder() *rowDecoder {
	sc := d.columns()
	for {
		rows, _ := d.decoders.Get().(*rowDecoder)
		if rows == nil {
			return newRowDecoder(d.t.Name, sc, d.t.Evolve)
		}
		if rows.schema == sc {
			return rows
		}
		rows.release()
	}
}

// keep keeps rows for the next job.
func (d *dest) keep(rows *rowDecoder) { d.decoders.Put(rows) }

func (d *dest) columns() *arrow.Schema {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.schema
}

// widen adds the fields of the record rows just fitted that its columns
// lack (rowDecoder.more) to d's columns, unless another job added them
// first, and returns the columns now; or why the record cannot add them.
// The first type a field is seen with is its column's: a record that
// gives it a value of another type later is refused.
func (d *dest) widen(rows *rowDecoder) (*arrow.Schema, string) {
	more, why := rows.moreColumns()
	if why != "" {
		return nil, why
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	fields := d.schema.Fields()
	for _, f := range more {
		if !d.schema.HasField(f.Name) {
			fields = append(fields, f)
		}
	}
	if len(fields) > d.schema.NumFields() {
		d.schema = arrow.NewSchema(fields, nil)
	}
	return d.schema, ""
}

func (d *dest) cover(part string, offset int64) { d.ranges = cover(d.ranges, part, offset) }

// cover is ranges widened to hold offset of part.
func cover(ranges map[string]icebergio.SourceRange, part string, offset int64) map[string]icebergio.SourceRange {
	if ranges == nil {
		ranges = map[string]icebergio.SourceRange{}
	}
	r, ok := ranges[part]
	if !ok {
		r = icebergio.SourceRange{First: offset, Last: offset}
	}
	ranges[part] = icebergio.SourceRange{First: min(r.First, offset), Last: max(r.Last, offset)}
	return ranges
}

// reject appends r to the rejected table's batch, with why.
func (d *dest) reject(r kafkaio.Record, why string) {
	rb := d.rows.rb
	rb.Field(0).(*array.StringBuilder).Append(r.Topic)
	rb.Field(1).(*array.Int32Builder).Append(r.Partition)
	rb.Field(2).(*array.Int64Builder).Append(r.Offset)
	appendBytes(rb.Field(3).(*array.BinaryBuilder), r.Key)
	appendBytes(rb.Field(4).(*array.BinaryBuilder), r.Value)
	rb.Field(5).(*array.StringBuilder).Append(why)
}

func appendBytes(b *array.BinaryBuilder, v []byte) {
	if v == nil {
		b.AppendNull()
		return
	}
	b.Append(v)
}

// flush sends d's batch on, keyed by its table: its rows and the offsets
// they cover, or the offsets alone.
func (d *dest) flush(emit func(string, []byte)) error {
	if len(d.ranges) == 0 {
		return nil
	}
	rec := d.rows.rb.NewRecordBatch()
	defer rec.Release()
	b, err := icebergio.EncodeRecordsFrom(rec, d.ranges)
	if err != nil {
		return fmt.Errorf("kafkaiceberg: table %s: %w", d.t.Name, err)
	}
	d.ranges = nil
	emit(d.t.Name, b)
	return nil
}

// RejectedSchema is the columns of the rejected table: where a record was
// in Kafka, its key and value as they were, and why it was not landed.
var RejectedSchema = arrow.NewSchema([]arrow.Field{
	{Name: "topic", Type: arrow.BinaryTypes.String},
	{Name: "partition", Type: arrow.PrimitiveTypes.Int32},
	{Name: "offset", Type: arrow.PrimitiveTypes.Int64},
	{Name: "key", Type: arrow.BinaryTypes.Binary, Nullable: true},
	{Name: "value", Type: arrow.BinaryTypes.Binary, Nullable: true},
	{Name: "reason", Type: arrow.BinaryTypes.String},
}, nil)
