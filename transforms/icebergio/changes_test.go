package icebergio

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/graph/coder"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/graph/mtime"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"
)

// timedRow is an emitted row with its event time, in emission order.
type timedRow struct {
	At  mtime.Time
	Row any
}

var (
	timedMu  sync.Mutex
	timedGot = map[string][]timedRow{}
)

// collectTimedFn records rows with their event times in the test process.
type collectTimedFn struct{ Key string }

func (f *collectTimedFn) ProcessElement(at beam.EventTime, row beam.X) {
	timedMu.Lock()
	defer timedMu.Unlock()
	timedGot[f.Key] = append(timedGot[f.Key], timedRow{At: at, Row: row})
}

func init() { register.DoFn2x0[beam.EventTime, beam.X](&collectTimedFn{}) }

func collectTimed(s beam.Scope, col beam.PCollection) func() []timedRow {
	key := fmt.Sprint("timed-", collectSeq.Add(1))
	beam.ParDo0(s, &collectTimedFn{Key: key}, col)
	return func() []timedRow {
		timedMu.Lock()
		defer timedMu.Unlock()
		out := timedGot[key]
		delete(timedGot, key)
		return out
	}
}

// testTB is what the table helpers need: a *testing.T, or a bgT in a
// goroutine.
type testTB interface {
	require.TestingT
	Helper()
}

// bgT reports failures of a goroutine that changes a table while a
// pipeline runs: it fails the test and cancels the pipeline.
type bgT struct {
	t      *testing.T
	cancel func()
}

func (b bgT) Errorf(format string, args ...any) { b.t.Errorf(format, args...) }
func (b bgT) FailNow()                          { b.cancel(); runtime.Goexit() }
func (b bgT) Helper()                           {}

// runChanges runs ReadChanges of events on prism while during (if set)
// changes the table, and returns the rows emitted.
func runChanges(t *testing.T, cfg ChangesConfig, during func(t testTB)) ([]timedRow, error) {
	t.Helper()
	if cfg.StopAt.IsZero() {
		cfg.StopAt = time.Now().Add(45 * time.Second) // a bound, should the test go wrong
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p, s := beam.NewPipelineWithRoot()
	got := collectTimed(s, ReadChanges(s, cfg, reflect.TypeFor[event]()))
	done := make(chan struct{})
	if during != nil {
		go func() {
			defer close(done)
			during(bgT{t: t, cancel: cancel})
		}()
	} else {
		close(done)
	}
	_, err := beam.Run(ctx, ptest.DefaultRunner(), p)
	<-done
	return got(), err
}

// liveDataFiles lists the data files of tbl's current snapshot.
func liveDataFiles(t testTB, tbl *table.Table) []iceberg.DataFile {
	t.Helper()
	tasks, err := tbl.Scan().PlanFiles(context.Background())
	require.NoError(t, err)
	var files []iceberg.DataFile
	for _, task := range tasks {
		if !slices.ContainsFunc(files, func(f iceberg.DataFile) bool { return f.FilePath() == task.File.FilePath() }) {
			files = append(files, task.File)
		}
	}
	return files
}

// compact rewrites every data file of tbl into one, in a replace snapshot,
// as a compaction does.
func compact(t testTB, tbl *table.Table) *table.Table {
	t.Helper()
	ctx := context.Background()
	old := liveDataFiles(t, tbl)
	sc, recs, err := tbl.Scan().ToArrowRecords(ctx)
	require.NoError(t, err)
	var files []iceberg.DataFile
	for f, err := range table.WriteRecords(ctx, tbl, sc, recs) {
		require.NoError(t, err)
		files = append(files, f)
	}
	tx := tbl.NewTransaction()
	require.NoError(t, tx.NewRewrite(nil).Apply(old, files, nil).Commit(ctx))
	tbl, err = tx.Commit(ctx)
	require.NoError(t, err)
	require.Equal(t, table.OpReplace, tbl.CurrentSnapshot().Summary.Operation)
	return tbl
}

// deleteEvents deletes rows matching filter (copy-on-write: an overwrite
// snapshot when files keep some rows, a delete snapshot otherwise).
func deleteEvents(t testTB, tbl *table.Table, filter iceberg.BooleanExpression) *table.Table {
	t.Helper()
	tx := tbl.NewTransaction()
	require.NoError(t, tx.Delete(context.Background(), filter, nil))
	tbl, err := tx.Commit(context.Background())
	require.NoError(t, err)
	return tbl
}

// sinkAppend appends rows through the icebergio sink's own commit path.
func sinkAppend(t testTB, s *sink, name string, rows []event) {
	t.Helper()
	ctx := context.Background()
	bb := s.rows.NewBatchBuilder(memory.DefaultAllocator)
	defer bb.Release()
	for i := range rows {
		v := any(rows[i])
		bb.Add(s.rows.RowPointer(&v))
	}
	blobs, err := s.enc.encode(ctx, name, batchSeq(bb.Batch()), time.Now(), nil)
	require.NoError(t, err)
	_, err = s.commit(ctx, name, deliver(blobs), nil)
	require.NoError(t, err)
}

// reload loads table name again.
func reload(t testTB, cat icecatalog.Catalog, name string) *table.Table {
	t.Helper()
	ident, err := parseIdent(name)
	require.NoError(t, err)
	tbl, err := cat.LoadTable(context.Background(), ident)
	require.NoError(t, err)
	return tbl
}

// snapshotsOf lists the snapshots of the main branch, oldest first.
func snapshotsOf(t *testing.T, cat icecatalog.Catalog, name string) []table.Snapshot {
	t.Helper()
	meta := loadTable(t, cat, name).Metadata()
	var chain []table.Snapshot
	for s := meta.SnapshotByName(table.MainBranch); s != nil; {
		chain = append(chain, *s)
		if s.ParentSnapshotID == nil {
			break
		}
		s = meta.SnapshotByID(*s.ParentSnapshotID)
	}
	slices.Reverse(chain)
	return chain
}

// requireSnapshotsInOrder checks that got holds exactly the rows of each
// append snapshot in want (ids [from, to) each), in snapshot order, each
// stamped with its snapshot's commit time.
func requireSnapshotsInOrder(t *testing.T, got []timedRow, want [][2]int64, commits []int64) {
	t.Helper()
	i := 0
	for k, w := range want {
		var ids []int64
		for ; i < len(got) && len(ids) < int(w[1]-w[0]); i++ {
			e := got[i].Row.(event)
			require.Equal(t, eventFor(e.ID), e)
			require.Equal(t, mtime.FromMilliseconds(commits[k]), got[i].At, "row %d of snapshot %d: its commit time", e.ID, k)
			ids = append(ids, e.ID)
		}
		slices.Sort(ids)
		var wantIDs []int64
		for id := w[0]; id < w[1]; id++ {
			wantIDs = append(wantIDs, id)
		}
		require.Equal(t, wantIDs, ids, "snapshot %d's rows, after the previous snapshot's", k)
	}
	require.Len(t, got, i, "no row more")
}

// A stream from the earliest snapshot while another goroutine appends
// (with iceberg-go and with the sink), compacts and deletes: every appended
// row once, snapshot by snapshot, at its commit time; the compaction is
// skipped silently, the delete as configured.
func TestReadChangesFollowsAppends(t *testing.T) {
	cfg := launch(t)
	cat := openCat(t, cfg)
	const name = "changes.events"
	tbl := createEventsTable(t, cat, name, nil)
	tbl = appendEvents(t, tbl, eventsFrom(0, 100, nil))
	sk := newTestSink[event](t, Config{Catalog: cfg, Table: name})

	start := time.Now()
	got, err := runChanges(t, ChangesConfig{Catalog: cfg, Table: name, PollInterval: 100 * time.Millisecond,
		MaxSnapshots: 5, OnNonAppend: SkipNonAppend}, func(t testTB) {
		time.Sleep(500 * time.Millisecond)
		tbl := appendEvents(t, reload(t, cat, name), eventsFrom(100, 250, nil))
		tbl = compact(t, tbl)
		sinkAppend(t, sk, name, eventsFrom(250, 300, nil))
		time.Sleep(300 * time.Millisecond)
		tbl = deleteEvents(t, reload(t, cat, name), iceberg.LessThan(iceberg.Reference("id"), int64(10)))
		tbl = appendEvents(t, tbl, eventsFrom(300, 400, nil))
		sinkAppend(t, sk, name, eventsFrom(400, 420, nil))
		sinkAppend(t, sk, name, eventsFrom(420, 430, nil)) // after MaxSnapshots: not read
	})
	require.NoError(t, err)
	t.Logf("streamed %d rows in %v", len(got), time.Since(start))

	snaps := snapshotsOf(t, cat, name)
	var ops []table.Operation
	var appends []int64
	for _, s := range snaps {
		ops = append(ops, s.Summary.Operation)
		if s.Summary.Operation == table.OpAppend {
			appends = append(appends, s.TimestampMs)
		}
	}
	require.Equal(t, []table.Operation{"append", "append", "replace", "append", "delete", "append", "append", "append"}, ops)
	requireSnapshotsInOrder(t, got, [][2]int64{{0, 100}, {100, 250}, {250, 300}, {300, 400}, {400, 420}}, appends)
}

// An overwrite fails the stream by default, or is skipped, naming it; FromSnapshot starts
// after it; Latest only sees what comes after the start.
func TestReadChangesNonAppendAndStarts(t *testing.T) {
	cfg := launch(t)
	cat := openCat(t, cfg)
	const name = "changes.overwrite"
	tbl := createEventsTable(t, cat, name, nil)
	tbl = appendEvents(t, tbl, eventsFrom(0, 100, nil))
	// An overwrite: rows 0..9 replaced by 1000..1009.
	rec := eventsBatch(t, tbl, eventsFrom(1000, 1010, nil))
	rdr, err := array.NewRecordReader(rec.Schema(), []arrow.RecordBatch{rec})
	require.NoError(t, err)
	tx := tbl.NewTransaction()
	require.NoError(t, tx.Overwrite(context.Background(), rdr, nil, table.WithOverwriteFilter(iceberg.LessThan(iceberg.Reference("id"), int64(10)))))
	tbl, err = tx.Commit(context.Background())
	require.NoError(t, err)
	overwrite := tbl.CurrentSnapshot()
	require.Equal(t, table.OpOverwrite, overwrite.Summary.Operation)
	tbl = appendEvents(t, tbl, eventsFrom(100, 200, nil))
	fromC := tbl.CurrentSnapshot()

	_, err = runChanges(t, ChangesConfig{Catalog: cfg, Table: name, PollInterval: 50 * time.Millisecond, MaxSnapshots: 3}, nil)
	require.ErrorContains(t, err, fmt.Sprintf("icebergio: table %s: snapshot %d (committed ", name, overwrite.SnapshotID))
	require.ErrorContains(t, err, "is an overwrite, not an append: a change stream cannot express it")

	// Skipped: neither its new rows nor its removals show.
	got, err := runChanges(t, ChangesConfig{Catalog: cfg, Table: name, PollInterval: 50 * time.Millisecond, MaxSnapshots: 2,
		OnNonAppend: SkipNonAppend}, nil)
	require.NoError(t, err)
	snaps := snapshotsOf(t, cat, name)
	requireSnapshotsInOrder(t, got, [][2]int64{{0, 100}, {100, 200}}, []int64{snaps[0].TimestampMs, fromC.TimestampMs})

	got, err = runChanges(t, ChangesConfig{Catalog: cfg, Table: name, PollInterval: 50 * time.Millisecond,
		From: FromSnapshot(fromC.SnapshotID), MaxSnapshots: 1}, nil)
	require.NoError(t, err)
	requireSnapshotsInOrder(t, got, [][2]int64{{100, 200}}, []int64{fromC.TimestampMs})

	got, err = runChanges(t, ChangesConfig{Catalog: cfg, Table: name, PollInterval: 50 * time.Millisecond,
		From: Latest, MaxSnapshots: 1}, func(t testTB) {
		time.Sleep(700 * time.Millisecond)
		appendEvents(t, reload(t, cat, name), eventsFrom(200, 230, nil))
	})
	require.NoError(t, err)
	last := loadTable(t, cat, name).CurrentSnapshot()
	requireSnapshotsInOrder(t, got, [][2]int64{{200, 230}}, []int64{last.TimestampMs})

	// FromTime: the first snapshot committed at or after the time.
	got, err = runChanges(t, ChangesConfig{Catalog: cfg, Table: name, PollInterval: 50 * time.Millisecond,
		From: FromTime(time.UnixMilli(fromC.TimestampMs)), MaxSnapshots: 2}, nil)
	require.NoError(t, err)
	requireSnapshotsInOrder(t, got, [][2]int64{{100, 200}, {200, 230}}, []int64{fromC.TimestampMs, last.TimestampMs})
	got, err = runChanges(t, ChangesConfig{Catalog: cfg, Table: name, PollInterval: 50 * time.Millisecond,
		From: FromTime(time.UnixMilli(fromC.TimestampMs + 1)), MaxSnapshots: 1}, nil)
	require.NoError(t, err)
	requireSnapshotsInOrder(t, got, [][2]int64{{200, 230}}, []int64{last.TimestampMs})

	// StopAt: the stream ends at the first poll after it.
	got, err = runChanges(t, ChangesConfig{Catalog: cfg, Table: name, PollInterval: 50 * time.Millisecond,
		From: FromSnapshot(fromC.SnapshotID), StopAt: time.Now()}, nil)
	require.NoError(t, err)
	requireSnapshotsInOrder(t, got, [][2]int64{{100, 200}, {200, 230}}, []int64{fromC.TimestampMs, last.TimestampMs})
}

// seqOnly reads the seq column of click tables only.
type seqOnly struct {
	Seq int64 `beam:"seq"`
}

func init() { beam.RegisterType(reflect.TypeOf(seqOnly{})) }

// clickAt is click seq, whose event time is base + seq ms.
func clicksAt(base time.Time, from, to int64) []click {
	var rows []click
	for i := from; i < to; i++ {
		rows = append(rows, click{UserID: "u", Seq: i, TS: base.Add(time.Duration(i) * time.Millisecond).UnixMicro()})
	}
	return rows
}

// The source driven as a runner drives it, checkpoint by checkpoint, its
// restriction and watermark state passed through Beam's coder, with a
// bundle that fails after emitting (its output dropped, its restriction
// not advanced, as a runner retries it) and a restart on a new DoFn
// instance: every row once, in snapshot order, at the event time of its
// ts column; the watermark at the earliest event of the last snapshot.
func TestReadChangesResumesExactlyOnce(t *testing.T) {
	ctx := context.Background()
	cfg := launch(t)
	cat := openCat(t, cfg)
	const name = "changes.clicks"
	sk := newTestSink[click](t, Config{Catalog: cfg, Table: name})
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	commit := func(from, to int64) {
		_, err := sk.commit(ctx, name, chunksOf(t, sk, clicksAt(base, from, to), 1000), nil)
		require.NoError(t, err)
	}
	commit(0, 100)
	commit(100, 200)

	ccfg := ChangesConfig{Catalog: cfg, Table: name, TimestampColumn: "ts", PollInterval: time.Second, MaxSnapshots: 4}.withDefaults()
	newFn := func() *changesFn {
		fn := &changesFn{Cfg: ccfg, RowType: beam.EncodedType{T: reflect.TypeFor[seqOnly]()}}
		require.NoError(t, fn.Setup(ctx))
		return fn
	}
	enc, err := coder.RowEncoderForStruct(reflect.TypeFor[changesRestriction]())
	require.NoError(t, err)
	dec, err := coder.RowDecoderForStruct(reflect.TypeFor[changesRestriction]())
	require.NoError(t, err)
	roundTrip := func(r any) changesRestriction {
		var buf bytes.Buffer
		require.NoError(t, enc(r, &buf))
		v, err := dec(&buf)
		require.NoError(t, err)
		return v.(changesRestriction)
	}

	fn := newFn()
	rest := fn.CreateInitialRestriction(nil)
	wm := fn.InitialWatermarkEstimatorState(mtime.MinTimestamp, rest, nil)
	var emitted []timedRow
	// step runs one bundle; keep says whether the runner keeps its output
	// and residual (else the bundle failed and is retried from rest).
	step := func(fn *changesFn, keep bool) (resume bool) {
		rt := fn.CreateTracker(rest)
		we := fn.CreateWatermarkEstimator(wm)
		var out []timedRow
		cont, err := fn.ProcessElement(ctx, we, rt, nil, func(at beam.EventTime, row beam.X) {
			out = append(out, timedRow{At: at, Row: row})
		})
		require.NoError(t, err)
		require.NoError(t, rt.GetError())
		if !keep {
			return true
		}
		emitted = append(emitted, out...)
		wm = fn.WatermarkEstimatorState(we)
		if !cont.ShouldResume() {
			require.True(t, rt.IsDone())
			return false
		}
		primary, residual, err := rt.TrySplit(0)
		require.NoError(t, err)
		require.True(t, primary.(changesRestriction).Done)
		require.True(t, rt.IsDone(), "the primary is done after a checkpoint")
		rest = roundTrip(residual)
		return true
	}
	requireSeqs := func(from, to int64) {
		t.Helper()
		require.Len(t, emitted, int(to))
		for i, r := range emitted[from:to] {
			seq := r.Row.(seqOnly).Seq
			require.Equal(t, from+int64(i), seq, "in order: one snapshot's file")
			require.Equal(t, mtime.FromTime(base.Add(time.Duration(seq)*time.Millisecond)), r.At)
		}
	}

	require.True(t, step(fn, true))
	requireSeqs(0, 200)
	require.EqualValues(t, 2, rest.Appends)
	require.Equal(t, mtime.FromTime(base.Add(100*time.Millisecond)), mtime.Time(wm), "the earliest event of the last snapshot")

	require.True(t, step(fn, true), "nothing new: poll again")
	requireSeqs(0, 200)

	commit(200, 300)
	require.True(t, step(fn, false), "a bundle that fails after emitting the snapshot")
	tbl := compact(t, loadTable(t, cat, name)) // a replace in between: skipped
	require.Equal(t, table.OpReplace, tbl.CurrentSnapshot().Summary.Operation)
	fn = newFn() // a restarted worker
	require.True(t, step(fn, true))
	requireSeqs(0, 300)
	require.EqualValues(t, 3, rest.Appends)

	commit(300, 350)
	commit(350, 400) // after MaxSnapshots
	require.False(t, step(fn, true), "the fourth append ends the stream")
	requireSeqs(0, 350)
	require.Equal(t, mtime.FromTime(base.Add(300*time.Millisecond)), mtime.Time(wm))
}
