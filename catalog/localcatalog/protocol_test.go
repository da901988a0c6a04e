package localcatalog_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/catalog/localcatalog"
	"github.com/icebeam/icebeam/internal/syncbuf"
)

// httpServer mounts the exported Handler on httptest, the way an embedding
// program would.
func httpServer(t *testing.T) *httptest.Server {
	t.Helper()
	h, err := localcatalog.Open(localcatalog.Options{Dir: t.TempDir()})
	require.NoError(t, err)
	ts := httptest.NewServer(h)
	t.Cleanup(func() {
		ts.Close()
		require.NoError(t, h.Close())
	})
	return ts
}

type restErr struct {
	Error struct {
		Message string `json:"message"`
		Type    string `json:"type"`
		Code    int    `json:"code"`
	} `json:"error"`
}

// do sends one request and returns status and body.
func do(t *testing.T, method, url, body string, hdr ...string) (int, []byte) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	require.NoError(t, err)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	rsp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer rsp.Body.Close()
	b, err := io.ReadAll(rsp.Body)
	require.NoError(t, err)
	return rsp.StatusCode, b
}

// expectError checks the REST error model: status, type and code agree.
func expectError(t *testing.T, status int, body []byte, wantStatus int, wantType string) {
	t.Helper()
	require.Equal(t, wantStatus, status, "body: %s", body)
	var e restErr
	require.NoError(t, json.Unmarshal(body, &e), "body: %s", body)
	require.Equal(t, wantType, e.Error.Type, "body: %s", body)
	require.Equal(t, wantStatus, e.Error.Code)
	require.NotEmpty(t, e.Error.Message)
}

// expectMessage checks an error's text, which must read as the reference
// catalog's (Iceberg 1.10's JdbcCatalog behind its REST adapter) does.
func expectMessage(t *testing.T, body []byte, want string) {
	t.Helper()
	var e restErr
	require.NoError(t, json.Unmarshal(body, &e), "body: %s", body)
	require.Equal(t, want, e.Error.Message)
}

const createBody = `{"name":"t","schema":{"type":"struct","schema-id":0,"fields":[
	{"id":1,"name":"id","type":"long","required":true}]}}`

func TestProtocol(t *testing.T) {
	ts := httpServer(t)
	base := ts.URL + "/v1"

	// Config names the warehouse and advertises the HEAD endpoints.
	status, body := do(t, "GET", base+"/config", "")
	require.Equal(t, 200, status)
	var cfg struct {
		Defaults  map[string]string `json:"defaults"`
		Overrides map[string]string `json:"overrides"`
		Endpoints []string          `json:"endpoints"`
	}
	require.NoError(t, json.Unmarshal(body, &cfg))
	require.True(t, strings.HasPrefix(cfg.Defaults["warehouse"], "file:///"), cfg.Defaults)
	require.Contains(t, cfg.Endpoints, "HEAD /v1/{prefix}/namespaces/{namespace}/tables/{table}")
	status, body = do(t, "GET", base+"/config?warehouse=s3x://nowhere", "")
	expectError(t, status, body, 400, "BadRequestException")

	status, body = do(t, "POST", base+"/namespaces", `{"namespace":["db"],"properties":{"k":"v"}}`)
	require.Equal(t, 200, status, "%s", body)
	status, body = do(t, "POST", base+"/namespaces", `{"namespace":["db"]}`)
	expectError(t, status, body, 409, "AlreadyExistsException")
	status, body = do(t, "POST", base+"/namespaces", `{"namespace":`)
	expectError(t, status, body, 400, "BadRequestException")
	status, body = do(t, "POST", base+"/namespaces", `{"namespace":[]}`)
	expectError(t, status, body, 400, "IllegalArgumentException")
	// Names no catalog could store or place are a 400, not a 500 or a
	// silently changed name.
	for _, bad := range []string{`["a\u0000b"]`, `["c\u0000"]`, `["` + strings.Repeat("n", 256) + `"]`, `["ok",""]`} {
		status, body = do(t, "POST", base+"/namespaces", `{"namespace":`+bad+`}`)
		expectError(t, status, body, 400, "IllegalArgumentException")
	}
	status, body = do(t, "GET", base+"/namespaces/a%00b", "")
	expectError(t, status, body, 400, "IllegalArgumentException")
	status, _ = do(t, "HEAD", base+"/namespaces/db", "")
	require.Equal(t, 204, status)
	status, _ = do(t, "HEAD", base+"/namespaces/nope", "")
	require.Equal(t, 404, status)
	status, body = do(t, "GET", base+"/namespaces/nope", "")
	expectError(t, status, body, 404, "NoSuchNamespaceException")
	status, body = do(t, "POST", base+"/namespaces/db/properties", `{"removals":["k"],"updates":{"k":"x"}}`)
	expectError(t, status, body, 422, "UnprocessableEntityException")
	status, body = do(t, "POST", base+"/namespaces/db/properties", `{"removals":["k","missing"],"updates":{"n":"1"}}`)
	require.Equal(t, 200, status, "%s", body)
	require.JSONEq(t, `{"removed":["k"],"updated":["n"],"missing":["missing"]}`, string(body))

	status, body = do(t, "POST", base+"/namespaces/db/tables", createBody)
	require.Equal(t, 200, status, "%s", body)
	var created struct {
		MetadataLocation string          `json:"metadata-location"`
		Metadata         json.RawMessage `json:"metadata"`
		Config           map[string]string
	}
	require.NoError(t, json.Unmarshal(body, &created))
	require.Contains(t, created.MetadataLocation, "/db.db/t/metadata/00000-")
	status, body = do(t, "POST", base+"/namespaces/db/tables", createBody)
	expectError(t, status, body, 409, "AlreadyExistsException")
	expectMessage(t, body, "Table already exists: db.t")
	status, body = do(t, "POST", base+"/namespaces/nope/tables", createBody)
	expectError(t, status, body, 404, "NoSuchNamespaceException")
	expectMessage(t, body, "Namespace does not exist: nope")
	status, body = do(t, "POST", base+"/namespaces/db/tables", `{"name":"noschema"}`)
	expectError(t, status, body, 400, "IllegalArgumentException")
	status, body = do(t, "GET", base+"/namespaces/db/tables/missing", "")
	expectError(t, status, body, 404, "NoSuchTableException")
	expectMessage(t, body, "Table does not exist: db.missing")
	status, _ = do(t, "HEAD", base+"/namespaces/db/tables/t", "")
	require.Equal(t, 204, status)

	// A failed requirement is a 409 CommitFailedException and changes nothing.
	status, body = do(t, "POST", base+"/namespaces/db/tables/t", `{"requirements":[
		{"type":"assert-table-uuid","uuid":"00000000-0000-0000-0000-000000000001"}],
		"updates":[{"action":"set-properties","updates":{"x":"1"}}]}`)
	expectError(t, status, body, 409, "CommitFailedException")
	require.Contains(t, string(body), `"Requirement failed: UUID does not match: expected `)
	require.Contains(t, string(body), ` != 00000000-0000-0000-0000-000000000001"`)
	status, body = do(t, "POST", base+"/namespaces/db/tables/t", `{"requirements":[],"updates":[{"action":"no-such-action"}]}`)
	expectError(t, status, body, 400, "BadRequestException")
	status, body = do(t, "POST", base+"/namespaces/db/tables/t", `{"requirements":[],
		"updates":[{"action":"set-current-schema","schema-id":42}]}`)
	expectError(t, status, body, 400, "IllegalArgumentException")
	status, body = do(t, "POST", base+"/namespaces/db/tables/missing", `{"requirements":[],"updates":[]}`)
	expectError(t, status, body, 404, "NoSuchTableException")
	status, body = do(t, "POST", base+"/namespaces/db/tables/t", `{"identifier":{"namespace":["db"],"name":"other"},"requirements":[],"updates":[]}`)
	expectError(t, status, body, 400, "BadRequestException")
	status, body = do(t, "GET", base+"/namespaces/db/tables/t", "")
	require.Equal(t, 200, status)
	var loaded struct {
		MetadataLocation string `json:"metadata-location"`
		Metadata         struct {
			Properties map[string]string `json:"properties"`
		} `json:"metadata"`
	}
	require.NoError(t, json.Unmarshal(body, &loaded))
	require.Equal(t, created.MetadataLocation, loaded.MetadataLocation)
	require.NotContains(t, loaded.Metadata.Properties, "x")

	status, body = do(t, "POST", base+"/namespaces/db/tables/t", `{"requirements":[],
		"updates":[{"action":"set-properties","updates":{"x":"1"}}]}`)
	require.Equal(t, 200, status, "%s", body)
	require.Contains(t, string(body), `"metadata-location":"`)
	require.Contains(t, string(body), `/db.db/t/metadata/00001-`)

	// Pagination of table listings.
	for _, n := range []string{"u", "v"} {
		status, body = do(t, "POST", base+"/namespaces/db/tables", strings.Replace(createBody, `"t"`, `"`+n+`"`, 1))
		require.Equal(t, 200, status, "%s", body)
	}
	status, body = do(t, "GET", base+"/namespaces/db/tables?pageSize=2", "")
	require.Equal(t, 200, status)
	require.JSONEq(t, `{"identifiers":[{"namespace":["db"],"name":"t"},{"namespace":["db"],"name":"u"}],"next-page-token":"2"}`, string(body))
	status, body = do(t, "GET", base+"/namespaces/db/tables?pageSize=2&pageToken=2", "")
	require.Equal(t, 200, status)
	require.JSONEq(t, `{"identifiers":[{"namespace":["db"],"name":"v"}]}`, string(body))

	status, body = do(t, "DELETE", base+"/namespaces/db", "")
	expectError(t, status, body, 409, "NamespaceNotEmptyException")
	status, body = do(t, "GET", base+"/nothing/here", "")
	expectError(t, status, body, 404, "NoSuchEndpointException")
	status, body = do(t, "PUT", base+"/namespaces", "")
	expectError(t, status, body, 405, "MethodNotAllowedException")
	status, body = do(t, "POST", base+"/namespaces/db/tables/t/metrics", `{"report-type":"scan-report"}`)
	require.Equal(t, 204, status, "%s", body)
}

// TestRequestLog: one debug line per request, never the Authorization header.
func TestRequestLog(t *testing.T) {
	var buf syncbuf.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	t.Cleanup(func() { slog.SetDefault(prev) })

	ts := httpServer(t)
	const secret = "Bearer sekrit-token-123"
	do(t, "GET", ts.URL+"/v1/config", "", "Authorization", secret)
	do(t, "GET", ts.URL+"/v1/namespaces/nope", "", "Authorization", secret)
	out := buf.String()
	require.NotContains(t, out, "sekrit")
	require.Equal(t, 2, strings.Count(out, "msg=localcatalog "), out)
	require.Contains(t, out, "status=404")
	require.Equal(t, 2, strings.Count(strings.TrimSpace(out), "\n")+1, out)

	// At the default level nothing is logged for requests.
	buf.Reset()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, nil)))
	do(t, "GET", ts.URL+"/v1/config", "")
	require.Empty(t, buf.String())
}

// TestUnusableMetadataRefused: what iceberg-go's metadata builder lets
// through but no reader could use is a 400, and changes nothing.
func TestUnusableMetadataRefused(t *testing.T) {
	ts := httpServer(t)
	base := ts.URL + "/v1"
	status, body := do(t, "POST", base+"/namespaces", `{"namespace":["db"]}`)
	require.Equal(t, 200, status, "%s", body)
	status, body = do(t, "POST", base+"/namespaces/db/tables", createBody)
	require.Equal(t, 200, status, "%s", body)
	for name, update := range map[string]string{
		"negative field id":   `{"action":"add-schema","schema":{"type":"struct","schema-id":1,"fields":[{"id":-5,"name":"x","type":"long","required":false}]}}`,
		"bucket[-3]":          `{"action":"add-spec","spec":{"spec-id":1,"fields":[{"source-id":1,"field-id":1000,"name":"b","transform":"bucket[-3]"}]}}`,
		"2 MiB of properties": `{"action":"set-properties","updates":{"a":"` + strings.Repeat("x", 1<<20) + `","b":"` + strings.Repeat("y", 1<<20) + `"}}`,
		"invented manifest list": `{"action":"add-snapshot","snapshot":{"snapshot-id":7,"sequence-number":1,"timestamp-ms":1,
			"manifest-list":"` + filepath.ToSlash(filepath.Join(t.TempDir(), "snap-7.avro")) + `","summary":{"operation":"append"},"schema-id":0}}`,
	} {
		status, body := do(t, "POST", base+"/namespaces/db/tables/t", `{"requirements":[],"updates":[`+update+`]}`)
		if status != 400 && status != 403 {
			t.Errorf("%s: status %d, want 400 or 403: %s", name, status, body)
		}
	}
	status, body = do(t, "GET", base+"/namespaces/db/tables/t", "")
	require.Equal(t, 200, status)
	require.Contains(t, string(body), `"metadata-location"`)
	require.NotContains(t, string(body), `"snapshot-id":7`)
}

// TestRequestBodiesBounded: a body over 8 MiB is refused (413) without
// being read whole, and while two 8 MiB bodies are in flight a third large
// request waits, then gets 503 with Retry-After instead of growing the
// server's memory; small requests go on being served.
func TestRequestBodiesBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the server's 15 s queue limit")
	}
	ts := httpServer(t)
	base := ts.URL + "/v1"
	status, body := do(t, "POST", base+"/namespaces", `{"namespace":["db"],"properties":{"x":"`+strings.Repeat("y", 9<<20)+`"}}`)
	require.Equal(t, 413, status, "%s", body[:min(len(body), 200)])

	// Two requests whose 8 MiB bodies never finish arriving hold the budget.
	var writers []*io.PipeWriter
	for range 2 {
		pr, pw := io.Pipe()
		writers = append(writers, pw)
		req, err := http.NewRequest("POST", base+"/namespaces", pr)
		require.NoError(t, err)
		req.ContentLength = 8 << 20
		go func() {
			if rsp, err := http.DefaultClient.Do(req); err == nil {
				rsp.Body.Close()
			}
		}()
		_, err = pw.Write([]byte(`{"namespace":["slow"],"properties":{"x":"`))
		require.NoError(t, err)
	}
	t.Cleanup(func() {
		for _, pw := range writers {
			pw.CloseWithError(io.ErrUnexpectedEOF)
		}
	})
	status, _ = do(t, "GET", base+"/namespaces", "")
	require.Equal(t, 200, status, "a request without a body must not wait")
	req, err := http.NewRequest("POST", base+"/namespaces", strings.NewReader(`{"namespace":["third"]}`+strings.Repeat(" ", 5<<20)))
	require.NoError(t, err)
	rsp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	b, _ := io.ReadAll(rsp.Body)
	rsp.Body.Close()
	require.Equal(t, 503, rsp.StatusCode, "%s", b)
	require.Equal(t, "5", rsp.Header.Get("Retry-After"))
	require.Contains(t, string(b), "ServiceUnavailableException")
}
