package stitch

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/transforms/icebergio/internal/rowcodec"
)

// Layout says how chunks become data files of one table: the field ids of
// the encode table's schema mapped onto the table's by column name. It
// exists only when the table's partition spec and Parquet settings are the
// encode table's and every row column has the same type there; other
// tables (created by other engines, or with widened types) take the
// re-encoding path.
type Layout struct {
	ids      map[int32]int32 // encode table field id -> table field id
	remapped bool            // some id differs
}

// LayoutFor compares enc (the table chunks are encoded for) with tbl; its
// error says why chunks cannot be stitched into tbl.
func LayoutFor(enc, tbl *table.Table) (*Layout, error) {
	if v := tbl.Metadata().Version(); v > 2 {
		return nil, fmt.Errorf("format version %d", v)
	}
	if d := settingsDiff(enc.Properties(), tbl.Properties()); d != "" {
		return nil, fmt.Errorf("%s", d)
	}
	es, ts := enc.Spec(), tbl.Spec()
	if es.NumFields() != ts.NumFields() {
		return nil, fmt.Errorf("partition spec %s, rows are partitioned as %s", ts, es)
	}
	for i := range es.NumFields() {
		ef, tf := es.Field(i), ts.Field(i)
		en, _ := enc.Schema().FindColumnName(ef.SourceID())
		tn, _ := tbl.Schema().FindColumnName(tf.SourceID())
		if ef.FieldID != tf.FieldID || ef.Transform.String() != tf.Transform.String() || en != tn {
			return nil, fmt.Errorf("partition spec %s, rows are partitioned as %s", ts, es)
		}
	}
	l := &Layout{ids: map[int32]int32{}}
	_, err := rowcodec.Match{
		Missing: func(path []string, _ iceberg.NestedField) error {
			return fmt.Errorf("column %s is not in the table", strings.Join(path, "."))
		},
		Unwritten: func(path []string, _ iceberg.NestedField) error {
			return fmt.Errorf("required column %s is not in the rows", strings.Join(path, "."))
		},
		Pair: func(path []string, rf, tf iceberg.NestedField) error {
			if tf.Required && !rf.Required {
				return fmt.Errorf("column %s is required in the table, optional in the rows", strings.Join(path, "."))
			}
			l.ids[int32(rf.ID)] = int32(tf.ID)
			l.remapped = l.remapped || rf.ID != tf.ID
			return nil
		},
		Leaf: func(path []string, rows, tbl iceberg.Type) error {
			if rows.Equals(tbl) {
				return nil
			}
			return fmt.Errorf("column %s is %s in the rows, %s in the table", strings.Join(path, "."), rows, tbl)
		},
	}.Fields(enc.Schema().Fields(), tbl.Schema().Fields())
	if err != nil {
		return nil, err
	}
	return l, nil
}

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
	keys := map[string]bool{}
	for _, props := range []map[string]string{parquetDefaults, chunks, tbl} {
		for k := range props {
			if encodingKey(k) {
				keys[k] = true
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		if c, t := Setting(chunks, k), Setting(tbl, k); c != t {
			return fmt.Sprintf("the table's %s is %q, the rows were encoded with %q", k, t, c)
		}
	}
	return ""
}
