package icebergio

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
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

// The encode step holds at most maxBufferedRows rows of a bundle, over all
// the destinations of a template: past that it encodes the one with the
// most. Every row still reaches a chunk of its own table.
func TestEncodeBoundsRowsHeld(t *testing.T) {
	ctx := context.Background()
	f := &encodeFn{Cfg: Config{Table: "many.t_{user_id}"}, RowType: beam.EncodedType{T: reflect.TypeOf(click{})}}
	require.NoError(t, f.Setup())
	const tables, rows = 500, maxBufferedRows + maxBufferedRows/2
	emitted := map[string]int64{}
	before := 0 // chunks emitted before FinishBundle
	emit := func(key string, b []byte) {
		c, err := decodeChunk(b)
		require.NoError(t, err)
		n := c.Rows
		if c.ipc == nil {
			n = c.meta.NumRows
		}
		emitted[key] += n
	}
	f.StartBundle(ctx, emit)
	for i := range rows {
		row := click{UserID: strconv.Itoa(i % tables), Seq: int64(i)}
		require.NoError(t, f.ProcessElement(ctx, beam.X(row), emit))
		require.LessOrEqual(t, f.held, maxBufferedRows)
	}
	for _, n := range emitted {
		before += int(n)
	}
	require.NoError(t, f.FinishBundle(ctx, emit))
	require.Positive(t, before, "nothing encoded before the bundle's end, with %d rows held", rows)
	require.Len(t, emitted, tables)
	for i := range tables {
		want := int64(rows / tables)
		if i < rows%tables {
			want++
		}
		require.Equal(t, want, emitted["many.t_"+strconv.Itoa(i)], "table many.t_%d", i)
	}
}
