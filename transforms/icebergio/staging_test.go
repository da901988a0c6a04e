package icebergio

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	iceio "github.com/apache/iceberg-go/io"
	"github.com/stretchr/testify/require"
)

// stagedOf decodes blobs' chunk headers and returns where each was staged
// ("" for a chunk sent inline).
func stagedOf(t *testing.T, blobs [][]byte) []string {
	t.Helper()
	var out []string
	for _, b := range blobs {
		c, err := decodeChunk(b)
		require.NoError(t, err)
		out = append(out, c.staged)
	}
	return out
}

// Large chunks of a row-level write travel as files under the table's
// location, which the encode step creates if need be; the committer takes their runs from
// memory in the encoder's process and reads them elsewhere, deletes them
// once their pane has landed, skips a replay of that pane without them,
// and names a staged file that is missing from a pane that did not land.
func TestStagedChunks(t *testing.T) {
	ctx := context.Background()
	dest := "cdc.staged"
	cfg := Config{Catalog: launch(t), Table: dest, WriterID: "w", Mode: Changes, Key: []string{"id"}, Op: "op", Order: "lsn"}
	s := newTestSink[change](t, cfg)
	panes := changeLog(5, 48_000, 100_000, 16_000)
	require.Len(t, panes, 3)
	const per = 8_000 // about 150 KiB a chunk: above the default StagingThreshold

	// The encode step creates the table it stages the first pane under.
	first := encodeRows(t, s, panes[0], per)
	tbl := loadTable(t, s.cat, dest)
	require.Nil(t, tbl.CurrentSnapshot(), "created empty by the encode step")
	id, ok := tbl.Schema().FindFieldByName("id")
	require.True(t, ok)
	require.Equal(t, []int{id.ID}, tbl.Schema().IdentifierFieldIDs, "as the committer creates it: id identifies a row")
	require.NotContains(t, stagedOf(t, first), "")
	_, err := s.commitRows(ctx, dest, deliver(first), nil)
	require.NoError(t, err)

	fsys, err := tbl.FS(ctx)
	require.NoError(t, err)
	exists := func(path string) bool {
		f, err := fsys.Open(path)
		if err == nil {
			f.Close()
			return true
		}
		require.ErrorIs(t, err, fs.ErrNotExist)
		return false
	}

	second := encodeRows(t, s, panes[1], per)
	staged := stagedOf(t, second)
	require.Len(t, staged, 2)
	for _, p := range staged {
		require.Regexp(t, "^"+tbl.Location()+"/staging/[0-9a-f]{32}[.]arrows$", p)
		require.True(t, exists(p), p)
		require.True(t, held(p), "%s: its run is held for a committer in this process", p)
	}
	res, err := s.commitRows(ctx, dest, deliver(second), nil)
	require.NoError(t, err)
	require.False(t, res.Skipped)
	for _, p := range staged {
		require.False(t, exists(p), "%s: deleted once its pane landed", p)
		require.False(t, held(p), "%s: taken by the committer", p)
	}
	require.Equal(t, model(slices.Concat(panes[:2]...)), readAccounts(t, loadTable(t, s.cat, dest)))

	// The runner hands the committer the pane again (a retried bundle, a
	// Flink job restored from a checkpoint): its files are gone.
	res, err = s.commitRows(ctx, dest, deliver(second), nil)
	require.NoError(t, err)
	require.True(t, res.Skipped)

	// A committer in another process reads the files.
	third := encodeRows(t, s, panes[2], per)
	staged = stagedOf(t, third)
	require.NotContains(t, staged, "")
	forget(staged)
	require.NoError(t, fsys.Remove(staged[1]))
	_, err = s.commitRows(ctx, dest, deliver(third), nil)
	require.ErrorContains(t, err, "reading staged chunk "+staged[1])
	require.True(t, exists(staged[0]), "a pane that did not land keeps its staged chunks")
	require.Equal(t, model(slices.Concat(panes[:2]...)), readAccounts(t, loadTable(t, s.cat, dest)), "nothing of the failed pane landed")

	// A staged file cut short is named, not decoded.
	third = encodeRows(t, s, panes[2], per)
	staged = stagedOf(t, third)
	forget(staged)
	require.NoError(t, fsys.(iceio.WriteFileIO).WriteFile(staged[0], []byte("IBR2 not what was staged")))
	_, err = s.commitRows(ctx, dest, deliver(third), nil)
	require.ErrorContains(t, err, "reading staged chunk "+staged[0]+": the file is shorter than the")

	// The committer in the encoder's process takes the runs it holds and
	// reads no file: this one's is not what was staged.
	third = encodeRows(t, s, panes[2], per)
	staged = stagedOf(t, third)
	require.NoError(t, fsys.(iceio.WriteFileIO).WriteFile(staged[0], []byte("IBR2 not what was staged")))
	_, err = s.commitRows(ctx, dest, deliver(third), nil)
	require.NoError(t, err)
	require.Equal(t, model(slices.Concat(panes...)), readAccounts(t, loadTable(t, s.cat, dest)))
}

// held reports whether this process holds the run staged at path.
func held(path string) bool {
	heldRuns.mu.Lock()
	defer heldRuns.mu.Unlock()
	_, ok := heldRuns.runs[path]
	return ok
}

// forget drops the held runs of paths, as a committer in another process
// never had them.
func forget(paths []string) {
	for _, p := range paths {
		if rec := heldRuns.take(p); rec != nil {
			rec.Release()
		}
	}
}

// The held runs stay within their bound: the oldest go first, released.
func TestRunHoldBound(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	run := func() arrow.RecordBatch {
		b := array.NewInt64Builder(mem)
		defer b.Release()
		b.AppendValues(make([]int64, 1000), nil) // 8,000 bytes
		a := b.NewArray()
		defer a.Release()
		return array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}}, nil), []arrow.Array{a}, 1000)
	}
	h := &runHold{limit: 20_000, runs: map[string]heldRun{}}
	for _, p := range []string{"a", "b", "c"} {
		rec := run()
		h.hold(p, rec)
		rec.Release()
	}
	require.Nil(t, h.take("a"), "the oldest went to make room")
	for _, p := range []string{"b", "c"} {
		rec := h.take(p)
		require.NotNil(t, rec, p)
		require.EqualValues(t, 1000, rec.NumRows())
		rec.Release()
	}
	require.Nil(t, h.take("b"), "taken once")
	require.Zero(t, h.bytes)
	big := array.NewRecordBatch(arrow.NewSchema(nil, nil), nil, 0)
	defer big.Release()
	h.limit = -1
	h.hold("d", big)
	require.Nil(t, h.take("d"), "a run larger than the bound is not held")
}

// A row-level write whose catalog cannot be reached from the encode step
// sends its chunks inline.
func TestStagingFallsBackInline(t *testing.T) {
	cfg := Config{Catalog: launch(t), Table: "cdc.inline", WriterID: "w", Mode: Changes, Key: []string{"id"}, Op: "op", Order: "lsn"}
	s := newTestSink[change](t, cfg)
	bad := cfg.Catalog
	bad.URI = "http://127.0.0.1:1" // nothing listens there
	s.enc.stage = newStager(bad, s.enc.stage.table)
	blobs := encodeRows(t, s, changeLog(3, 16_000, 100_000, 16_000)[0], 8_000)
	require.Equal(t, []string{"", ""}, stagedOf(t, blobs))
}

// A staged file is as long as writeFile says, and one it could not finish
// is gone.
func TestWriteFileRemovesWhatFailed(t *testing.T) {
	dir := t.TempDir()
	var local iceio.LocalFS
	good := filepath.Join(dir, "good")
	n, err := writeFile(local, good, func(w io.Writer) (int64, error) {
		a, _ := w.Write([]byte("head"))
		b, _ := w.Write([]byte(strings.Repeat("x", 200<<10))) // past the buffer
		return int64(a + b), nil
	})
	require.NoError(t, err)
	info, err := os.Stat(good)
	require.NoError(t, err)
	require.Equal(t, int64(4+200<<10), n)
	require.Equal(t, n, info.Size())
	bad := filepath.Join(dir, "bad")
	_, err = writeFile(local, bad, func(w io.Writer) (int64, error) {
		w.Write([]byte(strings.Repeat("y", 200<<10)))
		return 0, errors.New("the encoder failed")
	})
	require.ErrorContains(t, err, "the encoder failed")
	_, err = os.Stat(bad)
	require.ErrorIs(t, err, fs.ErrNotExist, "a file not finished is removed")
}
