package localcatalog_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/catalog/rest"
	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/catalog/localcatalog"
)

// localPath turns a file:// location into a path.
func localPath(t *testing.T, loc string) string {
	t.Helper()
	p, ok := strings.CutPrefix(loc, "file://")
	require.True(t, ok, "not a file location: %s", loc)
	return filepath.FromSlash(p)
}

// metadataFiles lists the *.metadata.json files under a table location.
func metadataFiles(t *testing.T, tbl *table.Table) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(localPath(t, tbl.Location()), "metadata", "*.metadata.json"))
	require.NoError(t, err)
	slices.Sort(m)
	return m
}

// referencedMetadata lists the metadata files the table's history names:
// the metadata log plus the current file.
func referencedMetadata(t *testing.T, tbl *table.Table) []string {
	t.Helper()
	var out []string
	for e := range tbl.Metadata().PreviousFiles() {
		out = append(out, localPath(t, e.MetadataFile))
	}
	out = append(out, localPath(t, tbl.MetadataLocation()))
	slices.Sort(out)
	return out
}

// TestConcurrentCommitsOneWins races two appends built on the same table
// state, round after round: exactly one may win, the loser must see a
// retryable 409, and no trace of the loser may be reachable afterwards.
func TestConcurrentCommitsOneWins(t *testing.T) {
	ctx := context.Background()
	srv := startServer(t, t.TempDir())
	ident := table.Identifier{"db", "race"}
	createTable(t, connect(t, srv.URL()), ident)
	// Separate clients, as two workers would have.
	clients := []*rest.Catalog{connect(t, srv.URL()), connect(t, srv.URL())}

	const rounds = 15
	var want []string
	for round := range rounds {
		var txs [2]*table.Transaction
		for w := range 2 {
			base, err := clients[w].LoadTable(ctx, ident)
			require.NoError(t, err)
			txs[w] = base.NewTransaction()
			require.NoError(t, txs[w].AppendTable(ctx, rows(t, fmt.Sprintf("r%d-w%d", round, w), round*10, round*10+3), 100, nil))
		}
		var errs [2]error
		var wg sync.WaitGroup
		start := make(chan struct{})
		for w := range 2 {
			wg.Go(func() {
				<-start
				_, errs[w] = txs[w].Commit(ctx)
			})
		}
		close(start)
		wg.Wait()

		winner := -1
		for w, err := range errs {
			if err == nil {
				require.Equal(t, -1, winner, "round %d: both commits succeeded", round)
				winner = w
				continue
			}
			require.ErrorIs(t, err, table.ErrCommitFailed, "round %d worker %d", round, w)
			require.NotErrorIs(t, err, rest.ErrCommitStateUnknown, "round %d worker %d", round, w)
		}
		require.NotEqual(t, -1, winner, "round %d: no commit succeeded: %v", round, errs)
		want = append(want, names(fmt.Sprintf("r%d-w%d", round, winner), round*10, round*10+3)...)
	}

	tbl, err := connect(t, srv.URL()).LoadTable(ctx, ident)
	require.NoError(t, err)
	slices.Sort(want)
	require.Equal(t, want, readNames(t, tbl))
	require.Len(t, tbl.Metadata().Snapshots(), rounds)
	// The loser's commit never reached storage: every metadata file on disk
	// is part of the table's history (create + one per winning append).
	require.Equal(t, referencedMetadata(t, tbl), metadataFiles(t, tbl))
	require.Len(t, metadataFiles(t, tbl), rounds+1)
}

// TestParallelWritersNoServerErrors runs writers on separate tables and
// namespaces at once; SQLite must queue them, never answer 500
// ("database is locked"), which a client would see as an unknown commit state.
func TestParallelWritersNoServerErrors(t *testing.T) {
	ctx := context.Background()
	srv := startServer(t, t.TempDir())
	const writers, appends = 6, 4
	var wg sync.WaitGroup
	errs := make(chan error, writers*appends)
	for w := range writers {
		wg.Go(func() {
			cat, err := rest.NewCatalog(ctx, "test", srv.URL())
			if err != nil {
				errs <- err
				return
			}
			defer cat.Close()
			ns := table.Identifier{fmt.Sprintf("ns%d", w)}
			if err := cat.CreateNamespace(ctx, ns, iceberg.Properties{"owner": "w"}); err != nil {
				errs <- err
				return
			}
			tbl, err := cat.CreateTable(ctx, append(ns, "t"), rowSchema)
			if err != nil {
				errs <- err
				return
			}
			for i := range appends {
				tx := tbl.NewTransaction()
				data := rowsNoCleanup(fmt.Sprintf("w%d", w), i*10, i*10+2)
				err := tx.AppendTable(ctx, data, 100, nil)
				data.Release()
				if err != nil {
					errs <- err
					return
				}
				if tbl, err = tx.Commit(ctx); err != nil {
					errs <- fmt.Errorf("writer %d append %d: %w", w, i, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	cat := connect(t, srv.URL())
	for w := range writers {
		tbl, err := cat.LoadTable(ctx, table.Identifier{fmt.Sprintf("ns%d", w), "t"})
		require.NoError(t, err)
		assert.Len(t, tbl.Metadata().Snapshots(), appends)
	}
}

// rowsNoCleanup is rows for goroutines, where t.Cleanup must not be used.
func rowsNoCleanup(tag string, from, to int) arrow.Table {
	var parts []string
	for i := from; i < to; i++ {
		parts = append(parts, fmt.Sprintf(`{"id":%d,"name":"%s-%d"}`, i, tag, i))
	}
	tbl, err := array.TableFromJSON(memory.DefaultAllocator, arrowRowSchema, []string{"[" + strings.Join(parts, ",") + "]"})
	if err != nil {
		panic(err)
	}
	return tbl
}

func TestSchemaEvolution(t *testing.T) {
	ctx := context.Background()
	srv := startServer(t, t.TempDir())
	cat := connect(t, srv.URL())
	ident := table.Identifier{"db", "evolve"}
	tbl := appendRows(t, createTable(t, cat, ident), rows(t, "old", 0, 3))

	tx := tbl.NewTransaction()
	require.NoError(t, tx.UpdateSchema(true, false).
		AddColumn([]string{"score"}, iceberg.PrimitiveTypes.Float64, "added later", false, nil).Commit())
	tbl, err := tx.Commit(ctx)
	require.NoError(t, err)

	loaded, err := connect(t, srv.URL()).LoadTable(ctx, ident)
	require.NoError(t, err)
	require.Equal(t, 1, loaded.Schema().ID)
	require.Len(t, loaded.Metadata().Schemas(), 2)
	f, ok := loaded.Schema().FindFieldByName("score")
	require.True(t, ok)
	require.Equal(t, 3, f.ID)

	// New rows carry the column; old rows read back with it null.
	sc := arrow.NewSchema(append(arrowRowSchema.Fields(), arrow.Field{Name: "score", Type: arrow.PrimitiveTypes.Float64, Nullable: true}), nil)
	data, err := array.TableFromJSON(memory.DefaultAllocator, sc, []string{`[{"id":9,"name":"new-9","score":1.5}]`})
	require.NoError(t, err)
	defer data.Release()
	tbl = appendRows(t, loaded, data)
	at, err := tbl.Scan().ToArrowTable(ctx)
	require.NoError(t, err)
	defer at.Release()
	require.EqualValues(t, 4, at.NumRows())
	scores := at.Column(at.Schema().FieldIndices("score")[0]).Data().Chunks()
	nulls := 0
	var got []float64
	for _, c := range scores {
		fc := c.(*array.Float64)
		for i := range fc.Len() {
			if fc.IsNull(i) {
				nulls++
			} else {
				got = append(got, fc.Value(i))
			}
		}
	}
	require.Equal(t, 3, nulls)
	require.Equal(t, []float64{1.5}, got)

	// A commit built against the old schema is now stale.
	stale := loaded.NewTransaction()
	require.NoError(t, stale.UpdateSchema(true, false).
		AddColumn([]string{"other"}, iceberg.PrimitiveTypes.Int32, "", false, nil).Commit())
	require.NoError(t, err)
	_, err = tx.Commit(ctx)
	require.Error(t, err, "a transaction must not commit twice")
	tx2 := tbl.NewTransaction()
	require.NoError(t, tx2.UpdateSchema(true, false).
		AddColumn([]string{"second"}, iceberg.PrimitiveTypes.Int32, "", false, nil).Commit())
	_, err = tx2.Commit(ctx)
	require.NoError(t, err)
	_, err = stale.Commit(ctx)
	require.ErrorIs(t, err, table.ErrCommitFailed)
}

func TestRestartKeepsState(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	ident := table.Identifier{"db", "durable"}

	srv := startServer(t, dir)
	cat := connect(t, srv.URL())
	require.NoError(t, cat.CreateNamespace(ctx, table.Identifier{"db"}, iceberg.Properties{"owner": "ops"}))
	tbl := appendRows(t, createTable(t, cat, ident), rows(t, "a", 0, 5))
	tbl = appendRows(t, tbl, rows(t, "b", 5, 8))
	snaps := tbl.Metadata().Snapshots()
	require.NoError(t, srv.Close())

	srv2 := startServer(t, dir)
	cat2 := connect(t, srv2.URL())
	props, err := cat2.LoadNamespaceProperties(ctx, table.Identifier{"db"})
	require.NoError(t, err)
	require.Equal(t, "ops", props["owner"])
	loaded, err := cat2.LoadTable(ctx, ident)
	require.NoError(t, err)
	require.Equal(t, tbl.MetadataLocation(), loaded.MetadataLocation())
	require.Len(t, loaded.Metadata().Snapshots(), len(snaps))
	for i, s := range loaded.Metadata().Snapshots() {
		require.Equal(t, snaps[i].SnapshotID, s.SnapshotID)
	}
	want := append(names("a", 0, 5), names("b", 5, 8)...)
	require.Equal(t, want, readNames(t, loaded))

	// And it keeps going.
	loaded = appendRows(t, loaded, rows(t, "c", 8, 9))
	require.Equal(t, append(want, "c-8"), readNames(t, loaded))
}

func TestRenameDropPurgeList(t *testing.T) {
	ctx := context.Background()
	srv := startServer(t, t.TempDir())
	cat := connect(t, srv.URL())
	t1 := appendRows(t, createTable(t, cat, table.Identifier{"db", "t1"}), rows(t, "x", 0, 2))
	t2 := appendRows(t, createTable(t, cat, table.Identifier{"db", "t2"}), rows(t, "y", 0, 2))
	require.NoError(t, cat.CreateNamespace(ctx, table.Identifier{"archive"}, nil))

	list := func(ns ...string) []table.Identifier {
		var out []table.Identifier
		for id, err := range cat.ListTables(ctx, ns) {
			require.NoError(t, err)
			out = append(out, id)
		}
		return out
	}
	require.Equal(t, []table.Identifier{{"db", "t1"}, {"db", "t2"}}, list("db"))

	// Rename across namespaces keeps the data and the files in place.
	renamed, err := cat.RenameTable(ctx, table.Identifier{"db", "t1"}, table.Identifier{"archive", "t1_old"})
	require.NoError(t, err)
	require.Equal(t, t1.MetadataLocation(), renamed.MetadataLocation())
	require.Equal(t, names("x", 0, 2), readNames(t, renamed))
	require.Equal(t, []table.Identifier{{"db", "t2"}}, list("db"))
	require.Equal(t, []table.Identifier{{"archive", "t1_old"}}, list("archive"))
	_, err = cat.LoadTable(ctx, table.Identifier{"db", "t1"})
	require.ErrorIs(t, err, catalog.ErrNoSuchTable)

	// Renaming onto an existing table or from a missing one fails.
	_, err = cat.RenameTable(ctx, table.Identifier{"db", "t2"}, table.Identifier{"archive", "t1_old"})
	require.Error(t, err)
	_, err = cat.RenameTable(ctx, table.Identifier{"db", "nope"}, table.Identifier{"db", "nope2"})
	require.ErrorIs(t, err, catalog.ErrNoSuchTable)

	// Drop without purge forgets the table but keeps its files.
	require.NoError(t, cat.DropTable(ctx, table.Identifier{"db", "t2"}))
	_, err = os.Stat(localPath(t, t2.MetadataLocation()))
	require.NoError(t, err, "drop without purge must keep files")
	_, err = cat.LoadTable(ctx, table.Identifier{"db", "t2"})
	require.ErrorIs(t, err, catalog.ErrNoSuchTable)
	require.ErrorIs(t, cat.DropTable(ctx, table.Identifier{"db", "t2"}), catalog.ErrNoSuchTable)

	// Purge removes metadata and data files.
	var dataFiles []string
	for task, err := range func() func(func(table.FileScanTask, error) bool) {
		tasks, err := renamed.Scan().PlanFiles(ctx)
		require.NoError(t, err)
		return func(yield func(table.FileScanTask, error) bool) {
			for _, tk := range tasks {
				if !yield(tk, nil) {
					return
				}
			}
		}
	}() {
		require.NoError(t, err)
		dataFiles = append(dataFiles, localPath(t, task.File.FilePath()))
	}
	require.NotEmpty(t, dataFiles)
	require.NoError(t, cat.PurgeTable(ctx, table.Identifier{"archive", "t1_old"}))
	for _, f := range append(dataFiles, localPath(t, renamed.MetadataLocation())) {
		_, err := os.Stat(f)
		require.True(t, errors.Is(err, os.ErrNotExist), "purge left %s", f)
	}
	require.Empty(t, list("archive"))
	require.Empty(t, list("db"))

	// Missing namespace: listing is ErrNoSuchNamespace, loading is ErrNoSuchTable.
	_, err = cat.LoadTable(ctx, table.Identifier{"ghost", "t"})
	require.ErrorIs(t, err, catalog.ErrNoSuchTable)
	for _, err := range cat.ListTables(ctx, table.Identifier{"ghost"}) {
		require.ErrorIs(t, err, catalog.ErrNoSuchNamespace)
	}
}

func TestNestedNamespaces(t *testing.T) {
	ctx := context.Background()
	srv := startServer(t, t.TempDir())
	cat := connect(t, srv.URL())
	for _, ns := range []table.Identifier{{"a"}, {"a", "b"}, {"a", "b", "c"}, {"a", "x"}, {"z"}} {
		require.NoError(t, cat.CreateNamespace(ctx, ns, nil))
	}
	top, err := cat.ListNamespaces(ctx, nil)
	require.NoError(t, err)
	require.Equal(t, []table.Identifier{{"a"}, {"z"}}, top)
	under, err := cat.ListNamespaces(ctx, table.Identifier{"a"})
	require.NoError(t, err)
	require.Equal(t, []table.Identifier{{"a", "b"}, {"a", "x"}}, under)
	_, err = cat.ListNamespaces(ctx, table.Identifier{"nope"})
	require.ErrorIs(t, err, catalog.ErrNoSuchNamespace)

	ident := table.Identifier{"a", "b", "c", "deep"}
	tbl := appendRows(t, createTable(t, cat, ident), rows(t, "d", 0, 2))
	ids := slices.Collect(func(yield func(table.Identifier) bool) {
		for id, err := range cat.ListTables(ctx, table.Identifier{"a", "b", "c"}) {
			require.NoError(t, err)
			if !yield(id) {
				return
			}
		}
	})
	require.Equal(t, []table.Identifier{ident}, ids)
	loaded, err := cat.LoadTable(ctx, ident)
	require.NoError(t, err)
	require.Equal(t, tbl.MetadataLocation(), loaded.MetadataLocation())
	require.Contains(t, loaded.Location(), "/a.b.c.db/deep")
	require.ErrorIs(t, cat.DropNamespace(ctx, table.Identifier{"a", "b", "c"}), catalog.ErrNamespaceNotEmpty)
}

func TestStagedCreate(t *testing.T) {
	ctx := context.Background()
	srv := startServer(t, t.TempDir())
	cat := connect(t, srv.URL())
	require.NoError(t, cat.CreateNamespace(ctx, table.Identifier{"db"}, nil))
	ident := table.Identifier{"db", "staged"}
	// Staged updates make the client use stage-create plus an assert-create commit.
	tbl, err := cat.CreateTable(ctx, ident, rowSchema,
		catalog.WithProperties(iceberg.Properties{"a": "1"}),
		catalog.WithStagedUpdates(table.NewSetPropertiesUpdate(iceberg.Properties{"b": "2"})))
	require.NoError(t, err)
	require.Equal(t, "1", tbl.Properties()["a"])
	require.Equal(t, "2", tbl.Properties()["b"])
	loaded, err := cat.LoadTable(ctx, ident)
	require.NoError(t, err)
	require.Equal(t, "2", loaded.Properties()["b"])
	require.Len(t, metadataFiles(t, loaded), 1)

	// assert-create on an existing table is a conflict.
	_, err = cat.CreateTable(ctx, ident, rowSchema,
		catalog.WithStagedUpdates(table.NewSetPropertiesUpdate(iceberg.Properties{"c": "3"})))
	require.ErrorIs(t, err, catalog.ErrTableAlreadyExists)
}

func TestMultiTableTransaction(t *testing.T) {
	ctx := context.Background()
	srv := startServer(t, t.TempDir())
	cat := connect(t, srv.URL())
	a := createTable(t, cat, table.Identifier{"db", "a"})
	b := createTable(t, cat, table.Identifier{"db", "b"})

	commit := func(a, b *table.Table, tag string) error {
		mtx, err := catalog.NewMultiTableTransaction(cat)
		require.NoError(t, err)
		for _, tb := range []*table.Table{a, b} {
			tx := tb.NewTransaction()
			require.NoError(t, tx.AppendTable(ctx, rows(t, tag, 0, 2), 100, nil))
			require.NoError(t, mtx.AddTransaction(tx))
		}
		return mtx.Commit(ctx)
	}
	require.NoError(t, commit(a, b, "one"))
	reload := func(name string) *table.Table {
		tb, err := cat.LoadTable(ctx, table.Identifier{"db", name})
		require.NoError(t, err)
		return tb
	}
	a2, b2 := reload("a"), reload("b")
	require.Equal(t, names("one", 0, 2), readNames(t, a2))
	require.Equal(t, names("one", 0, 2), readNames(t, b2))

	// Move b alone, then retry a transaction based on the old b: all or nothing.
	b3 := appendRows(t, b2, rows(t, "solo", 5, 6))
	err := commit(a2, b2, "two")
	require.ErrorIs(t, err, table.ErrCommitFailed)
	require.Equal(t, names("one", 0, 2), readNames(t, reload("a")), "a must not move when b conflicts")
	require.Equal(t, b3.MetadataLocation(), reload("b").MetadataLocation())
	require.Equal(t, referencedMetadata(t, reload("a")), metadataFiles(t, a2), "no orphan metadata for a")
}

func TestWarehouseSelection(t *testing.T) {
	ctx := context.Background()
	other := t.TempDir()
	srv, err := localcatalog.Listen("127.0.0.1:0", localcatalog.Options{Dir: t.TempDir(), AllowLocations: []string{other}})
	require.NoError(t, err)
	t.Cleanup(func() { srv.Close() })
	cat := connect(t, srv.URL(), rest.WithWarehouseLocation(other))
	tbl := appendRows(t, createTable(t, cat, table.Identifier{"db", "t"}), rows(t, "w", 0, 2))
	require.True(t, strings.HasPrefix(localPath(t, tbl.Location()), other), tbl.Location())

	// The default warehouse is a separate catalog.
	def := connect(t, srv.URL())
	ok, err := def.CheckNamespaceExists(ctx, table.Identifier{"db"})
	require.NoError(t, err)
	require.False(t, ok)

	// A warehouse outside the allowed locations is refused.
	_, err = rest.NewCatalog(ctx, "x", srv.URL(), rest.WithWarehouseLocation(t.TempDir()))
	require.ErrorContains(t, err, "outside the locations this catalog may write to")

	// The same warehouse by its file:// URI is the same catalog.
	same := connect(t, srv.URL(), rest.WithWarehouseLocation("file://"+filepath.ToSlash(other)))
	loaded, err := same.LoadTable(ctx, table.Identifier{"db", "t"})
	require.NoError(t, err)
	require.Equal(t, names("w", 0, 2), readNames(t, loaded))
}

// TestTwoServersOneDirectory: an `icebeam serve` and a pipeline's embedded
// catalog may share one directory. Their commits race through SQLite's
// compare-and-swap instead of one process's locks: still exactly one winner
// and a 409 (never a 500) for the loser.
func TestTwoServersOneDirectory(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	srvs := []string{startServer(t, dir).URL(), startServer(t, dir).URL()}
	ident := table.Identifier{"db", "shared"}
	createTable(t, connect(t, srvs[0]), ident)
	clients := []*rest.Catalog{connect(t, srvs[0]), connect(t, srvs[1])}

	const rounds = 10
	wins := 0
	for round := range rounds {
		var txs [2]*table.Transaction
		for w := range 2 {
			base, err := clients[w].LoadTable(ctx, ident)
			require.NoError(t, err)
			txs[w] = base.NewTransaction()
			// An append asserts the branch head; a properties-only change
			// asserts nothing and would rightly succeed twice.
			require.NoError(t, txs[w].AppendTable(ctx, rows(t, fmt.Sprintf("r%d-w%d", round, w), round, round+1), 100, nil))
			require.NoError(t, txs[w].SetProperties(iceberg.Properties{"round": fmt.Sprint(round)}))
		}
		var errs [2]error
		var wg sync.WaitGroup
		for w := range 2 {
			wg.Go(func() { _, errs[w] = txs[w].Commit(ctx) })
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			if err == nil {
				ok++
				continue
			}
			require.ErrorIs(t, err, table.ErrCommitFailed)
		}
		require.Equal(t, 1, ok, "round %d: %v", round, errs)
		wins += ok
	}
	tbl, err := clients[1].LoadTable(ctx, ident)
	require.NoError(t, err)
	require.Equal(t, fmt.Sprint(rounds-1), tbl.Properties()["round"])
	require.Equal(t, rounds, wins)
	require.Len(t, slices.Collect(tbl.Metadata().PreviousFiles()), rounds)
	require.Len(t, tbl.Metadata().Snapshots(), rounds)
	// A loser across processes wrote its metadata file before the swap
	// failed; it must have been removed again.
	require.Equal(t, referencedMetadata(t, tbl), metadataFiles(t, tbl))
}

func TestOddNames(t *testing.T) {
	ctx := context.Background()
	srv := startServer(t, t.TempDir())
	cat := connect(t, srv.URL())
	for _, ident := range []table.Identifier{
		// A "%" in a table name is not tested: iceberg-go's client puts table
		// names into paths unescaped, and "t%1" loses the whole path.
		{"my ns", "we%ird", "t 1"},
		{"dot.ted", "t"},
		{"ünï", "çödé"},
	} {
		tbl := appendRows(t, createTable(t, cat, ident), rows(t, "n", 0, 1))
		loaded, err := cat.LoadTable(ctx, ident)
		require.NoError(t, err, "%q", ident)
		require.Equal(t, tbl.MetadataLocation(), loaded.MetadataLocation())
		require.Equal(t, []string{"n-0"}, readNames(t, loaded))
		var ids []table.Identifier
		for id, err := range cat.ListTables(ctx, ident[:len(ident)-1]) {
			require.NoError(t, err)
			ids = append(ids, id)
		}
		require.Equal(t, []table.Identifier{ident}, ids)
		require.NoError(t, cat.DropTable(ctx, ident))
	}
	top, err := cat.ListNamespaces(ctx, nil)
	require.NoError(t, err)
	require.Equal(t, []table.Identifier{{"dot.ted"}, {"my ns"}, {"ünï"}}, top)
}

func TestClientPagination(t *testing.T) {
	srv := startServer(t, t.TempDir())
	cat := connect(t, srv.URL())
	var want []table.Identifier
	for i := range 5 {
		id := table.Identifier{"db", fmt.Sprintf("t%d", i)}
		createTable(t, cat, id)
		want = append(want, id)
	}
	ctx := cat.SetPageSize(context.Background(), 2)
	var got []table.Identifier
	for id, err := range cat.ListTables(ctx, table.Identifier{"db"}) {
		require.NoError(t, err)
		got = append(got, id)
	}
	require.Equal(t, want, got)
}

// BenchmarkCommit measures one metadata-only commit (load check, metadata
// write, SQLite swap) through the REST client.
func BenchmarkCommit(b *testing.B) {
	ctx := context.Background()
	srv, err := localcatalog.Listen("127.0.0.1:0", localcatalog.Options{Dir: b.TempDir()})
	require.NoError(b, err)
	defer srv.Close()
	cat, err := rest.NewCatalog(ctx, "bench", srv.URL())
	require.NoError(b, err)
	require.NoError(b, cat.CreateNamespace(ctx, table.Identifier{"db"}, nil))
	tbl, err := cat.CreateTable(ctx, table.Identifier{"db", "t"}, rowSchema)
	require.NoError(b, err)
	b.ResetTimer()
	for i := range b.N {
		tx := tbl.NewTransaction()
		require.NoError(b, tx.SetProperties(iceberg.Properties{"i": fmt.Sprint(i)}))
		if tbl, err = tx.Commit(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppend measures a small append (Parquet file, manifest, commit).
func BenchmarkAppend(b *testing.B) {
	ctx := context.Background()
	srv, err := localcatalog.Listen("127.0.0.1:0", localcatalog.Options{Dir: b.TempDir()})
	require.NoError(b, err)
	defer srv.Close()
	cat, err := rest.NewCatalog(ctx, "bench", srv.URL())
	require.NoError(b, err)
	require.NoError(b, cat.CreateNamespace(ctx, table.Identifier{"db"}, nil))
	tbl, err := cat.CreateTable(ctx, table.Identifier{"db", "t"}, rowSchema)
	require.NoError(b, err)
	data := rowsNoCleanup("b", 0, 100)
	defer data.Release()
	b.ResetTimer()
	for range b.N {
		tx := tbl.NewTransaction()
		require.NoError(b, tx.AppendTable(ctx, data, 1000, nil))
		if tbl, err = tx.Commit(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// TestPartitionedTable creates a table with a partition spec and sort order
// through the REST create call and writes partitioned data into it.
func TestPartitionedTable(t *testing.T) {
	ctx := context.Background()
	srv := startServer(t, t.TempDir())
	cat := connect(t, srv.URL())
	require.NoError(t, cat.CreateNamespace(ctx, table.Identifier{"db"}, nil))
	// Client-side field IDs deliberately differ from the ones the table gets.
	sc := iceberg.NewSchema(0,
		iceberg.NestedField{ID: 7, Name: "id", Type: iceberg.PrimitiveTypes.Int64, Required: true},
		iceberg.NestedField{ID: 8, Name: "name", Type: iceberg.PrimitiveTypes.String},
	)
	spec := iceberg.NewPartitionSpec(iceberg.PartitionField{SourceIDs: []int{7}, FieldID: 1000, Name: "id_bucket", Transform: iceberg.BucketTransform{NumBuckets: 4}})
	order, err := table.NewSortOrder(1, []table.SortField{{SourceIDs: []int{8}, Transform: iceberg.IdentityTransform{}, Direction: table.SortASC, NullOrder: table.NullsFirst}})
	require.NoError(t, err)
	tbl, err := cat.CreateTable(ctx, table.Identifier{"db", "p"}, sc, catalog.WithPartitionSpec(&spec), catalog.WithSortOrder(order))
	require.NoError(t, err)

	idField, _ := tbl.Schema().FindFieldByName("id")
	nameField, _ := tbl.Schema().FindFieldByName("name")
	require.Equal(t, 1, idField.ID)
	gotSpec := tbl.Spec()
	require.Equal(t, 1, gotSpec.NumFields())
	require.Equal(t, []int{idField.ID}, gotSpec.Field(0).SourceIDs)
	require.Equal(t, "bucket[4]", gotSpec.Field(0).Transform.String())
	require.Equal(t, 1, tbl.SortOrder().Len())
	for _, f := range tbl.SortOrder().Fields() {
		require.Equal(t, []int{nameField.ID}, f.SourceIDs)
	}

	tbl = appendRows(t, tbl, rows(t, "p", 0, 40))
	require.Equal(t, names("p", 0, 40), readNames(t, tbl))
	tasks, err := tbl.Scan().PlanFiles(ctx)
	require.NoError(t, err)
	require.Greater(t, len(tasks), 1, "40 ids over 4 buckets must give several files")
}
