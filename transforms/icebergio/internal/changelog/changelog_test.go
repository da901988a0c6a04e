package changelog

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

var kvSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "v", Type: arrow.BinaryTypes.String, Nullable: true},
}, nil)

// batch makes a batch of "id=v" rows; v "null" is a null.
func batch(t *testing.T, mem memory.Allocator, rows ...string) arrow.RecordBatch {
	t.Helper()
	b := array.NewRecordBuilder(mem, kvSchema)
	defer b.Release()
	for _, r := range rows {
		id, v, _ := strings.Cut(r, "=")
		var n int64
		_, err := fmt.Sscan(id, &n)
		require.NoError(t, err)
		b.Field(0).(*array.Int64Builder).Append(n)
		if v == "null" {
			b.Field(1).AppendNull()
		} else {
			b.Field(1).(*array.StringBuilder).Append(v)
		}
	}
	return b.NewRecordBatch()
}

// rows renders Diff's output as "KIND id=v" lines, checking the metadata
// columns on the way.
func rows(t *testing.T, out []arrow.RecordBatch, meta Meta) []string {
	t.Helper()
	var lines []string
	for _, b := range out {
		sc := b.Schema()
		require.Equal(t, []string{"id", "v", ChangeTypeColumn, ChangeOrdinalColumn, SnapshotIDColumn, CommitTimeColumn},
			slices.Collect(func(yield func(string) bool) {
				for _, f := range sc.Fields() {
					if !yield(f.Name) {
						return
					}
				}
			}))
		for r := 0; r < int(b.NumRows()); r++ {
			v := "null"
			if !b.Column(1).IsNull(r) {
				v = b.Column(1).(*array.String).Value(r)
			}
			lines = append(lines, fmt.Sprintf("%s %d=%s", b.Column(2).(*array.String).Value(r), b.Column(0).(*array.Int64).Value(r), v))
			require.Equal(t, meta.Ordinal, b.Column(3).(*array.Int64).Value(r))
			require.Equal(t, meta.SnapshotID, b.Column(4).(*array.Int64).Value(r))
			require.Equal(t, arrow.Timestamp(meta.CommitMillis*1000), b.Column(5).(*array.Timestamp).Value(r))
		}
	}
	return lines
}

// Diff on hand-made multisets: carry-overs cancel, a key deleted once and
// inserted once is an update, anything else stays a delete or an insert;
// duplicates count; a null is not the text "null".
func TestDiff(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	ctx := context.Background()
	meta := Meta{SnapshotID: 42, CommitMillis: 1_700_000_000_123, Ordinal: 3}
	old := []arrow.RecordBatch{
		batch(t, mem, "1=a", "2=b", "3=c"),
		batch(t, mem, "3=c", "5=e", "6=f", "6=g", "7=null"),
	}
	new := []arrow.RecordBatch{
		batch(t, mem, "1=a", "2=bb", "4=d"),             // 1 carried over, 2 updated, 4 inserted
		batch(t, mem, "3=c", "6=h", "7=null", "8=null"), // one 3 deleted; 6 twice deleted, once inserted: no update
	}
	defer release(old)
	defer release(new)

	for _, tc := range []struct {
		ident []string
		want  []string
	}{
		{[]string{"id"}, []string{
			"UPDATE_BEFORE 2=b", "DELETE 3=c", "DELETE 5=e", "DELETE 6=f", "DELETE 6=g",
			"UPDATE_AFTER 2=bb", "INSERT 4=d", "INSERT 6=h", "INSERT 8=null",
		}},
		{nil, []string{
			"DELETE 2=b", "DELETE 3=c", "DELETE 5=e", "DELETE 6=f", "DELETE 6=g",
			"INSERT 2=bb", "INSERT 4=d", "INSERT 6=h", "INSERT 8=null",
		}},
	} {
		out, err := Diff(ctx, mem, old, new, tc.ident, meta)
		require.NoError(t, err)
		got := rows(t, out, meta)
		release(out)
		// Befores come first, then afters; within each, as want says
		// once sorted (updates lead each half).
		split := slices.IndexFunc(got, func(s string) bool {
			return strings.HasPrefix(s, "INSERT") || strings.HasPrefix(s, "UPDATE_AFTER")
		})
		require.Positive(t, split)
		for _, s := range got[split:] {
			require.False(t, strings.HasPrefix(s, "DELETE") || strings.HasPrefix(s, "UPDATE_BEFORE"), "%v", got)
		}
		if tc.ident != nil {
			require.Equal(t, "UPDATE_BEFORE 2=b", got[0])
			require.Equal(t, "UPDATE_AFTER 2=bb", got[split])
		}
		slices.Sort(got)
		want := slices.Clone(tc.want)
		slices.Sort(want)
		require.Equal(t, want, got, "identifier %v", tc.ident)
	}

	// A null and the text "null" differ.
	a, b := batch(t, mem, "9=null"), batch(t, mem, "9=")
	defer a.Release()
	defer b.Release()
	out, err := Diff(ctx, mem, []arrow.RecordBatch{a}, []arrow.RecordBatch{b}, nil, meta)
	require.NoError(t, err)
	require.Equal(t, []string{"DELETE 9=null", "INSERT 9="}, rows(t, out, meta))
	release(out)

	// Identical multisets: no change at all.
	out, err = Diff(ctx, mem, old, slices.Clone(old), []string{"id"}, meta)
	require.NoError(t, err)
	require.Empty(t, out)
}
