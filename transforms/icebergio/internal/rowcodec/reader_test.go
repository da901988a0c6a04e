package rowcodec

import (
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

type inner struct {
	X int32 `beam:"x"`
}

type nested struct {
	A   inner   `beam:"a"`
	B   *inner  `beam:"b"`
	Bin []byte  `beam:"bin"`
	L   []int32 `beam:"l"`
}

// nestedBatch builds rows of nested with every column nullable; each row
// is {a.x, b (nil: null), b.x (nil: null), bin (nil: null), l}.
func nestedBatch(t *testing.T, rows [][]any) arrow.RecordBatch {
	t.Helper()
	st := arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32, Nullable: true})
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: st, Nullable: true}, {Name: "b", Type: st, Nullable: true},
		{Name: "bin", Type: arrow.BinaryTypes.Binary, Nullable: true},
		{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	appendStruct := func(sb *array.StructBuilder, valid bool, x any) {
		sb.Append(valid) // a null struct gets null children
		if !valid {
			return
		}
		if x == nil {
			sb.FieldBuilder(0).AppendNull()
		} else {
			sb.FieldBuilder(0).(*array.Int32Builder).Append(x.(int32))
		}
	}
	for _, r := range rows {
		appendStruct(b.Field(0).(*array.StructBuilder), true, r[0])
		appendStruct(b.Field(1).(*array.StructBuilder), r[1] != nil, r[2])
		if r[3] == nil {
			b.Field(2).AppendNull()
		} else {
			b.Field(2).(*array.BinaryBuilder).Append(r[3].([]byte))
		}
		lb := b.Field(3).(*array.ListBuilder)
		lb.Append(true)
		for _, v := range r[4].([]any) {
			if v == nil {
				lb.ValueBuilder().AppendNull()
			} else {
				lb.ValueBuilder().(*array.Int32Builder).Append(v.(int32))
			}
		}
	}
	return b.NewRecordBatch()
}

func convertNested(t *testing.T, rows [][]any) ([]nested, error) {
	t.Helper()
	rs, err := New(reflect.TypeFor[nested]())
	require.NoError(t, err)
	rec := nestedBatch(t, rows)
	defer rec.Release()
	rc, err := NewConverter(rs, rec.Schema())
	require.NoError(t, err)
	base, n, err := rc.Convert(rec)
	if err != nil {
		return nil, err
	}
	var out []nested
	for i := 0; i < n; i++ {
		out = append(out, rc.Row(base, i).(nested))
	}
	return out, nil
}

// Nulls land where the struct can hold them (pointers, slices) and are
// errors where it cannot, also inside nested structs and lists; the null
// children of a null struct are not looked at.
func TestRowConverterNulls(t *testing.T) {
	got, err := convertNested(t, [][]any{
		{int32(1), nil, nil, nil, []any{}},
		{int32(2), true, int32(7), []byte("ab"), []any{int32(3), int32(4)}},
		{int32(3), true, int32(8), []byte{}, []any{int32(5)}},
	})
	require.NoError(t, err)
	require.Equal(t, []nested{
		{A: inner{X: 1}, L: []int32{}},
		{A: inner{X: 2}, B: &inner{X: 7}, Bin: []byte("ab"), L: []int32{3, 4}},
		{A: inner{X: 3}, B: &inner{X: 8}, Bin: []byte{}, L: []int32{5}},
	}, got)
	got[1].L = append(got[1].L, 99)
	require.Equal(t, []int32{5}, got[2].L, "appending to one row's list leaves the next row's alone")

	_, err = convertNested(t, [][]any{{int32(1), true, nil, nil, []any{}}})
	require.ErrorContains(t, err, "column b.x holds a null (row 0 of a batch), which field rowcodec.nested.B.X (int32) cannot hold")
	_, err = convertNested(t, [][]any{{int32(1), nil, nil, nil, []any{}}, {nil, nil, nil, nil, []any{}}})
	require.ErrorContains(t, err, "column a.x holds a null (row 1 of a batch)")
	_, err = convertNested(t, [][]any{{int32(1), nil, nil, nil, []any{int32(1), nil}}})
	require.ErrorContains(t, err, "a list holds a null element, which int32 cannot hold")
}

type trip struct {
	Day     int32  `beam:"trip_date" iceberg:"date"`
	Payment string `beam:"payment_type"`
	Trips   int32  `beam:"trips"`
	Note    string `beam:"note"`
}

// BenchmarkRowConverter converts 64Ki-row batches of trips (a date, two
// strings, an int) into structs and interface values, as Read emits them.
func BenchmarkRowConverter(b *testing.B) {
	rs, err := New(reflect.TypeFor[trip]())
	require.NoError(b, err)
	bb := rs.NewBatchBuilder(memory.DefaultAllocator)
	defer bb.Release()
	for i := range 1 << 16 {
		v := any(trip{Day: int32(20000 + i%30), Payment: []string{"card", "cash"}[i%2], Trips: int32(i), Note: "v1"})
		bb.Add(rs.RowPointer(&v))
	}
	rec := bb.Batch()
	defer rec.Release()
	rc, err := NewConverter(rs, rec.Schema())
	require.NoError(b, err)
	var sink any
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		base, n, err := rc.Convert(rec)
		if err != nil {
			b.Fatal(err)
		}
		for i := 0; i < n; i++ {
			sink = rc.Row(base, i)
		}
	}
	_ = sink
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(rec.NumRows()), "ns/row")
}
