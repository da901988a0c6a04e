package kafkaiceberg

import (
	"bytes"
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/icebeam/icebeam/transforms/icebergio"
	"github.com/icebeam/icebeam/transforms/kafkaio"
)

func init() {
	register.DoFn3x1[context.Context, kafkaio.Record, func(string, []byte), error](&decodeFn{})
	register.Emitter2[string, []byte]()
}

// flushRows is how many rows of a table the decode step gathers before it
// sends them on as one batch.
const flushRows = 1 << 15

// decodeFn turns JSON records into Arrow batches of their table's columns,
// and records that do not fit into rows of the rejected table, each batch
// tagged with the offsets it covers (icebergio.EncodeRecordsFrom). A
// record below the offsets its table held when the job started has landed
// there before, and is dropped.
type decodeFn struct {
	Tables   []Table
	Rejected Table

	byTopic  map[string]*dest
	rejected *dest
}

// dest is a table's batch in the making.
type dest struct {
	t      Table
	schema *arrow.Schema
	rows   *rowDecoder // the batch
	probe  *rowDecoder // records only checked, not landed
	ranges map[string]icebergio.SourceRange
}

func newDest(t Table) (*dest, error) {
	sc, err := decodeSchema(t.Schema)
	if err != nil {
		return nil, fmt.Errorf("kafkaiceberg: table %s: %w", t.Name, err)
	}
	return &dest{t: t, schema: sc, rows: newRowDecoder(t.Name, sc)}, nil
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
	f.rejected, err = newDest(f.Rejected)
	return err
}

func (f *decodeFn) ProcessElement(ctx context.Context, r kafkaio.Record, emit func(string, []byte)) error {
	part := kafkaio.PartitionKey(r.Topic, r.Partition)
	var reason string
	if d := f.byTopic[r.Topic]; d == nil {
		reason = fmt.Sprintf("topic %s has no table in this job: it came to match the topic pattern after the job started (start the job again to create its table)", r.Topic)
	} else if r.Offset >= d.t.Offsets[part] {
		d.cover(part, r.Offset)
		if reason = d.rows.add(r.Value); reason == "" && d.rows.rows() >= flushRows {
			if err := d.flush(emit); err != nil {
				return err
			}
		}
	} else if r.Offset >= f.rejected.t.Offsets[part] {
		// Landed in its table before, unless it was refused: the rejected
		// table, which did not get it yet, must know which.
		reason = d.scratch().add(r.Value)
	}
	rj := f.rejected
	if r.Offset < rj.t.Offsets[part] {
		return nil
	}
	rj.cover(part, r.Offset)
	if reason != "" {
		rj.reject(r, reason)
		if rj.rows.rows() >= flushRows {
			return rj.flush(emit)
		}
	}
	return nil
}

func (f *decodeFn) FinishBundle(emit func(string, []byte)) error {
	for _, d := range f.byTopic {
		if err := d.flush(emit); err != nil {
			return err
		}
	}
	return f.rejected.flush(emit)
}

func (d *dest) cover(part string, offset int64) {
	if d.ranges == nil {
		d.ranges = map[string]icebergio.SourceRange{}
	}
	r, ok := d.ranges[part]
	if !ok {
		r = icebergio.SourceRange{First: offset, Last: offset}
	}
	d.ranges[part] = icebergio.SourceRange{First: min(r.First, offset), Last: max(r.Last, offset)}
}

// scratch is a decoder for records that are only checked, not landed.
func (d *dest) scratch() *rowDecoder {
	if d.probe == nil || d.probe.rows() >= 1024 {
		if d.probe != nil {
			d.probe.rb.Release()
		}
		d.probe = newRowDecoder(d.t.Name, d.schema)
	}
	return d.probe
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

func encodeSchema(sc *arrow.Schema) []byte {
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(sc))
	if err := w.Close(); err != nil {
		panic(err) // writing to memory
	}
	return buf.Bytes()
}

func decodeSchema(b []byte) (*arrow.Schema, error) {
	r, err := ipc.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("decoding an Arrow schema: %w", err)
	}
	defer r.Release()
	return r.Schema(), nil
}
