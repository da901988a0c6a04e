// Package arrowipc carries Arrow record batches as bytes: one batch per Arrow
// IPC stream, the element icebergio's ReadRecords emits and WriteRecords
// takes, and what generators that feed WriteRecords build. It lives below
// both so that a generator need not import the sink.
package arrowipc

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Encode is rec as an Arrow IPC stream holding one record batch.
func Encode(rec arrow.RecordBatch) ([]byte, error) {
	return encode(rec)
}

// EncodeLZ4 is Encode with the batch's buffers LZ4-compressed: for bytes a
// shuffle carries, where their size matters more than the little CPU that
// undoes LZ4. Decode reads both.
func EncodeLZ4(rec arrow.RecordBatch) ([]byte, error) {
	return encode(rec, ipc.WithLZ4())
}

func encode(rec arrow.RecordBatch, opts ...ipc.Option) ([]byte, error) {
	// Sized up front: growing the buffer by doubling cleared and copied
	// each batch several times over (a sixth of a full scan's CPU) and
	// left up to twice its size garbage per batch.
	buf := bytes.NewBuffer(make([]byte, 0, sizeHint(rec)))
	w := ipc.NewWriter(buf, append([]ipc.Option{ipc.WithSchema(rec.Schema())}, opts...)...)
	err := w.Write(rec)
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		return nil, fmt.Errorf("encoding Arrow IPC: %w", err)
	}
	return buf.Bytes(), nil
}

// Decode is the record batch of an IPC stream Encode made; the caller
// releases it.
func Decode(b []byte) (arrow.RecordBatch, error) {
	return decode(bytes.NewReader(b))
}

func decode(in io.Reader) (arrow.RecordBatch, error) {
	r, err := ipc.NewReader(in)
	if err != nil {
		return nil, fmt.Errorf("decoding Arrow IPC: %w", err)
	}
	defer r.Release()
	if !r.Next() {
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("decoding Arrow IPC: %w", err)
		}
		return nil, fmt.Errorf("Arrow IPC stream without a record batch")
	}
	rec := r.RecordBatch()
	rec.Retain()
	return rec, nil
}

// sizeHint is about the size of rec as an Arrow IPC stream, not less
// unless rec's arrays are slices: its buffers, each with room for padding,
// and room for the schema and the message headers.
func sizeHint(rec arrow.RecordBatch) int {
	n := 4096 + 256*int(rec.NumCols())
	eachBuffer(rec, func(b *memory.Buffer) { n += b.Len() + 64 })
	return n
}

// Size is the bytes of rec's buffers (those of arrays it slices, whole).
func Size(rec arrow.RecordBatch) int64 {
	var n int64
	eachBuffer(rec, func(b *memory.Buffer) { n += int64(b.Len()) })
	return n
}

// eachBuffer calls f with each of rec's buffers.
func eachBuffer(rec arrow.RecordBatch, f func(*memory.Buffer)) {
	var add func(d arrow.ArrayData)
	add = func(d arrow.ArrayData) {
		for _, b := range d.Buffers() {
			if b != nil {
				f(b)
			}
		}
		for _, c := range d.Children() {
			add(c)
		}
		// Dictionary() is a typed nil, not nil, on other arrays.
		if d.DataType().ID() == arrow.DICTIONARY {
			add(d.Dictionary())
		}
	}
	for _, c := range rec.Columns() {
		add(c.Data())
	}
}

// Batches encodes record batches of one schema, which sender and receiver
// both know, without it: the batch's IPC message alone, after 8 bytes of a
// hash of the schema's message, which Decode checks. For a few rows of a few
// columns the schema message is a third of a stream's bytes (a stream spread
// over a thousand tables shuffles a few rows a table a bundle).
type Batches struct {
	schema *arrow.Schema
	prefix []byte // the schema's IPC message, which Decode puts back
	sum    [8]byte
}

// NewBatches is a Batches for schema.
func NewBatches(schema *arrow.Schema) *Batches {
	p := ipc.GetSchemaPayload(schema, memory.DefaultAllocator)
	defer p.Release()
	var b bytes.Buffer
	p.WritePayload(&b) // a bytes.Buffer does not fail
	s := &Batches{schema: schema, prefix: b.Bytes()}
	h := fnv.New64a()
	h.Write(s.prefix)
	h.Sum(s.sum[:0])
	return s
}

// Encode is rec's IPC message, its buffers LZ4-compressed from 32 rows
// (below that LZ4's framing of each buffer outweighs what it saves); rec
// must have the Batches' schema.
func (s *Batches) Encode(rec arrow.RecordBatch) ([]byte, error) {
	if !rec.Schema().Equal(s.schema) {
		return nil, fmt.Errorf("encoding Arrow IPC: a batch of schema %s, want %s", rec.Schema(), s.schema)
	}
	opts := []ipc.Option{ipc.WithAllocator(memory.DefaultAllocator)}
	if rec.NumRows() >= 32 {
		opts = append(opts, ipc.WithLZ4())
	}
	p, err := ipc.GetRecordBatchPayload(rec, opts...)
	if err != nil {
		return nil, fmt.Errorf("encoding Arrow IPC: %w", err)
	}
	defer p.Release()
	buf := bytes.NewBuffer(make([]byte, 0, sizeHint(rec)))
	buf.Write(s.sum[:])
	if _, err := p.WritePayload(buf); err != nil {
		return nil, fmt.Errorf("encoding Arrow IPC: %w", err)
	}
	return buf.Bytes(), nil
}

// Decode is the record batch of bytes Encode made; the caller releases
// it.
func (s *Batches) Decode(b []byte) (arrow.RecordBatch, error) {
	if !bytes.HasPrefix(b, s.sum[:]) {
		return nil, fmt.Errorf("decoding Arrow IPC: a batch encoded for another schema than %s", s.schema)
	}
	return decode(io.MultiReader(bytes.NewReader(s.prefix), bytes.NewReader(b[len(s.sum):])))
}
