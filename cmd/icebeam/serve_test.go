package main

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/catalog"
)

// get sends GET url with an optional bearer token and returns status and body.
func get(t *testing.T, client *http.Client, url, token string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	require.NoError(t, err)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	rsp, err := client.Do(req)
	require.NoError(t, err)
	defer rsp.Body.Close()
	b, err := io.ReadAll(rsp.Body)
	require.NoError(t, err)
	return rsp.StatusCode, string(b)
}

// loopbackURL rewrites the URL of a server listening on every interface
// to reach it on 127.0.0.1.
func loopbackURL(t *testing.T, url string) string {
	t.Helper()
	scheme, hostport, ok := strings.Cut(url, "://")
	require.True(t, ok, url)
	_, port, err := net.SplitHostPort(hostport)
	require.NoError(t, err)
	return scheme + "://127.0.0.1:" + port
}

// servedURL is the catalog URL serve printed.
func servedURL(t *testing.T, lines []string) string {
	t.Helper()
	for _, l := range lines {
		if u, ok := strings.CutPrefix(l, "icebeam: serving the Iceberg REST catalog at "); ok {
			return u
		}
	}
	t.Fatalf("serve printed no URL: %q", lines)
	return ""
}

// authLine is the "icebeam: authentication: ..." line serve printed.
func authLine(t *testing.T, lines []string) string {
	t.Helper()
	for _, l := range lines {
		if a, ok := strings.CutPrefix(l, "icebeam: authentication: "); ok {
			return a
		}
	}
	t.Fatalf("serve printed no authentication line: %q", lines)
	return ""
}

func TestServeRefusesOpenNetworkAddress(t *testing.T) {
	// Should serve start after all, the deadline ends it (without an error).
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0"} {
		dir := filepath.Join(t.TempDir(), "lake")
		var out, errOut bytes.Buffer
		err := run(ctx, []string{"serve", "--addr", addr, "--local_dir", dir}, &out, &errOut)
		require.Error(t, err, addr)
		require.Contains(t, err.Error(), "--insecure", addr)
		require.Contains(t, err.Error(), "without authentication", addr)
		require.Contains(t, err.Error(), "--token", addr)
		require.Empty(t, out.String(), "nothing served")
		_, statErr := os.Stat(dir)
		require.True(t, os.IsNotExist(statErr), "%s: the catalog directory was created before refusing", addr)
	}
}

func TestServeInsecure(t *testing.T) {
	lines, stderr, stop := serveOutput(t, "--addr", "0.0.0.0:0", "--local_dir", t.TempDir(), "--insecure")
	require.Contains(t, authLine(t, lines), "off")
	warn := strings.TrimSpace(stderr())
	require.Contains(t, warn, "--insecure")
	require.Equal(t, 0, strings.Count(warn, "\n"), "one warning line: %q", warn)

	code, body := get(t, http.DefaultClient, loopbackURL(t, servedURL(t, lines))+"/v1/namespaces", "")
	require.Equal(t, http.StatusOK, code, body)
	require.NoError(t, stop())

	// On loopback, no flag is needed and authentication stays off.
	lines, stderr, _ = serveOutput(t, "--addr", "127.0.0.1:0", "--local_dir", t.TempDir())
	require.Contains(t, authLine(t, lines), "off")
	require.Empty(t, stderr())
}

func TestServeToken(t *testing.T) {
	const token = "serve-test-token-5d0e8a"
	t.Setenv("ICEBEAM_TEST_SERVE_TOKEN", token)
	// A non-loopback address is fine with a token; the catalog is reached
	// through 127.0.0.1.
	lines, stderr, _ := serveOutput(t, "--addr", "0.0.0.0:0", "--local_dir", t.TempDir(), "--token", "env:ICEBEAM_TEST_SERVE_TOKEN")
	al := authLine(t, lines)
	require.Contains(t, al, "on")
	require.Contains(t, al, "static bearer token")
	require.Contains(t, stderr(), "plain HTTP", "warns that the token crosses the network in clear text")
	require.NotContains(t, strings.Join(lines, "\n"), token)
	u := loopbackURL(t, servedURL(t, lines))

	code, body := get(t, http.DefaultClient, u+"/v1/namespaces", "")
	require.Equal(t, http.StatusUnauthorized, code, body)
	var e struct{ Error struct{ Type string } }
	require.NoError(t, json.Unmarshal([]byte(body), &e), body)
	require.Equal(t, "NotAuthorizedException", e.Error.Type)
	code, _ = get(t, http.DefaultClient, u+"/v1/namespaces", "wrong")
	require.Equal(t, http.StatusUnauthorized, code)
	code, body = get(t, http.DefaultClient, u+"/v1/namespaces", token)
	require.Equal(t, http.StatusOK, code, body)
	require.NotContains(t, stderr(), token)
}

func TestServeClientCredential(t *testing.T) {
	ctx := context.Background()
	const id, secret = "spark", "serve-client-secret-31a7"
	t.Setenv("ICEBEAM_TEST_SERVE_CLIENT", id+":"+secret)
	lines, stderr, _ := serveOutput(t, "--addr", "127.0.0.1:0", "--local_dir", t.TempDir(),
		"--client_credential", "env:ICEBEAM_TEST_SERVE_CLIENT", "--token_ttl", "10m")
	al := authLine(t, lines)
	require.Contains(t, al, "OAuth2 client credentials")
	require.Contains(t, al, "/v1/oauth/tokens")
	require.Contains(t, al, "10m0s")
	require.NotContains(t, strings.Join(lines, "\n")+stderr(), secret)
	u := servedURL(t, lines)

	code, _ := get(t, http.DefaultClient, u+"/v1/config", "")
	require.Equal(t, http.StatusUnauthorized, code)
	// The pipelines' client, as --auth=oauth2 --credential=env:... sets it.
	cat, err := catalog.Open(ctx, catalog.Config{URI: u, Credential: "env:ICEBEAM_TEST_SERVE_CLIENT"})
	require.NoError(t, err)
	require.NoError(t, cat.CreateNamespace(ctx, table.Identifier{"from_pipeline"}, nil))
	ok, err := cat.CheckNamespaceExists(ctx, table.Identifier{"from_pipeline"})
	require.NoError(t, err)
	require.True(t, ok)
}

func TestServeFlagErrors(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	const value = "no-colon-secret-value"
	t.Setenv("ICEBEAM_TEST_SERVE_BAD", value)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--client_credential", "env:ICEBEAM_TEST_SERVE_BAD"}, "CLIENT_ID:SECRET"},
		{[]string{"--client_credential", value}, "CLIENT_ID:SECRET"},
		{[]string{"--token", "env:ICEBEAM_TEST_SERVE_UNSET"}, "ICEBEAM_TEST_SERVE_UNSET"},
		{[]string{"--tls_cert", "cert.pem"}, "--tls_key"},
		{[]string{"--token", "env:ICEBEAM_TEST_SERVE_BAD", "--token_ttl", "0s"}, "--token_ttl"},
		{[]string{"--addr", "localhost"}, "--addr"},
		{[]string{"--allowed_hosts", "catalog.example,http://other.example"}, `"http://other.example"`},
		{[]string{"--allowed_origins", "https://ui.example,ui.example"}, `allowed origin "ui.example"`},
	} {
		var out, errOut bytes.Buffer
		args := append([]string{"serve", "--local_dir", t.TempDir()}, tc.args...)
		err := run(ctx, args, &out, &errOut)
		require.Error(t, err, "%q", tc.args)
		require.Contains(t, err.Error(), tc.want, "%q", tc.args)
		require.NotContains(t, err.Error()+out.String()+errOut.String(), value, "%q", tc.args)
	}
}

// TestServeAllowedHostsAndOrigins: serve refuses a Host it does not serve
// and changes from other web pages, and takes what --allowed_hosts and
// --allowed_origins allow.
func TestServeAllowedHostsAndOrigins(t *testing.T) {
	u, _, _ := serve(t, "--addr", "127.0.0.1:0", "--local_dir", t.TempDir(),
		"--allowed_hosts", "catalog.example, .corp.example", "--allowed_origins", "https://ui.example")
	send := func(method, path, host, origin string) (int, string) {
		t.Helper()
		body := ""
		if method == "POST" {
			body = `{"namespace":["ns_` + strings.NewReplacer(".", "_", ":", "_", "/", "_").Replace(host+origin) + `"]}`
		}
		return request(t, method, u, path, host, origin, "application/json", body)
	}
	for host, want := range map[string]int{
		"catalog.example": http.StatusOK, "a.corp.example": http.StatusOK, "localhost": http.StatusOK,
		"evil.example": http.StatusForbidden, "catalog.example.evil": http.StatusForbidden,
	} {
		code, body := send("GET", "/v1/namespaces", host, "")
		require.Equal(t, want, code, "Host %s: %s", host, body)
		if want == http.StatusForbidden {
			require.Contains(t, body, "--allowed_hosts")
		}
	}
	code, body := send("POST", "/v1/namespaces", "", "https://ui.example")
	require.Equal(t, http.StatusOK, code, body)
	code, body = send("POST", "/v1/namespaces", "", "http://evil.example")
	require.Equal(t, http.StatusForbidden, code, body)
	require.Contains(t, body, "--allowed_origins")
	code, body = send("GET", "/v1/namespaces", "", "")
	require.Equal(t, http.StatusOK, code, body)
	require.JSONEq(t, `{"namespaces":[["ns_https___ui_example"]]}`, body)
}

func TestServeTLS(t *testing.T) {
	dir := t.TempDir()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	require.NoError(t, err)
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	require.NoError(t, os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644))
	require.NoError(t, os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600))
	cert, err := x509.ParseCertificate(der)
	require.NoError(t, err)

	const token = "tls-token-0b9c"
	t.Setenv("ICEBEAM_TEST_SERVE_TLS_TOKEN", token)
	url, _, _ := serve(t, "--addr", "127.0.0.1:0", "--local_dir", t.TempDir(),
		"--tls_cert", certFile, "--tls_key", keyFile, "--token", "env:ICEBEAM_TEST_SERVE_TLS_TOKEN")
	require.True(t, strings.HasPrefix(url, "https://127.0.0.1:"), url)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	t.Cleanup(client.CloseIdleConnections)
	code, _ := get(t, client, url+"/v1/config", "")
	require.Equal(t, http.StatusUnauthorized, code)
	code, body := get(t, client, url+"/v1/config", token)
	require.Equal(t, http.StatusOK, code, body)
}

func TestIsLoopback(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:8181":          true,
		"127.3.4.5:1":             true,
		"[::1]:8181":              true,
		"localhost:8181":          true,
		"LocalHost:8181":          true,
		"[::ffff:127.0.0.1]:8181": true,
		":8181":                   false,
		"0.0.0.0:8181":            false,
		"[::]:8181":               false,
		"10.1.2.3:8181":           false,
		"192.168.0.1:8181":        false,
		"catalog.example:8181":    false,
		"localhost.evil.com:8181": false,
		"127.0.0.1":               false, // no port: not an address
	} {
		require.Equal(t, want, isLoopback(addr), addr)
	}
}
