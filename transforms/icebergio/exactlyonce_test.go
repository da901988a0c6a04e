package icebergio

import (
	"context"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/catalog"
)

func clicks(from, to int, user string) []click {
	var rows []click
	for i := from; i < to; i++ {
		rows = append(rows, click{UserID: user, Seq: int64(i), TS: int64(i)})
	}
	return rows
}

// requireSeqs checks that tbl holds each seq in want exactly once.
func requireSeqs(t *testing.T, tbl *table.Table, want []int64) {
	t.Helper()
	var got []int64
	for _, r := range readRows[click](t, tbl) {
		got = append(got, r.Seq)
	}
	slices.Sort(got)
	want = slices.Clone(want)
	slices.Sort(want)
	require.Equal(t, want, got)
}

func seqs(from, to int) []int64 {
	var out []int64
	for i := from; i < to; i++ {
		out = append(out, int64(i))
	}
	return out
}

// parquetFiles lists the data files under tbl's location, committed or not.
func parquetFiles(t testing.TB, tbl *table.Table) []string {
	t.Helper()
	var onDisk []string
	root := strings.TrimPrefix(tbl.Location(), "file://")
	require.NoError(t, filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".parquet") {
			onDisk = append(onDisk, p)
		}
		return err
	}))
	return onDisk
}

// commitIDs are the commit ids in tbl's snapshot summaries, oldest first.
func commitIDs(tbl *table.Table) []string {
	var ids []string
	for _, snap := range tbl.Metadata().Snapshots() {
		if snap.Summary != nil {
			ids = append(ids, snap.Summary.Properties[CommitIDKey])
		}
	}
	return ids
}

func TestReplayedPaneIsSkipped(t *testing.T) {
	ctx := context.Background()
	s := newTestSink[click](t, Config{Catalog: launch(t), Table: "eo.replay", WriterID: "w"})
	pane0 := encodeRows(t, s, clicks(0, 100, "a"), 40)
	res, err := s.commit(ctx, "eo.replay", deliver(pane0), nil)
	require.NoError(t, err)
	require.False(t, res.Skipped)
	require.Regexp(t, `^w/[0-9a-f]{32}$`, res.CommitID)

	// The runner delivers the same pane again (a retried bundle, a restore
	// of buffered input): the same chunks, so the same commit.
	res2, err := s.commit(ctx, "eo.replay", deliver(pane0), nil)
	require.NoError(t, err)
	require.True(t, res2.Skipped)
	require.Equal(t, res.CommitID, res2.CommitID)
	require.Equal(t, res.SnapshotID, res2.SnapshotID)

	// The next pane commits.
	res3, err := s.commit(ctx, "eo.replay", chunksOf(t, s, clicks(100, 150, "a"), 40), nil)
	require.NoError(t, err)
	require.False(t, res3.Skipped)
	tbl := loadTable(t, s.cat, "eo.replay")
	requireSeqs(t, tbl, seqs(0, 150))
	require.Equal(t, []string{res.CommitID, res3.CommitID}, commitIDs(tbl))
	// The skipped replay removed the files it had written.
	committed, err := currentDataFiles(ctx, tbl)
	require.NoError(t, err)
	require.Len(t, parquetFiles(t, tbl), len(committed))

	recent, at := splitRecent(tbl.Properties()[commitsKeyPrefix+"w"])
	require.Equal(t, strings.TrimPrefix(res.CommitID, "w/")+","+strings.TrimPrefix(res3.CommitID, "w/"), recent)
	require.WithinDuration(t, time.Now(), at, time.Minute)
}

// Rows repeat in real streams (the clicks generator repeats every 100
// rows): two panes of equal rows are two commits.
func TestPanesOfEqualRowsBothLand(t *testing.T) {
	ctx := context.Background()
	s := newTestSink[click](t, Config{Catalog: launch(t), Table: "eo.equal", WriterID: "w"})
	for range 2 {
		res, err := s.commit(ctx, "eo.equal", chunksOf(t, s, clicks(0, 10, "a"), 10), nil)
		require.NoError(t, err)
		require.False(t, res.Skipped)
	}
	requireSeqs(t, loadTable(t, s.cat, "eo.equal"), append(seqs(0, 10), seqs(0, 10)...))
}

// After a failover without stable input (Flink restoring a checkpoint that
// predates a commit) a pane is re-formed: some chunks restored from the
// runner's state, the rest re-encoded from replayed rows. Its pane index
// is the one that landed before; its rows are not. It must land: rows may
// be doubled, never lost.
func TestReformedPaneAfterFailoverLands(t *testing.T) {
	ctx := context.Background()
	s := newTestSink[click](t, Config{Catalog: launch(t), Table: "eo.reformed", WriterID: "w"})
	restored := encodeRows(t, s, clicks(0, 10, "a"), 10)
	before := append(slices.Clone(restored), encodeRows(t, s, clicks(10, 20, "a"), 10)...)
	_, err := s.commit(ctx, "eo.reformed", deliver(before), nil)
	require.NoError(t, err)

	after := append(slices.Clone(restored), encodeRows(t, s, clicks(10, 30, "a"), 10)...)
	res, err := s.commit(ctx, "eo.reformed", deliver(after), nil)
	require.NoError(t, err)
	require.False(t, res.Skipped)
	require.EqualValues(t, 30, res.Rows)
	requireSeqs(t, loadTable(t, s.cat, "eo.reformed"), append(seqs(0, 20), seqs(0, 30)...))
}

func TestStaleWritersAreDropped(t *testing.T) {
	ctx := context.Background()
	s := newTestSink[click](t, Config{Catalog: launch(t), Table: "eo.writers", WriterID: "w"})
	tbl, _, err := s.loadOrCreate(ctx, "eo.writers")
	require.NoError(t, err)
	ms := func(d time.Duration) string { return strconv.FormatInt(time.Now().Add(-d).UnixMilli(), 10) }
	tx := tbl.NewTransaction()
	require.NoError(t, tx.SetProperties(iceberg.Properties{
		commitsKeyPrefix + "finished-job": "00112233445566778899aabbccddeeff@" + ms(8*24*time.Hour),
		commitsKeyPrefix + "running-job":  "ffeeddccbbaa99887766554433221100@" + ms(time.Hour),
	}))
	_, err = tx.Commit(ctx)
	require.NoError(t, err)

	_, err = s.commit(ctx, "eo.writers", chunksOf(t, s, clicks(0, 3, "a"), 3), nil)
	require.NoError(t, err)
	props := loadTable(t, s.cat, "eo.writers").Properties()
	require.NotContains(t, props, commitsKeyPrefix+"finished-job")
	require.Contains(t, props, commitsKeyPrefix+"running-job")
	require.Contains(t, props, commitsKeyPrefix+"w")
}

func TestReplayAfterSnapshotExpiry(t *testing.T) {
	ctx := context.Background()
	cfg := Config{Catalog: launch(t), Table: "eo.expire", WriterID: "w", Expire: Expiry{RetainLast: 1}}
	s := newTestSink[click](t, cfg)
	var panes [][][]byte
	for pane := range 3 {
		panes = append(panes, encodeRows(t, s, clicks(pane*10, pane*10+10, "a"), 10))
		_, err := s.commit(ctx, "eo.expire", deliver(panes[pane]), nil)
		require.NoError(t, err)
	}
	tbl := loadTable(t, s.cat, "eo.expire")
	require.Len(t, tbl.Metadata().Snapshots(), 1, "expiry keeps the last snapshot only")
	// Pane 0's snapshot is gone; the writer's recent commits still prove
	// it landed.
	res, err := s.commit(ctx, "eo.expire", deliver(panes[0]), nil)
	require.NoError(t, err)
	require.True(t, res.Skipped)
	requireSeqs(t, loadTable(t, s.cat, "eo.expire"), seqs(0, 30))
}

// The recent-commits property keeps the last recentCommits panes, newest
// last: those a runner can still replay.
func TestRecentCommitsAreBounded(t *testing.T) {
	ctx := context.Background()
	s := newTestSink[click](t, Config{Catalog: launch(t), Table: "eo.recent", WriterID: "w"})
	for pane := range recentCommits + 3 {
		_, err := s.commit(ctx, "eo.recent", chunksOf(t, s, clicks(pane, pane+1, "a"), 1), nil)
		require.NoError(t, err)
	}
	tbl := loadTable(t, s.cat, "eo.recent")
	ids := commitIDs(tbl)
	require.Len(t, ids, recentCommits+3)
	var want []string
	for _, id := range ids[3:] {
		want = append(want, strings.TrimPrefix(id, "w/"))
	}
	recent, _ := splitRecent(tbl.Properties()[commitsKeyPrefix+"w"])
	require.Equal(t, strings.Join(want, ","), recent)
}

// faultProxy sits in front of the REST catalog and misbehaves on table
// commits (POST .../namespaces/{ns}/tables/{table}).
type faultProxy struct {
	rp *httputil.ReverseProxy

	mu        sync.Mutex
	answer500 int    // commits to forward and then answer with a 500
	refuse    bool   // answer every commit with a 400, without forwarding it
	before    func() // run before forwarding a commit while beforeN > 0
	beforeN   int
	commits   int
}

var commitPath = regexp.MustCompile(`/namespaces/[^/]+/tables/[^/]+$`)

func (f *faultProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !commitPath.MatchString(r.URL.Path) {
		f.rp.ServeHTTP(w, r)
		return
	}
	f.mu.Lock()
	f.commits++
	var hook func()
	if f.beforeN > 0 {
		f.beforeN--
		hook = f.before
	}
	fail := f.answer500 > 0
	if fail {
		f.answer500--
	}
	refuse := f.refuse
	f.mu.Unlock()
	if hook != nil {
		hook()
	}
	if refuse {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"error":{"message":"injected refusal","type":"BadRequestException","code":400}}`))
		return
	}
	if !fail {
		f.rp.ServeHTTP(w, r)
		return
	}
	rec := httptest.NewRecorder()
	f.rp.ServeHTTP(rec, r)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusInternalServerError)
	_, _ = w.Write([]byte(`{"error":{"message":"injected after the commit was applied","type":"InternalServerError","code":500}}`))
}

// proxied returns a catalog config that reaches cat through a faultProxy.
func proxied(t *testing.T, cat catalog.Config) (catalog.Config, *faultProxy) {
	fp := &faultProxy{rp: reverseProxy(t, cat)}
	return behind(t, cat, fp), fp
}

// reverseProxy forwards requests to cat.
func reverseProxy(t *testing.T, cat catalog.Config) *httputil.ReverseProxy {
	t.Helper()
	u, err := url.Parse(cat.URI)
	require.NoError(t, err)
	return httputil.NewSingleHostReverseProxy(u)
}

// behind serves h, a proxy in front of cat, for the test, and returns a
// catalog config that reaches cat through it.
func behind(t *testing.T, cat catalog.Config, h http.Handler) catalog.Config {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	out := cat
	out.URI = srv.URL
	return out
}

func TestServerErrorAfterApplyIsDetected(t *testing.T) {
	ctx := context.Background()
	direct := launch(t)
	viaProxy, fp := proxied(t, direct)
	s := newTestSink[click](t, Config{Catalog: viaProxy, Table: "eo.fivehundred", WriterID: "w"})
	// Create the table first so the 500 hits the data commit.
	_, _, err := s.loadOrCreate(ctx, "eo.fivehundred")
	require.NoError(t, err)

	fp.answer500 = 1
	res, err := s.commit(ctx, "eo.fivehundred", chunksOf(t, s, clicks(0, 70, "a"), 50), nil)
	require.NoError(t, err)
	require.False(t, res.Skipped)
	require.Equal(t, 1, fp.commits, "the landed commit must not be retried")
	require.NotZero(t, res.SnapshotID)

	tbl := loadTable(t, openCat(t, direct), "eo.fivehundred")
	requireSeqs(t, tbl, seqs(0, 70))
	require.Len(t, tbl.Metadata().Snapshots(), 1)
	require.Equal(t, res.SnapshotID, tbl.CurrentSnapshot().SnapshotID)
}

func TestConcurrentWriterConflictsAreRetried(t *testing.T) {
	ctx := context.Background()
	direct := launch(t)
	viaProxy, fp := proxied(t, direct)
	s := newTestSink[click](t, Config{Catalog: viaProxy, Table: "eo.conflict", WriterID: "w"})
	_, _, err := s.loadOrCreate(ctx, "eo.conflict")
	require.NoError(t, err)

	// Another writer (straight to the server) lands a commit just before
	// each of the sink's first three attempts, which then get 409s.
	other := newTestSink[click](t, Config{Catalog: direct, Table: "eo.conflict", WriterID: "other"})
	n := 0
	fp.before = func() {
		_, err := other.commit(ctx, "eo.conflict", chunksOf(t, other, clicks(1000+10*n, 1010+10*n, "b"), 10), nil)
		require.NoError(t, err)
		n++
	}
	fp.beforeN = 3

	res, err := s.commit(ctx, "eo.conflict", chunksOf(t, s, clicks(0, 200, "a"), 64), nil)
	require.NoError(t, err)
	require.False(t, res.Skipped)
	require.Equal(t, 4, fp.commits, "three conflicts, then success")

	tbl := loadTable(t, openCat(t, direct), "eo.conflict")
	requireSeqs(t, tbl, append(seqs(0, 200), seqs(1000, 1030)...))
	require.Len(t, tbl.Metadata().Snapshots(), 4)
}

func TestZombieDuplicateIsSkipped(t *testing.T) {
	ctx := context.Background()
	direct := launch(t)
	viaProxy, fp := proxied(t, direct)
	s := newTestSink[click](t, Config{Catalog: viaProxy, Table: "eo.zombie", WriterID: "w"})
	_, _, err := s.loadOrCreate(ctx, "eo.zombie")
	require.NoError(t, err)

	// A second attempt of the same bundle (Dataflow may run both) commits
	// the same pane first; ours then conflicts and must find it.
	twin := newTestSink[click](t, Config{Catalog: direct, Table: "eo.zombie", WriterID: "w"})
	blobs := encodeRows(t, s, clicks(0, 50, "a"), 50)
	fp.before = func() {
		_, err := twin.commit(ctx, "eo.zombie", deliver(blobs), nil)
		require.NoError(t, err)
	}
	fp.beforeN = 1
	res, err := s.commit(ctx, "eo.zombie", deliver(blobs), nil)
	require.NoError(t, err)
	require.True(t, res.Skipped)
	tbl := loadTable(t, openCat(t, direct), "eo.zombie")
	requireSeqs(t, tbl, seqs(0, 50))
	committed, err := currentDataFiles(ctx, tbl)
	require.NoError(t, err)
	require.Len(t, parquetFiles(t, tbl), len(committed), "the losing attempt removes its files")
}

// A table whose owner lets iceberg-go retry conflicts itself
// (commit.retry.num-retries, set where writers commit concurrently), and
// two attempts of one pane committing at the same time: the catalog takes
// the first and answers the second 409. iceberg-go would replay the
// second on the refreshed table, past the sink's lookup of its commit id,
// and land the pane twice; the commit engine pins the head it staged on,
// so the conflict comes back to it, and it finds the pane landed.
func TestRacingCommittersWithCatalogRetries(t *testing.T) {
	ctx := context.Background()
	direct := launch(t)
	viaProxy, fp := proxied(t, direct)
	cfg := Config{Catalog: viaProxy, Table: "eo.race", WriterID: "w",
		Properties: map[string]string{table.CommitNumRetriesKey: "10", table.CommitMinRetryWaitMsKey: "1"}}
	s := newTestSink[click](t, cfg)
	_, _, err := s.loadOrCreate(ctx, "eo.race")
	require.NoError(t, err)

	// The twin (another worker: its own process, so no shared lock)
	// loads the table when ours does, and commits first.
	cfg.Catalog = direct
	twin := newTestSink[click](t, cfg)
	blobs := encodeRows(t, s, clicks(0, 50, "a"), 50)
	twinDone := make(chan error, 1)
	fp.before = func() {
		go func() {
			_, err := twin.commit(ctx, "eo.race", deliver(blobs), nil)
			twinDone <- err
		}()
		// The twin's commit has landed once it returns; ours, staged on
		// the older head, goes on to a 409.
		require.NoError(t, <-twinDone)
	}
	fp.beforeN = 1
	res, err := s.commit(ctx, "eo.race", deliver(blobs), nil)
	require.NoError(t, err)
	require.True(t, res.Skipped, "the pane had landed through the twin")

	tbl := loadTable(t, openCat(t, direct), "eo.race")
	require.Len(t, tbl.Metadata().Snapshots(), 1, "one snapshot holds the pane")
	requireSeqs(t, tbl, seqs(0, 50))
}

func TestCrashBetweenWriteAndCommit(t *testing.T) {
	ctx := context.Background()
	cat := launch(t)
	s := newTestSink[click](t, Config{Catalog: cat, Table: "eo.crash", WriterID: "w"})
	tbl, _, err := s.loadOrCreate(ctx, "eo.crash")
	require.NoError(t, err)

	// First attempt: files written, then the worker dies before committing.
	blobs := encodeRows(t, s, clicks(0, 80, "a"), 30)
	files, err := s.writeFiles(ctx, tbl, "", deliver(blobs))
	require.NoError(t, err)
	require.NotEmpty(t, files)

	// The retry writes its own files and commits once.
	res, err := s.commit(ctx, "eo.crash", deliver(blobs), nil)
	require.NoError(t, err)
	require.False(t, res.Skipped)
	tbl = loadTable(t, s.cat, "eo.crash")
	requireSeqs(t, tbl, seqs(0, 80))

	// The dead attempt's files are orphans: on disk, not in the table.
	committed, err := currentDataFiles(ctx, tbl)
	require.NoError(t, err)
	require.Len(t, parquetFiles(t, tbl), len(files)+len(committed))
	for _, f := range files {
		require.False(t, slices.ContainsFunc(committed, func(c iceberg.DataFile) bool {
			return c.FilePath() == f.FilePath()
		}))
	}
}

func TestCommitFailsForGood(t *testing.T) {
	ctx := context.Background()
	direct := launch(t)
	viaProxy, fp := proxied(t, direct)
	s := newTestSink[click](t, Config{Catalog: viaProxy, Table: "eo.fail", WriterID: "w"})
	_, _, err := s.loadOrCreate(ctx, "eo.fail")
	require.NoError(t, err)
	fp.refuse = true
	_, err = s.commit(ctx, "eo.fail", chunksOf(t, s, clicks(0, 5, "a"), 5), nil)
	require.Regexp(t, `table eo.fail commit w/[0-9a-f]{32} failed`, err)
	tbl := loadTable(t, openCat(t, direct), "eo.fail")
	require.Nil(t, tbl.CurrentSnapshot())
	require.Empty(t, parquetFiles(t, tbl), "a refused commit removes its files")
}

func TestManifestsMergeOnLongStreams(t *testing.T) {
	ctx := context.Background()
	cfg := Config{Catalog: launch(t), Table: "eo.merge", WriterID: "w",
		Properties: map[string]string{table.ManifestMinMergeCountKey: "3"}}
	s := newTestSink[click](t, cfg)
	for pane := 0; pane < 10; pane++ {
		_, err := s.commit(ctx, "eo.merge", chunksOf(t, s, clicks(pane*5, pane*5+5, "a"), 5), nil)
		require.NoError(t, err)
	}
	tbl := loadTable(t, s.cat, "eo.merge")
	fsys, err := tbl.FS(ctx)
	require.NoError(t, err)
	manifests, err := tbl.CurrentSnapshot().Manifests(fsys)
	require.NoError(t, err)
	require.Less(t, len(manifests), 4, "ten appends, merged once three manifests pile up")
	requireSeqs(t, tbl, seqs(0, 50))
}
