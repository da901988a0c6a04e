package icebergio

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/transforms/icebergio/internal/rowcodec"
)

// change is a row of a change stream: the operation, its position in the
// log, and the account row.
type change struct {
	Op    string `beam:"op"`
	LSN   int64  `beam:"lsn"`
	ID    int64  `beam:"id"`
	Owner string `beam:"owner"`
	Bal   int64  `beam:"balance_cents"`
}

// account is a row of the table the changes land in.
type account struct {
	LSN   int64  `beam:"lsn"`
	ID    int64  `beam:"id"`
	Owner string `beam:"owner"`
	Bal   int64  `beam:"balance_cents"`
}

// model replays changes the simple way: per id, the change with the
// highest LSN wins; a delete leaves no row.
func model(changes []change) []account {
	last := map[int64]change{}
	for _, c := range changes {
		if cur, ok := last[c.ID]; !ok || c.LSN >= cur.LSN {
			last[c.ID] = c
		}
	}
	var out []account
	for _, c := range last {
		if c.Op != "d" {
			out = append(out, account{LSN: c.LSN, ID: c.ID, Owner: c.Owner, Bal: c.Bal})
		}
	}
	return sortAccounts(out)
}

func sortAccounts(a []account) []account {
	slices.SortFunc(a, func(x, y account) int { return int(x.ID - y.ID) })
	return a
}

// changeLog is n changes to keys ids, LSNs 1..n, in panes of per changes
// each shuffled; every fifth pane also repeats, with its old LSN, a change
// from two panes back (a late duplicate the table must not apply).
func changeLog(seed uint64, n, keys, per int) [][]change {
	r := rand.New(rand.NewPCG(seed, 1))
	var all []change
	var panes [][]change
	for i := range n {
		id := int64(r.IntN(keys))
		op := []string{"c", "u", "u", "u", "d", "r"}[r.IntN(6)]
		c := change{Op: op, LSN: int64(i + 1), ID: id}
		if op != "d" {
			c.Owner, c.Bal = fmt.Sprintf("owner-%d", r.IntN(7)), int64(r.IntN(100_000))
		}
		all = append(all, c)
		if len(all)%per == 0 {
			p := slices.Clone(all[len(all)-per:])
			if k := len(panes); k >= 2 && k%5 == 0 {
				p = append(p, panes[k-2][0])
			}
			r.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
			panes = append(panes, p)
		}
	}
	return panes
}

func readAccounts(t *testing.T, tbl *table.Table) []account {
	t.Helper()
	return sortAccounts(readRows[account](t, tbl))
}

// deleteFiles counts the live delete files of tbl's current snapshot by
// kind, and the data files that have more than one deletion vector.
func deleteFiles(t *testing.T, tbl *table.Table) (dvs, eq, pos, doubled int) {
	t.Helper()
	tasks, err := tbl.Scan().PlanFiles(context.Background())
	require.NoError(t, err)
	seen := map[string]bool{}
	for _, task := range tasks {
		if seen[task.File.FilePath()] {
			continue
		}
		seen[task.File.FilePath()] = true
		eq += len(task.EqualityDeleteFiles)
		pos += len(task.DeleteFiles)
		dvs += len(task.DeletionVectorFiles)
		if len(task.DeletionVectorFiles) > 1 {
			doubled++
		}
	}
	return dvs, eq, pos, doubled
}

func TestChangesMatchTheModel(t *testing.T) {
	for _, version := range []string{"3", "2"} {
		t.Run("v"+version, func(t *testing.T) {
			ctx := context.Background()
			dest := "cdc.accounts_v" + version
			// No compaction: the deletion vectors stay to be checked.
			cfg := Config{Catalog: launch(t), Table: dest, WriterID: "w", Mode: Changes, MaxDeletedShare: -1,
				Key: []string{"id"}, Op: "op", Order: "lsn", Properties: map[string]string{table.PropertyFormatVersion: version}}
			s := newTestSink[change](t, cfg)
			panes := changeLog(7, 1200, 40, 100)
			var applied []change
			for i, p := range panes {
				if i%4 == 3 {
					// A new worker: its index is built from the table.
					s = newTestSink[change](t, cfg)
				}
				// Every other pane is collapsed a chunk at a time, keeping
				// only the winners so far between chunks.
				s.collapseBytes = defaultCollapseBytes
				if i%2 == 1 {
					s.collapseBytes = 1
				}
				res, err := s.commitRows(ctx, dest, chunksOf(t, s, p, 30), nil)
				require.NoError(t, err, "pane %d", i)
				require.False(t, res.Skipped)
				applied = append(applied, p...)
				tbl := loadTable(t, s.cat, dest)
				require.Equal(t, model(applied), readAccounts(t, tbl), "after pane %d", i)
			}
			tbl := loadTable(t, s.cat, dest)
			require.Equal(t, version, fmt.Sprint(tbl.Metadata().Version()))
			require.Equal(t, []int{tbl.Schema().Field(1).ID}, tbl.Schema().IdentifierFieldIDs, "id is the identifier field")
			_, hasOp := tbl.Schema().FindFieldByName("op")
			require.False(t, hasOp, "the operation is not a column")
			dvs, eq, pos, doubled := deleteFiles(t, tbl)
			t.Logf("v%s: %d snapshots, live delete files: %d DVs, %d equality, %d position", version, len(tbl.Metadata().Snapshots()), dvs, eq, pos)
			if version == "3" {
				require.NotZero(t, dvs)
				require.Zero(t, eq+pos, "a v3 table gets deletion vectors only")
				require.Zero(t, doubled, "a data file has at most one deletion vector")
			} else {
				require.NotZero(t, eq)
				require.Zero(t, dvs+pos)
			}
		})
	}
}

// A replayed pane commits nothing; the index the sink keeps survives it.
func TestReplayedChangesAreSkipped(t *testing.T) {
	ctx := context.Background()
	dest := "cdc.replay"
	s := newTestSink[change](t, Config{Catalog: launch(t), Table: dest, WriterID: "w", Mode: Changes, Key: []string{"id"}, Op: "op", Order: "lsn"})
	panes := changeLog(11, 300, 20, 100)
	blobs := encodeRows(t, s, panes[0], 25)
	_, err := s.commitRows(ctx, dest, deliver(blobs), nil)
	require.NoError(t, err)
	res, err := s.commitRows(ctx, dest, deliver(blobs), nil)
	require.NoError(t, err)
	require.True(t, res.Skipped)
	for _, p := range panes[1:] {
		_, err := s.commitRows(ctx, dest, chunksOf(t, s, p, 25), nil)
		require.NoError(t, err)
	}
	tbl := loadTable(t, s.cat, dest)
	require.Equal(t, model(slices.Concat(panes...)), readAccounts(t, tbl))
	var paneSnaps int
	for _, snap := range tbl.Metadata().Snapshots() {
		if snap.Summary.Properties[CommitIDKey] != "" {
			paneSnaps++
		}
	}
	require.Equal(t, len(panes), paneSnaps, "one snapshot per pane")
	// The writer's totals count each pane once, the replay not at all.
	var written int64
	for _, snap := range tbl.Metadata().Snapshots() {
		if snap.Summary.Properties[CommitIDKey] != "" { // not a compaction
			n, _ := strconv.ParseInt(snap.Summary.Properties["added-records"], 10, 64)
			written += n
		}
	}
	commits, rows, ok := CommittedBy(tbl, "w")
	require.True(t, ok)
	require.Equal(t, [2]int64{int64(len(panes)), written}, [2]int64{commits, rows})
}

// storedRows is how many rows tbl's data files hold, deleted or not.
// Panes that land out of order (two bundles committing one table at once)
// still leave each key its highest-LSN change: a key a later pane deleted
// stays deleted when an earlier pane's change to it lands after.
func TestPanesOutOfOrder(t *testing.T) {
	ctx := context.Background()
	cat := launch(t)
	for _, version := range []string{"3", "2"} {
		t.Run("v"+version, func(t *testing.T) { panesOutOfOrder(t, ctx, cat, version) })
	}
}

func panesOutOfOrder(t *testing.T, ctx context.Context, cat catalog.Config, version string) {
	cfg := Config{Catalog: cat, WriterID: "w", Mode: Changes, Key: []string{"id"}, Op: "op", Order: "lsn",
		Properties: map[string]string{table.PropertyFormatVersion: version}}
	commit := func(t *testing.T, s *sink, dest string, p []change) {
		t.Helper()
		_, err := s.commitRows(ctx, dest, chunksOf(t, s, p, 30), nil)
		require.NoError(t, err)
	}
	for _, rebuild := range []bool{false, true} {
		t.Run(fmt.Sprintf("by hand, index rebuilt %v", rebuild), func(t *testing.T) {
			cfg := cfg
			cfg.Table = fmt.Sprintf("cdc.late_hand_v%s_%v", version, rebuild)
			s := newTestSink[change](t, cfg)
			commit(t, s, cfg.Table, []change{{Op: "c", LSN: 1, ID: 1, Owner: "a"}, {Op: "c", LSN: 2, ID: 2, Owner: "b"}})
			// The later pane: id 1 deleted, id 2 updated, id 3 (never live) deleted.
			commit(t, s, cfg.Table, []change{{Op: "d", LSN: 20, ID: 1}, {Op: "u", LSN: 21, ID: 2, Owner: "b21"}, {Op: "d", LSN: 22, ID: 3}})
			if rebuild {
				// As after a snapshot this index did not make: the deletes this process made stay known.
				s.keyIndex(cfg.Table, loadTable(t, s.cat, cfg.Table), cfg.Key).invalidate()
			}
			// The earlier pane, landing after it.
			commit(t, s, cfg.Table, []change{{Op: "u", LSN: 10, ID: 1, Owner: "a10"}, {Op: "u", LSN: 11, ID: 2, Owner: "b11"}, {Op: "c", LSN: 12, ID: 3, Owner: "c12"}})
			require.Equal(t, []account{{LSN: 21, ID: 2, Owner: "b21"}}, readAccounts(t, loadTable(t, s.cat, cfg.Table)))
			// A deleted key comes back with a later change.
			commit(t, s, cfg.Table, []change{{Op: "c", LSN: 30, ID: 1, Owner: "a30"}})
			require.Equal(t, []account{{LSN: 30, ID: 1, Owner: "a30"}, {LSN: 21, ID: 2, Owner: "b21"}}, readAccounts(t, loadTable(t, s.cat, cfg.Table)))
		})
	}
	t.Run("shuffled", func(t *testing.T) {
		cfg := cfg
		cfg.Table = "cdc.late_shuffled_v" + version
		s := newTestSink[change](t, cfg)
		panes := changeLog(13, 3000, 60, 100)
		// Each pair of panes lands in reverse; every seventh pane three panes late.
		var order []int
		for i := 0; i+1 < len(panes); i += 2 {
			order = append(order, i+1, i)
		}
		for i := 6; i+3 < len(order); i += 7 {
			p := order[i]
			copy(order[i:i+3], order[i+1:i+4])
			order[i+3] = p
		}
		for _, i := range order {
			commit(t, s, cfg.Table, panes[i])
		}
		require.Equal(t, model(slices.Concat(panes[:len(order)]...)), readAccounts(t, loadTable(t, s.cat, cfg.Table)))
	})
}

func storedRows(t *testing.T, tbl *table.Table) int64 {
	t.Helper()
	tasks, err := tbl.Scan().PlanFiles(context.Background())
	require.NoError(t, err)
	var n int64
	for _, task := range tasks {
		n += task.File.Count()
	}
	return n
}

// Panes that change most keys leave most rows of older files deleted; the
// sink compacts so that at most MaxDeletedShare (default 1/3) of the
// stored rows are deleted after any pane, and the table stays the model's.
// Without compaction the share goes far above it.
func TestCompactionBoundsDeletedRows(t *testing.T) {
	panes := changeLog(13, 1600, 40, 100)
	for _, share := range []float64{0, -1} {
		t.Run(fmt.Sprint("share ", share), func(t *testing.T) {
			ctx := context.Background()
			dest := "cdc.compacted"
			cfg := Config{Catalog: launch(t), Table: dest, WriterID: "w", Mode: Changes, Key: []string{"id"}, Op: "op", Order: "lsn", MaxDeletedShare: share}
			s := newTestSink[change](t, cfg)
			var applied []change
			worst := 0.0
			for i, p := range panes {
				if i == 9 {
					// A new worker: its index is built from the compacted table.
					s = newTestSink[change](t, cfg)
				}
				_, err := s.commitRows(ctx, dest, chunksOf(t, s, p, 30), nil)
				require.NoError(t, err, "pane %d", i)
				applied = append(applied, p...)
				tbl := loadTable(t, s.cat, dest)
				want := model(applied)
				require.Equal(t, want, readAccounts(t, tbl), "after pane %d", i)
				stored := storedRows(t, tbl)
				worst = max(worst, float64(stored-int64(len(want)))/float64(stored))
			}
			tbl := loadTable(t, s.cat, dest)
			var replaces int
			for _, snap := range tbl.Metadata().Snapshots() {
				if snap.Summary.Operation == table.OpReplace {
					replaces++
				}
			}
			t.Logf("MaxDeletedShare %v: %d snapshots, %d compactions, at worst %.2f of the stored rows deleted", share, len(tbl.Metadata().Snapshots()), replaces, worst)
			if share == 0 {
				require.LessOrEqual(t, worst, 1.0/3)
				require.NotZero(t, replaces)
			} else {
				require.Greater(t, worst, 0.5, "without compaction, most stored rows end up deleted")
				require.Zero(t, replaces)
			}
		})
	}
}

// Upsert: rows without an operation; the later of two rows with one key
// in a pane wins by Order.
func TestUpsert(t *testing.T) {
	ctx := context.Background()
	dest := "cdc.upsert"
	s := newTestSink[account](t, Config{Catalog: launch(t), Table: dest, WriterID: "w", Mode: Upsert, Key: []string{"id"}, Order: "lsn"})
	_, err := s.commitRows(ctx, dest, chunksOf(t, s, []account{{1, 1, "a", 10}, {2, 2, "b", 20}, {4, 1, "a", 11}, {3, 3, "c", 30}}, 2), nil)
	require.NoError(t, err)
	_, err = s.commitRows(ctx, dest, chunksOf(t, s, []account{{5, 2, "b", 21}, {2, 3, "c", 0}}, 1), nil) // the second is stale
	require.NoError(t, err)
	require.Equal(t, []account{{4, 1, "a", 11}, {5, 2, "b", 21}, {3, 3, "c", 30}}, readAccounts(t, loadTable(t, s.cat, dest)))

	// Without Order the later chunk's row wins, also when the pane is
	// collapsed a chunk at a time.
	for _, fold := range []bool{false, true} {
		dest := fmt.Sprintf("cdc.upsert_last_%v", fold)
		s := newTestSink[account](t, Config{Catalog: s.cfg.Catalog, Table: dest, WriterID: "w", Mode: Upsert, Key: []string{"id"}})
		if fold {
			s.collapseBytes = 1
		}
		chunks := chunksOf(t, s, []account{{1, 1, "a", 10}, {2, 2, "b", 20}, {3, 1, "a", 11}, {4, 2, "b", 21}, {5, 1, "a", 12}}, 1)
		sentInTurn := func(yield func(*chunk, error) bool) { // one a millisecond
			var ms int64
			for c, err := range chunks {
				if err == nil {
					c.SentMS, ms = ms, ms+1
				}
				if !yield(c, err) {
					return
				}
			}
		}
		_, err := s.commitRows(ctx, dest, sentInTurn, nil)
		require.NoError(t, err)
		require.Equal(t, []account{{5, 1, "a", 12}, {4, 2, "b", 21}}, readAccounts(t, loadTable(t, s.cat, dest)), "folded: %v", fold)
	}
}

// What cannot be applied fails with the reason before anything is
// committed: in the encode step, which sorts a bundle's changes by key.
func TestBadChangesAreRefused(t *testing.T) {
	ctx := context.Background()
	dest := "cdc.bad"
	cfg := Config{Catalog: launch(t), Table: dest, WriterID: "w", Mode: Changes, Key: []string{"id"}, Op: "op", Order: "lsn"}
	s := newTestSink[change](t, cfg)
	bb := s.rows.NewBatchBuilder(memory.DefaultAllocator)
	defer bb.Release()
	for _, c := range []change{{Op: "c", LSN: 1, ID: 1}, {Op: "x", LSN: 2, ID: 2}} {
		v := any(c)
		bb.Add(s.rows.RowPointer(&v))
	}
	_, err := s.enc.encode(ctx, s.cfg.Table, batchSeq(bb.Batch()), time.Now(), nil)
	require.ErrorContains(t, err, `row with key id=2: unknown operation "x" in op`)

	for _, bad := range []struct {
		cfg  Config
		want string
	}{
		{Config{Table: "a.b", Mode: Changes, Op: "op"}, "needs Order"},
		{Config{Table: "a.b", Mode: Changes, Order: "lsn"}, "needs Op"},
		{Config{Table: "a.b", Mode: Changes, Op: "lsn", Order: "lsn"}, `Op "lsn" is not a string field`},
		{Config{Table: "a.b", Mode: Upsert, Key: []string{"nope"}}, `key column "nope" is not a field`},
		{Config{Table: "a.b", Mode: Upsert, Shards: 4}, "Shards must be 1"},
		{Config{Table: "a.b", Key: []string{"id"}}, "Key, Op and Order apply to the modes"},
	} {
		rs, err := rowcodec.New(reflect.TypeFor[change]())
		require.NoError(t, err)
		err = bad.cfg.withDefaults().check(rs)
		require.ErrorContains(t, err, bad.want)
	}
}

func init() {
	beam.RegisterType(reflect.TypeOf(change{}))
	beam.RegisterType(reflect.TypeOf(account{}))
}

// Through the Beam transforms on prism: Write in Changes mode, batch after
// batch, into a v3 and a v2 table, each read back with Read (deletion
// vectors and equality deletes applied) equal to the model.
func TestWriteChangesAndReadBack(t *testing.T) {
	for _, version := range []string{"3", "2"} {
		t.Run("v"+version, func(t *testing.T) {
			cfg := Config{Catalog: launch(t), Table: "cdc.pipeline", Mode: Changes, Key: []string{"id"}, Op: "op", Order: "lsn",
				Properties: map[string]string{table.PropertyFormatVersion: version}}
			var applied []change
			for _, p := range changeLog(3, 600, 30, 200) {
				res := runWrite(t, cfg, p)
				require.Len(t, res, 1)
				applied = append(applied, p...)
			}
			want := model(applied)
			got, _ := runRead[account](t, ReadConfig{Catalog: cfg.Catalog, Table: cfg.Table})
			require.Equal(t, want, sortAccounts(got))

			// ReadRecords too: the live ids, as Arrow batches.
			p, s := beam.NewPipelineWithRoot()
			batches := collectRows[[]byte](s, ReadRecords(s, ReadConfig{Catalog: cfg.Catalog, Table: cfg.Table, Columns: []string{"id"}}))
			require.NoError(t, ptest.Run(p))
			var ids, wantIDs []int64
			for _, b := range batches() {
				rec, err := DecodeRecords(b)
				require.NoError(t, err)
				ids = append(ids, rec.Column(0).(*array.Int64).Int64Values()...)
				rec.Release()
			}
			for _, a := range want {
				wantIDs = append(wantIDs, a.ID)
			}
			slices.Sort(ids)
			require.Equal(t, wantIDs, ids)
		})
	}
}

// BenchmarkCommitChanges times the commit of one pane of changes to a
// format v3 table of 1M keys: 4M changes, 60% updates, 25% inserts and 15%
// deletes of random keys (what a 20 s pane of a 200,000 changes/s stream
// holds), encoded beforehand as the shuffle delivers them.
//
//	go test -run '^$' -bench CommitChanges -benchtime 3x ./transforms/icebergio
//
// benchChunkRows is the rows of a chunk in BenchmarkCommitChanges: about
// what a bundle of pipelines/cdc holds at 200,000 changes a second on
// prism (a pane of 4M changes comes in 150 to 190 chunks).
const benchChunkRows = 25_000

func BenchmarkCommitChanges(b *testing.B) {
	const keys, per = 1_000_000, 4_000_000
	ctx := context.Background()
	dest := "bench.accounts"
	s := newTestSink[change](b, Config{Catalog: launch(b), Table: dest, WriterID: "w", Mode: Changes, Key: []string{"id"}, Op: "op", Order: "lsn"})
	load := make([]change, keys)
	for i := range load {
		load[i] = change{Op: "c", LSN: int64(i + 1), ID: int64(i), Owner: "owner-1", Bal: int64(i)}
	}
	_, err := s.commitRows(ctx, dest, chunksOf(b, s, load, maxBatchRows), nil)
	require.NoError(b, err)
	// The key index's memory: a second index of the loaded table, built
	// from its files.
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	idx := &keyIndex{snapshot: -1}
	ident, _ := parseIdent(dest)
	tbl, err := s.cat.LoadTable(ctx, ident)
	require.NoError(b, err)
	require.NoError(b, idx.sync(ctx, tbl, []string{"id"}, "lsn"))
	runtime.GC()
	runtime.ReadMemStats(&after)
	perKey := float64(after.HeapAlloc-before.HeapAlloc) / float64(len(idx.entries))
	runtime.KeepAlive(idx)
	r := rand.New(rand.NewPCG(1, 2))
	lsn := int64(keys)
	var encode time.Duration
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		p := make([]change, per)
		for i := range p {
			lsn++
			c := change{Op: "u", LSN: lsn, ID: r.Int64N(keys), Owner: fmt.Sprintf("owner-%d", r.IntN(50)), Bal: r.Int64N(1_000_000)}
			switch n := r.IntN(20); {
			case n >= 17:
				c = change{Op: "d", LSN: lsn, ID: c.ID}
			case n >= 12:
				c.Op = "c"
			}
			p[i] = c
		}
		start := time.Now()
		blobs := encodeRows(b, s, p, benchChunkRows)
		encode += time.Since(start)
		b.StartTimer()
		_, err := s.commitRows(ctx, dest, deliver(blobs), nil)
		require.NoError(b, err)
	}
	b.ReportMetric(float64(per)*float64(b.N)/b.Elapsed().Seconds(), "changes/s")
	b.ReportMetric(perKey, "index-B/key")
	// What the encode step spends on the pane before the shuffle, spread
	// over the window: not in ns/op.
	b.ReportMetric(float64(encode.Nanoseconds())/float64(per*b.N), "encode-ns/change")
}

// Rows with an operation the sink does not know: Write fails before
// anything is committed, naming the row; WriteWithRejects sends them to its
// dead-letter output and applies the others.
func TestUnknownOperations(t *testing.T) {
	changes := []change{
		{Op: "c", LSN: 1, ID: 1, Owner: "a", Bal: 10},
		{Op: "c", LSN: 2, ID: 2, Owner: "b", Bal: 20},
		{Op: "merge", LSN: 3, ID: 1, Owner: "x", Bal: 99},
		{Op: "u", LSN: 4, ID: 2, Owner: "b", Bal: 21},
		{Op: "", LSN: 5, ID: 3, Owner: "y", Bal: 5},
	}
	cfg := Config{Catalog: launch(t), Table: "cdc.rejects", Mode: Changes, Key: []string{"id"}, Op: "op", Order: "lsn"}

	p, s := beam.NewPipelineWithRoot()
	Write(s, cfg, beam.CreateList(s, changes))
	err := ptest.Run(p)
	require.ErrorContains(t, err, `row {"op":"merge","lsn":3,"id":1,"owner":"x","balance_cents":99}: unknown operation "merge" in op`)
	cat, err := catalog.Open(context.Background(), cfg.Catalog)
	require.NoError(t, err)
	ident, _ := parseIdent(cfg.Table)
	if tbl, err := cat.LoadTable(context.Background(), ident); err == nil {
		require.Nil(t, tbl.CurrentSnapshot(), "a failed write commits nothing")
	}

	p, s = beam.NewPipelineWithRoot()
	_, rejected := WriteWithRejects(s, cfg, beam.CreateList(s, changes))
	got := collectRows[RejectedRow](s, rejected)
	require.NoError(t, ptest.Run(p))
	rej := got()
	slices.SortFunc(rej, func(a, b RejectedRow) int { return strings.Compare(a.Row, b.Row) })
	require.Equal(t, []RejectedRow{
		{Table: "cdc.rejects", Row: `{"op":"","lsn":5,"id":3,"owner":"y","balance_cents":5}`, Reason: `unknown operation "" in op (want c, r, u, d or t, or insert, update, delete or truncate)`},
		{Table: "cdc.rejects", Row: `{"op":"merge","lsn":3,"id":1,"owner":"x","balance_cents":99}`, Reason: `unknown operation "merge" in op (want c, r, u, d or t, or insert, update, delete or truncate)`},
	}, rej)
	rows, _ := runRead[account](t, ReadConfig{Catalog: cfg.Catalog, Table: cfg.Table})
	require.Equal(t, []account{{LSN: 1, ID: 1, Owner: "a", Bal: 10}, {LSN: 4, ID: 2, Owner: "b", Bal: 21}}, sortAccounts(rows))
}
