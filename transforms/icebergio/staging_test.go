package icebergio

import (
	"context"
	"io/fs"
	"slices"
	"testing"

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
// location, once the table exists; the committer reads them, deletes them
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

	first := encodeRows(t, s, panes[0], per)
	require.Equal(t, []string{"", ""}, stagedOf(t, first), "no table yet: the chunks travel inline")
	_, err := s.commitRows(ctx, dest, deliver(first), nil)
	require.NoError(t, err)
	// The encoder remembers for a while that the table did not exist.
	s.enc.stage = newStager(cfg.Catalog)

	tbl := loadTable(t, s.cat, dest)
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
	}
	res, err := s.commitRows(ctx, dest, deliver(second), nil)
	require.NoError(t, err)
	require.False(t, res.Skipped)
	for _, p := range staged {
		require.False(t, exists(p), "%s: deleted once its pane landed", p)
	}
	require.Equal(t, model(slices.Concat(panes[:2]...)), readAccounts(t, loadTable(t, s.cat, dest)))

	// The runner hands the committer the pane again (a retried bundle, a
	// Flink job restored from a checkpoint): its files are gone.
	res, err = s.commitRows(ctx, dest, deliver(second), nil)
	require.NoError(t, err)
	require.True(t, res.Skipped)

	third := encodeRows(t, s, panes[2], per)
	staged = stagedOf(t, third)
	require.NotContains(t, staged, "")
	require.NoError(t, fsys.Remove(staged[1]))
	_, err = s.commitRows(ctx, dest, deliver(third), nil)
	require.ErrorContains(t, err, "reading staged chunk "+staged[1])
	require.True(t, exists(staged[0]), "a pane that did not land keeps its staged chunks")
	require.Equal(t, model(slices.Concat(panes[:2]...)), readAccounts(t, loadTable(t, s.cat, dest)), "nothing of the failed pane landed")

	// A staged file cut short is named, not decoded.
	third = encodeRows(t, s, panes[2], per)
	staged = stagedOf(t, third)
	require.NoError(t, fsys.(iceio.WriteFileIO).WriteFile(staged[0], []byte("IBR2 not what was staged")))
	_, err = s.commitRows(ctx, dest, deliver(third), nil)
	require.ErrorContains(t, err, "reading staged chunk "+staged[0]+": the file is shorter than the")

	third = encodeRows(t, s, panes[2], per)
	_, err = s.commitRows(ctx, dest, deliver(third), nil)
	require.NoError(t, err)
	require.Equal(t, model(slices.Concat(panes...)), readAccounts(t, loadTable(t, s.cat, dest)))
}

// A row-level write whose catalog cannot be reached from the encode step
// sends its chunks inline.
func TestStagingFallsBackInline(t *testing.T) {
	cfg := Config{Catalog: launch(t), Table: "cdc.inline", WriterID: "w", Mode: Changes, Key: []string{"id"}, Op: "op", Order: "lsn"}
	s := newTestSink[change](t, cfg)
	bad := cfg.Catalog
	bad.URI = "http://127.0.0.1:1" // nothing listens there
	s.enc.stage = newStager(bad)
	blobs := encodeRows(t, s, changeLog(3, 16_000, 100_000, 16_000)[0], 8_000)
	require.Equal(t, []string{"", ""}, stagedOf(t, blobs))
}
