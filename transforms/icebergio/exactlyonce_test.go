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

func TestReplayedCommitIsSkipped(t *testing.T) {
	ctx := context.Background()
	s := newTestSink[click](t, Config{Catalog: launch(t), Table: "eo.replay", WriterID: "w"})
	id := commitID("w", "global", 0)
	res, err := s.commit(ctx, "eo.replay", id, chunksOf(t, s, clicks(0, 100, "a"), 40))
	require.NoError(t, err)
	require.False(t, res.Skipped)

	// The retried bundle replays the same pane: same id, same rows.
	res2, err := s.commit(ctx, "eo.replay", id, chunksOf(t, s, clicks(0, 100, "a"), 40))
	require.NoError(t, err)
	require.True(t, res2.Skipped)
	require.Equal(t, res.SnapshotID, res2.SnapshotID)

	// The next pane commits.
	_, err = s.commit(ctx, "eo.replay", commitID("w", "global", 1), chunksOf(t, s, clicks(100, 150, "a"), 40))
	require.NoError(t, err)
	tbl := loadTable(t, s.cat, "eo.replay")
	requireSeqs(t, tbl, seqs(0, 150))
	require.Len(t, tbl.Metadata().Snapshots(), 2)
	marker, at := splitMarker(tbl.Properties()[MarkerKeyPrefix+"w"])
	require.Equal(t, commitID("w", "global", 1), marker)
	require.WithinDuration(t, time.Now(), at, time.Minute)
}

func TestStaleMarkersAreDropped(t *testing.T) {
	ctx := context.Background()
	s := newTestSink[click](t, Config{Catalog: launch(t), Table: "eo.markers", WriterID: "w"})
	tbl, _, err := s.loadOrCreate(ctx, "eo.markers")
	require.NoError(t, err)
	ms := func(d time.Duration) string { return strconv.FormatInt(time.Now().Add(-d).UnixMilli(), 10) }
	tx := tbl.NewTransaction()
	require.NoError(t, tx.SetProperties(iceberg.Properties{
		MarkerKeyPrefix + "finished-job": "finished-job/global/0@" + ms(8*24*time.Hour),
		MarkerKeyPrefix + "running-job":  "running-job/global/9@" + ms(time.Hour),
	}))
	_, err = tx.Commit(ctx)
	require.NoError(t, err)

	_, err = s.commit(ctx, "eo.markers", commitID("w", "global", 0), chunksOf(t, s, clicks(0, 3, "a"), 3))
	require.NoError(t, err)
	props := loadTable(t, s.cat, "eo.markers").Properties()
	require.NotContains(t, props, MarkerKeyPrefix+"finished-job")
	require.Contains(t, props, MarkerKeyPrefix+"running-job")
	require.Contains(t, props, MarkerKeyPrefix+"w")
}

func TestReplayAfterSnapshotExpiry(t *testing.T) {
	ctx := context.Background()
	cfg := Config{Catalog: launch(t), Table: "eo.expire", WriterID: "w", Expire: Expiry{RetainLast: 1}}
	s := newTestSink[click](t, cfg)
	for pane := int64(0); pane < 3; pane++ {
		_, err := s.commit(ctx, "eo.expire", commitID("w", "global", pane), chunksOf(t, s, clicks(int(pane)*10, int(pane)*10+10, "a"), 10))
		require.NoError(t, err)
	}
	tbl := loadTable(t, s.cat, "eo.expire")
	require.Len(t, tbl.Metadata().Snapshots(), 1, "expiry keeps the last snapshot only")
	// Pane 0's snapshot is gone; the marker still proves it landed.
	res, err := s.commit(ctx, "eo.expire", commitID("w", "global", 0), chunksOf(t, s, clicks(0, 10, "a"), 10))
	require.NoError(t, err)
	require.True(t, res.Skipped)
	requireSeqs(t, loadTable(t, s.cat, "eo.expire"), seqs(0, 30))
}

// A runner may commit a later pane of a table before an earlier one (prism
// runs two panes' bundles at once). The earlier pane must still land, and
// the marker must not claim it before it does.
func TestPanesCommitOutOfOrder(t *testing.T) {
	ctx := context.Background()
	s := newTestSink[click](t, Config{Catalog: launch(t), Table: "eo.order", WriterID: "w"})
	commit := func(pane int64) CommitResult {
		res, err := s.commit(ctx, "eo.order", commitID("w", "global", pane), chunksOf(t, s, clicks(int(pane)*10, int(pane)*10+10, "a"), 10))
		require.NoError(t, err)
		return res
	}
	require.False(t, commit(1).Skipped)
	_, has := loadTable(t, s.cat, "eo.order").Properties()[MarkerKeyPrefix+"w"]
	require.False(t, has, "no marker while pane 0 is missing")
	require.False(t, commit(0).Skipped, "pane 0 must not be taken as landed because pane 1 did")
	require.False(t, commit(3).Skipped)
	marker, _ := splitMarker(loadTable(t, s.cat, "eo.order").Properties()[MarkerKeyPrefix+"w"])
	require.Equal(t, commitID("w", "global", 1), marker, "pane 2 is still missing")
	require.False(t, commit(2).Skipped)
	require.True(t, commit(1).Skipped, "a replayed pane is skipped")
	tbl := loadTable(t, s.cat, "eo.order")
	marker, _ = splitMarker(tbl.Properties()[MarkerKeyPrefix+"w"])
	require.Equal(t, commitID("w", "global", 3), marker)
	requireSeqs(t, tbl, seqs(0, 40))
	require.Len(t, tbl.Metadata().Snapshots(), 4)
}

// faultProxy sits in front of the REST catalog and misbehaves on table
// commits (POST .../namespaces/{ns}/tables/{table}).
type faultProxy struct {
	rp *httputil.ReverseProxy

	mu        sync.Mutex
	answer500 int    // commits to forward and then answer with a 500
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
	f.mu.Unlock()
	if hook != nil {
		hook()
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
	t.Helper()
	u, err := url.Parse(cat.URI)
	require.NoError(t, err)
	fp := &faultProxy{rp: httputil.NewSingleHostReverseProxy(u)}
	srv := httptest.NewServer(fp)
	t.Cleanup(srv.Close)
	out := cat
	out.URI = srv.URL
	return out, fp
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
	res, err := s.commit(ctx, "eo.fivehundred", commitID("w", "global", 0), chunksOf(t, s, clicks(0, 70, "a"), 50))
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
		_, err := other.commit(ctx, "eo.conflict", commitID("other", "global", int64(n)), chunksOf(t, other, clicks(1000+10*n, 1010+10*n, "b"), 10))
		require.NoError(t, err)
		n++
	}
	fp.beforeN = 3

	res, err := s.commit(ctx, "eo.conflict", commitID("w", "global", 0), chunksOf(t, s, clicks(0, 200, "a"), 64))
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
	fp.before = func() {
		_, err := twin.commit(ctx, "eo.zombie", commitID("w", "global", 0), chunksOf(t, twin, clicks(0, 50, "a"), 50))
		require.NoError(t, err)
	}
	fp.beforeN = 1
	res, err := s.commit(ctx, "eo.zombie", commitID("w", "global", 0), chunksOf(t, s, clicks(0, 50, "a"), 50))
	require.NoError(t, err)
	require.True(t, res.Skipped)
	requireSeqs(t, loadTable(t, openCat(t, direct), "eo.zombie"), seqs(0, 50))
}

func TestCrashBetweenWriteAndCommit(t *testing.T) {
	ctx := context.Background()
	cat := launch(t)
	s := newTestSink[click](t, Config{Catalog: cat, Table: "eo.crash", WriterID: "w"})
	tbl, _, err := s.loadOrCreate(ctx, "eo.crash")
	require.NoError(t, err)

	// First attempt: files written, then the worker dies before committing.
	files, err := s.writeFiles(ctx, tbl, chunksOf(t, s, clicks(0, 80, "a"), 30))
	require.NoError(t, err)
	require.NotEmpty(t, files)

	// The retry writes its own files and commits once.
	res, err := s.commit(ctx, "eo.crash", commitID("w", "global", 0), chunksOf(t, s, clicks(0, 80, "a"), 30))
	require.NoError(t, err)
	require.False(t, res.Skipped)
	tbl = loadTable(t, s.cat, "eo.crash")
	requireSeqs(t, tbl, seqs(0, 80))

	// The dead attempt's files are orphans: on disk, not in the table.
	committed, err := currentDataFiles(ctx, tbl)
	require.NoError(t, err)
	var onDisk []string
	root := strings.TrimPrefix(tbl.Location(), "file://")
	require.NoError(t, filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".parquet") {
			onDisk = append(onDisk, p)
		}
		return err
	}))
	require.Len(t, onDisk, len(files)+len(committed))
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
	fp.rp.ModifyResponse = func(r *http.Response) error {
		if r.Request.Method == http.MethodPost && commitPath.MatchString(r.Request.URL.Path) {
			r.StatusCode = http.StatusBadRequest
		}
		return nil
	}
	_, err = s.commit(ctx, "eo.fail", commitID("w", "global", 0), chunksOf(t, s, clicks(0, 5, "a"), 5))
	require.ErrorContains(t, err, "table eo.fail commit w/global/0 failed")
}

func TestManifestsMergeOnLongStreams(t *testing.T) {
	ctx := context.Background()
	cfg := Config{Catalog: launch(t), Table: "eo.merge", WriterID: "w",
		Properties: map[string]string{table.ManifestMinMergeCountKey: "3"}}
	s := newTestSink[click](t, cfg)
	for pane := 0; pane < 10; pane++ {
		_, err := s.commit(ctx, "eo.merge", commitID("w", "global", int64(pane)), chunksOf(t, s, clicks(pane*5, pane*5+5, "a"), 5))
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
