// Package arrowipc carries Arrow record batches as bytes: one batch per Arrow
// IPC stream, the element icebergio's ReadRecords emits and WriteRecords
// takes, and what generators that feed WriteRecords build. It lives below
// both so that a generator need not import the sink.
package arrowipc

import (
	"bytes"
	"encoding/binary"
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
	if _, err := write(buf, rec, opts...); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Write writes rec to w as the stream Encode makes, and returns its size:
// for a stream that goes to a file, without first building it in memory.
func Write(w io.Writer, rec arrow.RecordBatch) (int64, error) {
	return write(w, rec)
}

func write(w io.Writer, rec arrow.RecordBatch, opts ...ipc.Option) (int64, error) {
	cw := &countingWriter{w: w}
	iw := ipc.NewWriter(cw, append([]ipc.Option{ipc.WithSchema(rec.Schema())}, opts...)...)
	err := iw.Write(rec)
	if err == nil {
		err = iw.Close()
	}
	if err != nil {
		return cw.n, fmt.Errorf("encoding Arrow IPC: %w", err)
	}
	return cw.n, nil
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// Decode is the record batch of an IPC stream Encode made; the caller
// releases it. Its uncompressed buffers are b's bytes, not a copy (a copy
// cleared and filled fresh memory for every batch): b must not change
// while the batch is in use.
func Decode(b []byte) (arrow.RecordBatch, error) {
	return decode(&messages{parts: [][]byte{b}})
}

func decode(in ipc.MessageReader) (arrow.RecordBatch, error) {
	r, err := ipc.NewReaderFromMessageReader(in)
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

// messages reads the IPC messages of parts in turn, each message's
// metadata and body slices of its part, where ipc.NewReader copies each
// body into memory it allocates.
type messages struct{ parts [][]byte }

// Retain and Release do nothing: the bytes are the caller's.
func (m *messages) Retain()  {}
func (m *messages) Release() {}

// Message is the next message, or io.EOF at the end of the stream.
func (m *messages) Message() (msg *ipc.Message, err error) {
	for len(m.parts) > 0 && len(m.parts[0]) == 0 {
		m.parts = m.parts[1:]
	}
	if len(m.parts) == 0 {
		return nil, io.EOF
	}
	b := m.parts[0]
	if len(b) < 4 {
		return nil, fmt.Errorf("arrow/ipc: %d bytes where a message begins", len(b))
	}
	off, metaLen := 4, int(binary.LittleEndian.Uint32(b))
	if metaLen == 0xFFFFFFFF { // the continuation marker, then the length
		if len(b) < 8 {
			return nil, fmt.Errorf("arrow/ipc: %d bytes where a message begins", len(b))
		}
		off, metaLen = 8, int(int32(binary.LittleEndian.Uint32(b[4:])))
	}
	if metaLen == 0 { // end of stream
		return nil, io.EOF
	}
	if metaLen < 4 || metaLen > len(b)-off {
		return nil, fmt.Errorf("arrow/ipc: message metadata of %d bytes in %d", metaLen, len(b)-off)
	}
	meta := memory.NewBufferBytes(b[off : off+metaLen])
	defer func() {
		if r := recover(); r != nil { // the flatbuffer reader panics on bad metadata
			msg, err = nil, fmt.Errorf("arrow/ipc: invalid message metadata: %v", r)
		}
	}()
	bodyLen := ipc.NewMessage(meta, memory.NewBufferBytes(nil)).BodyLen()
	start := off + metaLen
	if bodyLen < 0 || bodyLen > int64(len(b)-start) {
		return nil, fmt.Errorf("arrow/ipc: message body of %d bytes in %d", bodyLen, len(b)-start)
	}
	end := start + int(bodyLen)
	m.parts[0] = b[end:]
	return ipc.NewMessage(meta, memory.NewBufferBytes(b[start:end])), nil
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
// it. As the package's Decode, the batch may share b's bytes.
func (s *Batches) Decode(b []byte) (arrow.RecordBatch, error) {
	if !bytes.HasPrefix(b, s.sum[:]) {
		return nil, fmt.Errorf("decoding Arrow IPC: a batch encoded for another schema than %s", s.schema)
	}
	return decode(&messages{parts: [][]byte{s.prefix, b[len(s.sum):]}})
}
