package icebergio

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"
)

var eventSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "name", Type: arrow.BinaryTypes.String},
}, nil)

// eventBatch is ids as a batch read from partition at offsets first on.
func eventBatch(t testing.TB, partition string, first int64, ids ...int64) []byte {
	t.Helper()
	b := array.NewRecordBuilder(memory.DefaultAllocator, eventSchema)
	defer b.Release()
	for _, id := range ids {
		b.Field(0).(*array.Int64Builder).Append(id)
		b.Field(1).(*array.StringBuilder).Append("e")
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	enc, err := EncodeRecordsFrom(rec, map[string]SourceRange{partition: {First: first, Last: first + int64(len(ids)) - 1}})
	require.NoError(t, err)
	return enc
}

// Each commit records the offsets after the ranges its batches came from,
// per partition, for the writer, in the same transaction; the snapshot
// summary lists the pane's ranges; a table another writer commits to keeps
// both writers' offsets apart; the ranges are not columns.
func TestSourceOffsets(t *testing.T) {
	for _, mode := range []Mode{Append, Upsert} {
		t.Run(string(mode), func(t *testing.T) {
			cfg := Config{Catalog: launch(t), Table: "kafka.events_" + string(mode), Mode: mode, WriterID: "job-a", Key: []string{"id"}}
			if mode == Append {
				cfg.Key = nil
			}
			run := func(cfg Config, batches ...[]byte) {
				p, s := beam.NewPipelineWithRoot()
				WriteRecords(s, cfg, eventSchema, beam.CreateList(s, batches))
				require.NoError(t, ptest.Run(p))
			}
			run(cfg, eventBatch(t, "events/0", 0, 1, 2, 3), eventBatch(t, "events/1", 10, 4, 5), eventBatch(t, "events/0", 3, 6))
			tbl := loadTable(t, openCat(t, cfg.Catalog), cfg.Table)
			got, err := SourceOffsets(tbl, "job-a")
			require.NoError(t, err)
			require.Equal(t, map[string]int64{"events/0": 4, "events/1": 12}, got)
			require.Equal(t, "events/0:0-3,events/1:10-11", tbl.CurrentSnapshot().Summary.Properties[SourceRangesKey])
			require.Equal(t, []string{"id", "name"}, tableColumns(tbl))
			snap := tbl.CurrentSnapshot().SnapshotID

			// The same records read again (a job restarted without
			// runner state, a pane formed again): new chunks, same ranges,
			// skipped.
			run(cfg, eventBatch(t, "events/0", 0, 1, 2, 3), eventBatch(t, "events/1", 10, 4, 5))
			tbl = loadTable(t, openCat(t, cfg.Catalog), cfg.Table)
			require.Equal(t, snap, tbl.CurrentSnapshot().SnapshotID, "records already landed were committed again")

			run(cfg, eventBatch(t, "events/1", 12, 7), eventBatch(t, "other/0", 100, 8))
			other := cfg
			other.WriterID = "job-b"
			run(other, eventBatch(t, "events/0", 50, 9))
			tbl = loadTable(t, openCat(t, cfg.Catalog), cfg.Table)
			got, err = SourceOffsets(tbl, "job-a")
			require.NoError(t, err)
			require.Equal(t, map[string]int64{"events/0": 4, "events/1": 13, "other/0": 101}, got)
			got, err = SourceOffsets(tbl, "job-b")
			require.NoError(t, err)
			require.Equal(t, map[string]int64{"events/0": 51}, got)
			n, err := countRows(tbl)
			require.NoError(t, err)
			require.EqualValues(t, 9, n)
		})
	}
}

// A pane of batches without rows (their records went to other tables)
// commits the writer's offsets alone: no snapshot, the property moves; a
// second such pane with other ranges commits too.
func TestSourceOffsetsWithoutRows(t *testing.T) {
	cfg := Config{Catalog: launch(t), Table: "kafka.rejected", WriterID: "w"}
	run := func(batches ...[]byte) {
		p, s := beam.NewPipelineWithRoot()
		WriteRecords(s, cfg, eventSchema, beam.CreateList(s, batches))
		require.NoError(t, ptest.Run(p))
	}
	run(eventBatch(t, "a/0", 0, 1))
	tbl := loadTable(t, openCat(t, cfg.Catalog), cfg.Table)
	snap := tbl.CurrentSnapshot().SnapshotID
	run(eventBatch(t, "a/0", 1, 2), emptyBatch(t, map[string]SourceRange{"a/0": {1, 40}, "b/3": {7, 9}}))
	run(emptyBatch(t, map[string]SourceRange{"b/3": {10, 20}}))
	tbl = loadTable(t, openCat(t, cfg.Catalog), cfg.Table)
	got, err := SourceOffsets(tbl, "w")
	require.NoError(t, err)
	require.Equal(t, map[string]int64{"a/0": 41, "b/3": 21}, got)
	cur := tbl.CurrentSnapshot()
	require.True(t, cur.ParentSnapshotID != nil && *cur.ParentSnapshotID == snap, "one snapshot for the rows of the second pane, none for the third")
	commits, rows, ok := CommittedBy(tbl, "w")
	require.True(t, ok)
	require.EqualValues(t, 3, commits)
	require.EqualValues(t, 2, rows)
}

func emptyBatch(t testing.TB, from map[string]SourceRange) []byte {
	t.Helper()
	b := array.NewRecordBuilder(memory.DefaultAllocator, eventSchema)
	defer b.Release()
	rec := b.NewRecordBatch()
	defer rec.Release()
	enc, err := EncodeRecordsFrom(rec, from)
	require.NoError(t, err)
	return enc
}

// A batch without ranges leaves the offsets as they are.
func TestSourceOffsetsNone(t *testing.T) {
	cfg := Config{Catalog: launch(t), Table: "kafka.plain", WriterID: "w"}
	rec := array.NewRecordBuilder(memory.DefaultAllocator, eventSchema)
	rec.Field(0).(*array.Int64Builder).Append(1)
	rec.Field(1).(*array.StringBuilder).Append("x")
	b, err := EncodeRecords(rec.NewRecordBatch())
	require.NoError(t, err)
	p, s := beam.NewPipelineWithRoot()
	WriteRecords(s, cfg, eventSchema, beam.CreateList(s, [][]byte{b}))
	require.NoError(t, ptest.Run(p))
	tbl := loadTable(t, openCat(t, cfg.Catalog), cfg.Table)
	got, err := SourceOffsets(tbl, "w")
	require.NoError(t, err)
	require.Empty(t, got)
	_, ok := tbl.Properties()[SourceOffsetsKeyPrefix+"w"]
	require.False(t, ok)
}

func TestParseSourceRanges(t *testing.T) {
	r, err := parseSourceRanges("a.b-c/0:5-9,x/12:0-0")
	require.NoError(t, err)
	require.Equal(t, sourceRanges{"a.b-c/0": {5, 9}, "x/12": {0, 0}}, r)
	require.Equal(t, "a.b-c/0:5-9,x/12:0-0", r.String())
	for _, bad := range []string{"x", "x:1", "x:2-1", ":1-2", "x:a-b"} {
		_, err := parseSourceRanges(bad)
		require.Error(t, err, bad)
	}
}

func countRows(tbl *table.Table) (int64, error) {
	tasks, err := tbl.Scan().PlanFiles(context.Background())
	if err != nil {
		return 0, err
	}
	var n int64
	for _, task := range tasks {
		n += task.File.Count()
	}
	return n, nil
}
