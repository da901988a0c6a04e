package icebergio

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/periodic"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"
)

// commitParts is the sharded path at the sink level: each slice of rows is
// one shard's share of the pane, written and described by its own sink (a
// writer worker), and the committer gathers the descriptions.
func commitParts(t *testing.T, cfg Config, dest string, shares ...[]click) CommitResult {
	t.Helper()
	ctx := context.Background()
	var encoded [][]byte
	for _, share := range shares {
		writer := newTestSink[click](t, cfg)
		var sent sentTimes
		w, err := writer.write(ctx, time.Now().Add(time.Minute), dest, decodeChunks(pane(encodeRows(t, writer, share, 7)), &sent))
		require.NoError(t, err)
		b, err := encodePart(w, sent)
		require.NoError(t, err)
		encoded = append(encoded, b)
	}
	committer := newTestSink[click](t, cfg)
	var w written
	var sent sentTimes
	for _, b := range encoded {
		require.NoError(t, addPart(&w, &sent, b))
	}
	res, err := committer.commitWritten(ctx, time.Now().Add(time.Minute), dest, &w, nil)
	require.NoError(t, err)
	return res
}

// The committer's data files come from the writers' manifests: partition
// values and column bounds that did not survive the trip would make scans
// prune wrong files, so the check filters by both.
func TestShardPartsCommitAsOneSnapshot(t *testing.T) {
	cfg := Config{Catalog: launch(t), Table: "shard.parts", PartitionBy: []string{"day(ts)", "user_id"}}
	const day = 86_400_000_000
	var shares [3][]click
	var all []click
	for i := 0; i < 90; i++ {
		c := click{UserID: []string{"ann", "bo"}[i%2], Seq: int64(i), TS: int64(i%4) * day / 2}
		shares[i%3] = append(shares[i%3], c)
		all = append(all, c)
	}
	res := commitParts(t, cfg, "shard.parts", shares[:]...)
	require.EqualValues(t, 90, res.Rows)

	tbl := loadTable(t, openCat(t, cfg.Catalog), "shard.parts")
	require.Len(t, tbl.Metadata().Snapshots(), 1, "one snapshot for the pane")
	require.Equal(t, res.CommitID, tbl.CurrentSnapshot().Summary.Properties[CommitIDKey])
	requireSeqs(t, tbl, seqs(0, 90))

	filter := iceberg.NewAnd(iceberg.EqualTo(iceberg.Reference("user_id"), "bo"),
		iceberg.GreaterThanEqual(iceberg.Reference("ts"), int64(day)))
	var want []int64
	for _, c := range all {
		if c.UserID == "bo" && c.TS >= day {
			want = append(want, c.Seq)
		}
	}
	var got []int64
	for _, r := range readRows[click](t, tbl, table.WithRowFilter(filter)) {
		got = append(got, r.Seq)
	}
	slices.Sort(got)
	require.Equal(t, want, got)
}

// A pane's commit id is the hash of all its chunks, however they were
// spread over shards: the unsharded committer would give the same id.
func TestShardedCommitIDIsThePanes(t *testing.T) {
	ctx := context.Background()
	cfg := Config{Catalog: launch(t), Table: "shard.ids", WriterID: "w"}
	s := newTestSink[click](t, cfg)
	blobs := encodeRows(t, s, clicks(0, 40, "a"), 10)
	var w written
	var sent sentTimes
	for _, share := range [][][]byte{blobs[:1], blobs[1:3], blobs[3:]} {
		part, err := s.write(ctx, time.Now().Add(time.Minute), "shard.ids", decodeChunks(pane(share), &sent))
		require.NoError(t, err)
		b, err := encodePart(part, sent)
		require.NoError(t, err)
		require.NoError(t, addPart(&w, &sent, b))
	}
	res, err := s.commitWritten(ctx, time.Now().Add(time.Minute), "shard.ids", &w, nil)
	require.NoError(t, err)
	// The same chunks, unsharded: a replay the committer recognises.
	again, err := s.commit(ctx, "shard.ids", deliver(blobs), nil)
	require.NoError(t, err)
	require.Equal(t, res.CommitID, again.CommitID)
	require.True(t, again.Skipped)
	requireSeqs(t, loadTable(t, s.cat, "shard.ids"), seqs(0, 40))
}

// A sharded stream on prism: every row once, one snapshot per pane (the
// shards' parts gathered), panes aligned to the triggering frequency.
// deliveryLag bounds how long after it is sent a batch reaches its pane.
const deliveryLag = 250 * time.Millisecond

func TestShardedStreamingAppend(t *testing.T) {
	cat := launch(t)
	const (
		users    = 3
		interval = 50 * time.Millisecond
		span     = 8 * time.Second
		freq     = 2 * time.Second
		shards   = 4
	)
	p, s := beam.NewPipelineWithRoot()
	start := time.Now()
	def := periodic.NewSequenceDefinition(start, start.Add(span), interval)
	rows := beam.ParDo(s, &clickFn{Users: users}, periodic.Sequence(s, beam.Create(s, def)))
	got := collect(s, Write(s, Config{Catalog: cat, Table: "shard.stream", TriggeringFrequency: freq, Shards: shards}, rows))
	require.NoError(t, ptest.Run(p))
	res := got()

	tbl := loadTable(t, openCat(t, cat), "shard.stream")
	requireSeqs(t, tbl, seqs(0, int(span/interval)*users))
	snaps := tbl.Metadata().Snapshots()
	require.Len(t, snaps, len(res))
	require.GreaterOrEqual(t, len(snaps), 3, "an 8 s stream with a 2 s trigger commits several times")
	var multi int
	panes := map[int64]int64{} // period the pane's last batch was sent in -> snapshot
	for _, sn := range snaps {
		var first, last int64
		_, err := fmt.Sscanf(sn.Summary.Properties[batchesSentKey], "%d-%d", &first, &last)
		require.NoError(t, err)
		t.Logf("snapshot at %d: %s files, batches sent %d-%d", sn.TimestampMs%100000, sn.Summary.Properties["added-data-files"], first%100000, last%100000)
		// Aligned panes: a pane's batches were sent within one period, and
		// the shards' parts of a pane are one snapshot. The input's end
		// fires the last pane at once, which may gather the parts of the
		// last boundary with those of the end.
		if sn.Summary.Properties[paneTimingKey] == "ontime" {
			continue
		}
		// A batch is stamped when sent and panes by when it arrives, so one
		// sent just before a boundary can reach the next pane on a loaded
		// machine (CI saw 3 ms): a pane spans at most a period and that lag.
		require.Less(t, last-first, freq.Milliseconds()+deliveryLag.Milliseconds(),
			"snapshot %d holds batches of two periods", sn.SnapshotID)
		period := last / freq.Milliseconds()
		require.NotContains(t, panes, period, "snapshots %d and %d hold parts of one pane", panes[period], sn.SnapshotID)
		panes[period] = sn.SnapshotID
		if sn.Summary.Properties["added-data-files"] != "1" {
			multi++
		}
	}
	require.Positive(t, multi, "some pane gathered the files of several shards")
}

// A runner that replays a sharded pane (a Flink restore after the commit
// landed) hands the committer the same parts, naming the same files: the
// replay is skipped and the files stay, since the table holds them.
func TestReplayedPartsKeepTheirFiles(t *testing.T) {
	ctx := context.Background()
	cfg := Config{Catalog: launch(t), Table: "shard.replay"}
	s := newTestSink[click](t, cfg)
	var parts [][]byte
	for _, rows := range [][]click{clicks(0, 30, "a"), clicks(30, 50, "b")} {
		var sent sentTimes
		w, err := s.write(ctx, time.Now().Add(time.Minute), "shard.replay", decodeChunks(pane(encodeRows(t, s, rows, 8)), &sent))
		require.NoError(t, err)
		b, err := encodePart(w, sent)
		require.NoError(t, err)
		parts = append(parts, b)
	}
	gather := func() *written {
		var w written
		var sent sentTimes
		for _, b := range parts {
			require.NoError(t, addPart(&w, &sent, b))
		}
		return &w
	}
	first, err := s.commitWritten(ctx, time.Now().Add(time.Minute), "shard.replay", gather(), nil)
	require.NoError(t, err)
	require.False(t, first.Skipped)
	replay, err := s.commitWritten(ctx, time.Now().Add(time.Minute), "shard.replay", gather(), nil)
	require.NoError(t, err)
	require.True(t, replay.Skipped)
	tbl := loadTable(t, s.cat, "shard.replay")
	requireSeqs(t, tbl, seqs(0, 50))
	require.Len(t, parquetFiles(t, tbl), int(first.Files), "no file written twice, none removed")
}

// A refused commit of a sharded pane leaves its files: the runner retries
// the bundle with the same parts, naming the same files (an unsharded
// pane's files are removed, TestCommitFailsForGood).
func TestRefusedPartsKeepTheirFiles(t *testing.T) {
	ctx := context.Background()
	direct := launch(t)
	viaProxy, fp := proxied(t, direct)
	s := newTestSink[click](t, Config{Catalog: viaProxy, Table: "shard.refused"})
	var sent sentTimes
	w, err := s.write(ctx, time.Now().Add(time.Minute), "shard.refused", decodeChunks(pane(encodeRows(t, s, clicks(0, 20, "a"), 8)), &sent))
	require.NoError(t, err)
	b, err := encodePart(w, sent)
	require.NoError(t, err)
	gather := func() *written {
		var w written
		require.NoError(t, addPart(&w, new(sentTimes), b))
		return &w
	}
	fp.refuse = true
	_, err = s.commitWritten(ctx, time.Now().Add(time.Minute), "shard.refused", gather(), nil)
	require.ErrorContains(t, err, "injected refusal")

	fp.refuse = false
	res, err := s.commitWritten(ctx, time.Now().Add(time.Minute), "shard.refused", gather(), nil)
	require.NoError(t, err)
	require.False(t, res.Skipped)
	requireSeqs(t, loadTable(t, openCat(t, direct), "shard.refused"), seqs(0, 20))
}
