package icebergio

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Commits of different tables run at once, up to the limit; a table's panes
// run one after another in the order they came, and none after one failed.
func TestInflightOrderAndLimit(t *testing.T) {
	const limit = 4
	p := newInflight(limit)
	var running, peak atomic.Int32
	var mu sync.Mutex
	order := map[string][]int{}
	commit := func(dest string, pane int, fail bool) func() (CommitResult, error) {
		return func() (CommitResult, error) {
			n := running.Add(1)
			defer running.Add(-1)
			for {
				if old := peak.Load(); n <= old || peak.CompareAndSwap(old, n) {
					break
				}
			}
			time.Sleep(20 * time.Millisecond)
			mu.Lock()
			order[dest] = append(order[dest], pane)
			mu.Unlock()
			if fail {
				return CommitResult{}, errors.New("refused")
			}
			return CommitResult{Table: dest, Rows: int64(pane)}, nil
		}
	}
	for pane := range 3 {
		for tbl := range 8 {
			dest := fmt.Sprintf("ns.t%d", tbl)
			p.start(dest, commit(dest, pane, tbl == 7 && pane == 1))
		}
	}
	results, err := p.wait()
	require.EqualError(t, err, "refused")
	require.EqualValues(t, limit, peak.Load(), "commits running at once")
	for tbl := range 7 {
		require.Equal(t, []int{0, 1, 2}, order[fmt.Sprintf("ns.t%d", tbl)], "table %d", tbl)
	}
	require.Equal(t, []int{0, 1}, order["ns.t7"], "after its failed pane, a table commits nothing more")
	require.Len(t, results, 7*3+1)
	require.Error(t, p.failed())
}

// bufferPane holds a small pane whole, and hands a large one on as it comes.
func TestBufferPane(t *testing.T) {
	blobs := [][]byte{make([]byte, 10), make([]byte, 20), make([]byte, 30)}
	for _, c := range []struct {
		limit int
		all   bool
	}{{100, true}, {60, true}, {25, false}, {5, false}} {
		src := pane(blobs)
		next, all := bufferPane(src, c.limit)
		require.Equal(t, c.all, all, "limit %d", c.limit)
		var got []int
		var b []byte
		for next(&b) {
			got = append(got, len(b))
		}
		require.Equal(t, []int{10, 20, 30}, got, "limit %d", c.limit)
	}
}
