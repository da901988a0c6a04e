package icebergio

import (
	"context"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/transforms/icebergio/internal/stitch"
)

// sortRows orders benchRows by their unique pickup_ts.
func sortRows(rows []benchRow) {
	slices.SortFunc(rows, func(a, b benchRow) int { return int(a.PickupTS - b.PickupTS) })
}

func unbox(rows []any) []benchRow {
	out := make([]benchRow, len(rows))
	for i, r := range rows {
		out[i] = r.(benchRow)
	}
	return out
}

// A pane stitched from many chunks is one data file whose rows and Iceberg
// column statistics are those iceberg-go's own writer gives the same rows.
func TestStitchedFileMatchesIcebergGoWriter(t *testing.T) {
	ctx := context.Background()
	s := newTestSink[benchRow](t, Config{Catalog: launch(t), Table: "st.rows", WriterID: "w"})
	rows := unbox(benchRows(10_000))
	// 9,500 rows are copied as one row group; the 500 left are below
	// stitch.MinRowGroupRows and re-encoded: two row groups either way.
	res, err := s.commit(ctx, "st.rows", chunksOf(t, s, rows, 9500), nil)
	require.NoError(t, err)
	require.Equal(t, int64(1), res.Files)
	require.Equal(t, int64(len(rows)), res.Rows)

	tbl := loadTable(t, s.cat, "st.rows")
	got := readRows[benchRow](t, tbl)
	sortRows(got)
	require.Equal(t, rows, got)

	files, err := currentDataFiles(ctx, tbl)
	require.NoError(t, err)
	require.Len(t, files, 1)
	stitched := files[0]
	f, err := file.OpenParquetFile(strings.TrimPrefix(stitched.FilePath(), "file://"), false)
	require.NoError(t, err)
	defer f.Close()
	require.Equal(t, 2, f.NumRowGroups())
	fi, err := os.Stat(strings.TrimPrefix(stitched.FilePath(), "file://"))
	require.NoError(t, err)
	require.Equal(t, fi.Size(), stitched.FileSizeBytes())
	require.Len(t, stitched.SplitOffsets(), 2)

	// The reference: iceberg-go writes the same rows as one file.
	var ref []iceberg.DataFile
	for df, err := range table.WriteRecords(ctx, tbl, s.rows.Arrow, batches(t, s, rows)) {
		require.NoError(t, err)
		ref = append(ref, df)
	}
	require.Len(t, ref, 1)
	require.Equal(t, ref[0].Count(), stitched.Count())
	require.Equal(t, ref[0].ValueCounts(), stitched.ValueCounts())
	require.Equal(t, ref[0].NullValueCounts(), stitched.NullValueCounts())
	require.Equal(t, ref[0].LowerBoundValues(), stitched.LowerBoundValues())
	require.Equal(t, ref[0].UpperBoundValues(), stitched.UpperBoundValues())
	require.Equal(t, ref[0].Partition(), stitched.Partition())
}

// batches converts rows to one Arrow batch.
func batches(t *testing.T, s *sink, rows []benchRow) func(yield func(arrow.RecordBatch, error) bool) {
	t.Helper()
	return func(yield func(arrow.RecordBatch, error) bool) {
		bb := s.rows.NewBatchBuilder(memory.DefaultAllocator)
		defer bb.Release()
		for i := range rows {
			v := any(rows[i])
			bb.Add(s.rows.RowPointer(&v))
		}
		yield(bb.Batch(), nil)
	}
}

// Bloom filters the table properties ask for survive stitching, each row
// group pointing at its own.
func TestStitchKeepsBloomFilters(t *testing.T) {
	ctx := context.Background()
	s := newTestSink[click](t, Config{Catalog: launch(t), Table: "st.bloom", WriterID: "w",
		Properties: map[string]string{"write.parquet.bloom-filter-enabled.column.user_id": "true"}})
	rows := append(clicks(0, stitch.MinRowGroupRows, "ann"), clicks(stitch.MinRowGroupRows, 2*stitch.MinRowGroupRows, "bob")...)
	_, err := s.commit(ctx, "st.bloom", chunksOf(t, s, rows, stitch.MinRowGroupRows), nil)
	require.NoError(t, err)
	files, err := currentDataFiles(ctx, loadTable(t, s.cat, "st.bloom"))
	require.NoError(t, err)
	f, err := file.OpenParquetFile(strings.TrimPrefix(files[0].FilePath(), "file://"), false)
	require.NoError(t, err)
	defer f.Close()
	require.Equal(t, 2, f.NumRowGroups())
	for rg, want := range []string{"ann", "bob"} {
		r, err := f.GetBloomFilterReader().RowGroup(rg)
		require.NoError(t, err)
		bf, err := r.GetColumnBloomFilter(0) // user_id
		require.NoError(t, err)
		require.NotNil(t, bf, "row group %d has no bloom filter", rg)
		typed := metadata.TypedBloomFilter[parquet.ByteArray]{BloomFilter: bf}
		require.True(t, typed.Check(parquet.ByteArray(want)), "row group %d: %s", rg, want)
		for _, absent := range []string{"ann", "bob", "carol"} {
			if absent != want {
				require.False(t, typed.Check(parquet.ByteArray(absent)), "row group %d: %s", rg, absent)
			}
		}
	}
}

// A table whose field ids differ from the rows' (columns in another order,
// an extra column) gets data files carrying its own ids: readers resolve
// columns by id, so a wrong id would show as values in the wrong column.
func TestStitchUsesTheTablesFieldIDs(t *testing.T) {
	ctx := context.Background()
	cfg := Config{Catalog: launch(t), Table: "st.ids", WriterID: "w"}
	s := newTestSink[click](t, cfg)
	ident, err := parseIdent("st.ids")
	require.NoError(t, err)
	require.NoError(t, s.cat.CreateNamespace(ctx, icecatalog.NamespaceFromIdent(ident), nil))
	_, err = s.cat.CreateTable(ctx, ident, iceberg.NewSchema(0,
		iceberg.NestedField{ID: 1, Name: "note", Type: iceberg.PrimitiveTypes.String},
		iceberg.NestedField{ID: 2, Name: "ts", Type: iceberg.PrimitiveTypes.TimestampTz},
		iceberg.NestedField{ID: 3, Name: "seq", Type: iceberg.PrimitiveTypes.Int64},
		iceberg.NestedField{ID: 4, Name: "user_id", Type: iceberg.PrimitiveTypes.String},
	))
	require.NoError(t, err)
	rows := clicks(0, 50, "ann")
	res, err := s.commit(ctx, "st.ids", chunksOf(t, s, rows, 20), nil)
	require.NoError(t, err)
	require.Equal(t, int64(1), res.Files)

	tbl := loadTable(t, s.cat, "st.ids")
	require.Equal(t, rows, readRows[click](t, tbl))
	type withNote struct {
		Note *string `beam:"note"`
		Seq  int64   `beam:"seq"`
	}
	for i, r := range readRows[withNote](t, tbl) {
		require.Equal(t, withNote{Seq: int64(i)}, r)
	}
}

// A table partitioned otherwise than the sink's config gets the rows
// re-encoded by iceberg-go, partitioned by the table's spec.
func TestTableWithAnotherSpecIsRewritten(t *testing.T) {
	ctx := context.Background()
	s := newTestSink[click](t, Config{Catalog: launch(t), Table: "st.spec", WriterID: "w"})
	ident, err := parseIdent("st.spec")
	require.NoError(t, err)
	require.NoError(t, s.cat.CreateNamespace(ctx, icecatalog.NamespaceFromIdent(ident), nil))
	spec := iceberg.NewPartitionSpec(iceberg.PartitionField{SourceIDs: []int{1}, FieldID: 1000, Name: "user_id", Transform: iceberg.IdentityTransform{}})
	_, err = s.cat.CreateTable(ctx, ident, s.rows.Iceberg, icecatalog.WithPartitionSpec(&spec))
	require.NoError(t, err)

	rows := append(clicks(0, 30, "ann"), clicks(30, 50, "bob")...)
	res, err := s.commit(ctx, "st.spec", chunksOf(t, s, rows, 16), nil)
	require.NoError(t, err)
	require.Equal(t, int64(2), res.Files, "one file per user")
	tbl := loadTable(t, s.cat, "st.spec")
	requireSeqs(t, tbl, seqs(0, 50))
	got := readRows[click](t, tbl, table.WithRowFilter(iceberg.EqualTo(iceberg.Reference("user_id"), "bob")))
	require.Len(t, got, 20)
}

// Files roll at the target size, between chunks; every row lands once.
func TestStitchedFilesRollAtTargetSize(t *testing.T) {
	ctx := context.Background()
	s := newTestSink[benchRow](t, Config{Catalog: launch(t), Table: "st.roll", WriterID: "w", TargetFileSize: 120 << 10})
	rows := unbox(benchRows(100_000))
	res, err := s.commit(ctx, "st.roll", chunksOf(t, s, rows, stitch.MinRowGroupRows), nil)
	require.NoError(t, err)
	require.Greater(t, res.Files, int64(2))
	require.Less(t, res.Files, int64(13), "files hold several chunks")
	got := readRows[benchRow](t, loadTable(t, s.cat, "st.roll"))
	sortRows(got)
	require.Equal(t, rows, got)
}

// A table's own write.target-file-size-bytes, set by whoever created it,
// wins over the sink's TargetFileSize.
func TestTableTargetFileSizeWins(t *testing.T) {
	ctx := context.Background()
	cat := launch(t)
	rows := unbox(benchRows(100_000))
	for _, tc := range []struct {
		name          string
		table, config int64 // 0: unset
		many          bool
	}{
		{"table small, config unset", 120 << 10, 0, true},
		{"table large, config small", 1 << 30, 120 << 10, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := "st.target_" + strconv.FormatInt(tc.table, 10)
			props := map[string]string{}
			if tc.table > 0 {
				props[table.WriteTargetFileSizeBytesKey] = strconv.FormatInt(tc.table, 10)
			}
			// Another writer creates the table with the property.
			_, _, err := newTestSink[benchRow](t, Config{Catalog: cat, Table: name, Properties: props}).loadOrCreate(ctx, name)
			require.NoError(t, err)
			s := newTestSink[benchRow](t, Config{Catalog: cat, Table: name, TargetFileSize: tc.config})
			res, err := s.commit(ctx, name, chunksOf(t, s, rows, stitch.MinRowGroupRows), nil)
			require.NoError(t, err)
			if tc.many {
				require.Greater(t, res.Files, int64(2), "files roll at the table's 120 KiB")
			} else {
				require.Equal(t, int64(1), res.Files, "one file under the table's 1 GiB")
			}
			got := readRows[benchRow](t, loadTable(t, s.cat, name))
			sortRows(got)
			require.Equal(t, rows, got)
		})
	}
}

// A pane of many tiny chunks (a runner's small bundles) becomes a file of
// full row groups, not one row group per chunk.
func TestSmallChunksShareRowGroups(t *testing.T) {
	ctx := context.Background()
	s := newTestSink[benchRow](t, Config{Catalog: launch(t), Table: "st.small", WriterID: "w"})
	rows := unbox(benchRows(maxBatchRows + 3000))
	res, err := s.commit(ctx, "st.small", chunksOf(t, s, rows, 100), nil)
	require.NoError(t, err)
	require.Equal(t, int64(1), res.Files)
	tbl := loadTable(t, s.cat, "st.small")
	files, err := currentDataFiles(ctx, tbl)
	require.NoError(t, err)
	f, err := file.OpenParquetFile(strings.TrimPrefix(files[0].FilePath(), "file://"), false)
	require.NoError(t, err)
	defer f.Close()
	// The first row group is flushed once maxBatchRows rows are pending:
	// the chunk that crosses the mark joins it.
	require.Equal(t, 2, f.NumRowGroups())
	require.GreaterOrEqual(t, f.RowGroup(0).NumRows(), int64(maxBatchRows))
	got := readRows[benchRow](t, tbl)
	sortRows(got)
	require.Equal(t, rows, got)
}

// Past the pane's re-encoding budget small chunks are copied as they are:
// the time after the trigger stays bounded.
func TestReencodingIsBounded(t *testing.T) {
	ctx := context.Background()
	s := newTestSink[click](t, Config{Catalog: launch(t), Table: "st.budget", WriterID: "w"})
	tbl, _, err := s.loadOrCreate(ctx, "st.budget")
	require.NoError(t, err)
	layout, err := stitch.LayoutFor(s.enc.tbl, tbl)
	require.NoError(t, err)
	st, err := stitch.New(ctx, tbl, stitch.Config{Layout: layout, Codec: chunkCodec{s.enc},
		TargetFileSize: s.cfg.TargetFileSize, RowGroupRows: maxBatchRows, ReencodeRows: 500})
	require.NoError(t, err)
	for c, err := range parquetChunksOf(t, s, clicks(0, 2000, "a"), 100) {
		require.NoError(t, err)
		require.NoError(t, st.Add(ctx, c.stitched()))
	}
	files, err := st.Close(ctx)
	require.NoError(t, err)
	require.Len(t, files, 1)
	f, err := file.OpenParquetFile(strings.TrimPrefix(files[0].FilePath(), "file://"), false)
	require.NoError(t, err)
	defer f.Close()
	require.Equal(t, 15+1, f.NumRowGroups(), "15 chunks copied, 5 re-encoded as one row group")
	require.Equal(t, int64(2000), f.NumRows())
}

// A chunk that is not one (another version's, or corrupt) fails the pane
// with an error saying so, and nothing is committed.
func TestCorruptChunk(t *testing.T) {
	ctx := context.Background()
	s := newTestSink[click](t, Config{Catalog: launch(t), Table: "st.corrupt", WriterID: "w"})
	good := parquetChunksOf(t, s, clicks(0, 10, "a"), 10)
	var blob []byte
	for c, err := range good {
		require.NoError(t, err)
		blob, err = appendChunk(nil, c.chunkHeader, c.parquet[:len(c.parquet)-20])
		require.NoError(t, err)
	}
	_, err := decodeChunk(blob)
	require.ErrorContains(t, err, "decoding a shuffled chunk")
	_, err = decodeChunk([]byte("ARROW1 not a chunk"))
	require.ErrorContains(t, err, "without the \"IBC2\" or \"IBR2\" prefix")

	// A row chunk cut short, and one whose rows were encoded for another
	// schema (its 8 bytes of the schema's hash changed).
	rowBlob := encodeRows(t, s, clicks(0, 5, "a"), 5)[0]
	_, err = decodeChunk(rowBlob[:len(rowChunkMagic)+20])
	require.ErrorContains(t, err, "truncated header")
	rc, err := decodeChunk(rowBlob)
	require.NoError(t, err)
	other := slices.Clone(rowBlob)
	other[len(rowBlob)-len(rc.ipc)] ^= 0xff

	for blob, why := range map[*[]byte]string{&blob: "decoding a shuffled chunk", &other: "encoded for another schema"} {
		bad := func(yield func(*chunk, error) bool) { yield(decodeChunk(*blob)) }
		_, err = s.commit(ctx, "st.corrupt", bad, nil)
		require.ErrorContains(t, err, "st.corrupt")
		require.ErrorContains(t, err, why)
		tbl := loadTable(t, s.cat, "st.corrupt")
		require.Nil(t, tbl.CurrentSnapshot())
	}
}

// A table's own Parquet settings, set by whoever created it, shape the data
// files: its codec, and row groups of its byte size (which iceberg-go's
// writer would ignore). Settings equal to the defaults, as Spark writes its
// codec out, still let chunks be stitched as they are.
func TestTableParquetSettingsWin(t *testing.T) {
	ctx := context.Background()
	cat := launch(t)
	const rowGroupBytes = 256 << 10
	name := "st.settings"
	props := map[string]string{
		table.ParquetCompressionKey:       "gzip",
		table.ParquetRowGroupSizeBytesKey: strconv.Itoa(rowGroupBytes),
	}
	// Another writer creates the table with the properties.
	_, _, err := newTestSink[benchRow](t, Config{Catalog: cat, Table: name, Properties: props}).loadOrCreate(ctx, name)
	require.NoError(t, err)
	s := newTestSink[benchRow](t, Config{Catalog: cat, Table: name})
	rows := unbox(benchRows(200_000))
	_, err = s.commit(ctx, name, chunksOf(t, s, rows, 50_000), nil)
	require.NoError(t, err)
	tbl := loadTable(t, s.cat, name)
	got := readRows[benchRow](t, tbl)
	sortRows(got)
	require.Equal(t, rows, got)

	tasks, err := tbl.Scan().PlanFiles(ctx)
	require.NoError(t, err)
	var groups int
	for _, task := range tasks {
		f, err := os.Open(strings.TrimPrefix(task.File.FilePath(), "file://"))
		require.NoError(t, err)
		r, err := file.NewParquetReader(f)
		require.NoError(t, err)
		for i := range r.NumRowGroups() {
			rg := r.MetaData().RowGroup(i)
			groups++
			require.LessOrEqual(t, rg.TotalByteSize(), int64(rowGroupBytes)*5/4, "row group %d of %s", i, task.File.FilePath())
			for c := range rg.NumColumns() {
				cc, err := rg.ColumnChunk(c)
				require.NoError(t, err)
				require.Equal(t, "GZIP", cc.Compression().String(), "column %d of %s", c, task.File.FilePath())
			}
		}
		r.Close()
	}
	require.Greater(t, groups, 4, "200,000 rows in row groups of 256 KiB")
}

// A table's write.metadata.metrics.default of none leaves its data files
// without column statistics, as Iceberg's writers do.
func TestTableMetricsModeWins(t *testing.T) {
	ctx := context.Background()
	cat := launch(t)
	name := "st.metrics"
	_, _, err := newTestSink[benchRow](t, Config{Catalog: cat, Table: name,
		Properties: map[string]string{table.DefaultWriteMetricsModeKey: "none"}}).loadOrCreate(ctx, name)
	require.NoError(t, err)
	s := newTestSink[benchRow](t, Config{Catalog: cat, Table: name})
	_, err = s.commit(ctx, name, chunksOf(t, s, unbox(benchRows(1000)), 500), nil)
	require.NoError(t, err)
	tasks, err := loadTable(t, s.cat, name).Scan().PlanFiles(ctx)
	require.NoError(t, err)
	require.NotEmpty(t, tasks)
	for _, task := range tasks {
		require.Empty(t, task.File.LowerBoundValues(), task.File.FilePath())
		require.Empty(t, task.File.UpperBoundValues(), task.File.FilePath())
		require.Empty(t, task.File.ValueCounts(), task.File.FilePath())
	}
}

// A bundle's few rows of a table travel unencoded (rowChunkRows): the
// committer encodes a pane's together, partitions them and writes them
// beside the pane's Parquet chunks, a row group of each kind a partition.
func TestRowChunksJoinTheirPartitions(t *testing.T) {
	ctx := context.Background()
	s := newTestSink[click](t, Config{Catalog: launch(t), Table: "st.rows", WriterID: "w", PartitionBy: []string{"user_id"}})
	users := []string{"a", "b", "c"}
	var want []click
	rowsOf := func(n int) []click {
		var rows []click
		for i := range n {
			seq := int64(len(want) + i)
			rows = append(rows, click{UserID: users[seq%3], Seq: seq, TS: seq})
		}
		want = append(want, rows...)
		return rows
	}
	var blobs [][]byte
	for range 300 {
		blobs = append(blobs, encodeRows(t, s, rowsOf(50), 50)...) // 15,000 rows as row chunks
	}
	blobs = append(blobs, encodeRows(t, s, rowsOf(3000), 3000)...)   // three small Parquet chunks
	blobs = append(blobs, encodeRows(t, s, rowsOf(30000), 30000)...) // three copied as they are
	rowChunks := 0
	for c, err := range deliver(blobs) {
		require.NoError(t, err)
		if c.ipc != nil {
			rowChunks++
		}
	}
	require.Equal(t, 300, rowChunks)

	res, err := s.commit(ctx, "st.rows", deliver(blobs), nil)
	require.NoError(t, err)
	require.EqualValues(t, len(want), res.Rows)
	require.EqualValues(t, 3, res.Files)
	tbl := loadTable(t, s.cat, "st.rows")
	files, err := currentDataFiles(ctx, tbl)
	require.NoError(t, err)
	for _, df := range files {
		f, err := file.OpenParquetFile(strings.TrimPrefix(df.FilePath(), "file://"), false)
		require.NoError(t, err)
		require.Equal(t, 2, f.NumRowGroups(), "%s: the copied chunk, and the small ones' rows encoded together", df.FilePath())
		require.EqualValues(t, 16000, f.NumRows())
		f.Close()
	}
	got := readRows[click](t, tbl)
	slices.SortFunc(got, func(a, b click) int { return int(a.Seq - b.Seq) })
	require.Equal(t, want, got)
	// Each file holds its partition's rows only: the user_id column's
	// bounds are its partition value.
	field, ok := tbl.Schema().FindFieldByName("user_id")
	require.True(t, ok)
	for _, df := range files {
		user := df.Partition()[1000]
		require.Equal(t, user, string(df.LowerBoundValues()[field.ID]), df.FilePath())
		require.Equal(t, user, string(df.UpperBoundValues()[field.ID]), df.FilePath())
	}
}
