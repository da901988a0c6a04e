package maintenance

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/catalog"
	mt "github.com/icebeam/icebeam/transforms/maintenance/maintenancetest"
)

func TestMain(m *testing.M) { ptest.Main(m) }

var parts = []string{"a", "b", "c"}

// smallFiles makes name a table of 14 appends of 30 rows over three
// partitions, 42 data files of 10 rows, and returns the rows it holds.
func smallFiles(t *testing.T, cat icecatalog.Catalog, name string) (*table.Table, []mt.Row) {
	t.Helper()
	tbl := mt.CreateTable(t, cat, name, true, nil)
	var rows []mt.Row
	for i := range 14 {
		batch := mt.Rows(i*30, 30, parts, false)
		tbl = mt.Append(t, tbl, batch)
		rows = append(rows, batch...)
	}
	require.Len(t, mt.LiveDataFiles(t, tbl), 42)
	return tbl, rows
}

// onPrism is the Beam executor running the pipeline on prism in this
// process.
func onPrism(cfg catalog.Config) Executor {
	return OnBeam(cfg, func(_ context.Context, p *beam.Pipeline) (bool, error) {
		return true, ptest.Run(p)
	})
}

func rewriteOpts(name string) Options {
	return Options{Table: name, RewriteDataFiles: true, TargetFileSize: 1 << 20, MinInputFiles: 5}
}

// checkPartitions compares each partition's rows in tbl with want, reading
// them back with a partition filter.
func checkPartitions(t *testing.T, tbl *table.Table, want []mt.Row) {
	t.Helper()
	for part, rows := range mt.ByPartition(want) {
		got := mt.Read(t, tbl, table.WithRowFilter(iceberg.EqualTo(iceberg.Reference("part"), part)))
		if d := mt.DiffCounts(mt.Count(got), rows); d != "" {
			t.Errorf("partition %s differs:\n%s", part, d)
		}
	}
	if d := mt.DiffCounts(mt.Count(mt.Read(t, tbl)), mt.Count(want)); d != "" {
		t.Errorf("table differs:\n%s", d)
	}
}

// The rewrite as a prism pipeline: three groups (one per partition) become
// one file each in one replace snapshot, every partition holding exactly
// the rows generated for it.
func TestRewriteOnPrism(t *testing.T) {
	ctx := context.Background()
	cfg, cat := mt.Catalog(t)
	tbl, rows := smallFiles(t, cat, "db.small")
	snapsBefore := len(tbl.Metadata().Snapshots())
	parent := tbl.CurrentSnapshot().SnapshotID

	sum, err := Run(ctx, cat, rewriteOpts("db.small"), onPrism(cfg))
	require.NoError(t, err)
	r := sum.Rewrite
	require.NotNil(t, r)
	require.False(t, r.Planned)
	require.Equal(t, 3, r.Groups)
	require.EqualValues(t, 42, r.FilesRewritten)
	require.EqualValues(t, 3, r.FilesWritten)
	require.EqualValues(t, 42, r.TableFilesBefore)
	require.EqualValues(t, 3, r.TableFilesAfter)
	require.Equal(t, 1, r.Attempt)

	tbl, err = cat.LoadTable(ctx, tbl.Identifier())
	require.NoError(t, err)
	snap := tbl.CurrentSnapshot()
	require.Equal(t, table.OpReplace, snap.Summary.Operation)
	require.Equal(t, r.SnapshotID, snap.SnapshotID)
	require.Equal(t, parent, *snap.ParentSnapshotID)
	require.Len(t, tbl.Metadata().Snapshots(), snapsBefore+1, "one new snapshot")
	files := mt.LiveDataFiles(t, tbl)
	require.Len(t, files, 3)
	seen := map[any]bool{}
	for _, f := range files {
		v := f.Partition()[1000]
		require.False(t, seen[v], "two files for partition %v", v)
		seen[v] = true
		require.EqualValues(t, 140, f.Count())
	}
	checkPartitions(t, tbl, rows)

	var out strings.Builder
	sum.Write(&out)
	require.Contains(t, out.String(), "42 data files")
	require.Contains(t, out.String(), "rewritten as 3")
}

// An append committed by another writer between planning and the commit
// makes the first commit attempt conflict; the retry on the reloaded table
// keeps the appended rows, and no row is doubled.
func TestConcurrentAppendSurvives(t *testing.T) {
	ctx := context.Background()
	cfg, cat := mt.Catalog(t)
	tbl, rows := smallFiles(t, cat, "db.busy")
	appended := mt.Rows(100_000, 9, parts, false)
	var calls atomic.Int32
	beforeCommitAttempt = func(ctx context.Context, attempt int) {
		if calls.Add(1) == 1 {
			other, err := cat.LoadTable(ctx, tbl.Identifier())
			if err != nil {
				t.Error(err)
				return
			}
			mt.Append(t, other, appended)
		}
	}
	t.Cleanup(func() { beforeCommitAttempt = nil })

	sum, err := Run(ctx, cat, rewriteOpts("db.busy"), onPrism(cfg))
	require.NoError(t, err)
	require.Equal(t, 2, sum.Rewrite.Attempt, "the first attempt must have met the concurrent append")
	require.EqualValues(t, 2, calls.Load())

	tbl, err = cat.LoadTable(ctx, tbl.Identifier())
	require.NoError(t, err)
	snap := tbl.CurrentSnapshot()
	require.Equal(t, table.OpReplace, snap.Summary.Operation)
	parent := tbl.SnapshotByID(*snap.ParentSnapshotID)
	require.Equal(t, table.OpAppend, parent.Summary.Operation, "the rewrite sits on the concurrent append")
	checkPartitions(t, tbl, append(rows, appended...))
	// Three compacted files and the three the append wrote.
	require.Len(t, mt.LiveDataFiles(t, tbl), 6)
	requireNothingUnreferenced(t, tbl)
}

// A file the rewrite replaces is deleted by another writer before the
// commit: the rewrite aborts, the table is as that writer left it, and the
// files the rewrite wrote are gone.
func TestReplacedFileDeletedAborts(t *testing.T) {
	ctx := context.Background()
	cfg, cat := mt.Catalog(t)
	tbl, rows := smallFiles(t, cat, "db.raced")
	var deleteSnap atomic.Int64
	beforeCommitAttempt = func(ctx context.Context, attempt int) {
		if attempt != 1 {
			return
		}
		other, err := cat.LoadTable(ctx, tbl.Identifier())
		if err != nil {
			t.Error(err)
			return
		}
		tx := other.NewTransaction()
		if err := tx.Delete(ctx, iceberg.EqualTo(iceberg.Reference("part"), "a"), nil); err != nil {
			t.Error(err)
			return
		}
		done, err := tx.Commit(ctx)
		if err != nil {
			t.Error(err)
			return
		}
		deleteSnap.Store(done.CurrentSnapshot().SnapshotID)
	}
	t.Cleanup(func() { beforeCommitAttempt = nil })

	sum, err := Run(ctx, cat, rewriteOpts("db.raced"), onPrism(cfg))
	require.Error(t, err)
	require.Contains(t, err.Error(), "rewrite aborted")
	require.Contains(t, err.Error(), "removed by a concurrent commit")
	require.Nil(t, sum.Rewrite, "nothing was committed to report")

	tbl, err = cat.LoadTable(ctx, tbl.Identifier())
	require.NoError(t, err)
	require.Equal(t, deleteSnap.Load(), tbl.CurrentSnapshot().SnapshotID, "the concurrent delete is the last commit")
	var left []mt.Row
	for _, r := range rows {
		if r.Part != "a" {
			left = append(left, r)
		}
	}
	checkPartitions(t, tbl, left)
	requireNothingUnreferenced(t, tbl)
}

// requireNothingUnreferenced fails on any file under the table's location
// that its metadata does not reach: what a rewrite wrote and did not
// commit, or an attempt's manifests.
func requireNothingUnreferenced(t *testing.T, tbl *table.Table) {
	t.Helper()
	ref := mt.Referenced(t, tbl)
	for _, f := range mt.Files(t, mt.LocalPath(t, tbl.Location())) {
		if !ref[f] {
			t.Errorf("unreferenced file left under the table: %s", f)
		}
	}
}

// Files written before a column was added and another widened compact
// into files of the current schema: the old rows read null in the new
// column and their ints as longs. In process, as `icebeam maintain` runs.
func TestOlderSchemaFilesCompactWithNulls(t *testing.T) {
	ctx := context.Background()
	_, cat := mt.Catalog(t)
	tbl := mt.CreateTable(t, cat, "db.evolved", false, nil)
	var rows []mt.Row
	for i := range 6 {
		batch := mt.Rows(i*10, 10, parts, false)
		tbl = mt.Append(t, tbl, batch)
		rows = append(rows, batch...)
	}
	tbl = mt.Evolve(t, tbl)
	for i := 6; i < 12; i++ {
		batch := mt.Rows(i*10, 10, parts, true)
		tbl = mt.Append(t, tbl, batch)
		rows = append(rows, batch...)
	}

	sum, err := Run(ctx, cat, rewriteOpts("db.evolved"), InProcess(2))
	require.NoError(t, err)
	require.EqualValues(t, 12, sum.Rewrite.FilesRewritten)
	require.EqualValues(t, 1, sum.Rewrite.FilesWritten)

	tbl, err = cat.LoadTable(ctx, tbl.Identifier())
	require.NoError(t, err)
	got := mt.Read(t, tbl)
	if d := mt.DiffCounts(mt.Count(got), mt.Count(rows)); d != "" {
		t.Fatalf("rows differ:\n%s", d)
	}
	files := mt.LiveDataFiles(t, tbl)
	require.Len(t, files, 1)
	require.EqualValues(t, 120, files[0].Count())
	// The file itself has the current schema: extra (null for 60 rows)
	// and n as a 64-bit column.
	pf, err := file.OpenParquetFile(mt.LocalPath(t, files[0].FilePath()), false)
	require.NoError(t, err)
	defer pf.Close()
	sch := pf.MetaData().Schema
	n := sch.ColumnIndexByName("n")
	require.GreaterOrEqual(t, n, 0)
	require.Equal(t, parquet.Types.Int64, sch.Column(n).PhysicalType())
	extra := sch.ColumnIndexByName("extra")
	require.GreaterOrEqual(t, extra, 0, "the compacted file lacks the added column")
	require.EqualValues(t, 6, sch.Column(extra).SchemaNode().FieldID())
	require.EqualValues(t, 60, files[0].NullValueCounts()[6])
}

// Position deletes are applied while rewriting, and the delete files that
// only named replaced files leave the table with them.
func TestDeletesAppliedAndDropped(t *testing.T) {
	ctx := context.Background()
	_, cat := mt.Catalog(t)
	tbl := mt.CreateTable(t, cat, "db.deletes", true, iceberg.Properties{
		"format-version": "2", table.WriteDeleteModeKey: "merge-on-read",
	})
	var rows []mt.Row
	for i := range 6 {
		batch := mt.Rows(i*30, 30, parts, false)
		tbl = mt.Append(t, tbl, batch)
		rows = append(rows, batch...)
	}
	tx := tbl.NewTransaction()
	require.NoError(t, tx.Delete(ctx, iceberg.EqualTo(iceberg.Reference("s"), "row-7"), nil))
	tbl, err := tx.Commit(ctx)
	require.NoError(t, err)
	var left []mt.Row
	for _, r := range rows {
		if r.S != "row-7" {
			left = append(left, r)
		}
	}
	require.Len(t, mt.Read(t, tbl), len(left))
	deletesBefore := liveDeleteFiles(t, tbl)
	require.NotEmpty(t, deletesBefore, "the delete wrote no delete file (copy-on-write?)")

	_, err = Run(ctx, cat, rewriteOpts("db.deletes"), InProcess(2))
	require.NoError(t, err)
	tbl, err = cat.LoadTable(ctx, tbl.Identifier())
	require.NoError(t, err)
	checkPartitions(t, tbl, left)
	require.Empty(t, liveDeleteFiles(t, tbl), "dead position deletes are still live")
}

func liveDeleteFiles(t *testing.T, tbl *table.Table) []string {
	t.Helper()
	fsys, err := tbl.FS(context.Background())
	require.NoError(t, err)
	ms, err := tbl.CurrentSnapshot().Manifests(fsys)
	require.NoError(t, err)
	var out []string
	for _, m := range ms {
		if m.ManifestContent() != iceberg.ManifestContentDeletes {
			continue
		}
		for e, err := range m.Entries(fsys, true) {
			require.NoError(t, err)
			out = append(out, filepath.Base(e.DataFile().FilePath()))
		}
	}
	return out
}

// Nothing to do is reported as such and commits nothing; a dry run lists
// the groups and commits nothing either.
func TestNothingToDoAndDryRun(t *testing.T) {
	ctx := context.Background()
	_, cat := mt.Catalog(t)
	tbl, _ := smallFiles(t, cat, "db.dry")
	current := tbl.CurrentSnapshot().SnapshotID
	fail := func(context.Context, icecatalog.Catalog, *RewritePlan) (*RewriteReport, error) {
		return nil, errors.New("the executor must not run")
	}

	opts := rewriteOpts("db.dry")
	opts.MinInputFiles = 15 // 14 files per partition
	sum, err := Run(ctx, cat, opts, fail)
	require.NoError(t, err)
	require.True(t, sum.Rewrite.Planned)
	require.Zero(t, sum.Rewrite.Groups)
	var out strings.Builder
	sum.Write(&out)
	require.Contains(t, out.String(), "nothing to rewrite")

	opts = rewriteOpts("db.dry")
	opts.DryRun = true
	sum, err = Run(ctx, cat, opts, fail)
	require.NoError(t, err)
	require.Equal(t, 3, sum.Rewrite.Groups)
	require.EqualValues(t, 42, sum.Rewrite.FilesRewritten)
	out.Reset()
	sum.Write(&out)
	require.Contains(t, out.String(), "would rewrite 42 of 42 data files")
	require.Contains(t, out.String(), "part=a: 14 files")

	tbl, err = cat.LoadTable(ctx, tbl.Identifier())
	require.NoError(t, err)
	require.Equal(t, current, tbl.CurrentSnapshot().SnapshotID)
}

// A committer that runs again after its commit landed (a retried bundle)
// reports that commit and neither commits again nor deletes its files.
func TestCommitIsIdempotent(t *testing.T) {
	ctx := context.Background()
	_, cat := mt.Catalog(t)
	tbl, rows := smallFiles(t, cat, "db.again")
	plan, err := PlanRewrite(ctx, tbl, 1<<20, 5)
	require.NoError(t, err)
	plan.RunID = "run-1"
	var results []GroupResult
	for _, g := range plan.Groups {
		r, err := RewriteGroup(ctx, tbl, g, plan.TargetFileSize)
		require.NoError(t, err)
		// Through the description workers pass on, as on Beam.
		b, err := encodeResult(tbl.Metadata(), r)
		require.NoError(t, err)
		r, err = decodeResult(tbl.Metadata(), b)
		require.NoError(t, err)
		results = append(results, r)
	}
	first, err := CommitRewrite(ctx, cat, tbl.Identifier(), plan.RunID, plan.SnapshotID, results)
	require.NoError(t, err)
	again, err := CommitRewrite(ctx, cat, tbl.Identifier(), plan.RunID, plan.SnapshotID, results)
	require.NoError(t, err)
	require.Equal(t, first.SnapshotID, again.SnapshotID)
	tbl, err = cat.LoadTable(ctx, tbl.Identifier())
	require.NoError(t, err)
	require.Equal(t, first.SnapshotID, tbl.CurrentSnapshot().SnapshotID)
	checkPartitions(t, tbl, rows)
}

func TestCheckOptions(t *testing.T) {
	ok := Options{Table: "db.t", RemoveOrphanFiles: true, OrphanOlderThan: DefaultOrphanOlderThan,
		RewriteDataFiles: true, MinInputFiles: 5, ExpireSnapshots: true, RetainLast: 1}
	require.NoError(t, ok.Check())
	for _, tc := range []struct {
		change func(*Options)
		want   string
	}{
		{func(o *Options) { o.Table = "" }, "--table=NAMESPACE.TABLE is required"},
		{func(o *Options) { o.Table = "t" }, `--table: table name "t": want namespace.table`},
		{func(o *Options) { o.RemoveOrphanFiles, o.RewriteDataFiles, o.ExpireSnapshots = false, false, false }, "no action"},
		{func(o *Options) { o.MinInputFiles = 1 }, "--min_input_files=1"},
		{func(o *Options) { o.RetainLast = 0 }, "--retain_last=0"},
		{func(o *Options) { o.OrphanOlderThan = 59 * 60 * 1e9 }, "pass --force"},
	} {
		o := ok
		tc.change(&o)
		err := o.Check()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v, want an error containing %q", err, tc.want)
		}
	}
	forced := ok
	forced.OrphanOlderThan, forced.Force = 0, true
	require.NoError(t, forced.Check())
	dry := ok
	dry.OrphanOlderThan, dry.DryRun = 0, true
	require.NoError(t, dry.Check(), "a dry run deletes nothing")
}

// A row of a file the rewrite replaces is deleted (a position delete) by
// another writer before the commit: committing would bring the row back,
// so the rewrite aborts and the delete stands.
func TestConcurrentDeleteAborts(t *testing.T) {
	ctx := context.Background()
	_, cat := mt.Catalog(t)
	tbl := mt.CreateTable(t, cat, "db.mor", true, iceberg.Properties{
		"format-version": "2", table.WriteDeleteModeKey: "merge-on-read",
	})
	var rows []mt.Row
	for i := range 6 {
		batch := mt.Rows(i*30, 30, parts, false)
		tbl = mt.Append(t, tbl, batch)
		rows = append(rows, batch...)
	}
	beforeCommitAttempt = func(ctx context.Context, attempt int) {
		if attempt != 1 {
			return
		}
		other, err := cat.LoadTable(ctx, tbl.Identifier())
		if err != nil {
			t.Error(err)
			return
		}
		tx := other.NewTransaction()
		if err := tx.Delete(ctx, iceberg.EqualTo(iceberg.Reference("s"), "row-4"), nil); err != nil {
			t.Error(err)
			return
		}
		if _, err := tx.Commit(ctx); err != nil {
			t.Error(err)
		}
	}
	t.Cleanup(func() { beforeCommitAttempt = nil })

	_, err := Run(ctx, cat, rewriteOpts("db.mor"), InProcess(2))
	require.ErrorIs(t, err, ErrAborted)
	require.ErrorContains(t, err, "deletes")

	tbl, err = cat.LoadTable(ctx, tbl.Identifier())
	require.NoError(t, err)
	require.Equal(t, table.OpDelete, tbl.CurrentSnapshot().Summary.Operation)
	require.NotEmpty(t, liveDeleteFiles(t, tbl))
	var left []mt.Row
	for _, r := range rows {
		if r.S != "row-4" {
			left = append(left, r)
		}
	}
	checkPartitions(t, tbl, left)
	requireNothingUnreferenced(t, tbl)
}

// The table's write.parquet.row-group-size-bytes, which iceberg-go's
// writer ignores, still cuts the compacted files' row groups.
func TestRowGroupSizeBytesHonoured(t *testing.T) {
	ctx := context.Background()
	_, cat := mt.Catalog(t)
	tbl := mt.CreateTable(t, cat, "db.rowgroups", false, iceberg.Properties{table.ParquetRowGroupSizeBytesKey: "2048"})
	var rows []mt.Row
	for i := range 6 {
		batch := mt.Rows(i*100, 100, parts, false)
		tbl = mt.Append(t, tbl, batch)
		rows = append(rows, batch...)
	}
	_, err := Run(ctx, cat, rewriteOpts("db.rowgroups"), InProcess(1))
	require.NoError(t, err)
	tbl, err = cat.LoadTable(ctx, tbl.Identifier())
	require.NoError(t, err)
	files := mt.LiveDataFiles(t, tbl)
	require.Len(t, files, 1)
	pf, err := file.OpenParquetFile(mt.LocalPath(t, files[0].FilePath()), false)
	require.NoError(t, err)
	defer pf.Close()
	require.Greater(t, pf.NumRowGroups(), 3, "600 rows of about 40 bytes in 2 KiB row groups")
	for i := range pf.NumRowGroups() {
		require.Less(t, pf.MetaData().RowGroup(i).TotalByteSize(), int64(4096), "row group %d", i)
	}
	if d := mt.DiffCounts(mt.Count(mt.Read(t, tbl)), mt.Count(rows)); d != "" {
		t.Fatalf("rows differ:\n%s", d)
	}
}

// Files written under an older partition spec (here: unpartitioned) are
// rewritten into the current spec, their rows spread over its partitions.
func TestOlderSpecFilesRewrittenIntoCurrentSpec(t *testing.T) {
	ctx := context.Background()
	_, cat := mt.Catalog(t)
	tbl := mt.CreateTable(t, cat, "db.respec", false, nil)
	var rows []mt.Row
	for i := range 6 {
		batch := mt.Rows(i*30, 30, parts, false)
		tbl = mt.Append(t, tbl, batch)
		rows = append(rows, batch...)
	}
	tx := tbl.NewTransaction()
	require.NoError(t, tx.UpdateSpec(true).AddIdentity("part").Commit())
	tbl, err := tx.Commit(ctx)
	require.NoError(t, err)
	for i := 6; i < 12; i++ {
		batch := mt.Rows(i*30, 30, parts, false)
		tbl = mt.Append(t, tbl, batch)
		rows = append(rows, batch...)
	}
	current := tbl.Metadata().DefaultPartitionSpec()
	require.Len(t, mt.LiveDataFiles(t, tbl), 24)

	sum, err := Run(ctx, cat, rewriteOpts("db.respec"), InProcess(2))
	require.NoError(t, err)
	require.Equal(t, 4, sum.Rewrite.Groups, "one group of the old spec, one per partition of the new")
	tbl, err = cat.LoadTable(ctx, tbl.Identifier())
	require.NoError(t, err)
	files := mt.LiveDataFiles(t, tbl)
	require.Len(t, files, 6)
	for _, f := range files {
		require.EqualValues(t, current, f.SpecID(), "%s", f.FilePath())
	}
	checkPartitions(t, tbl, rows)
}
