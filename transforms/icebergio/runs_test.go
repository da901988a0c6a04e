package icebergio

import (
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// Merging sorted runs picks, for each key, what a map over every change
// picks: the highest Order value, then the later run. Runs of every size,
// keys that share their high word (so ranges split inside it), and enough
// changes that the key space is cut into ranges merged apart.
func TestMergeRunsPicksWinners(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct {
		name       string
		runs, keys int
		size       func() int
	}{
		{"one run", 1, 1000, func() int { return 500 }},
		{"empty runs among others", 7, 50, func() int { return []int{0, 1, 30}[r.IntN(3)] }},
		{"many runs, split ranges", 150, 300_000, func() int { return r.IntN(4000) }},
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
		got := mergeRuns(runs)
		require.Len(t, got, len(want), c.name)
		require.True(t, slices.IsSortedFunc(got, func(a, b winner) int { return a.key.compare(b.key) }), c.name)
		for _, w := range got {
			a := want[w.key]
			ch := changes[a.run][a.row]
			op := opUpsert
			if ch.del {
				op = opDelete
			}
			require.Equal(t, winner{key: w.key, batch: int32(a.run), row: int32(a.row), order: ch.order, op: op}, w, c.name)
		}
		for _, run := range runs {
			run.del.Release()
		}
	}
}
