package webui_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/catalog/localcatalog"
	"github.com/icebeam/icebeam/catalog/webui"
	"github.com/icebeam/icebeam/internal/tabletest"
)

var schema = iceberg.NewSchemaWithIdentifiers(0, []int{1},
	iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.PrimitiveTypes.Int64, Required: true},
	iceberg.NestedField{ID: 2, Name: "category", Type: iceberg.PrimitiveTypes.String},
	iceberg.NestedField{ID: 3, Name: "word", Type: iceberg.PrimitiveTypes.String},
)

// rows makes rows with ids [from, to): category "c<id%2>", word "w<id>".
func rows(from, to int) arrow.Table {
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "category", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "word", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	for i := from; i < to; i++ {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		b.Field(1).(*array.StringBuilder).Append("c" + strconv.Itoa(i%2))
		b.Field(2).(*array.StringBuilder).Append("w" + strconv.Itoa(i))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	return array.NewTableFromRecords(sc, []arrow.RecordBatch{rec})
}

// appendRows commits ids [from, to) as the sink would, with its summary
// entries, and returns the table after the commit.
func appendRows(t *testing.T, tbl *table.Table, from, to int) *table.Table {
	t.Helper()
	at := rows(from, to)
	defer at.Release()
	sent := time.Now().Add(-1500 * time.Millisecond).UnixMilli()
	tbl, err := tbl.AppendTable(context.Background(), at, 100, iceberg.Properties{
		"icebeam.commit-id":       "writer-" + strconv.Itoa(from) + "/pane" + strconv.Itoa(to),
		"icebeam.batches-sent-ms": fmt.Sprintf("%d-%d", sent-100, sent),
		"icebeam.pane-timing":     "early",
	})
	require.NoError(t, err)
	return tbl
}

// fixture is the embedded catalog with db.events (two appends) and the UI
// over real HTTP, behind the guard as icebeam ui serves it.
type fixture struct {
	cat icecatalog.Catalog
	tbl *table.Table
	url string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	return newWrappedFixture(t, nil)
}

// newWrappedFixture is newFixture with the UI's handler wrapped by wrap
// (when not nil), which gets the fixture too.
func newWrappedFixture(t *testing.T, wrap func(*fixture, http.Handler) http.Handler) *fixture {
	t.Helper()
	ctx := context.Background()
	cfg, cat := tabletest.Catalog(t)
	require.NoError(t, cat.CreateNamespace(ctx, table.Identifier{"db"}, nil))
	spec := iceberg.NewPartitionSpec(iceberg.PartitionField{SourceIDs: []int{2}, FieldID: 1000, Name: "category", Transform: iceberg.IdentityTransform{}})
	tbl, err := cat.CreateTable(ctx, table.Identifier{"db", "events"}, schema,
		icecatalog.WithPartitionSpec(&spec), icecatalog.WithProperties(iceberg.Properties{"owner": "ops-team"}))
	require.NoError(t, err)
	tbl = appendRows(t, tbl, 0, 4)
	tbl = appendRows(t, tbl, 4, 7)
	h, err := localcatalog.Guard(webui.New(webui.Options{
		Open:        func(context.Context) (icecatalog.Catalog, error) { return cat, nil },
		CatalogURI:  cfg.URI,
		CatalogName: "lakehouse",
		Poll:        time.Second,
	}), "127.0.0.1", localcatalog.Options{})
	require.NoError(t, err)
	f := &fixture{cat: cat, tbl: tbl}
	if wrap != nil {
		h = wrap(f, h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	f.url = srv.URL
	return f
}

func get(t *testing.T, url string) (*http.Response, string) {
	t.Helper()
	rsp, err := http.Get(url)
	require.NoError(t, err)
	defer rsp.Body.Close()
	b, err := io.ReadAll(rsp.Body)
	require.NoError(t, err)
	return rsp, string(b)
}

func TestUIPages(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()

	rsp, body := get(t, f.url+"/")
	require.Equal(t, http.StatusOK, rsp.StatusCode, body)
	csp := rsp.Header.Get("Content-Security-Policy")
	require.Contains(t, csp, "default-src 'none'")
	require.Contains(t, csp, "script-src 'self'")
	require.NotContains(t, csp, "unsafe-inline")
	require.Contains(t, body, `href="/ui/tables/db/events"`)
	require.Contains(t, body, `href="/ui/ns/db"`)
	require.NotRegexp(t, `<script>|<style|style=`, body, "the CSP allows no inline script or style")

	rsp, body = get(t, f.url+"/ui/ns/db")
	require.Equal(t, http.StatusOK, rsp.StatusCode, body)
	require.Contains(t, body, `href="/ui/tables/db/events"`)

	// What the page must show, from the catalog through iceberg-go, not
	// from the UI's code.
	loaded, err := f.cat.LoadTable(ctx, table.Identifier{"db", "events"})
	require.NoError(t, err)
	rsp, body = get(t, f.url+"/ui/tables/db/events")
	require.Equal(t, http.StatusOK, rsp.StatusCode, body)
	require.NotEmpty(t, rsp.Header.Get("Content-Security-Policy"))
	require.NotRegexp(t, `<script>|<style|style=`, body)
	require.Contains(t, body, `<script src="/ui/static/live.js" defer></script>`)
	for _, fld := range loaded.Schema().Fields() {
		require.Regexp(t, fmt.Sprintf(`<td class="n">%d</td><th scope="row">%s</th>`, fld.ID, fld.Name), body)
	}
	require.Contains(t, body, "identifier")
	require.Len(t, loaded.Metadata().Snapshots(), 2)
	for _, s := range loaded.Metadata().Snapshots() {
		require.Contains(t, body, `data-id="`+strconv.FormatInt(s.SnapshotID, 10)+`"`)
	}
	require.Contains(t, body, "writer-4/pane7")
	require.Contains(t, body, "ops-team")
	require.Contains(t, body, "category=c0")
	// The preview shows every appended row.
	for i := range 7 {
		require.Contains(t, body, "<td>w"+strconv.Itoa(i)+"</td>")
	}
	require.Contains(t, body, "icebeam scan db.events")
	require.Contains(t, body, "load_table(&#34;db.events&#34;)")

	// At the first snapshot, the preview has its rows only.
	first := loaded.Metadata().Snapshots()[0].SnapshotID
	_, body = get(t, f.url+"/ui/tables/db/events?snapshot="+strconv.FormatInt(first, 10))
	require.Contains(t, body, "<td>w3</td>")
	require.NotContains(t, body, "<td>w4</td>")
	_, body = get(t, f.url+"/ui/tables/db/events?ref=main")
	require.Contains(t, body, "<td>w6</td>")

	// Live: a snapshot committed after the page was rendered comes from
	// the poll endpoint.
	last := loaded.CurrentSnapshot().SnapshotID
	after := appendRows(t, f.tbl, 7, 9).CurrentSnapshot().SnapshotID
	rsp, body = get(t, f.url+"/ui/api/tables/db/events/snapshots?after="+strconv.FormatInt(last, 10))
	require.Equal(t, http.StatusOK, rsp.StatusCode, body)
	require.Equal(t, "application/json", rsp.Header.Get("Content-Type"))
	var got struct {
		Snapshots []struct {
			ID        string `json:"id"`
			AddedRows string `json:"added_rows"`
			Writer    string `json:"writer"`
			LatencyMs int64  `json:"latency_ms"`
		} `json:"snapshots"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &got))
	require.Len(t, got.Snapshots, 1, body)
	require.Equal(t, strconv.FormatInt(after, 10), got.Snapshots[0].ID)
	require.Equal(t, "2", got.Snapshots[0].AddedRows)
	require.Equal(t, "writer-7", got.Snapshots[0].Writer)
	require.GreaterOrEqual(t, got.Snapshots[0].LatencyMs, int64(1000))

	// Assets are served from the UI's origin.
	for _, a := range []string{"/ui/static/live.js", "/ui/static/style.css"} {
		rsp, body = get(t, f.url+a)
		require.Equal(t, http.StatusOK, rsp.StatusCode, a)
		require.NotEmpty(t, body, a)
	}
	rsp, _ = get(t, f.url+"/ui/static/table.html")
	require.Equal(t, http.StatusNotFound, rsp.StatusCode, "templates are not served")
}

func TestUINotFoundAndReadOnly(t *testing.T) {
	f := newFixture(t)
	rsp, body := get(t, f.url+"/ui/tables/db/nope")
	require.Equal(t, http.StatusNotFound, rsp.StatusCode)
	require.Contains(t, body, "db.nope does not exist")
	require.NotEmpty(t, rsp.Header.Get("Content-Security-Policy"))
	rsp, body = get(t, f.url+"/ui/ns/nowhere")
	require.Equal(t, http.StatusNotFound, rsp.StatusCode)
	require.Contains(t, body, "nowhere does not exist")
	rsp, _ = get(t, f.url+"/ui/api/tables/db/nope/snapshots")
	require.Equal(t, http.StatusNotFound, rsp.StatusCode)
	rsp, _ = get(t, f.url+"/elsewhere")
	require.Equal(t, http.StatusNotFound, rsp.StatusCode)

	rsp, err := http.Post(f.url+"/ui/tables/db/events", "application/json", strings.NewReader("{}"))
	require.NoError(t, err)
	rsp.Body.Close()
	require.Equal(t, http.StatusMethodNotAllowed, rsp.StatusCode)

	// The guard refuses pages reached through a rebound DNS name.
	req, err := http.NewRequest("GET", f.url+"/", nil)
	require.NoError(t, err)
	req.Host = "evil.example"
	rsp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	rsp.Body.Close()
	require.Equal(t, http.StatusForbidden, rsp.StatusCode)

	// Names are escaped, not interpreted.
	_, body = get(t, f.url+"/ui/tables/db/%3Cb%3Ex")
	require.NotContains(t, body, "<b>x")
	require.True(t, regexp.MustCompile(`&lt;b&gt;x`).MatchString(body), body)
}

func TestUIDeleteFiles(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	tbl, err := f.cat.CreateTable(ctx, table.Identifier{"db", "accounts"}, schema,
		icecatalog.WithProperties(iceberg.Properties{table.PropertyFormatVersion: "3", table.WriteDeleteModeKey: table.WriteModeMergeOnRead}))
	require.NoError(t, err)
	tbl = appendRows(t, tbl, 0, 20)
	tx := tbl.NewTransaction()
	require.NoError(t, tx.Delete(ctx, iceberg.IsIn(iceberg.Reference("id"), int64(3), int64(7)), nil))
	tbl, err = tx.Commit(ctx)
	require.NoError(t, err)
	require.Equal(t, "1", tbl.CurrentSnapshot().Summary.Properties["added-delete-files"])

	rsp, body := get(t, f.url+"/ui/tables/db/accounts")
	require.Equal(t, http.StatusOK, rsp.StatusCode, body)
	// One data file of 20 rows, and the deletion vector that applies to it.
	require.Regexp(t, `\(unpartitioned\)</code></th><td class="n">1</td><td class="n">20</td><td class="n">\d+</td>\s*`+
		`<td class="n">0</td><td class="n">0</td><td class="n">1</td>`, body)
	// The timeline counts the delete file; the preview applies it.
	require.Contains(t, body, `data-id="`+strconv.FormatInt(tbl.CurrentSnapshot().SnapshotID, 10)+`"`)
	require.Contains(t, body, "<td>w19</td>")
	require.NotContains(t, body, "<td>w3</td>")
	require.NotContains(t, body, "<td>w7</td>")
}

// TestUISortOrderAndIdentifiers: the table page shows a keyed table's
// identifier fields and its sort order, field by field.
func TestUISortOrderAndIdentifiers(t *testing.T) {
	f := newFixture(t)
	order, err := table.NewSortOrder(1, []table.SortField{
		{SourceIDs: []int{3}, Transform: iceberg.IdentityTransform{}, Direction: table.SortDESC, NullOrder: table.NullsLast},
		{SourceIDs: []int{1}, Transform: iceberg.BucketTransform{NumBuckets: 4}, Direction: table.SortASC, NullOrder: table.NullsFirst},
	})
	require.NoError(t, err)
	_, err = f.cat.CreateTable(context.Background(), table.Identifier{"db", "keyed"}, schema, icecatalog.WithSortOrder(order))
	require.NoError(t, err)

	rsp, body := get(t, f.url+"/ui/tables/db/keyed")
	require.Equal(t, http.StatusOK, rsp.StatusCode, body)
	require.Contains(t, body, `Sort order <span class="note">(id 1)</span>`)
	require.Contains(t, body, "<ol><li><code>identity(word) desc nulls-last</code></li><li><code>bucket[4](id) asc nulls-first</code></li></ol>")
	require.Regexp(t, `<th scope="row">id</th><td><code>long</code></td><td>required</td><td>identifier</td>`, body)
	require.Regexp(t, `<th scope="row">word</th><td><code>string</code></td><td>optional</td><td></td>`, body)

	_, body = get(t, f.url+"/ui/tables/db/events")
	require.Contains(t, body, "<p>Unsorted.</p>")
}
