package icebergio

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/transforms/internal/arrowipc"
)

// Merging sorted runs picks, for each key, what a map over every change
// picks: the highest Order value, then the later run. Runs of every size,
// keys that share their high word (so ranges split inside it), enough
// changes that the key space is cut into ranges merged apart, and dense
// integer keys; both merges, the tree of losers for every case and the
// slots of mergeDense where the keys allow it.
func TestMergeRunsPicksWinners(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct {
		name       string
		runs, keys int
		size       func() int
		dense      bool // integer keys: a low word shared by all, the value in the high one
	}{
		{"one run", 1, 1000, func() int { return 500 }, false},
		{"empty runs among others", 7, 50, func() int { return []int{0, 1, 30}[r.IntN(3)] }, false},
		{"many runs, split ranges", 150, 300_000, func() int { return r.IntN(4000) }, false},
		{"dense integer keys", 160, 100_000, func() int { return r.IntN(3000) }, true},
		{"dense, one run", 1, 1000, func() int { return 900 }, true},
	} {
		type change struct {
			k     rowKey
			order int64
			del   bool
		}
		type at struct{ run, row int }
		want := map[rowKey]at{}
		var runs []*changeRun
		var changes [][]change
		for ri := range c.runs {
			byKey := map[rowKey]change{}
			for range c.size() {
				k := rowKey{uint64(r.IntN(4)), uint64(r.IntN(c.keys))}
				if c.dense {
					k = rowKey{hi: 1<<40 + uint64(r.IntN(c.keys)), lo: 7}
				}
				byKey[k] = change{k, int64(r.IntN(5)), r.IntN(3) == 0}
			}
			cs := slices.SortedFunc(maps.Values(byKey), func(a, b change) int { return a.k.compare(b.k) })
			changes = append(changes, cs)
			run := &changeRun{}
			del := array.NewBooleanBuilder(memory.DefaultAllocator)
			for i, ch := range cs {
				run.keys, run.order = append(run.keys, ch.k), append(run.order, ch.order)
				del.Append(ch.del)
				if w, ok := want[ch.k]; !ok || ch.order >= changes[w.run][w.row].order {
					want[ch.k] = at{ri, i}
				}
			}
			run.del = del.NewBooleanArray()
			del.Release()
			runs = append(runs, run)
		}
		total := 0
		for _, run := range runs {
			total += len(run.keys)
		}
		dense, ok := mergeDense(runs, total)
		require.Equal(t, c.dense, ok, "%s: merged by slots", c.name)
		for _, m := range []struct {
			name string
			got  []winner
		}{{"tree", mergeTree(runs, total)}, {"slots", dense}} {
			if m.name == "slots" && !ok {
				continue
			}
			require.Len(t, m.got, len(want), "%s, %s", c.name, m.name)
			require.True(t, slices.IsSortedFunc(m.got, func(a, b winner) int { return a.key.compare(b.key) }), c.name)
			for _, w := range m.got {
				a := want[w.key]
				ch := changes[a.run][a.row]
				op := opUpsert
				if ch.del {
					op = opDelete
				}
				require.Equal(t, winner{key: w.key, batch: int32(a.run), row: int32(a.row), order: ch.order, op: op}, w, "%s, %s", c.name, m.name)
			}
		}
		for _, run := range runs {
			run.del.Release()
		}
	}
}

// The encode step encodes a flush's batches on several cores and hands on
// their chunks in the batches' order, each holding its own batch's
// winners; a batch that cannot be encoded fails the flush, naming why.
func TestEncodeKeepsBatchOrder(t *testing.T) {
	ctx := context.Background()
	cfg := Config{Catalog: launch(t), Table: "cdc.order", WriterID: "w", Mode: Changes, Key: []string{"id"}, Op: "op", Order: "lsn", StagingThreshold: -1}
	s := newTestSink[change](t, cfg)
	batch := func(i int, op string) arrow.RecordBatch {
		bb := s.rows.NewBatchBuilder(memory.DefaultAllocator)
		defer bb.Release()
		for k := range 20 + i { // batch i: 20+i keys, each changed twice
			for _, lsn := range []int64{int64(i*1000 + k), int64(i*1000 + 500 + k)} {
				v := any(change{Op: op, LSN: lsn, ID: int64(k), Owner: fmt.Sprint("batch-", i), Bal: lsn})
				bb.Add(s.rows.RowPointer(&v))
			}
		}
		return bb.Batch()
	}
	const n = 7
	var recs []arrow.RecordBatch
	for i := range n {
		recs = append(recs, batch(i, "u"))
	}
	blobs, err := s.enc.encode(ctx, cfg.Table, batchSeq(recs...), time.Now(), nil)
	require.NoError(t, err)
	require.Len(t, blobs, n)
	for i, b := range blobs {
		c, err := decodeChunk(b)
		require.NoError(t, err)
		rec, err := arrowipc.Decode(c.ipc)
		require.NoError(t, err)
		require.EqualValues(t, 20+i, rec.NumRows(), "chunk %d: one row a key of batch %d", i, i)
		owner := rec.Column(rec.Schema().FieldIndices("owner")[0]).(*array.String)
		bal := rec.Column(rec.Schema().FieldIndices("balance_cents")[0]).(*array.Int64)
		for r := range int(rec.NumRows()) {
			require.Equal(t, fmt.Sprint("batch-", i), owner.Value(r), "chunk %d row %d", i, r)
			require.Equal(t, int64(i*1000+500+r), bal.Value(r), "chunk %d row %d: the later change of key %d", i, r, r)
		}
		rec.Release()
	}

	_, err = s.enc.encode(ctx, cfg.Table, batchSeq(batch(0, "u"), batch(1, "x"), batch(2, "u")), time.Now(), nil)
	require.ErrorContains(t, err, `"x"`)
}

// Both ways of picking a batch's winners pick what a map over the changes
// picks (the highest Order value, then the later row), in key order: dense
// ids, sparse ids, negative ones (which sort above the positive, as
// unsigned words), all one key, keys of two words, and before-images left
// out.
func TestBatchWinners(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, c := range []struct {
		name string
		key  func() rowKey
		n    int
		int  bool // winnersByIntKey takes them
	}{
		{"dense ids", func() rowKey { return rowKey{hi: uint64(r.IntN(3000))} }, 65536, true},
		{"sparse ids", func() rowKey { return rowKey{hi: uint64(r.Int64N(1 << 40))} }, 5000, true},
		{"negative ids", func() rowKey { return rowKey{hi: uint64(int64(r.IntN(200) - 100))} }, 4000, false},
		{"one key", func() rowKey { return rowKey{hi: 7} }, 100, true},
		{"two words", func() rowKey { return rowKey{hi: uint64(r.IntN(50)), lo: uint64(r.IntN(3))} }, 3000, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			keys := make([]rowKey, c.n)
			orders := make([]int64, c.n)
			dels := make([]bool, c.n)
			var rows []int32
			for i := range c.n {
				keys[i], orders[i], dels[i] = c.key(), int64(r.IntN(40)), r.IntN(4) == 0
				if r.IntN(10) != 0 { // a tenth are before-images
					rows = append(rows, int32(i))
				}
			}
			best := map[rowKey]int32{}
			for _, row := range rows {
				if b, ok := best[keys[row]]; !ok || orders[row] >= orders[b] {
					best[keys[row]] = row
				}
			}
			var wantTake []int32
			var wantDel []bool
			for _, k := range slices.SortedFunc(maps.Keys(best), rowKey.compare) {
				wantTake = append(wantTake, best[k])
				wantDel = append(wantDel, dels[best[k]])
			}
			take, del := winnersByKey(keys, rows, orders, dels)
			require.Equal(t, wantTake, take, "winnersByKey")
			require.Equal(t, wantDel, del, "winnersByKey")
			take, del = winnersByIntKey(keys, rows, orders, dels)
			if !c.int {
				// Negative ids span the whole unsigned range.
				if take == nil {
					return
				}
			}
			require.Equal(t, wantTake, take, "winnersByIntKey")
			require.Equal(t, wantDel, del, "winnersByIntKey")
		})
	}
}

// takeRows takes what Arrow's take kernel takes, nulls and sliced arrays
// included, for the types it copies itself and those it leaves to the kernel.
func TestTakeRowsIsArrowsTake(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	ctx := context.Background()
	const n = 3000
	mem := memory.DefaultAllocator
	i64, ts, i32, str, f64, bl := array.NewInt64Builder(mem), array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Microsecond}),
		array.NewInt32Builder(mem), array.NewStringBuilder(mem), array.NewFloat64Builder(mem), array.NewBooleanBuilder(mem)
	for i := range n {
		null := r.IntN(7) == 0
		for _, b := range []array.Builder{i64, ts, i32, str, f64, bl} {
			if null && i%2 == 0 {
				b.AppendNull()
				continue
			}
			switch b := b.(type) {
			case *array.Int64Builder:
				b.Append(r.Int64())
			case *array.TimestampBuilder:
				b.Append(arrow.Timestamp(r.Int64()))
			case *array.Int32Builder:
				b.Append(r.Int32())
			case *array.StringBuilder:
				b.Append(fmt.Sprintf("owner-%d", r.IntN(100_000)))
			case *array.Float64Builder:
				b.Append(r.Float64())
			case *array.BooleanBuilder:
				b.Append(r.IntN(2) == 0)
			}
		}
	}
	for _, b := range []array.Builder{i64, ts, i32, str, f64, bl} {
		whole := b.NewArray()
		for _, a := range []arrow.Array{whole, array.NewSlice(whole, 17, n-5)} {
			idx := make([]int32, 2*a.Len())
			for i := range idx {
				idx[i] = int32(r.IntN(a.Len()))
			}
			ib := array.NewInt32Builder(mem)
			ib.AppendValues(idx, nil)
			indices := ib.NewArray()
			want, err := compute.TakeArray(ctx, a, indices)
			require.NoError(t, err)
			got, err := takeRows(ctx, a, indices.(*array.Int32))
			require.NoError(t, err)
			require.True(t, array.Equal(want, got), "%s, offset %d", a.DataType(), a.Data().Offset())
			require.Equal(t, want.NullN(), got.NullN())
		}
	}
}

// Folding a pane's runs a group at a time, keeping only the rows that win
// so far between groups (as collapse does for a large pane), picks the
// changes that merging all the runs at once picks, ties included (the
// later run wins): for dense keys (mergeDense) and sparse ones (mergeTree).
func TestFoldingKeepsWinners(t *testing.T) {
	ctx := context.Background()
	type pick struct {
		key   rowKey
		order int64
		op    rowOp
		v     int64 // which change: run*1e6 + row
	}
	for _, spread := range []int64{1, 1 << 30} {
		// runs are 120 runs of up to 300 changes to 800 keys, the same
		// for the same seed.
		runs := func() []*changeRun {
			r := rand.New(rand.NewPCG(7, uint64(spread)))
			var out []*changeRun
			for ri := range 120 {
				ids := map[int64]bool{}
				for range r.IntN(300) {
					ids[int64(r.IntN(800))*spread] = true
				}
				sorted := slices.Sorted(maps.Keys(ids))
				idb, vb := array.NewInt64Builder(memory.DefaultAllocator), array.NewInt64Builder(memory.DefaultAllocator)
				db := array.NewBooleanBuilder(memory.DefaultAllocator)
				run := &changeRun{}
				for row, id := range sorted {
					idb.Append(id)
					vb.Append(int64(ri*1_000_000 + row))
					db.Append(r.IntN(4) == 0)
					run.order = append(run.order, int64(r.IntN(3)))
				}
				schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "v", Type: arrow.PrimitiveTypes.Int64}, {Name: deleteColumn, Type: arrow.FixedWidthTypes.Boolean}}, nil)
				cols := []arrow.Array{idb.NewArray(), vb.NewArray(), db.NewArray()}
				run.rec = array.NewRecordBatch(schema, cols, int64(len(sorted)))
				for _, c := range cols {
					c.Release()
				}
				idb.Release()
				vb.Release()
				db.Release()
				run.del = run.rec.Column(2).(*array.Boolean)
				var err error
				run.keys, err = keysOf(run.rec, []string{"id"})
				require.NoError(t, err)
				out = append(out, run)
			}
			return out
		}
		picks := func(p *paneRows) []pick {
			var out []pick
			for _, w := range p.wins {
				out = append(out, pick{w.key, w.order, w.op, p.runs[w.batch].rec.Column(1).(*array.Int64).Value(int(w.row))})
			}
			return out
		}
		all := &paneRows{runs: runs()}
		all.wins = mergeRuns(all.runs)
		want := picks(all)
		all.release()
		require.Greater(t, len(want), 700, "spread %d", spread)
		for _, group := range []int{1, 7, 50} {
			p, rest := &paneRows{}, runs()
			for len(rest) > 0 {
				n := min(group, len(rest))
				p.runs, rest = append(p.runs, rest[:n]...), rest[n:]
				p.wins = mergeRuns(p.runs)
				if len(rest) > 0 {
					require.NoError(t, p.foldRuns(ctx))
				}
			}
			require.Equal(t, want, picks(p), "spread %d, %d runs at a time", spread, group)
			if group == 1 {
				require.Less(t, len(p.runs), 120, "runs with no winners left are dropped")
			}
			p.release()
		}
	}
}
