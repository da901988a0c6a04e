package main

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/catalog"
)

// send is one request as a web page in a browser, or a page made to attack
// the server, sends it: a body is sent as text/plain, which a page may
// POST anywhere without a preflight.
func send(t *testing.T, method, base, path, host, origin, body string) (int, string) {
	t.Helper()
	return request(t, method, base, path, host, origin, "text/plain;charset=UTF-8", body)
}

// request is one request to base's address: host, when set, is the Host
// header, origin the Origin header, and a body is sent as contentType.
func request(t *testing.T, method, base, path, host, origin, contentType, body string) (int, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, base+path, rd)
	require.NoError(t, err)
	if body != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if host != "" {
		req.Host = host
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	rsp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer rsp.Body.Close()
	b, err := io.ReadAll(rsp.Body)
	require.NoError(t, err)
	return rsp.StatusCode, string(b)
}

// checkBrowserAttacksRefused is the two attacks on a server a
// browser can reach, at base (icebeam serve or icebeam ui): a cross-origin
// text/plain POST, to the REST API's paths and the UI's, changes nothing,
// and a Host the server does not serve (a DNS-rebound page) reads nothing,
// neither the UI's pages nor the catalog; the same requests by the
// server's own names are served. cat is the catalog behind base, to see
// that nothing changed; a refused POST answers postCode with postSays in
// its body.
func checkBrowserAttacksRefused(t *testing.T, base string, postCode int, postSays string, cat interface {
	ListNamespaces(context.Context, table.Identifier) ([]table.Identifier, error)
}) {
	t.Helper()
	u, err := url.Parse(base)
	require.NoError(t, err)
	_, port, _ := strings.Cut(u.Host, ":")
	ctx := context.Background()
	before, err := cat.ListNamespaces(ctx, nil)
	require.NoError(t, err)

	const evil = "http://evil.example"
	for _, path := range []string{"/v1/namespaces", "/", "/ui/tables/db/events", "/ui/api/tables/db/events/snapshots"} {
		code, body := send(t, "POST", base, path, "", evil, `{"namespace":["pwned"]}`)
		require.Equal(t, postCode, code, "cross-origin text/plain POST %s: %s", path, body)
		require.Contains(t, body, postSays, "POST %s: the refusal says why", path)
	}
	after, err := cat.ListNamespaces(ctx, nil)
	require.NoError(t, err)
	require.Equal(t, before, after, "a refused POST changed the namespaces")

	for _, host := range []string{"evil.example", "evil.example:" + port, "127.0.0.1.evil.example:" + port} {
		for _, path := range []string{"/", "/ui/tables/db/events", "/ui/api/tables/db/events/snapshots", "/v1/namespaces"} {
			code, body := send(t, "GET", base, path, host, "", "")
			require.Equal(t, http.StatusForbidden, code, "GET %s with Host %s: %s", path, host, body)
			require.Contains(t, body, "--allowed_hosts", "GET %s with Host %s: the refusal says how to allow a name", path, host)
			require.NotContains(t, body, "events", "GET %s with Host %s: the refusal shows the catalog's tables", path, host)
		}
	}

	// Local use: the page and its live endpoint by address and by
	// localhost, and a page of the server's own origin.
	for _, host := range []string{"", "localhost:" + port, "127.0.0.1:" + port} {
		code, body := send(t, "GET", base, "/", host, "", "")
		require.Equal(t, http.StatusOK, code, "GET / with Host %q: %s", host, body)
		require.Contains(t, body, `href="/ui/tables/db/events"`, "Host %q", host)
		code, body = send(t, "GET", base, "/ui/api/tables/db/events/snapshots", host, "", "")
		require.Equal(t, http.StatusOK, code, "GET the live endpoint with Host %q: %s", host, body)
		require.Contains(t, body, `"snapshots"`)
	}
	code, body := send(t, "GET", base, "/ui/tables/db/events", "", base, "")
	require.Equal(t, http.StatusOK, code, "GET from the UI's own origin: %s", body)
}

// TestServeRefusesBrowserAttacks: icebeam serve, API and UI alike, refuses
// a cross-origin text/plain POST and a foreign Host; Iceberg clients and
// its own pages still work.
func TestServeRefusesBrowserAttacks(t *testing.T) {
	u, _, _ := serve(t, "--addr", "127.0.0.1:0", "--local_dir", t.TempDir())
	cat, err := catalog.Open(context.Background(), catalog.Config{URI: u})
	require.NoError(t, err)
	newFixture(t, cat, u)
	checkBrowserAttacksRefused(t, u, http.StatusForbidden, `Origin \"http://evil.example\"`, cat)

	// An Iceberg client changes the catalog as before: JSON, no Origin.
	require.NoError(t, cat.CreateNamespace(context.Background(), table.Identifier{"after"}, nil))
}

// TestUIRefusesBrowserAttacks: icebeam ui, which holds the catalog's
// credentials, refuses the same requests, for a catalog that does not
// (here a local catalog reached as any REST catalog): a change as the
// read-only page it is, whatever its origin (and without advice to allow
// an origin, which only serve can); --allowed_hosts admits a name.
func TestUIRefusesBrowserAttacks(t *testing.T) {
	f := localFixture(t)
	cat, err := catalog.Open(context.Background(), catalog.Config{URI: f.uri})
	require.NoError(t, err)
	base := uiOutput(t, "--catalog_uri", f.uri, "--addr", "127.0.0.1:0", "--allowed_hosts", "lake.example")
	checkBrowserAttacksRefused(t, base, http.StatusMethodNotAllowed, "read-only", cat)

	code, body := send(t, "POST", base, "/", "", "http://evil.example", "{}")
	require.Equal(t, http.StatusMethodNotAllowed, code, body)
	require.NotContains(t, body, "--allowed_origins", "icebeam ui has no --allowed_origins")

	code, body = send(t, "GET", base, "/ui/tables/db/events", "lake.example", "", "")
	require.Equal(t, http.StatusOK, code, "Host lake.example is in --allowed_hosts: %s", body)
	code, body = send(t, "GET", base, "/", "other.example", "", "")
	require.Equal(t, http.StatusForbidden, code, body)
	require.Contains(t, body, "--allowed_hosts=other.example")
}
