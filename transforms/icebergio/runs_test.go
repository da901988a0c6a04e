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
