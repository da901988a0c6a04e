package icebergio

import (
	"fmt"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/stretchr/testify/require"
)

// wideEvent is a row of the tables of the columns tests, as a plain reader
// sees it.
type wideEvent struct {
	ID    int64    `beam:"id"`
	Name  string   `beam:"name"`
	Score *float64 `beam:"score"`
	Tags  []string `beam:"tags"`
}

// wideBatch is rows first..first+n-1 of a batch of eventSchema's columns
// and, in this order, those of extra present: "score" (id/2) and "tags"
// (["t<id>"]), from partition p's offsets first on.
func wideBatch(t testing.TB, p string, first, n int64, extra ...string) []byte {
	t.Helper()
	fields := slices.Clone(eventSchema.Fields())
	for _, e := range extra {
		switch e {
		case "score":
			fields = append(fields, arrow.Field{Name: "score", Type: arrow.PrimitiveTypes.Float64, Nullable: true})
		case "tags":
			fields = append(fields, arrow.Field{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true})
		}
	}
	// Columns in another order than the sink's: name first.
	fields[0], fields[1] = fields[1], fields[0]
	b := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema(fields, nil))
	defer b.Release()
	for id := first; id < first+n; id++ {
		b.Field(0).(*array.StringBuilder).Append(fmt.Sprint("e", id))
		b.Field(1).(*array.Int64Builder).Append(id)
		for i, e := range extra {
			switch e {
			case "score":
				b.Field(2 + i).(*array.Float64Builder).Append(float64(id) / 2)
			case "tags":
				lb := b.Field(2 + i).(*array.ListBuilder)
				lb.Append(true)
				lb.ValueBuilder().(*array.StringBuilder).Append(fmt.Sprint("t", id))
			}
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	enc, err := EncodeRecordsFrom(rec, map[string]SourceRange{p: {First: first, Last: first + n - 1}})
	require.NoError(t, err)
	return enc
}

// Batches with columns the records' schema lacks, in one pane and in
// panes after it, large (Parquet chunks) and small (row chunks), before
// and after batches of the sink's own columns: the table takes them as
// optional columns, every row lands once with its values (null where its
// batch lacked the column), and the offsets cover every batch.
func TestWriteRecordsMoreColumns(t *testing.T) {
	cfg := Config{Catalog: launch(t), Table: "kafka.wide", WriterID: "w"}
	run := func(batches ...[]byte) {
		p, s := beam.NewPipelineWithRoot()
		WriteRecords(s, cfg, eventSchema, beam.CreateList(s, batches))
		require.NoError(t, ptest.Run(p))
	}
	run(
		wideBatch(t, "e/0", 0, 1500),
		wideBatch(t, "e/0", 1500, 3, "score"),
		wideBatch(t, "e/0", 1503, 2000, "score"),
		wideBatch(t, "e/1", 0, 5),
		wideBatch(t, "e/1", 5, 1100, "score", "tags"),
		wideBatch(t, "e/1", 1105, 2),
	)
	run(wideBatch(t, "e/0", 3503, 10, "tags"), wideBatch(t, "e/0", 3513, 10))

	tbl := loadTable(t, openCat(t, cfg.Catalog), cfg.Table)
	require.Equal(t, []string{"id", "name", "score", "tags"}, tableColumns(tbl))
	offsets, err := SourceOffsets(tbl, "w")
	require.NoError(t, err)
	require.Equal(t, map[string]int64{"e/0": 3523, "e/1": 1107}, offsets)

	// What each row should hold, from the batches above.
	want := map[int64]wideEvent{}
	add := func(p string, first, n int64, extra ...string) {
		for id := first; id < first+n; id++ {
			key := id
			if p == "e/1" {
				key += 1_000_000
			}
			e := wideEvent{ID: id, Name: fmt.Sprint("e", id)}
			if slices.Contains(extra, "score") {
				e.Score = ptr(float64(id) / 2)
			}
			if slices.Contains(extra, "tags") {
				e.Tags = []string{fmt.Sprint("t", id)}
			}
			want[key] = e
		}
	}
	add("e/0", 0, 1500)
	add("e/0", 1500, 2003, "score")
	add("e/1", 0, 5)
	add("e/1", 5, 1100, "score", "tags")
	add("e/1", 1105, 2)
	add("e/0", 3503, 10, "tags")
	add("e/0", 3513, 10)

	rows := readRows[wideEvent](t, tbl)
	require.Len(t, rows, len(want))
	seen := map[int64]bool{}
	for _, r := range rows {
		// Partition e/1's ids repeat e/0's: its rows are told apart by
		// their values.
		key := r.ID
		if w, ok := want[key]; !ok || seen[key] || !equalWide(w, r) {
			key += 1_000_000
		}
		require.False(t, seen[key], "row %+v landed twice", r)
		require.Equal(t, want[key], r)
		seen[key] = true
	}
}

func equalWide(a, b wideEvent) bool {
	return a.ID == b.ID && a.Name == b.Name && (a.Score == nil) == (b.Score == nil) &&
		(a.Score == nil || *a.Score == *b.Score) && slices.Equal(a.Tags, b.Tags)
}

// Columns the records' schema lacks are refused where they cannot be
// added: by a row-level sink, a sink that never evolves its table, and
// when required; nothing is committed.
func TestWriteRecordsMoreColumnsRefused(t *testing.T) {
	cat := launch(t)
	required := func() []byte {
		sc := arrow.NewSchema(append(slices.Clone(eventSchema.Fields()), arrow.Field{Name: "score", Type: arrow.PrimitiveTypes.Float64}), nil)
		b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
		defer b.Release()
		b.Field(0).(*array.Int64Builder).Append(1)
		b.Field(1).(*array.StringBuilder).Append("e")
		b.Field(2).(*array.Float64Builder).Append(1)
		rec := b.NewRecordBatch()
		defer rec.Release()
		enc, err := EncodeRecords(rec)
		require.NoError(t, err)
		return enc
	}
	for _, tc := range []struct {
		name  string
		cfg   Config
		batch []byte
		want  string
	}{
		{"upsert", Config{Mode: Upsert, Key: []string{"id"}}, wideBatch(t, "e/0", 1, 1, "score"),
			`icebergio: table kafka.refused_upsert: a batch has column "score", which the records' schema lacks (only an appending sink that may evolve the table takes more columns)`},
		{"never", Config{SchemaEvolution: EvolveNever}, wideBatch(t, "e/0", 1, 1, "score"), `which the records' schema lacks (only an appending sink`},
		{"required", Config{}, required(), `a batch has column "score", which the records' schema lacks, and makes it required`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			cfg.Catalog, cfg.Table = cat, "kafka.refused_"+tc.name
			p, s := beam.NewPipelineWithRoot()
			WriteRecords(s, cfg, eventSchema, beam.CreateList(s, [][]byte{wideBatch(t, "e/0", 0, 1), tc.batch}))
			require.ErrorContains(t, ptest.Run(p), tc.want)
		})
	}
}
