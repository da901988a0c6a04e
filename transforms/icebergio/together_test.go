package icebergio

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/catalog"
)

// txProxy sits in front of the REST catalog, counts its commit requests
// by endpoint, and can hide the multi-table endpoint or misbehave on it.
type txProxy struct {
	rp *httputil.ReverseProxy

	mu           sync.Mutex
	transactions int  // POST .../transactions/commit
	tableCommits int  // POST .../namespaces/{ns}/tables/{table}
	hide         bool // /v1/config does not list the multi-table endpoint
	// before runs before the first transaction request is forwarded;
	// after with the status the catalog answered it.
	before  func()
	after   func(status int)
	answer5 int // transaction requests to forward and then answer with a 500
}

func (p *txProxy) counts() (transactions, tableCommits int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.transactions, p.tableCommits
}

func (p *txProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/v1/config") && p.hide:
		p.serveConfig(w, r)
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/transactions/commit"):
		p.mu.Lock()
		p.transactions++
		before, after := p.before, p.after
		p.before, p.after = nil, nil
		fail := p.answer5 > 0
		if fail {
			p.answer5--
		}
		p.mu.Unlock()
		if before != nil {
			before()
		}
		rec := httptest.NewRecorder()
		p.rp.ServeHTTP(rec, r)
		if after != nil {
			after(rec.Code)
		}
		if fail {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = w.Write([]byte(`{"error":{"message":"injected after the transaction was applied","type":"InternalServerError","code":500}}`))
			return
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	default:
		if r.Method == http.MethodPost && commitPath.MatchString(r.URL.Path) {
			p.mu.Lock()
			p.tableCommits++
			p.mu.Unlock()
		}
		p.rp.ServeHTTP(w, r)
	}
}

// serveConfig answers /v1/config as the catalog does, without the
// multi-table endpoint in its list: a server that does not serve it.
func (p *txProxy) serveConfig(w http.ResponseWriter, r *http.Request) {
	rec := httptest.NewRecorder()
	p.rp.ServeHTTP(rec, r)
	var cfg map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &cfg); err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	eps, _ := cfg["endpoints"].([]any)
	cfg["endpoints"] = slices.DeleteFunc(eps, func(e any) bool { return strings.Contains(e.(string), "/transactions/commit") })
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(cfg)
}

func txProxied(t *testing.T, direct catalog.Config) (catalog.Config, *txProxy) {
	p := &txProxy{rp: reverseProxy(t, direct)}
	return behind(t, direct, p), p
}

// changesSink is a Changes sink of change rows to dest, committing
// together.
func changesSink(t *testing.T, cat catalog.Config, dest, writer string) *sink {
	return newTestSink[change](t, Config{Catalog: cat, Table: dest, WriterID: writer, Mode: Changes, Key: []string{"id"}, Op: "op", Order: "lsn", CommitTogether: true,
		MaxDeletedShare: -1}) // no compaction: a commit of its own
}

// tablesPane is one pane of changes to each of sinks' tables (in table
// order), as the committer of a pane committed together gets it; calling
// it again is the runner delivering the same pane again.
func tablesPane(t *testing.T, sinks []*sink, blobs [][][]byte) []tablePane {
	t.Helper()
	var out []tablePane
	for i, s := range sinks {
		tp := tablePane{dest: s.cfg.Table, sink: s}
		tp.all, tp.err = gatherChunks(deliver(blobs[i]))
		out = append(out, tp)
	}
	return out
}

// snapshotCommits is the commit id of each of tbl's snapshots, oldest
// first.
func snapshotCommits(t *testing.T, s *sink, dest string) []string {
	var ids []string
	for _, snap := range snapshotsOf(t, s.cat, dest) {
		ids = append(ids, snap.Summary.Properties[CommitIDKey])
	}
	return ids
}

// A pane of two tables lands in one transaction request: both tables'
// snapshots carry the pane's one commit id, no table is committed on its
// own, and a replay of the pane sends nothing.
func TestCommitTogetherIsOneTransaction(t *testing.T) {
	ctx := context.Background()
	via, proxy := txProxied(t, launch(t))
	a, b := changesSink(t, via, "shop.orders", "w"), changesSink(t, via, "shop.lines", "w")
	ordersLog, linesLog := changeLog(21, 200, 30, 200)[0], changeLog(22, 300, 50, 300)[0]
	blobs := [][][]byte{encodeRows(t, a, ordersLog, 40), encodeRows(t, b, linesLog, 40)}
	sinks := []*sink{b, a} // table order: shop.lines, shop.orders
	blobs[0], blobs[1] = blobs[1], blobs[0]

	res, err := commitTogether(ctx, a.cat, a.cfg, tablesPane(t, sinks, blobs))
	require.NoError(t, err)
	require.Len(t, res, 2)
	transactions, tableCommits := proxy.counts()
	require.Equal(t, 1, transactions, "one multi-table commit request")
	require.Zero(t, tableCommits, "no table committed on its own")
	for _, r := range res {
		require.True(t, r.Together, "%s", r.Table)
		require.False(t, r.Skipped)
		require.Equal(t, res[0].CommitID, r.CommitID)
	}
	require.Equal(t, []string{res[0].CommitID}, snapshotCommits(t, a, "shop.orders"))
	require.Equal(t, []string{res[0].CommitID}, snapshotCommits(t, b, "shop.lines"))
	require.Equal(t, model(ordersLog), readAccounts(t, loadTable(t, a.cat, "shop.orders")))
	require.Equal(t, model(linesLog), readAccounts(t, loadTable(t, b.cat, "shop.lines")))

	replay, err := commitTogether(ctx, a.cat, a.cfg, tablesPane(t, sinks, blobs))
	require.NoError(t, err)
	for _, r := range replay {
		require.True(t, r.Skipped, "%s", r.Table)
	}
	transactions, tableCommits = proxy.counts()
	require.Equal(t, [2]int{1, 0}, [2]int{transactions, tableCommits}, "a replay commits nothing")
	require.Len(t, snapshotCommits(t, a, "shop.orders"), 1)
	require.Len(t, snapshotCommits(t, b, "shop.lines"), 1)
}

// Another writer commits to one of the tables while the pane's
// transaction is on its way: the catalog refuses the whole transaction
// (409), neither table moves, and the retry, staged on both tables
// reloaded, lands both once.
func TestCommitTogetherConflictMovesNeither(t *testing.T) {
	ctx := context.Background()
	direct := launch(t)
	via, proxy := txProxied(t, direct)
	a, b := changesSink(t, via, "shop.lines", "w"), changesSink(t, via, "shop.orders", "w")
	other := changesSink(t, direct, "shop.orders", "other")
	logs := changeLog(31, 400, 40, 100)
	// The tables exist before the pane, as after a first pane.
	for _, s := range []*sink{a, b} {
		_, _, err := s.loadOrCreate(ctx, s.cfg.Table)
		require.NoError(t, err)
	}
	var linesAfter409, ordersAfter409, firstStatus int
	var otherErr error
	otherPane := encodeRows(t, other, logs[0], 50)
	cat := openCat(t, direct)
	proxy.before = func() {
		_, otherErr = other.commitRows(ctx, "shop.orders", deliver(otherPane), nil)
	}
	proxy.after = func(status int) {
		firstStatus = status
		linesAfter409 = len(snapshotsOf(t, cat, "shop.lines"))
		ordersAfter409 = len(snapshotsOf(t, cat, "shop.orders"))
	}
	blobs := [][][]byte{encodeRows(t, a, logs[1], 30), encodeRows(t, b, logs[2], 30)}
	res, err := commitTogether(ctx, a.cat, a.cfg, tablesPane(t, []*sink{a, b}, blobs))
	require.NoError(t, err)
	require.NoError(t, otherErr)
	require.Equal(t, http.StatusConflict, firstStatus, "the concurrent commit moved shop.orders")
	require.Equal(t, 0, linesAfter409, "shop.lines must not move when the transaction is refused")
	require.Equal(t, 1, ordersAfter409, "only the other writer's commit")
	transactions, tableCommits := proxy.counts()
	require.Equal(t, 2, transactions, "refused once, then landed")
	require.Zero(t, tableCommits)
	id := res[0].CommitID
	require.Equal(t, []string{id}, snapshotCommits(t, a, "shop.lines"))
	orders := snapshotCommits(t, b, "shop.orders")
	require.Len(t, orders, 2)
	require.Equal(t, id, orders[1])
	require.Equal(t, model(logs[1]), readAccounts(t, loadTable(t, a.cat, "shop.lines")))
	require.Equal(t, model(slices.Concat(logs[0], logs[2])), readAccounts(t, loadTable(t, b.cat, "shop.orders")))
}

// The catalog applies the transaction and its answer is lost (a 500): the
// committer finds the pane's commit id in the tables and sends nothing
// more; each table holds the pane once.
func TestCommitTogetherUnknownOutcomeIsLookedUp(t *testing.T) {
	ctx := context.Background()
	via, proxy := txProxied(t, launch(t))
	a, b := changesSink(t, via, "shop.lines", "w"), changesSink(t, via, "shop.orders", "w")
	logs := changeLog(41, 200, 30, 100)
	proxy.answer5 = 1
	blobs := [][][]byte{encodeRows(t, a, logs[0], 30), encodeRows(t, b, logs[1], 30)}
	res, err := commitTogether(ctx, a.cat, a.cfg, tablesPane(t, []*sink{a, b}, blobs))
	require.NoError(t, err)
	transactions, _ := proxy.counts()
	require.Equal(t, 1, transactions, "the landed transaction is not sent again")
	for _, r := range res {
		require.False(t, r.Skipped, "%s: landed by this call", r.Table)
	}
	require.Equal(t, []string{res[0].CommitID}, snapshotCommits(t, a, "shop.lines"))
	require.Equal(t, []string{res[0].CommitID}, snapshotCommits(t, b, "shop.orders"))
	require.Equal(t, model(logs[0]), readAccounts(t, loadTable(t, a.cat, "shop.lines")))
	require.Equal(t, model(logs[1]), readAccounts(t, loadTable(t, b.cat, "shop.orders")))
}

// A catalog whose /v1/config does not list the multi-table endpoint gets
// the pane's tables one by one, each once, under the pane's commit id.
func TestCommitTogetherFallsBackTableByTable(t *testing.T) {
	ctx := context.Background()
	via, proxy := txProxied(t, launch(t))
	proxy.hide = true
	a, b := changesSink(t, via, "shop.lines", "w"), changesSink(t, via, "shop.orders", "w")
	logs := changeLog(51, 200, 30, 100)
	blobs := [][][]byte{encodeRows(t, a, logs[0], 30), encodeRows(t, b, logs[1], 30)}
	res, err := commitTogether(ctx, a.cat, a.cfg, tablesPane(t, []*sink{a, b}, blobs))
	require.NoError(t, err)
	transactions, tableCommits := proxy.counts()
	require.Zero(t, transactions, "no request to an endpoint the server does not list")
	require.Equal(t, 2, tableCommits)
	for _, r := range res {
		require.False(t, r.Together, "%s", r.Table)
		require.NotZero(t, r.SnapshotID)
	}
	require.Equal(t, []string{res[0].CommitID}, snapshotCommits(t, a, "shop.lines"))
	require.Equal(t, []string{res[0].CommitID}, snapshotCommits(t, b, "shop.orders"))
	require.Equal(t, model(logs[0]), readAccounts(t, loadTable(t, a.cat, "shop.lines")))
	require.Equal(t, model(logs[1]), readAccounts(t, loadTable(t, b.cat, "shop.orders")))

	replay, err := commitTogether(ctx, a.cat, a.cfg, tablesPane(t, []*sink{a, b}, blobs))
	require.NoError(t, err)
	for _, r := range replay {
		require.True(t, r.Skipped, "%s", r.Table)
	}
}

func TestCommitTogetherRefusesAppends(t *testing.T) {
	err := Check(Config{Catalog: catalog.Config{URI: "http://x"}, Table: "a.b", CommitTogether: true}, reflect.TypeFor[click]())
	require.ErrorContains(t, err, `not "append"`)
}

// tableBatch is a batch of changes keyed by its table, an element of
// WriteTables.
type tableBatch struct {
	Table string
	Batch []byte
}

func splitTableBatch(tb tableBatch, emit func(string, []byte)) { emit(tb.Table, tb.Batch) }

func init() { register.Function2x0(splitTableBatch) }

// WriteTables with CommitTogether on prism: the pane's two tables land
// under one commit id, in one transaction.
func TestWriteTablesTogether(t *testing.T) {
	via, proxy := txProxied(t, launch(t))
	cfg := func(name string) Config {
		return Config{Catalog: via, Table: name, WriterID: "w", Mode: Changes, Key: []string{"id"}, Op: "op", Order: "lsn", CommitTogether: true}
	}
	logs := changeLog(61, 600, 40, 200)
	p, s := beam.NewPipelineWithRoot()
	in := beam.CreateList(s, []tableBatch{
		{"shop.orders", changeBatch(t, logs[0])}, {"shop.lines", changeBatch(t, logs[1])},
		{"shop.orders", changeBatch(t, logs[2])}, {"shop.other", changeBatch(t, logs[2])},
	})
	res := collect(s, WriteTables(s, []TableRecords{{cfg("shop.orders"), changeSchema}, {cfg("shop.lines"), changeSchema}},
		beam.ParDo(s, splitTableBatch, in)))
	require.NoError(t, ptest.Run(p))
	got := res()
	require.Len(t, got, 2)
	for _, r := range got {
		require.True(t, r.Together, "%s", r.Table)
		require.Equal(t, got[0].CommitID, r.CommitID)
	}
	transactions, tableCommits := proxy.counts()
	require.Equal(t, [2]int{1, 0}, [2]int{transactions, tableCommits})
	cat := openCat(t, via)
	require.Equal(t, model(slices.Concat(logs[0], logs[2])), readAccounts(t, loadTable(t, cat, "shop.orders")))
	require.Equal(t, model(logs[1]), readAccounts(t, loadTable(t, cat, "shop.lines")))
	_, err := cat.LoadTable(context.Background(), []string{"shop", "other"})
	require.Error(t, err, "a table WriteTables was not given is not written")
}
