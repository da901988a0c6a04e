package inspect_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/catalog/inspect"
	"github.com/icebeam/icebeam/internal/launch"
)

func sample() *inspect.Rows {
	return &inspect.Rows{
		Columns: []string{"day", "n", "avg"},
		Values: [][]any{
			{"2024-01-02", int64(10), 1.5},
			{"2024-01-01", nil, 0.25},
			{"2024-01-03", int64(9), nil},
			{"2024-01-04", int64(10), 2.0},
		},
	}
}

func days(r *inspect.Rows) []any {
	var out []any
	for _, v := range r.Values {
		out = append(out, v[0])
	}
	return out
}

func TestSortByNumbersNullsLastStable(t *testing.T) {
	r := sample()
	require.NoError(t, r.SortBy("n", false))
	require.Equal(t, []any{"2024-01-03", "2024-01-02", "2024-01-04", "2024-01-01"}, days(r))
	r = sample()
	require.NoError(t, r.SortBy("n", true))
	require.Equal(t, []any{"2024-01-02", "2024-01-04", "2024-01-03", "2024-01-01"}, days(r), "ties keep scan order, NULL last")
	require.NoError(t, r.SortBy("day", false))
	require.Equal(t, []any{"2024-01-01", "2024-01-02", "2024-01-03", "2024-01-04"}, days(r))
	require.ErrorContains(t, r.SortBy("nope", false), `no column "nope" (have day, n, avg)`)
}

func TestSelectLimitWrite(t *testing.T) {
	r := sample()
	require.NoError(t, r.Select("avg", "day"))
	r.Limit(3)
	require.ErrorContains(t, r.Select("n"), `no column "n"`)

	var b bytes.Buffer
	require.NoError(t, r.Write(&b, inspect.CSV))
	require.Equal(t, "avg,day\n1.5,2024-01-02\n0.25,2024-01-01\n,2024-01-03\n", b.String())

	b.Reset()
	require.NoError(t, r.Write(&b, inspect.JSON))
	require.Equal(t, `{"avg":1.5,"day":"2024-01-02"}`+"\n"+`{"avg":0.25,"day":"2024-01-01"}`+"\n"+`{"avg":null,"day":"2024-01-03"}`+"\n", b.String())

	b.Reset()
	require.NoError(t, r.Write(&b, inspect.Aligned))
	require.Equal(t, ""+
		"   avg         day\n"+
		"   1.5  2024-01-02\n"+
		"  0.25  2024-01-01\n"+
		"  NULL  2024-01-03\n", b.String(), "right-aligned, two spaces of padding")

	require.ErrorContains(t, r.Write(&b, "xml"), `unknown output format "xml"`)
}

// Read scans a real table of the embedded catalog into plain values.
func TestRead(t *testing.T) {
	ctx := context.Background()
	cfg, stop, err := launch.Catalog(ctx, catalog.Config{LocalDir: t.TempDir()})
	require.NoError(t, err)
	t.Cleanup(func() { _ = stop() })
	cat, err := catalog.Open(ctx, cfg)
	require.NoError(t, err)
	require.NoError(t, cat.CreateNamespace(ctx, table.Identifier{"ns"}, nil))
	tbl, err := cat.CreateTable(ctx, table.Identifier{"ns", "t"}, iceberg.NewSchema(0,
		iceberg.NestedField{ID: 1, Name: "day", Type: iceberg.PrimitiveTypes.Date},
		iceberg.NestedField{ID: 2, Name: "n", Type: iceberg.PrimitiveTypes.Int64},
	))
	require.NoError(t, err)

	sc := arrow.NewSchema([]arrow.Field{
		{Name: "day", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
		{Name: "n", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	b.Field(0).(*array.Date32Builder).AppendValues([]arrow.Date32{19723, 19724}, nil) // 2024-01-01, 2024-01-02
	b.Field(1).(*array.Int64Builder).AppendValues([]int64{7, 0}, []bool{true, false})
	rec := b.NewRecordBatch()
	defer rec.Release()
	at := array.NewTableFromRecords(sc, []arrow.RecordBatch{rec})
	defer at.Release()
	tbl, err = tbl.AppendTable(ctx, at, 2, nil)
	require.NoError(t, err)

	rows, err := inspect.Read(ctx, tbl)
	require.NoError(t, err)
	require.Equal(t, []string{"day", "n"}, rows.Columns)
	require.Equal(t, [][]any{{"2024-01-01", int64(7)}, {"2024-01-02", nil}}, rows.Values)
}
