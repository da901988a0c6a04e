package icebergio

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/transforms/maintenance"
)

// foreignV3Table creates name as format v3 through the REST API, as Spark,
// pyiceberg or BigLake make such tables: the sink did not create it.
func foreignV3Table(t *testing.T, cat icecatalog.Catalog, name string, schema *iceberg.Schema) *table.Table {
	t.Helper()
	tbl := foreignTable(t, cat, name, schema, icecatalog.WithProperties(iceberg.Properties{table.PropertyFormatVersion: "3"}))
	require.Equal(t, 3, tbl.Metadata().Version())
	return tbl
}

// requireRowLineage checks the v3 row lineage of tbl's current snapshot as
// the spec defines it, from the manifests: every live data file has a
// first_row_id (its own or inherited from its manifest), the files' ranges
// [first_row_id, first_row_id + record_count) do not overlap, and the
// table's next-row-id is past all of them.
func requireRowLineage(t *testing.T, tbl *table.Table) {
	t.Helper()
	fs, err := tbl.FS(context.Background())
	require.NoError(t, err)
	manifests, err := tbl.CurrentSnapshot().Manifests(fs)
	require.NoError(t, err)
	type span struct {
		first, n int64
		path     string
	}
	var spans []span
	for _, m := range manifests {
		if m.ManifestContent() != iceberg.ManifestContentData {
			continue
		}
		entries, err := m.FetchEntries(fs, true)
		require.NoError(t, err)
		for _, e := range entries {
			df := e.DataFile()
			require.NotNil(t, df.FirstRowID(), "data file %s has no first_row_id", df.FilePath())
			spans = append(spans, span{*df.FirstRowID(), df.Count(), df.FilePath()})
		}
	}
	require.NotEmpty(t, spans)
	slices.SortFunc(spans, func(a, b span) int { return int(a.first - b.first) })
	for i := 1; i < len(spans); i++ {
		prev := spans[i-1]
		require.GreaterOrEqual(t, spans[i].first, prev.first+prev.n,
			"row ids of %s [%d, %d) overlap those of %s from %d", prev.path, prev.first, prev.first+prev.n, spans[i].path, spans[i].first)
	}
	last := spans[len(spans)-1]
	require.GreaterOrEqual(t, tbl.Metadata().NextRowID(), last.first+last.n, "next-row-id")
}

// rowIDs reads each row's _row_id, as a v3 reader sees it, by the row's seq
// column, and requires them unique.
func rowIDs(t *testing.T, tbl *table.Table) map[int64]int64 {
	t.Helper()
	at, err := tbl.Scan(table.WithSelectedFields("seq", "_row_id")).ToArrowTable(context.Background())
	require.NoError(t, err)
	defer at.Release()
	tr := array.NewTableReader(at, 1<<16)
	defer tr.Release()
	ids := map[int64]int64{}
	seen := map[int64]int64{}
	for tr.Next() {
		rec := tr.RecordBatch()
		var seqCol, idCol *array.Int64
		for c := range int(rec.NumCols()) {
			switch rec.ColumnName(c) {
			case "seq":
				seqCol = rec.Column(c).(*array.Int64)
			case "_row_id":
				idCol = rec.Column(c).(*array.Int64)
			}
		}
		require.NotNil(t, idCol, "no _row_id column")
		for r := range int(rec.NumRows()) {
			require.False(t, idCol.IsNull(r), "seq %d has no _row_id", seqCol.Value(r))
			id, seq := idCol.Value(r), seqCol.Value(r)
			if other, ok := seen[id]; ok {
				t.Fatalf("_row_id %d of both seq %d and seq %d", id, other, seq)
			}
			seen[id] = seq
			ids[seq] = id
		}
	}
	return ids
}

// requireV3Rows checks that tbl holds each seq in want once, with valid row
// lineage, and returns the rows' ids.
func requireV3Rows(t *testing.T, tbl *table.Table, want []int64) map[int64]int64 {
	t.Helper()
	requireSeqs(t, tbl, want)
	requireRowLineage(t, tbl)
	ids := rowIDs(t, tbl)
	require.Len(t, ids, len(want))
	return ids
}

// Appends to a v3 table another engine made, pane by pane: small panes
// (Arrow IPC chunks) and a large one (Parquet chunks), several commits.
func TestV3AppendToForeignTable(t *testing.T) {
	ctx := context.Background()
	cat := launch(t)
	c := openCat(t, cat)
	const name = "v3.clicks"
	s := newTestSink[click](t, Config{Catalog: cat, Table: name, WriterID: "w"})
	foreignV3Table(t, c, name, s.rows.Iceberg)

	_, err := s.commit(ctx, name, chunksOf(t, s, clicks(0, 70, "a"), 50), nil)
	require.NoError(t, err)
	before := requireV3Rows(t, loadTable(t, c, name), seqs(0, 70))
	_, err = s.commit(ctx, name, parquetChunksOf(t, s, clicks(70, 5070, "b"), 2000), nil)
	require.NoError(t, err)
	_, err = s.commit(ctx, name, chunksOf(t, s, clicks(5070, 5080, "c"), 10), nil)
	require.NoError(t, err)

	tbl := loadTable(t, c, name)
	ids := requireV3Rows(t, tbl, seqs(0, 5080))
	for seq, id := range before {
		require.Equal(t, id, ids[seq], "a row's id stays when others are appended")
	}
	require.EqualValues(t, 5080, tbl.Metadata().NextRowID())
	for _, sn := range tbl.Metadata().Snapshots() {
		require.Equal(t, table.OpAppend, sn.Summary.Operation)
	}
	require.Len(t, tbl.Metadata().Snapshots(), 3)
}

// A commit that conflicts with other writers' is staged again on the
// reloaded table: its rows must not take ids the others took meanwhile.
func TestV3ConflictsKeepRowIDsApart(t *testing.T) {
	ctx := context.Background()
	direct := launch(t)
	viaProxy, fp := proxied(t, direct)
	const name = "v3.conflict"
	s := newTestSink[click](t, Config{Catalog: viaProxy, Table: name, WriterID: "w"})
	foreignV3Table(t, openCat(t, direct), name, s.rows.Iceberg)

	other := newTestSink[click](t, Config{Catalog: direct, Table: name, WriterID: "other"})
	n := 0
	fp.before = func() {
		_, err := other.commit(ctx, name, chunksOf(t, other, clicks(1000+10*n, 1010+10*n, "b"), 10), nil)
		require.NoError(t, err)
		n++
	}
	fp.beforeN = 3
	_, err := s.commit(ctx, name, chunksOf(t, s, clicks(0, 200, "a"), 64), nil)
	require.NoError(t, err)
	require.Equal(t, 4, fp.commits, "three conflicts, then success")
	requireV3Rows(t, loadTable(t, openCat(t, direct), name), append(seqs(0, 200), seqs(1000, 1030)...))

	replacer := newTestSink[click](t, Config{Catalog: viaProxy, Table: name, WriterID: "r", Mode: CreateOrReplace})
	fp.beforeN = 2
	_, err = replacer.commit(ctx, name, chunksOf(t, replacer, clicks(2000, 2100, "r"), 64), nil)
	require.NoError(t, err)
	require.Equal(t, 7, fp.commits, "two conflicts, then success")
	// Staged again after each conflict, the replace removes the other
	// writer's appends too.
	requireV3Rows(t, loadTable(t, openCat(t, direct), name), seqs(2000, 2100))
}

// Bounded writes on prism into a v3 table another engine made, one committer
// and sharded.
func TestV3BatchAppend(t *testing.T) {
	cat := launch(t)
	c := openCat(t, cat)
	const name = "v3.batch"
	foreignV3Table(t, c, name, newTestSink[click](t, Config{Catalog: cat, Table: name}).rows.Iceberg)

	rows := clicks(0, 20000, "a")
	res := runWrite(t, Config{Catalog: cat, Table: name}, rows)
	require.Len(t, res, 1)
	require.EqualValues(t, 20000, res[0].Rows)
	res = runWrite(t, Config{Catalog: cat, Table: name, Shards: 2}, clicks(20000, 26000, "b"))
	require.NotEmpty(t, res)
	requireV3Rows(t, loadTable(t, c, name), seqs(0, 26000))
}

// A stream into a v3 table another engine made, at one row per 10 ms, whose
// row type gains fields between two runs (EvolveAlways: the sink did not
// create the table).
func TestV3StreamingAppendAndEvolution(t *testing.T) {
	cat := launch(t)
	c := openCat(t, cat)
	const name = "v3.stream"
	foreignV3Table(t, c, name, newTestSink[eventV1](t, Config{Catalog: cat, Table: name}).rows.Iceberg)

	cfg := Config{Catalog: cat, Table: name, TriggeringFrequency: time.Second, WriterID: "events", SchemaEvolution: EvolveAlways}
	n1 := runEvents(t, cfg, 0, false, 3*time.Second, 10*time.Millisecond)
	tbl := loadTable(t, c, name)
	require.Greater(t, len(tbl.Metadata().Snapshots()), 1, "a 3 s stream with a 1 s trigger commits more than once")
	before := requireV3Rows(t, tbl, seqs(0, n1))

	n2 := runEvents(t, cfg, int64(n1), true, 3*time.Second, 10*time.Millisecond)
	tbl = loadTable(t, c, name)
	want := bySeq(append(asV2(eventsV1(0, n1)), eventsV2(n1, n1+n2)...))
	require.Equal(t, want, bySeq(readRows[eventV2](t, tbl)))
	require.Len(t, tbl.Metadata().Schemas(), 2)
	ids := requireV3Rows(t, tbl, seqs(0, n1+n2))
	for seq, id := range before {
		require.Equal(t, id, ids[seq])
	}
}

// CreateOrReplace on a v3 table another engine made: each replace leaves
// only its rows, with ids past every earlier row's, also when the schema
// changes.
func TestV3CreateOrReplace(t *testing.T) {
	cat := launch(t)
	c := openCat(t, cat)
	const name = "v3.summary"
	foreignV3Table(t, c, name, newTestSink[tripV1](t, Config{Catalog: cat, Table: name}).rows.Iceberg)

	cfg := Config{Catalog: cat, Table: name, Mode: CreateOrReplace}
	v1 := tripsV1(300)
	runWrite(t, cfg, v1)
	tbl := loadTable(t, c, name)
	got := readRows[tripV1](t, tbl)
	sortTrips(got)
	sortTrips(v1)
	require.Equal(t, v1, got)
	requireRowLineage(t, tbl)
	require.EqualValues(t, 300, tbl.Metadata().NextRowID())
	runWrite(t, cfg, v1[:100])
	require.EqualValues(t, 400, loadTable(t, c, name).Metadata().NextRowID())

	var v2 []tripV2
	for i := range 50 {
		v2 = append(v2, tripV2{Day: int32(20100 + i), Payment: "card", Trips: int64(i) << 33, Fare: ptr(float64(i))})
	}
	runWrite(t, cfg, v2)
	tbl = loadTable(t, c, name)
	got2 := readRows[tripV2](t, tbl)
	sortTrips(got2)
	require.Equal(t, v2, got2)
	_, hasNote := tbl.Schema().FindFieldByName("note")
	require.False(t, hasNote)
	requireRowLineage(t, tbl)
	require.EqualValues(t, 450, tbl.Metadata().NextRowID())
	// A replace of a non-empty table is an overwrite and an append.
	snaps := tbl.Metadata().Snapshots()
	require.Len(t, snaps, 5)
	require.Equal(t, table.OpOverwrite, snaps[3].Summary.Operation)
	require.Equal(t, table.OpAppend, snaps[4].Summary.Operation)
	require.Equal(t, "300", snaps[1].Summary.Properties["deleted-records"])
	// A column besides _row_id: iceberg-go reads none for _row_id alone.
	at, err := tbl.Scan(table.WithSelectedFields("trips", "_row_id")).ToArrowTable(context.Background())
	require.NoError(t, err)
	defer at.Release()
	var ids []int64
	for _, chunk := range at.Column(at.Schema().FieldIndices("_row_id")[0]).Data().Chunks() {
		ids = append(ids, chunk.(*array.Int64).Int64Values()...)
	}
	slices.Sort(ids)
	require.Equal(t, int64(400), ids[0], "the replacing rows get new ids")
	require.Equal(t, int64(449), ids[len(ids)-1])
}

// Maintenance of a v3 table another engine made and the sink appended to:
// compaction keeps every row's id, expiry keeps lineage, and appends after
// both get ids of their own.
func TestV3Maintenance(t *testing.T) {
	ctx := context.Background()
	cat := launch(t)
	c := openCat(t, cat)
	const name = "v3.compact"
	s := newTestSink[click](t, Config{Catalog: cat, Table: name, WriterID: "w"})
	foreignV3Table(t, c, name, s.rows.Iceberg)
	for i := range 6 {
		_, err := s.commit(ctx, name, chunksOf(t, s, clicks(100*i, 100*i+100, fmt.Sprint(i)), 100), nil)
		require.NoError(t, err)
	}
	before := requireV3Rows(t, loadTable(t, c, name), seqs(0, 600))

	sum, err := maintenance.Run(ctx, c, maintenance.Options{Table: name, RewriteDataFiles: true, MinInputFiles: 2,
		ExpireSnapshots: true, RetainLast: 1, OlderThan: time.Nanosecond}, maintenance.InProcess(2))
	require.NoError(t, err)
	require.NotNil(t, sum.Rewrite)
	require.EqualValues(t, 6, sum.Rewrite.FilesRewritten)
	tbl := loadTable(t, c, name)
	require.Len(t, tbl.Metadata().Snapshots(), 1)
	require.Equal(t, table.OpReplace, tbl.CurrentSnapshot().Summary.Operation)
	require.Equal(t, before, requireV3Rows(t, tbl, seqs(0, 600)), "compaction keeps each row's id")

	_, err = s.commit(ctx, name, chunksOf(t, s, clicks(600, 650, "x"), 50), nil)
	require.NoError(t, err)
	ids := requireV3Rows(t, loadTable(t, c, name), seqs(0, 650))
	for seq, id := range before {
		require.Equal(t, id, ids[seq])
	}
}
