package stitch

import (
	"testing"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"
)

// Settings equal to the defaults, as Spark writes its codec out, are no
// difference: chunks encoded with the defaults are still stitched.
func TestSettingsDiff(t *testing.T) {
	// The properties of tables icebergio creates.
	chunks := iceberg.Properties{table.ManifestMergeEnabledKey: "true", "icebeam.created-by": "icebeam icebergio"}
	require.Empty(t, settingsDiff(chunks, iceberg.Properties{table.ParquetCompressionKey: "ZSTD"}),
		"a codec written out as the default is no difference")
	require.NotEmpty(t, settingsDiff(chunks, iceberg.Properties{"write.metadata.metrics.column.x": "none"}))
}

func newTable(t *testing.T, sc *iceberg.Schema, spec iceberg.PartitionSpec, props iceberg.Properties) *table.Table {
	t.Helper()
	meta, err := table.NewMetadata(sc, &spec, table.UnsortedSortOrder, "file:///tmp/t", props)
	require.NoError(t, err)
	return table.New(table.Identifier{"db", "t"}, meta, "file:///tmp/t/metadata/0.json", nil, nil)
}

// LayoutFor maps the encode table's field ids onto a table's by name and
// refuses the tables whose data files chunks cannot simply become.
func TestLayoutFor(t *testing.T) {
	str, long := iceberg.PrimitiveTypes.String, iceberg.PrimitiveTypes.Int64
	rows := iceberg.NewSchema(0,
		iceberg.NestedField{ID: 1, Name: "user_id", Type: str, Required: true},
		iceberg.NestedField{ID: 2, Name: "seq", Type: long, Required: true},
	)
	enc := newTable(t, rows, *iceberg.UnpartitionedSpec, nil)

	l, err := LayoutFor(enc, newTable(t, rows, *iceberg.UnpartitionedSpec, nil))
	require.NoError(t, err)
	require.False(t, l.remapped)

	other := iceberg.NewSchema(0,
		iceberg.NestedField{ID: 1, Name: "note", Type: str},
		iceberg.NestedField{ID: 2, Name: "seq", Type: long},
		iceberg.NestedField{ID: 3, Name: "user_id", Type: str},
	)
	l, err = LayoutFor(enc, newTable(t, other, *iceberg.UnpartitionedSpec, nil))
	require.NoError(t, err)
	require.True(t, l.remapped)
	require.Equal(t, map[int32]int32{1: 3, 2: 2}, l.ids)

	for _, c := range []struct {
		tbl  *table.Table
		want string
	}{
		{newTable(t, iceberg.NewSchema(0, iceberg.NestedField{ID: 1, Name: "user_id", Type: str}), *iceberg.UnpartitionedSpec, nil),
			"column seq is not in the table"},
		{newTable(t, iceberg.NewSchema(0, append(rows.Fields(), iceberg.NestedField{ID: 3, Name: "req", Type: str, Required: true})...), *iceberg.UnpartitionedSpec, nil),
			"required column req is not in the rows"},
		{newTable(t, iceberg.NewSchema(0, rows.Field(0), iceberg.NestedField{ID: 2, Name: "seq", Type: str, Required: true}), *iceberg.UnpartitionedSpec, nil),
			"column seq is long in the rows, string in the table"},
		{newTable(t, rows, iceberg.NewPartitionSpec(iceberg.PartitionField{SourceIDs: []int{1}, FieldID: 1000, Name: "user_id", Transform: iceberg.IdentityTransform{}}), nil),
			"partition spec"},
		{newTable(t, rows, *iceberg.UnpartitionedSpec, iceberg.Properties{table.ParquetCompressionKey: "gzip"}),
			"write.parquet.compression-codec"},
		{newTable(t, rows, *iceberg.UnpartitionedSpec, iceberg.Properties{table.PropertyFormatVersion: "3"}),
			"format version 3"},
	} {
		_, err := LayoutFor(enc, c.tbl)
		require.ErrorContains(t, err, c.want)
	}
}
