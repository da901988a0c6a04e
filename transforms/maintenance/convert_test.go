package maintenance

import (
	"context"
	"strings"
	"testing"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"

	mt "github.com/icebeam/icebeam/transforms/maintenance/maintenancetest"
)

// model is the rows a table should read: what the test applied, by id.
type model map[int64]mt.Row

func (m model) add(rows []mt.Row) {
	for _, r := range rows {
		m[r.ID] = r
	}
}

func (m model) rows() []mt.Row {
	var out []mt.Row
	for _, r := range m {
		out = append(out, r)
	}
	return out
}

func eqDeletes(t *testing.T, tbl *table.Table, names []string, keys []map[string]any) *table.Table {
	t.Helper()
	return mt.EqDeletes(t, tbl, names, keys)
}

func deleteFiles(t *testing.T, tbl *table.Table) (eq, pos, dvs []iceberg.DataFile) {
	t.Helper()
	return mt.DeleteFiles(t, tbl)
}

func requireRows(t *testing.T, tbl *table.Table, want []mt.Row, what string) {
	t.Helper()
	if d := mt.DiffCounts(mt.Count(mt.Read(t, tbl)), mt.Count(want)); d != "" {
		t.Fatalf("%s:\n%s", what, d)
	}
}

func key(id int64, extra ...any) map[string]any {
	k := map[string]any{"id": id, "part": parts[id%int64(len(parts))]}
	if len(extra) > 0 {
		k["extra"] = extra[0]
	}
	return k
}

// A v2 table with the equality deletes of upserts (keyed on id and the
// partition column), a position delete, a schema change (a column added,
// another promoted) and then equality deletes keyed on the new nullable
// column too, where null must match null: after the conversion it reads the same
// rows, as the test's own model says, with position deletes only.
func TestConvertEqualityDeletesV2(t *testing.T) {
	ctx := context.Background()
	_, cat := mt.Catalog(t)
	tbl := mt.CreateTable(t, cat, "db.cdc", true, iceberg.Properties{"format-version": "2", table.WriteDeleteModeKey: table.WriteModeMergeOnRead})
	m := model{}
	for i := range 2 {
		rows := mt.Rows(i*30, 30, parts, false)
		tbl = mt.Append(t, tbl, rows)
		m.add(rows)
	}
	// Upserts of 1 and 2, deletes of 3, 35, 40, and of 1000, which
	// never existed.
	tbl = eqDeletes(t, tbl, []string{"id", "part"}, []map[string]any{key(1), key(2), key(3), key(35), key(40), key(1000)})
	for _, id := range []int64{3, 35, 40} {
		delete(m, id)
	}
	upserted := mt.Rows(1, 2, parts, false)
	for i := range upserted {
		upserted[i].V += 100
	}
	tbl = mt.Append(t, tbl, upserted)
	m.add(upserted)
	// A position delete (merge-on-read) of a row that an equality
	// delete below matches again.
	tbl, err := tbl.Delete(ctx, iceberg.EqualTo(iceberg.Reference("id"), int64(10)), nil)
	require.NoError(t, err)
	delete(m, 10)
	_, pos, _ := deleteFiles(t, tbl)
	require.NotEmpty(t, pos, "the setup's delete wrote no position deletes")

	tbl = eqDeletes(t, tbl, []string{"id", "part"}, []map[string]any{
		key(5),  // deleted
		key(1),  // the upserted 1
		key(10), // already deleted by position
	})
	for _, id := range []int64{5, 1} {
		delete(m, id)
	}

	// New rows in a new partition after the schema change, with extra
	// set or null. (A key on extra in the older partitions would meet
	// files without the column, which iceberg-go's reader refuses.)
	tbl = mt.Evolve(t, tbl)
	d := []string{"d"}
	with := mt.Rows(60, 10, d, true)
	without := mt.Rows(70, 5, d, false)
	tbl = mt.Append(t, tbl, with)
	tbl = mt.Append(t, tbl, without)
	m.add(with)
	m.add(without)
	tbl = eqDeletes(t, tbl, []string{"id", "part", "extra"}, []map[string]any{
		{"id": int64(65), "part": "d", "extra": "x65"},  // deleted
		{"id": int64(66), "part": "d", "extra": nil},    // extra is x66: kept
		{"id": int64(71), "part": "d", "extra": nil},    // extra written as null: deleted
		{"id": int64(62), "part": "d", "extra": "nope"}, // kept
	})
	for _, id := range []int64{65, 71} {
		delete(m, id)
	}
	requireRows(t, tbl, m.rows(), "before the conversion, against the model")
	eq, _, _ := deleteFiles(t, tbl)
	require.NotEmpty(t, eq)
	snaps := len(tbl.Metadata().Snapshots())

	dry, err := ConvertEqualityDeletes(ctx, cat, tbl.Identifier(), "dry", true)
	require.NoError(t, err)
	require.True(t, dry.Planned)
	require.Equal(t, len(eq), dry.EqDeleteFiles)
	require.Equal(t, len(eq), dry.EqFilesRemoved)
	tbl, err = cat.LoadTable(ctx, tbl.Identifier())
	require.NoError(t, err)
	require.Len(t, tbl.Metadata().Snapshots(), snaps, "the dry run committed")

	rep, err := ConvertEqualityDeletes(ctx, cat, tbl.Identifier(), "run-1", false)
	require.NoError(t, err)
	require.False(t, rep.DVs)
	require.Equal(t, len(eq), rep.EqFilesRemoved)
	require.Empty(t, rep.Skipped)
	// Deleted rows found: 1, 2 (old versions), 3, 35, 40, 5, 1 (new
	// version), 10 again, 65, 71.
	require.EqualValues(t, 10, rep.RowsDeleted)
	require.Equal(t, rep.DataFilesTouched, rep.DeleteFilesWritten)

	tbl, err = cat.LoadTable(ctx, tbl.Identifier())
	require.NoError(t, err)
	require.Equal(t, rep.SnapshotID, tbl.CurrentSnapshot().SnapshotID)
	requireRows(t, tbl, m.rows(), "after the conversion")
	eq, pos, dvs := deleteFiles(t, tbl)
	require.Empty(t, eq, "equality deletes left")
	require.Empty(t, dvs)
	require.Len(t, pos, rep.DeleteFilesWritten+1, "the new position deletes and the setup's one")
	ours := 0
	for _, f := range pos {
		if strings.Contains(f.FilePath(), "/convert-") {
			ours++
			// v2 manifests have no referenced_data_file: readers tell
			// the data file from equal file_path bounds.
			lo, hi := f.LowerBoundValues()[2147483546], f.UpperBoundValues()[2147483546]
			require.NotEmpty(t, lo, f.FilePath())
			require.Equal(t, lo, hi, f.FilePath())
		}
	}
	require.Equal(t, rep.DeleteFilesWritten, ours)
	require.Equal(t, "run-1", tbl.CurrentSnapshot().Summary.Properties[RunIDKey])

	// The same run again: found, not committed twice.
	again, err := ConvertEqualityDeletes(ctx, cat, tbl.Identifier(), "run-1", false)
	require.NoError(t, err)
	require.True(t, again.Replayed)
	require.Equal(t, rep.SnapshotID, again.SnapshotID)
	after, err := cat.LoadTable(ctx, tbl.Identifier())
	require.NoError(t, err)
	require.Len(t, after.Metadata().Snapshots(), len(tbl.Metadata().Snapshots()))

	// A new run finds nothing to do.
	none, err := ConvertEqualityDeletes(ctx, cat, tbl.Identifier(), "run-2", false)
	require.NoError(t, err)
	require.Zero(t, none.EqDeleteFiles)
	require.Zero(t, none.DeleteFilesWritten)
}

// On a v3 table the positions become deletion vectors, one per data file,
// merged with the one a file had (which goes in the same commit).
func TestConvertEqualityDeletesV3(t *testing.T) {
	ctx := context.Background()
	_, cat := mt.Catalog(t)
	tbl := mt.CreateTable(t, cat, "db.cdc3", false, iceberg.Properties{"format-version": "3", table.WriteDeleteModeKey: table.WriteModeMergeOnRead})
	m := model{}
	for i := range 2 {
		rows := mt.Rows(i*20, 20, parts, false)
		tbl = mt.Append(t, tbl, rows)
		m.add(rows)
	}
	tbl, err := tbl.Delete(ctx, iceberg.EqualTo(iceberg.Reference("id"), int64(7)), nil)
	require.NoError(t, err)
	delete(m, 7)
	_, _, dvs := deleteFiles(t, tbl)
	require.Len(t, dvs, 1)
	oldDV := dvs[0].FilePath()

	var keys []map[string]any
	for _, id := range []int64{3, 7, 8, 25, 99} {
		keys = append(keys, map[string]any{"id": id})
		delete(m, id)
	}
	tbl = eqDeletes(t, tbl, []string{"id"}, keys)
	rows := mt.Rows(40, 5, parts, false)
	tbl = mt.Append(t, tbl, rows)
	m.add(rows)
	requireRows(t, tbl, m.rows(), "before the conversion, against the model")

	rep, err := ConvertEqualityDeletes(ctx, cat, tbl.Identifier(), "v3-run", false)
	require.NoError(t, err)
	require.True(t, rep.DVs)
	require.Equal(t, 1, rep.EqFilesRemoved)
	require.Equal(t, 2, rep.DataFilesTouched)
	require.Equal(t, 2, rep.DeleteFilesWritten)
	require.Equal(t, 1, rep.DVsReplaced)
	require.EqualValues(t, 4, rep.RowsDeleted, "3, 7 (again), 8 in the first file, 25 in the second")

	tbl, err = cat.LoadTable(ctx, tbl.Identifier())
	require.NoError(t, err)
	requireRows(t, tbl, m.rows(), "after the conversion")
	eq, pos, dvs := deleteFiles(t, tbl)
	require.Empty(t, eq)
	require.Empty(t, pos)
	require.Len(t, dvs, 2)
	seen := map[string]bool{}
	for _, d := range dvs {
		ref := d.ReferencedDataFile()
		require.NotNil(t, ref)
		require.False(t, seen[*ref], "two DVs for %s", *ref)
		seen[*ref] = true
		require.NotEqual(t, oldDV, d.FilePath(), "the old DV is still live")
	}
}

// A commit by another writer between planning and committing aborts the
// conversion: nothing committed, its files deleted, the table as the
// other writer left it; a new run then converts.
func TestConvertEqualityDeletesConcurrentCommit(t *testing.T) {
	ctx := context.Background()
	_, cat := mt.Catalog(t)
	tbl := mt.CreateTable(t, cat, "db.race", true, iceberg.Properties{"format-version": "2"})
	m := model{}
	rows := mt.Rows(0, 30, parts, false)
	tbl = mt.Append(t, tbl, rows)
	m.add(rows)
	tbl = eqDeletes(t, tbl, []string{"id", "part"}, []map[string]any{key(4), key(9)})
	delete(m, 4)
	delete(m, 9)
	loc := mt.LocalPath(t, tbl.Location())
	eqBefore, _, _ := deleteFiles(t, tbl)

	concurrent := mt.Rows(100, 3, parts, false)
	m.add(concurrent)
	beforeConvertAttempt = func(ctx context.Context, attempt int) {
		if attempt == 1 {
			cur, err := cat.LoadTable(ctx, tbl.Identifier())
			require.NoError(t, err)
			mt.Append(t, cur, concurrent)
		}
	}
	defer func() { beforeConvertAttempt = nil }()
	_, err := ConvertEqualityDeletes(ctx, cat, tbl.Identifier(), "raced", false)
	require.ErrorIs(t, err, ErrTableChanged)
	require.ErrorContains(t, err, "db.race")
	for _, f := range mt.Files(t, loc) {
		require.NotContains(t, f, "/convert-", "a file of the aborted conversion is left")
	}
	tbl, err = cat.LoadTable(ctx, tbl.Identifier())
	require.NoError(t, err)
	eq, _, _ := deleteFiles(t, tbl)
	require.Len(t, eq, len(eqBefore))
	requireRows(t, tbl, m.rows(), "after the aborted conversion")

	beforeConvertAttempt = nil
	rep, err := ConvertEqualityDeletes(ctx, cat, tbl.Identifier(), "again", false)
	require.NoError(t, err)
	require.EqualValues(t, 2, rep.RowsDeleted)
	tbl, err = cat.LoadTable(ctx, tbl.Identifier())
	require.NoError(t, err)
	requireRows(t, tbl, m.rows(), "after the conversion")
	eq, _, _ = deleteFiles(t, tbl)
	require.Empty(t, eq)
}

// Run converts first, then compacts the converted table: the compaction
// applies the new position deletes and is not aborted by them.
func TestRunConvertsThenRewrites(t *testing.T) {
	ctx := context.Background()
	_, cat := mt.Catalog(t)
	tbl := mt.CreateTable(t, cat, "db.both", true, iceberg.Properties{"format-version": "2"})
	m := model{}
	for i := range 6 {
		rows := mt.Rows(i*30, 30, parts, false)
		tbl = mt.Append(t, tbl, rows)
		m.add(rows)
	}
	tbl = eqDeletes(t, tbl, []string{"id", "part"}, []map[string]any{key(1), key(50), key(99), key(170)})
	for _, id := range []int64{1, 50, 99, 170} {
		delete(m, id)
	}
	var out strings.Builder
	sum, err := Run(ctx, cat, Options{Table: "db.both", ConvertEqualityDeletes: true, RewriteDataFiles: true, TargetFileSize: 1 << 20, MinInputFiles: 5}, InProcess(2))
	require.NoError(t, err)
	sum.Write(&out)
	require.EqualValues(t, 4, sum.Convert.RowsDeleted, out.String())
	require.False(t, sum.Rewrite.Planned, out.String())
	require.Contains(t, out.String(), "convert_equality_deletes 3 of 3 equality delete files removed; 4 rows marked")
	tbl, err = cat.LoadTable(ctx, tbl.Identifier())
	require.NoError(t, err)
	requireRows(t, tbl, m.rows(), "after converting and compacting")
	eq, _, _ := deleteFiles(t, tbl)
	require.Empty(t, eq)
	require.Len(t, mt.LiveDataFiles(t, tbl), 3)
}
