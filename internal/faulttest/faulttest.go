// Package faulttest is what the exactly-once tests on Beam's Flink runner
// share: the local catalog behind an OAuth2 guard with faults injected at a
// sink's data commits (a worker crash after or before a commit, the catalog
// down, tokens expired), and a check, made with iceberg-go's own REST client
// and scan rather than ours, that a table holds every seq 0..n-1 exactly
// once.
package faulttest

import (
	"context"
	"math"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/catalog/rest"
	"github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/catalog/authtest"
	"github.com/icebeam/icebeam/catalog/localcatalog"
	"github.com/icebeam/icebeam/internal/jobservertest"
)

// Fault is what a run does to the job while it streams. Faults strike at
// the first commits: on a loaded machine the sink merges ready panes into
// few commits (two in a 60 s run was seen in CI), and a fault waiting for a
// later one never struck.
type Fault struct {
	Name string
	// Before runs when the sink's n-th data commit (1-based) reaches the
	// catalog, before it is forwarded; it says whether to forward it (a
	// commit not forwarded is answered 503).
	Before func(c *Catalog, n int) (forward bool)
	// After runs when the n-th commit was forwarded and applied, before
	// the answer is sent.
	After func(c *Catalog, n int)
	// Check looks at what the fault did, once the job has ended.
	Check func(t *testing.T, c *Catalog)
}

// CrashAfterCommit kills the worker pool once the catalog has applied the
// first commit, before the runner hears the bundle finish: the restored job
// hands the same pane to the committer again.
func CrashAfterCommit() Fault {
	return Fault{
		Name: "crash after commit",
		After: func(c *Catalog, n int) {
			if n == 1 {
				c.Pool.Crash()
			}
		},
		Check: func(t *testing.T, c *Catalog) { c.RequireCrashes(t, 1) },
	}
}

// CrashBeforeCommit kills the worker pool when the first commit reaches the
// catalog, and drops the commit.
func CrashBeforeCommit() Fault {
	return Fault{
		Name: "crash before commit",
		Before: func(c *Catalog, n int) bool {
			if n == 1 {
				c.Pool.Crash()
				return false
			}
			return true
		},
		Check: func(t *testing.T, c *Catalog) { c.RequireCrashes(t, 1) },
	}
}

// CatalogDown makes every request fail at the connection for d from the
// first commit on.
func CatalogDown(d time.Duration) Fault {
	return Fault{
		Name: "catalog down " + d.String(),
		Before: func(c *Catalog, n int) bool {
			if n == 1 {
				c.DownFor(d)
			}
			return true
		},
		Check: func(t *testing.T, c *Catalog) {
			if c.Refused() == 0 {
				t.Error("no request reached the catalog while it was down")
			}
		},
	}
}

// Catalog is the local catalog behind an OAuth2 guard, with a Fault
// injected at the sink's data commits (POST .../tables/{table}).
type Catalog struct {
	*authtest.Catalog
	// Pool is the worker pool the job's harnesses run in, for faults that
	// crash it; the test sets it.
	Pool *jobservertest.WorkerPool
	// SinkTable, when set ("namespace.table"), is the one table whose
	// commits are the sink's: commits to other tables (a test's own
	// appends to a source table) pass untouched and are not counted.
	SinkTable string

	fault    Fault
	mu       sync.Mutex
	commits  int
	downTill time.Time
	refusals int
}

var commitPath = regexp.MustCompile(`/namespaces/[^/]+/tables/[^/]+$`)

// NewCatalog starts the catalog with fault injected; it stops when t ends.
func NewCatalog(t *testing.T, fault Fault) *Catalog {
	c := &Catalog{fault: fault}
	tokens := authtest.NewTokenServer(time.Hour, 3600)
	c.Catalog = authtest.NewCatalog(t, tokens, localcatalog.Options{}, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { c.serve(w, r, next) })
	})
	return c
}

func (c *Catalog) serve(w http.ResponseWriter, r *http.Request, next http.Handler) {
	c.mu.Lock()
	down := time.Now().Before(c.downTill)
	if down {
		c.refusals++
	}
	n := 0
	if r.Method == http.MethodPost && commitPath.MatchString(r.URL.Path) && c.isSink(r.URL.Path) {
		c.commits++
		n = c.commits
	}
	c.mu.Unlock()
	if down {
		// As a dead server: the connection ends without an answer.
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				conn.Close()
				return
			}
		}
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	if n > 0 && c.fault.Before != nil && !c.fault.Before(c, n) {
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	if n == 0 || c.fault.After == nil {
		next.ServeHTTP(w, r)
		return
	}
	rec := httptest.NewRecorder()
	next.ServeHTTP(rec, r)
	if rec.Code == http.StatusOK {
		c.fault.After(c, n)
	}
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Code)
	_, _ = w.Write(rec.Body.Bytes())
}

// isSink says whether a commit to path is the sink's.
func (c *Catalog) isSink(path string) bool {
	if c.SinkTable == "" {
		return true
	}
	ns, tbl, _ := strings.Cut(c.SinkTable, ".")
	return strings.HasSuffix(path, "/namespaces/"+ns+"/tables/"+tbl)
}

// DownFor makes every request fail at the connection for d from now.
func (c *Catalog) DownFor(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.downTill = time.Now().Add(d)
}

// Refused is how many requests arrived while the catalog was down.
func (c *Catalog) Refused() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.refusals
}

// ExpireTokensFor expires every token the catalog has issued, five times a
// second for d.
func (c *Catalog) ExpireTokensFor(d time.Duration) {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
		c.Tokens.ExpireAll()
	}
}

// Check runs the fault's own check, if it has one.
func (c *Catalog) Check(t *testing.T) {
	if c.fault.Check != nil {
		c.fault.Check(t, c)
	}
}

// RequireCrashes fails t unless the pool crashed n times.
func (c *Catalog) RequireCrashes(t *testing.T, n int) {
	t.Helper()
	if got := c.Pool.Crashes(); got != n {
		t.Errorf("the worker pool crashed %d times, want %d", got, n)
	}
}

// LoadChecked loads table name with iceberg-go's own REST client, not
// ours, to check what the sink committed.
func LoadChecked(t *testing.T, uri, credential, name string) *table.Table {
	t.Helper()
	tbl, err := OpenChecked(t, uri, credential).LoadTable(context.Background(), catalog.ToIdentifier(name))
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// ExistsChecked reports, from iceberg-go's own REST client, whether table
// name exists.
func ExistsChecked(t *testing.T, uri, credential, name string) bool {
	t.Helper()
	ok, err := OpenChecked(t, uri, credential).CheckTableExists(context.Background(), catalog.ToIdentifier(name))
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

// OpenChecked opens the catalog at uri with iceberg-go's own REST client.
func OpenChecked(t *testing.T, uri, credential string) *rest.Catalog {
	t.Helper()
	cat, err := rest.NewCatalog(context.Background(), "check", uri, rest.WithCredential(credential))
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// RequireEachSeqOnce reads table name with iceberg-go's own REST client
// and scan and checks that it holds every seq 0..n-1 exactly once.
func RequireEachSeqOnce(t *testing.T, uri, credential, name string, n int) {
	t.Helper()
	tbl := LoadChecked(t, uri, credential, name)
	seen := make([]int, n)
	var beyond, rows int
	for _, s := range ReadSeqs(t, tbl.Scan()) {
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
			for _, s := range ReadSeqs(t, tbl.Scan(table.WithSnapshotID(snap.SnapshotID))) {
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

// ReadSeqs returns the seq column of a scan.
func ReadSeqs(t *testing.T, scan *table.Scan) []int64 {
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
