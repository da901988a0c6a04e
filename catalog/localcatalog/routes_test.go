package localcatalog_test

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// noRedirects is a client that shows a redirect instead of following it:
// the catalog answers every path itself and never redirects.
var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error {
	return http.ErrUseLastResponse
}}

// sendNoRedirect is do without following redirects.
func sendNoRedirect(t *testing.T, method, url, body string) (int, []byte) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	require.NoError(t, err)
	rsp, err := noRedirects.Do(req)
	require.NoError(t, err)
	defer rsp.Body.Close()
	b, err := io.ReadAll(rsp.Body)
	require.NoError(t, err)
	return rsp.StatusCode, b
}

const viewBody = `{"name":"v","schema":{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"id","type":"long","required":false}]},
	"view-version":{"version-id":1,"schema-id":0,"timestamp-ms":1,"summary":{},
	"representations":[{"type":"sql","sql":"select 1","dialect":"spark"}],"default-namespace":["db"]}}`

// TestEndpointsRouted: /v1/config advertises the spec's endpoints, and
// every one it advertises is served, with and without a warehouse prefix.
func TestEndpointsRouted(t *testing.T) {
	ts := httpServer(t)
	status, body := sendNoRedirect(t, "GET", ts.URL+"/v1/config", "")
	require.Equal(t, 200, status, "%s", body)
	var cfg struct {
		Defaults  map[string]string `json:"defaults"`
		Endpoints []string          `json:"endpoints"`
	}
	require.NoError(t, json.Unmarshal(body, &cfg))
	require.Equal(t, []string{
		"GET /v1/{prefix}/namespaces",
		"POST /v1/{prefix}/namespaces",
		"GET /v1/{prefix}/namespaces/{namespace}",
		"HEAD /v1/{prefix}/namespaces/{namespace}",
		"DELETE /v1/{prefix}/namespaces/{namespace}",
		"POST /v1/{prefix}/namespaces/{namespace}/properties",
		"GET /v1/{prefix}/namespaces/{namespace}/tables",
		"POST /v1/{prefix}/namespaces/{namespace}/tables",
		"GET /v1/{prefix}/namespaces/{namespace}/tables/{table}",
		"HEAD /v1/{prefix}/namespaces/{namespace}/tables/{table}",
		"POST /v1/{prefix}/namespaces/{namespace}/tables/{table}",
		"DELETE /v1/{prefix}/namespaces/{namespace}/tables/{table}",
		"POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/metrics",
		"POST /v1/{prefix}/tables/rename",
		"POST /v1/{prefix}/transactions/commit",
		"POST /v1/{prefix}/namespaces/{namespace}/register",
		"GET /v1/{prefix}/namespaces/{namespace}/views",
		"POST /v1/{prefix}/namespaces/{namespace}/views",
		"GET /v1/{prefix}/namespaces/{namespace}/views/{view}",
		"HEAD /v1/{prefix}/namespaces/{namespace}/views/{view}",
		"POST /v1/{prefix}/namespaces/{namespace}/views/{view}",
		"DELETE /v1/{prefix}/namespaces/{namespace}/views/{view}",
		"POST /v1/{prefix}/views/rename",
	}, cfg.Endpoints)

	for _, req := range [][2]string{
		{"/v1/namespaces", `{"namespace":["db"]}`},
		{"/v1/namespaces/db/tables", createBody},
		{"/v1/namespaces/db/views", viewBody},
	} {
		status, body := sendNoRedirect(t, "POST", ts.URL+req[0], req[1])
		require.Equal(t, 200, status, "%s: %s", req[0], body)
	}
	// The default warehouse under its own prefix is the same catalog.
	prefix := "/wh-" + base64.RawURLEncoding.EncodeToString([]byte(cfg.Defaults["warehouse"]))
	for _, p := range []string{"", prefix} {
		for _, e := range cfg.Endpoints {
			method, path, _ := strings.Cut(e, " ")
			// DELETE names what does not exist: the next round needs it.
			table, view := "t", "v"
			if method == "DELETE" {
				table, view = "gone", "gone"
			}
			path = strings.NewReplacer("/{prefix}", p, "{namespace}", "db", "{table}", table, "{view}", view).Replace(path)
			body := ""
			if method == "POST" {
				body = "{}"
			}
			status, got := sendNoRedirect(t, method, ts.URL+path, body)
			if method == "HEAD" {
				require.Equal(t, 204, status, "%s %s", method, path)
				continue
			}
			require.NotEqual(t, 405, status, "%s %s: %s", method, path, got)
			require.Less(t, status, 500, "%s %s: %s", method, path, got)
			if status >= 400 {
				var e restErr
				require.NoError(t, json.Unmarshal(got, &e), "%s %s: %s", method, path, got)
				require.NotEqual(t, "NoSuchEndpointException", e.Error.Type, "%s %s: %s", method, path, got)
			}
		}
	}
}

// TestRoutingEdges pins how paths the spec's clients may send are routed:
// names are path segments escaped one by one (so a table name may hold '/'
// or be "..", and a namespace's levels are joined by %1F), one trailing
// slash is ignored, and nothing is redirected or cleaned.
func TestRoutingEdges(t *testing.T) {
	ts := httpServer(t)
	base := ts.URL + "/v1"
	for _, req := range [][2]string{
		{"/namespaces", `{"namespace":["db"]}`},
		{"/namespaces", `{"namespace":["a","b"]}`},
		{"/namespaces/db/tables", strings.Replace(createBody, `"t"`, `"x/y"`, 1)},
		{"/namespaces/db/tables", strings.Replace(createBody, `"t"`, `"p//q"`, 1)},
	} {
		status, body := sendNoRedirect(t, "POST", base+req[0], req[1])
		require.Equal(t, 200, status, "%s: %s", req[0], body)
	}
	status, body := sendNoRedirect(t, "GET", base+"/namespaces/db/tables", "")
	require.Equal(t, 200, status)
	require.JSONEq(t, `{"identifiers":[{"namespace":["db"],"name":"p//q"},{"namespace":["db"],"name":"x/y"}]}`, string(body))

	for _, c := range []struct {
		method, path string
		status       int
		typ, msg     string // of the error, if any
	}{
		{"GET", "/namespaces/", 200, "", ""},
		{"GET", "/%6Eamespaces", 200, "", ""},
		{"GET", "/namespaces/a%1Fb", 200, "", ""},
		{"GET", "/namespaces/db/tables/x%2Fy", 200, "", ""},
		{"GET", "/namespaces/db/tables/x%2Fy/", 200, "", ""},
		{"HEAD", "/namespaces/db/tables/p%2F%2Fq", 204, "", ""},
		{"GET", "/namespaces/db/tables/x", 404, "NoSuchTableException", "Table does not exist: db.x"},
		{"GET", "/namespaces/db/tables/..", 404, "NoSuchTableException", "Table does not exist: db..."},
		{"GET", "/namespaces/db/tables/.", 404, "NoSuchTableException", "Table does not exist: db.."},
		{"GET", "/namespaces/./tables", 404, "NoSuchNamespaceException", "Namespace does not exist: ."},
		{"GET", "/namespaces/db/tables/%2E%2E", 404, "NoSuchTableException", "Table does not exist: db..."},
		{"GET", "/namespaces//tables", 400, "IllegalArgumentException", "Invalid namespace level: (empty string)"},
		{"GET", "/namespaces/a%1F%1Fb", 400, "IllegalArgumentException", "Invalid namespace level: (empty string)"},
		{"GET", "/namespaces/db/tables//", 400, "IllegalArgumentException", "Invalid table or view name: (empty string)"},
		{"GET", "/namespaces/%00", 400, "IllegalArgumentException", `Invalid namespace level "\x00": control characters are not allowed`},
		{"PUT", "/namespaces/a%00b", 400, "IllegalArgumentException", `Invalid namespace level "a\x00b": control characters are not allowed`},
		{"PUT", "/namespaces/db/tables/t/metrics", 405, "MethodNotAllowedException", "method not allowed"},
		{"POST", "/namespaces/%00/tables/t/metrics", 204, "", ""},
		{"HEAD", "/namespaces", 405, "", ""},
		{"HEAD", "/config", 405, "", ""},
		{"POST", "/config", 405, "MethodNotAllowedException", "method not allowed"},
		{"GET", "//namespaces", 404, "NoSuchEndpointException", "no such endpoint"},
		{"GET", "/namespaces/db/../db", 404, "NoSuchEndpointException", "no such endpoint"},
		{"GET", "/", 404, "NoSuchEndpointException", "no such endpoint"},
		{"GET", "/oauth/tokens", 404, "NoSuchEndpointException", "no such endpoint"},
		{"GET", "/wh-!/namespaces", 404, "NoSuchEndpointException", `no such endpoint: prefix "wh-!"`},
		{"PUT", "/wh-!/nothing", 404, "NoSuchEndpointException", `no such endpoint: prefix "wh-!"`},
		{"GET", "/wh-/config", 404, "NoSuchEndpointException", `no such endpoint: prefix "wh-"`},
	} {
		status, body := sendNoRedirect(t, c.method, base+c.path, "")
		require.Equal(t, c.status, status, "%s %s: %s", c.method, c.path, body)
		if c.typ != "" {
			expectError(t, status, body, c.status, c.typ)
			expectMessage(t, body, c.msg)
		}
	}
	status, _ = sendNoRedirect(t, "GET", ts.URL+"/v1", "")
	require.Equal(t, 404, status)
}
