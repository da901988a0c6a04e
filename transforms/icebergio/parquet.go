package icebergio

import (
	"iter"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/transforms/icebergio/internal/stitch"
)

// withRowGroupBytes returns tbl as the writer should see it: iceberg-go's
// writer cuts row groups by rows (write.parquet.row-group-limit) and ignores
// write.parquet.row-group-size-bytes, so the byte size the table asks for
// becomes a row limit, from the size of the first batch's rows. Both limits
// hold: the smaller wins. It returns the batches to write, the first one
// included.
func withRowGroupBytes(tbl *table.Table, batches iter.Seq2[arrow.RecordBatch, error]) (*table.Table, iter.Seq2[arrow.RecordBatch, error], error) {
	want, err := strconv.ParseInt(stitch.Setting(tbl.Properties(), table.ParquetRowGroupSizeBytesKey), 10, 64)
	if err != nil || want <= 0 {
		return tbl, batches, nil
	}
	next, stop := iter.Pull2(batches)
	first, err, ok := next()
	if !ok || err != nil {
		stop()
		return tbl, func(yield func(arrow.RecordBatch, error) bool) {
			if ok {
				yield(first, err)
			}
		}, nil
	}
	rest := func(yield func(arrow.RecordBatch, error) bool) {
		defer stop()
		if !yield(first, nil) {
			return
		}
		for {
			rec, err, ok := next()
			if !ok || !yield(rec, err) {
				return
			}
		}
	}
	perRow := max(recordBytes(first)/max(first.NumRows(), 1), 1)
	limit := max(want/perRow, 1)
	if cur, err := strconv.ParseInt(stitch.Setting(tbl.Properties(), table.ParquetRowGroupLimitKey), 10, 64); err == nil && cur > 0 && cur <= limit {
		return tbl, rest, nil
	}
	b, err := table.MetadataBuilderFromBase(tbl.Metadata(), tbl.MetadataLocation())
	if err != nil {
		return nil, nil, err
	}
	if err := b.SetProperties(iceberg.Properties{table.ParquetRowGroupLimitKey: strconv.FormatInt(limit, 10)}); err != nil {
		return nil, nil, err
	}
	meta, err := b.Build()
	if err != nil {
		return nil, nil, err
	}
	return table.New(tbl.Identifier(), meta, tbl.MetadataLocation(), tbl.FS, nil), rest, nil
}

// recordBytes is the size of a batch's buffers, which Parquet's
// uncompressed row group size follows closely.
func recordBytes(rec arrow.RecordBatch) int64 {
	var n int64
	for _, col := range rec.Columns() {
		n += int64(arrayBytes(col.Data()))
	}
	return n
}

func arrayBytes(d arrow.ArrayData) int {
	n := 0
	for _, b := range d.Buffers() {
		if b != nil {
			n += b.Len()
		}
	}
	for _, c := range d.Children() {
		n += arrayBytes(c)
	}
	return n
}
