package icebergio

import (
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// A table's write properties say how its data files are encoded (codec and
// level, page and row group sizes, dictionary and bloom filters, column
// statistics), whoever created the table: Spark, for one, sets its codec
// explicitly. Chunks are encoded with the sink's own settings before the
// table is known, so a pane is stitched only when the two agree; otherwise
// its rows are encoded again with the table's.

// parquetDefaults are the values of the settings a table leaves unset, as
// iceberg-go's writer (and Iceberg's Java one, where they meet) takes them.
var parquetDefaults = map[string]string{
	table.ParquetCompressionKey:            table.ParquetCompressionDefault,
	table.ParquetCompressionLevelKey:       strconv.Itoa(table.ParquetCompressionLevelDefault),
	table.ParquetPageSizeBytesKey:          strconv.Itoa(table.ParquetPageSizeBytesDefault),
	table.ParquetPageRowLimitKey:           strconv.Itoa(table.ParquetPageRowLimitDefault),
	table.ParquetDictSizeBytesKey:          strconv.Itoa(table.ParquetDictSizeBytesDefault),
	table.ParquetRowGroupLimitKey:          strconv.Itoa(table.ParquetRowGroupLimitDefault),
	table.ParquetRowGroupSizeBytesKey:      strconv.Itoa(table.ParquetRowGroupSizeBytesDefault),
	table.DefaultWriteMetricsModeKey:       table.DefaultWriteMetricsModeDefault,
	"write.parquet.page-version":           "2",
	"write.parquet.bloom-filter-max-bytes": "1048576",
}

// encodingKey reports whether a table property bears on how data files are
// encoded.
func encodingKey(k string) bool {
	_, known := parquetDefaults[k]
	return known || strings.HasPrefix(k, "write.parquet.") || strings.HasPrefix(k, "write.metadata.metrics.")
}

// parquetSetting is the value of setting k under props.
func parquetSetting(props iceberg.Properties, k string) string {
	if v, ok := props[k]; ok {
		if k == table.ParquetCompressionKey {
			return strings.ToLower(v)
		}
		return v
	}
	return parquetDefaults[k]
}

// parquetDiff names the first encoding setting in which the table's
// properties differ from the chunks' ("" if none).
func parquetDiff(chunks, tbl iceberg.Properties) string {
	var keys []string
	for k := range parquetDefaults {
		keys = append(keys, k)
	}
	for _, props := range []iceberg.Properties{chunks, tbl} {
		for k := range props {
			if encodingKey(k) && !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		if c, t := parquetSetting(chunks, k), parquetSetting(tbl, k); c != t {
			return fmt.Sprintf("the table's %s is %q, the rows were encoded with %q", k, t, c)
		}
	}
	return ""
}

// withRowGroupBytes returns tbl as the writer should see it: iceberg-go's
// writer cuts row groups by rows (write.parquet.row-group-limit) and ignores
// write.parquet.row-group-size-bytes, so the byte size the table asks for
// becomes a row limit, from the size of the first batch's rows. Both limits
// hold: the smaller wins. It returns the batches to write, the first one
// included.
func withRowGroupBytes(tbl *table.Table, batches iter.Seq2[arrow.RecordBatch, error]) (*table.Table, iter.Seq2[arrow.RecordBatch, error], error) {
	want, err := strconv.ParseInt(parquetSetting(tbl.Properties(), table.ParquetRowGroupSizeBytesKey), 10, 64)
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
	if cur, err := strconv.ParseInt(parquetSetting(tbl.Properties(), table.ParquetRowGroupLimitKey), 10, 64); err == nil && cur > 0 && cur <= limit {
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
