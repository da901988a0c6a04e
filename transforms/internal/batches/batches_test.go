package batches

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func TestConcat(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	sc := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	batch := func(ids ...int64) arrow.RecordBatch {
		b := array.NewRecordBuilder(mem, sc)
		defer b.Release()
		for _, id := range ids {
			b.Field(0).(*array.Int64Builder).Append(id)
			if id%2 == 0 {
				b.Field(1).(*array.StringBuilder).AppendNull()
			} else {
				b.Field(1).(*array.StringBuilder).Append(string(rune('a' + id)))
			}
		}
		return b.NewRecordBatch()
	}
	recs := []arrow.RecordBatch{batch(1, 2), batch(), batch(3)}
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	for _, tc := range []struct {
		recs []arrow.RecordBatch
		want string
	}{
		{nil, `[] []`},
		{recs[:1], `[1 2] ["b" (null)]`},
		{recs, `[1 2 3] ["b" (null) "d"]`},
	} {
		got, err := Concat(mem, sc, tc.recs)
		if err != nil {
			t.Fatal(err)
		}
		if s := got.Column(0).String() + " " + got.Column(1).String(); s != tc.want || got.NumRows() != int64(got.Column(0).Len()) {
			t.Errorf("Concat of %d batches: %s (%d rows), want %s", len(tc.recs), s, got.NumRows(), tc.want)
		}
		got.Release()
	}
}
