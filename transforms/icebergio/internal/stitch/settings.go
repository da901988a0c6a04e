package stitch

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

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

// Setting is the value of the Parquet setting k under props, its default
// where props leave it unset.
func Setting(props iceberg.Properties, k string) string {
	if v, ok := props[k]; ok {
		if k == table.ParquetCompressionKey {
			return strings.ToLower(v)
		}
		return v
	}
	return parquetDefaults[k]
}

// settingsDiff names the first encoding setting in which the table's
// properties differ from the chunks' ("" if none).
func settingsDiff(chunks, tbl iceberg.Properties) string {
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
		if c, t := Setting(chunks, k), Setting(tbl, k); c != t {
			return fmt.Sprintf("the table's %s is %q, the rows were encoded with %q", k, t, c)
		}
	}
	return ""
}
