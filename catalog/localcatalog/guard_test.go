package localcatalog_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/catalog/localcatalog"
)

// browse sends one request as a browser (or an attacker's page in one)
// would: hdr are header name/value pairs, "Host" among them setting the
// Host the request is addressed to while it still goes to u's address.
func browse(t *testing.T, method, u, body string, hdr ...string) authResponse {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, u, rd)
	require.NoError(t, err)
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i] == "Host" {
			req.Host = hdr[i+1]
		} else {
			req.Header.Set(hdr[i], hdr[i+1])
		}
	}
	rsp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer rsp.Body.Close()
	b, err := io.ReadAll(rsp.Body)
	require.NoError(t, err)
	return authResponse{rsp.StatusCode, rsp.Header, b}
}

// requireRefused checks a refusal in the REST error model whose message
// holds each of want.
func requireRefused(t *testing.T, r authResponse, status int, typ string, want ...string) {
	t.Helper()
	require.Equal(t, status, r.status, "body: %s", r.body)
	var e restErr
	require.NoError(t, json.Unmarshal(r.body, &e), "body: %s", r.body)
	require.Equal(t, typ, e.Error.Type, "body: %s", r.body)
	require.Equal(t, status, e.Error.Code)
	for _, w := range want {
		require.Contains(t, e.Error.Message, w)
	}
}

// namespaces lists the catalog's namespaces as a Go client would, dotted
// and sorted.
func namespaces(t *testing.T, srv *localcatalog.Server) []string {
	t.Helper()
	r := browse(t, "GET", srv.URL()+"/v1/namespaces", "")
	require.Equal(t, http.StatusOK, r.status, "body: %s", r.body)
	var list struct{ Namespaces [][]string }
	require.NoError(t, json.Unmarshal(r.body, &list), "body: %s", r.body)
	out := []string{}
	for _, ns := range list.Namespaces {
		out = append(out, strings.Join(ns, "."))
	}
	slices.Sort(out)
	return out
}

// hostOf is the host:port of a server's URL.
func hostOf(t *testing.T, srv *localcatalog.Server) string {
	t.Helper()
	u, err := url.Parse(srv.URL())
	require.NoError(t, err)
	return u.Host
}

// TestCrossSiteFormPostRefused is the attack: what any web page can
// send to 127.0.0.1 without a preflight (a POST with a text/plain body, or
// an untyped Blob, and its Origin) creates nothing.
func TestCrossSiteFormPostRefused(t *testing.T) {
	srv := startServer(t, t.TempDir())
	ns := srv.URL() + "/v1/namespaces"
	const body = `{"namespace":["pwned"]}`

	r := browse(t, "POST", ns, body, "Content-Type", "text/plain", "Origin", "http://evil.example")
	requireRefused(t, r, http.StatusForbidden, "ForbiddenException", `"http://evil.example"`, "--allowed_origins=http://evil.example")
	// A browser that sends no Origin: the body type alone refuses it.
	r = browse(t, "POST", ns, body, "Content-Type", "text/plain;charset=UTF-8")
	requireRefused(t, r, http.StatusUnsupportedMediaType, "BadRequestException", `"text/plain;charset=UTF-8"`, "application/json")
	r = browse(t, "POST", ns, body) // fetch() with a Blob body sends no Content-Type
	requireRefused(t, r, http.StatusUnsupportedMediaType, "BadRequestException", "no Content-Type")
	r = browse(t, "POST", ns, body, "Content-Type", "application/x-www-form-urlencoded")
	requireRefused(t, r, http.StatusUnsupportedMediaType, "BadRequestException", "application/x-www-form-urlencoded")
	// So is any other path, a warehouse prefix's or the token endpoint's.
	r = browse(t, "POST", srv.URL()+"/v1/wh-x/namespaces", body, "Content-Type", "text/plain", "Origin", "http://evil.example")
	requireRefused(t, r, http.StatusForbidden, "ForbiddenException")
	r = browse(t, "POST", srv.URL()+"/v1/wh-x/namespaces", body, "Content-Type", "text/plain")
	requireRefused(t, r, http.StatusUnsupportedMediaType, "BadRequestException")

	require.Empty(t, namespaces(t, srv))
	r = browse(t, "HEAD", ns+"/pwned", "")
	require.Equal(t, http.StatusNotFound, r.status)
}

// TestCrossOriginJSONRefused: a change from a web page of another origin is
// refused even with the right body type (which a page could send through
// a misconfigured proxy or a browser bug), and so is one the browser marks
// cross-site or same-site, or from an opaque origin.
func TestCrossOriginJSONRefused(t *testing.T) {
	srv := startServer(t, t.TempDir())
	ns := srv.URL() + "/v1/namespaces"
	const body = `{"namespace":["pwned"]}`
	require.Equal(t, http.StatusOK, browse(t, "POST", ns, `{"namespace":["db"]}`, "Content-Type", "application/json").status)

	for _, hdr := range [][]string{
		{"Origin", "http://evil.example"},
		{"Origin", "http://localhost:3000"}, // another local server's page
		{"Origin", "https://" + hostOf(t, srv)},
		{"Origin", "null"},
		{"Sec-Fetch-Site", "cross-site"},
		{"Sec-Fetch-Site", "same-site", "Origin", "http://localhost:3000"},
	} {
		r := browse(t, "POST", ns, body, append([]string{"Content-Type", "application/json"}, hdr...)...)
		requireRefused(t, r, http.StatusForbidden, "ForbiddenException", hdr[1])
		r = browse(t, "DELETE", ns+"/db", "", hdr...)
		requireRefused(t, r, http.StatusForbidden, "ForbiddenException")
		r = browse(t, "POST", ns+"/db/properties", `{"updates":{"k":"v"}}`, append([]string{"Content-Type", "application/json"}, hdr...)...)
		requireRefused(t, r, http.StatusForbidden, "ForbiddenException")
	}
	require.Equal(t, []string{"db"}, namespaces(t, srv))
	r := browse(t, "GET", ns+"/db", "")
	require.Equal(t, http.StatusOK, r.status, "body: %s", r.body)
	require.JSONEq(t, `{"namespace":["db"],"properties":{}}`, string(r.body))

	// Reads are not refused for their Origin: without CORS headers the
	// page cannot see the answer.
	r = browse(t, "GET", ns, "", "Origin", "http://evil.example", "Sec-Fetch-Site", "cross-site")
	require.Equal(t, http.StatusOK, r.status, "body: %s", r.body)
}

// TestForeignHostRefused is DNS rebinding: a page whose name now resolves
// to 127.0.0.1 still sends its own name as Host, and gets neither the
// catalog's contents nor a change in.
func TestForeignHostRefused(t *testing.T) {
	srv := startServer(t, t.TempDir())
	ns := srv.URL() + "/v1/namespaces"
	require.Equal(t, http.StatusOK, browse(t, "POST", ns, `{"namespace":["secret_db"]}`, "Content-Type", "application/json").status)
	_, port, _ := strings.Cut(hostOf(t, srv), ":")

	for _, host := range []string{"evil.example:" + port, "evil.example", "EVIL.example.:" + port,
		"127.0.0.1.evil.example:" + port, "localhost.evil.example:" + port} {
		r := browse(t, "GET", ns, "", "Host", host)
		requireRefused(t, r, http.StatusForbidden, "ForbiddenException", host, "--allowed_hosts=")
		require.NotContains(t, string(r.body), "secret_db")
		r = browse(t, "GET", srv.URL()+"/v1/config", "", "Host", host)
		requireRefused(t, r, http.StatusForbidden, "ForbiddenException")
		// Same-origin to the rebound page: Origin matches Host.
		r = browse(t, "POST", ns, `{"namespace":["pwned"]}`, "Host", host, "Content-Type", "application/json",
			"Origin", "http://"+host)
		requireRefused(t, r, http.StatusForbidden, "ForbiddenException", host)
	}
	require.Equal(t, []string{"secret_db"}, namespaces(t, srv))

	// Addresses and loopback names no one can rebind are served.
	for _, host := range []string{"127.0.0.1:" + port, "[::1]:" + port, "10.0.0.7", "localhost:" + port,
		"LocalHost.:" + port, "catalog.localhost:" + port} {
		r := browse(t, "GET", ns, "", "Host", host)
		require.Equal(t, http.StatusOK, r.status, "%s: %s", host, r.body)
		require.JSONEq(t, `{"namespaces":[["secret_db"]]}`, string(r.body), host)
	}
}

// TestAllowedHostsAndOrigins: names and origins the operator allows are
// served, a page of an allowed origin may change the catalog, and the
// host of the listen address is allowed without being listed.
func TestAllowedHostsAndOrigins(t *testing.T) {
	srv := authServer(t, localcatalog.Options{
		AllowedHosts:   []string{"catalog.example", ".corp.example", "*.lan"},
		AllowedOrigins: []string{"https://ui.example", "HTTP://Tool.Example:80"},
	})
	ns := srv.URL() + "/v1/namespaces"
	_, port, _ := strings.Cut(hostOf(t, srv), ":")
	for _, host := range []string{"catalog.example:" + port, "Catalog.Example", "corp.example", "a.b.corp.example:" + port, "box.lan"} {
		r := browse(t, "GET", ns, "", "Host", host)
		require.Equal(t, http.StatusOK, r.status, "%s: %s", host, r.body)
	}
	for _, host := range []string{"other.example", "xcorp.example", "catalog.example.evil", "lan.evil"} {
		requireRefused(t, browse(t, "GET", ns, "", "Host", host), http.StatusForbidden, "ForbiddenException", host)
	}

	r := browse(t, "POST", ns, `{"namespace":["from_ui"]}`, "Content-Type", "application/json",
		"Origin", "https://ui.example", "Sec-Fetch-Site", "cross-site")
	require.Equal(t, http.StatusOK, r.status, "body: %s", r.body)
	r = browse(t, "POST", ns, `{"namespace":["from_tool"]}`, "Content-Type", "application/json",
		"Origin", "http://tool.example", "Host", "catalog.example:"+port)
	require.Equal(t, http.StatusOK, r.status, "body: %s", r.body)
	r = browse(t, "POST", ns, `{"namespace":["from_http_ui"]}`, "Content-Type", "application/json", "Origin", "http://ui.example")
	requireRefused(t, r, http.StatusForbidden, "ForbiddenException", "http://ui.example")
	// An allowed origin does not excuse a body that is not JSON.
	r = browse(t, "POST", ns, `{"namespace":["plain"]}`, "Content-Type", "text/plain", "Origin", "https://ui.example")
	requireRefused(t, r, http.StatusUnsupportedMediaType, "BadRequestException")
	require.Equal(t, []string{"from_tool", "from_ui"}, namespaces(t, srv))

	// The host a server listens on is served without being listed, and on
	// every interface, so is this machine's name.
	h, err := localcatalog.Open(localcatalog.Options{Dir: t.TempDir()})
	require.NoError(t, err)
	t.Cleanup(func() { _ = h.Close() })
	hostname, err := os.Hostname()
	require.NoError(t, err)
	for _, tc := range []struct {
		listen, host string
		want         int
	}{
		{"catalog.example", "catalog.example", http.StatusOK},
		{"catalog.example", "other.example", http.StatusForbidden},
		{"0.0.0.0", hostname, http.StatusOK},
		{"", hostname, http.StatusOK},
		{"0.0.0.0", "other.example", http.StatusForbidden},
	} {
		g, err := localcatalog.Guard(h, tc.listen, localcatalog.Options{})
		require.NoError(t, err)
		ts := httptest.NewServer(g)
		r := browse(t, "GET", ts.URL+"/v1/namespaces", "", "Host", tc.host)
		ts.Close()
		require.Equal(t, tc.want, r.status, "listening on %q, Host %q: %s", tc.listen, tc.host, r.body)
	}

	// Allow-lists that name no host or origin are refused at start.
	for _, opts := range []localcatalog.Options{
		{AllowedHosts: []string{"catalog.example:8181"}},
		{AllowedHosts: []string{"http://catalog.example"}},
		{AllowedHosts: []string{"a.*.example"}},
		{AllowedHosts: []string{""}},
		{AllowedOrigins: []string{"ui.example"}},
		{AllowedOrigins: []string{"https://ui.example/app"}},
		{AllowedOrigins: []string{"null"}},
	} {
		opts.Dir = t.TempDir()
		_, err := localcatalog.Listen("127.0.0.1:0", opts)
		require.Error(t, err, "%+v", opts)
		require.Contains(t, err.Error(), "Options.Allowed", "%+v", opts)
	}
}

// TestNoOriginJSONAccepted: what Iceberg clients send (no Origin, a JSON
// body, or no body at all) is served, as is a page of the server's own
// origin; iceberg-go's REST client works end to end.
func TestNoOriginJSONAccepted(t *testing.T) {
	srv := startServer(t, t.TempDir())
	ns := srv.URL() + "/v1/namespaces"
	_, port, _ := strings.Cut(hostOf(t, srv), ":")
	r := browse(t, "POST", ns, `{"namespace":["db"]}`, "Content-Type", "application/json")
	require.Equal(t, http.StatusOK, r.status, "body: %s", r.body)
	r = browse(t, "POST", ns, `{"namespace":["db2"]}`, "Content-Type", "application/json; charset=utf-8")
	require.Equal(t, http.StatusOK, r.status, "body: %s", r.body)
	r = browse(t, "POST", ns, `{"namespace":["own"]}`, "Content-Type", "application/json",
		"Origin", srv.URL(), "Sec-Fetch-Site", "same-origin")
	require.Equal(t, http.StatusOK, r.status, "body: %s", r.body)
	r = browse(t, "POST", ns, `{"namespace":["by_name"]}`, "Content-Type", "application/json",
		"Host", "localhost:"+port, "Origin", "http://localhost:"+port)
	require.Equal(t, http.StatusOK, r.status, "body: %s", r.body)
	r = browse(t, "DELETE", ns+"/db2", "") // no body, no Content-Type
	require.Equal(t, http.StatusNoContent, r.status, "body: %s", r.body)
	require.Equal(t, []string{"by_name", "db", "own"}, namespaces(t, srv))

	ctx := context.Background()
	cat := connect(t, srv.URL())
	require.NoError(t, cat.CreateNamespace(ctx, table.Identifier{"from_go"}, nil))
	tbl := createTable(t, cat, table.Identifier{"from_go", "t"})
	appendRows(t, tbl, rows(t, "a", 0, 3))
	require.NoError(t, cat.DropTable(ctx, table.Identifier{"from_go", "t"}))
	require.NoError(t, cat.DropNamespace(ctx, table.Identifier{"from_go"}))
	require.Equal(t, []string{"by_name", "db", "own"}, namespaces(t, srv))
}

// TestTokenEndpointBehindGuard: with authentication on, the token endpoint
// still takes its form encoding, and its token admits JSON changes; a
// page of another origin gets no token.
func TestTokenEndpointBehindGuard(t *testing.T) {
	const id, secret = "guard-client", "guard-secret-8c1d"
	srv := authServer(t, localcatalog.Options{Clients: map[string]string{id: secret}})
	ns := srv.URL() + "/v1/namespaces"
	tr := decodeToken(t, tokenForm(t, nil, srv.URL(), nil,
		"grant_type", "client_credentials", "client_id", id, "client_secret", secret))
	r := browse(t, "POST", ns, `{"namespace":["db"]}`, "Content-Type", "application/json", "Authorization", "Bearer "+tr.AccessToken)
	require.Equal(t, http.StatusOK, r.status, "body: %s", r.body)
	r = browse(t, "POST", ns, `{"namespace":["plain"]}`, "Content-Type", "text/plain", "Authorization", "Bearer "+tr.AccessToken)
	requireRefused(t, r, http.StatusUnsupportedMediaType, "BadRequestException")

	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {id}, "client_secret": {secret}}.Encode()
	r = browse(t, "POST", srv.URL()+localcatalog.TokenPath, form,
		"Content-Type", "application/x-www-form-urlencoded", "Origin", "http://evil.example")
	requireRefused(t, r, http.StatusForbidden, "ForbiddenException", "http://evil.example")
	require.NotContains(t, string(r.body), "access_token")
	r = browse(t, "POST", srv.URL()+localcatalog.TokenPath, form,
		"Content-Type", "application/x-www-form-urlencoded", "Host", "evil.example")
	requireRefused(t, r, http.StatusForbidden, "ForbiddenException", "evil.example")

	r = browse(t, "GET", ns, "", "Authorization", "Bearer "+tr.AccessToken)
	require.Equal(t, http.StatusOK, r.status, "body: %s", r.body)
	require.JSONEq(t, `{"namespaces":[["db"]]}`, string(r.body))
}
