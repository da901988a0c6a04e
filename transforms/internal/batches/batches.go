// Package batches joins Arrow record batches of one schema into one, for
// the transforms that gather a bundle's or a pane's batches before they
// encode or sort them.
package batches

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Concat is recs, of schema sc, as one batch, its columns allocated from
// mem: recs[0] itself (retained) when there is one, an empty batch when
// there is none. The caller releases the result and still owns recs.
func Concat(mem memory.Allocator, sc *arrow.Schema, recs []arrow.RecordBatch) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, sc.NumFields())
	switch len(recs) {
	case 0:
		for i, f := range sc.Fields() {
			cols[i] = array.MakeArrayOfNull(mem, f.Type, 0)
		}
		return release(array.NewRecordBatch(sc, cols, 0), cols), nil
	case 1:
		recs[0].Retain()
		return recs[0], nil
	}
	var n int64
	for _, r := range recs {
		n += r.NumRows()
	}
	for i := range cols {
		arrs := make([]arrow.Array, len(recs))
		for j, r := range recs {
			arrs[j] = r.Column(i)
		}
		c, err := array.Concatenate(arrs, mem)
		if err != nil {
			release(nil, cols[:i])
			return nil, fmt.Errorf("joining batches' column %s: %w", sc.Field(i).Name, err)
		}
		cols[i] = c
	}
	return release(array.NewRecordBatch(sc, cols, n), cols), nil
}

// release releases cols, which rec (if any) has retained, and returns rec.
func release(rec arrow.RecordBatch, cols []arrow.Array) arrow.RecordBatch {
	for _, c := range cols {
		c.Release()
	}
	return rec
}
