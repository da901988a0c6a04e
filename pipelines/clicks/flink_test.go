package main

import (
	"context"
	"maps"
	"math"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/catalog/rest"
	"github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/catalog/authtest"
	"github.com/icebeam/icebeam/catalog/localcatalog"
	"github.com/icebeam/icebeam/internal/jobservertest"
	"github.com/icebeam/icebeam/internal/launch/launchtest"
)

// The Flink runs stream at 200 rows/s for flinkDuration with a 5 s trigger
// and a checkpoint every 5 s, as the runner issue asks: 12,000 rows.
const (
	flinkInterval   = 5 * time.Millisecond
	flinkDuration   = 60 * time.Second
	flinkTrigger    = 5
	flinkCheckpoint = 5 * time.Second
)

// fault is what a Flink run does to the job while it streams.
type fault struct {
	name string
	// interval replaces flinkInterval; args are more flags for clicks.
	interval time.Duration
	args     []string
	// commit runs when the sink's n-th data commit (1-based) reaches the
	// catalog, before it is forwarded; forward says whether to forward it,
	// after, when it is forwarded and applied, runs before the answer is
	// sent. Faults strike at the first commits: on a loaded machine the
	// sink merges ready panes into few commits (two in a 60 s run was seen
	// in CI), and a fault waiting for a later one never struck.
	before func(f *faultCatalog, n int) (forward bool)
	after  func(f *faultCatalog, n int)
	// check looks at what the fault did, once the job has ended.
	check func(t *testing.T, f *faultCatalog)
}

// TestFlinkExactlyOnce runs clicks on Beam's portable Flink runner with
// checkpointing, its harnesses in a worker pool of their own, and reads
// the table back: every seq 0..N-1 exactly once, whatever fails on the way,
// and the job's exit status 0.
func TestFlinkExactlyOnce(t *testing.T) {
	faults := []fault{
		{name: "no fault"},
		{
			// The worker dies after the catalog applied its commit and
			// before the runner heard the bundle finish: the restored job
			// hands the same pane to the committer again.
			name: "crash after commit",
			after: func(f *faultCatalog, n int) {
				if n == 1 {
					f.pool.Crash()
				}
			},
			check: func(t *testing.T, f *faultCatalog) { requireCrashes(t, f, 1) },
		},
		{
			name: "crash before commit",
			before: func(f *faultCatalog, n int) bool {
				if n == 1 {
					f.pool.Crash()
					return false
				}
				return true
			},
			check: func(t *testing.T, f *faultCatalog) { requireCrashes(t, f, 1) },
		},
		{
			// Every request fails at the connection for 15 s.
			name: "catalog down 15s",
			before: func(f *faultCatalog, n int) bool {
				if n == 1 {
					f.downFor(15 * time.Second)
				}
				return true
			},
			check: func(t *testing.T, f *faultCatalog) {
				if f.refused() == 0 {
					t.Error("no request reached the catalog while it was down")
				}
			},
		},
		{
			// The catalog expires every token it has issued, five times a
			// second for 10 s: each request sees 419s until it refreshes.
			name: "burst of 419s",
			before: func(f *faultCatalog, n int) bool {
				if n == 1 {
					go f.expireTokensFor(10 * time.Second)
				}
				return true
			},
			check: func(t *testing.T, f *faultCatalog) {
				if n := f.cat.Guard.Rejections(authtest.StatusAuthenticationTimeout); n == 0 {
					t.Error("the catalog answered no 419")
				} else {
					t.Logf("the catalog answered %d requests with 419", n)
				}
			},
		},
		{
			// Eight shards write each pane in Flink's two slots; one
			// committer commits it. Flink places a key by a hash of its
			// encoded bytes: of the keys "0|flink.clicks" to
			// "3|flink.clicks" all four land in slot 2, of eight, three
			// land in slot 1. A shard gets whole chunks (a bundle's
			// rows, at most 65,536), and Flink ends the generator's
			// bundles at checkpoints, so the stream runs at 40,000 rows/s
			// for panes of several chunks. Each slot runs its own instance of
			// the writing DoFn (Flink's operator for a subtask registers a
			// bundle descriptor of its own, and the Go harness keeps DoFn
			// instances per descriptor), and data file names carry the
			// instance: a snapshot with files of two instances holds files
			// written in both slots.
			name:     "sharded write, crash after commit",
			interval: 25 * time.Microsecond,
			args:     []string{"--write_shards=8"},
			after: func(f *faultCatalog, n int) {
				if n == 2 {
					f.pool.Crash()
				}
			},
			check: func(t *testing.T, f *faultCatalog) {
				requireCrashes(t, f, 1)
				both := 0
				for _, w := range writersPerSnapshot(t, f.cat.URL, f.cat.Tokens.Credential(), "flink.clicks") {
					if len(w) >= 2 {
						both++
					}
				}
				if both == 0 {
					t.Error("no snapshot holds files written in two slots")
				} else {
					t.Logf("%d snapshots hold files written in two slots", both)
				}
			},
		},
	}
	bin := pipelineBin.Path(t)
	for _, fa := range faults {
		t.Run(fa.name, func(t *testing.T) {
			js := jobservertest.Start(t, "flink")
			f := newFaultCatalog(t, fa)
			const credentialEnv = "ICEBEAM_TEST_CREDENTIAL"
			env := credentialEnv + "=" + f.cat.Tokens.Credential()
			f.pool = jobservertest.StartWorkerPool(t, bin, env)
			name := "flink.clicks"
			interval := flinkInterval
			if fa.interval > 0 {
				interval = fa.interval
			}
			ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin,
				"--runner=flink", "--endpoint="+js.Endpoint,
				"--environment_type=EXTERNAL", "--environment_config="+f.pool.Addr,
				"--checkpointing_interval="+flinkCheckpoint.String(),
				"--catalog_uri="+f.cat.URL, "--auth=oauth2", "--credential=env:"+credentialEnv,
				"--iceberg_table="+name, "--seq_column",
				"--interval="+interval.String(), "--duration="+flinkDuration.String(),
				"--triggering_frequency_seconds="+strconv.Itoa(flinkTrigger))
			cmd.Args = append(cmd.Args, fa.args...)
			cmd.Env = append(cmd.Environ(), env)
			start := time.Now()
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("clicks on Flink: %v\n%s\njob server log:\n%s", err, launchtest.Tail(string(out)), js.LogTail(60))
			}
			t.Logf("clicks on Flink (%s): %v, %d completed checkpoints, %d job restarts", fa.name, time.Since(start).Round(time.Second),
				js.Count("Completed checkpoint"), js.Count("Restoring job"))
			requireEachSeqOnce(t, f.cat.URL, f.cat.Tokens.Credential(), name, int(flinkDuration/interval))
			if fa.check != nil {
				fa.check(t, f)
			}
		})
	}
}

func requireCrashes(t *testing.T, f *faultCatalog, n int) {
	t.Helper()
	if got := f.pool.Crashes(); got != n {
		t.Errorf("the worker pool crashed %d times, want %d", got, n)
	}
}

// faultCatalog is the local catalog behind an OAuth2 guard, with faults
// injected at the sink's data commits (POST .../tables/{table}).
type faultCatalog struct {
	cat   *authtest.Catalog
	fault fault
	pool  *jobservertest.WorkerPool

	mu       sync.Mutex
	commits  int
	downTill time.Time
	refusals int
}

var commitPath = regexp.MustCompile(`/namespaces/[^/]+/tables/[^/]+$`)

func newFaultCatalog(t *testing.T, fa fault) *faultCatalog {
	f := &faultCatalog{fault: fa}
	tokens := authtest.NewTokenServer(time.Hour, 3600)
	f.cat = authtest.NewCatalog(t, tokens, localcatalog.Options{}, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { f.serve(w, r, next) })
	})
	return f
}

func (f *faultCatalog) serve(w http.ResponseWriter, r *http.Request, next http.Handler) {
	f.mu.Lock()
	down := time.Now().Before(f.downTill)
	if down {
		f.refusals++
	}
	n := 0
	if r.Method == http.MethodPost && commitPath.MatchString(r.URL.Path) {
		f.commits++
		n = f.commits
	}
	f.mu.Unlock()
	if down {
		// As a dead server: the connection ends without an answer.
		if hj, ok := w.(http.Hijacker); ok {
			if c, _, err := hj.Hijack(); err == nil {
				c.Close()
				return
			}
		}
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	if n > 0 && f.fault.before != nil && !f.fault.before(f, n) {
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	if n == 0 || f.fault.after == nil {
		next.ServeHTTP(w, r)
		return
	}
	rec := httptest.NewRecorder()
	next.ServeHTTP(rec, r)
	if rec.Code == http.StatusOK {
		f.fault.after(f, n)
	}
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Code)
	_, _ = w.Write(rec.Body.Bytes())
}

func (f *faultCatalog) downFor(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.downTill = time.Now().Add(d)
}

func (f *faultCatalog) refused() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.refusals
}

func (f *faultCatalog) expireTokensFor(d time.Duration) {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
		f.cat.Tokens.ExpireAll()
	}
}

// loadChecked loads table name with iceberg-go's own REST client, not ours,
// to check what the sink committed.
func loadChecked(t *testing.T, uri, credential, name string) *table.Table {
	t.Helper()
	ctx := context.Background()
	cat, err := rest.NewCatalog(ctx, "check", uri, rest.WithCredential(credential))
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := cat.LoadTable(ctx, catalog.ToIdentifier(name))
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// requireEachSeqOnce reads table with iceberg-go's own REST client and scan
// and checks that it holds every seq 0..n-1 exactly once.
func requireEachSeqOnce(t *testing.T, uri, credential, name string, n int) {
	t.Helper()
	tbl := loadChecked(t, uri, credential, name)
	seen := make([]int, n)
	var beyond, rows int
	for _, s := range readSeqs(t, tbl.Scan()) {
		rows++
		if s >= 0 && s < int64(n) {
			seen[s]++
		} else {
			beyond++
		}
	}
	var lost, doubled []int
	for s, c := range seen {
		switch {
		case c == 0:
			lost = append(lost, s)
		case c > 1:
			doubled = append(doubled, s)
		}
	}
	t.Logf("%s: %d rows in %d snapshots", name, rows, len(tbl.Metadata().Snapshots()))
	if len(lost) > 0 || len(doubled) > 0 || beyond > 0 {
		t.Errorf("%s: of seq 0..%d, %d lost (first %v), %d more than once (first %v); %d outside", name, n-1,
			len(lost), lost[:min(5, len(lost))], len(doubled), doubled[:min(5, len(doubled))], beyond)
		// What each commit added, to see where rows went.
		prev := map[int64]int{}
		for _, snap := range tbl.Metadata().Snapshots() {
			cur := map[int64]int{}
			for _, s := range readSeqs(t, tbl.Scan(table.WithSnapshotID(snap.SnapshotID))) {
				cur[s]++
			}
			lo, hi, added := int64(math.MaxInt64), int64(-1), 0
			for s, c := range cur {
				if c > prev[s] {
					added += c - prev[s]
					lo, hi = min(lo, s), max(hi, s)
				}
			}
			t.Logf("snapshot %d at %s: %s added %d rows, seq %d..%d", snap.SnapshotID,
				time.UnixMilli(snap.TimestampMs).Format("15:04:05.000"), snap.Summary.Properties["icebeam.commit-id"], added, lo, hi)
			prev = cur
		}
	}
}

// readSeqs returns the seq column of a scan.
func readSeqs(t *testing.T, scan *table.Scan) []int64 {
	t.Helper()
	at, err := scan.ToArrowTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer at.Release()
	var out []int64
	tr := array.NewTableReader(at, 1<<16)
	defer tr.Release()
	for tr.Next() {
		rec := tr.RecordBatch()
		seqs := rec.Column(rec.Schema().FieldIndices("seq")[0]).(*array.Int64)
		out = append(out, seqs.Int64Values()...)
	}
	return out
}

// writersPerSnapshot lists, for each snapshot of table name, the writers
// (worker and DoFn instance) of the data files it added, as the sink names
// them: "w<worker id>-<instance>-<uuid>-<n>.parquet".
func writersPerSnapshot(t *testing.T, uri, credential, name string) []map[string]bool {
	t.Helper()
	tbl := loadChecked(t, uri, credential, name)
	fsys, err := tbl.FS(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	fileName := regexp.MustCompile(`/(w[^/]*)-[0-9a-f-]{36}-[0-9]+\.parquet$`)
	var out []map[string]bool
	for _, snap := range tbl.Metadata().Snapshots() {
		manifests, err := snap.Manifests(fsys)
		if err != nil {
			t.Fatal(err)
		}
		writers := map[string]bool{}
		for _, m := range manifests {
			if m.SnapshotID() != snap.SnapshotID {
				continue
			}
			entries, err := m.FetchEntries(fsys, true)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if e.Status() != iceberg.EntryStatusADDED || e.SnapshotID() != snap.SnapshotID {
					continue
				}
				match := fileName.FindStringSubmatch(e.DataFile().FilePath())
				if match == nil {
					t.Fatalf("data file %s: no worker in its name", e.DataFile().FilePath())
				}
				writers[match[1]] = true
			}
		}
		t.Logf("snapshot %d: files from %v", snap.SnapshotID, slices.Sorted(maps.Keys(writers)))
		out = append(out, writers)
	}
	return out
}
