// Package arrowipc carries Arrow record batches as bytes: one batch per Arrow
// IPC stream, the element icebergio's ReadRecords emits and WriteRecords
// takes, and what generators that feed WriteRecords build. It lives below
// both so that a generator need not import the sink.
package arrowipc

import (
	"bytes"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
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
	r, err := ipc.NewReader(bytes.NewReader(b))
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
	var add func(d arrow.ArrayData)
	add = func(d arrow.ArrayData) {
		for _, b := range d.Buffers() {
			if b != nil {
				n += b.Len() + 64
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
	return n
}
