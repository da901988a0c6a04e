package localcatalog_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"io"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/catalog/localcatalog"
	"github.com/icebeam/icebeam/internal/syncbuf"
)

// authServer serves a fresh catalog on loopback with opts (Dir is set here).
func authServer(t *testing.T, opts localcatalog.Options) *localcatalog.Server {
	t.Helper()
	opts.Dir = t.TempDir()
	srv, err := localcatalog.Listen("127.0.0.1:0", opts)
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	return srv
}

type authResponse struct {
	status int
	header http.Header
	body   []byte
}

// send makes one request with client (nil: http.DefaultClient); hdr are
// header name/value pairs.
func send(t *testing.T, client *http.Client, method, u string, body io.Reader, hdr ...string) authResponse {
	t.Helper()
	if client == nil {
		client = http.DefaultClient
	}
	req, err := http.NewRequest(method, u, body)
	require.NoError(t, err)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	rsp, err := client.Do(req)
	require.NoError(t, err)
	defer rsp.Body.Close()
	b, err := io.ReadAll(rsp.Body)
	require.NoError(t, err)
	return authResponse{rsp.StatusCode, rsp.Header, b}
}

// requireNotAuthorized checks a 401 in the REST error model with a Bearer
// challenge.
func requireNotAuthorized(t *testing.T, r authResponse) {
	t.Helper()
	require.Equal(t, http.StatusUnauthorized, r.status, "body: %s", r.body)
	require.True(t, strings.HasPrefix(r.header.Get("WWW-Authenticate"), "Bearer"),
		"WWW-Authenticate: %q", r.header.Get("WWW-Authenticate"))
	require.Equal(t, "application/json", r.header.Get("Content-Type"))
	var e struct {
		Error struct {
			Message string `json:"message"`
			Type    string `json:"type"`
			Code    int    `json:"code"`
		} `json:"error"`
	}
	require.NoError(t, json.Unmarshal(r.body, &e), "body: %s", r.body)
	require.Equal(t, "NotAuthorizedException", e.Error.Type, "body: %s", r.body)
	require.Equal(t, 401, e.Error.Code)
	require.NotEmpty(t, e.Error.Message)
}

func bearer(tok string) []string { return []string{"Authorization", "Bearer " + tok} }

func TestStaticToken(t *testing.T) {
	const token = "static-Tok3n-for-test"
	srv := authServer(t, localcatalog.Options{Token: token})
	ns := srv.URL() + "/v1/namespaces"

	requireNotAuthorized(t, send(t, nil, "GET", ns, nil))
	requireNotAuthorized(t, send(t, nil, "GET", srv.URL()+"/v1/config", nil))
	requireNotAuthorized(t, send(t, nil, "GET", ns, nil, bearer("wrong-token")...))
	requireNotAuthorized(t, send(t, nil, "GET", ns, nil, bearer(token+"x")...))
	requireNotAuthorized(t, send(t, nil, "GET", ns, nil, "Authorization", "Basic "+token))
	// Without Clients there is no token endpoint to get in by.
	requireNotAuthorized(t, send(t, nil, "POST", srv.URL()+localcatalog.TokenPath,
		strings.NewReader("grant_type=client_credentials"), "Content-Type", "application/x-www-form-urlencoded"))
	// HEAD gets the status without a body.
	r := send(t, nil, "HEAD", ns+"/db", nil)
	require.Equal(t, http.StatusUnauthorized, r.status)

	// The right token reaches the catalog: a namespace is created and
	// listed, and an unknown one is the catalog's own 404.
	r = send(t, nil, "POST", ns, strings.NewReader(`{"namespace":["db"]}`), append(bearer(token), "Content-Type", "application/json")...)
	require.Equal(t, http.StatusOK, r.status, "body: %s", r.body)
	r = send(t, nil, "GET", ns, nil, "Authorization", "bearer "+token) // the scheme is case-insensitive
	require.Equal(t, http.StatusOK, r.status, "body: %s", r.body)
	require.JSONEq(t, `{"namespaces":[["db"]]}`, string(r.body))
	r = send(t, nil, "GET", ns+"/nope", nil, bearer(token)...)
	require.Equal(t, http.StatusNotFound, r.status, "body: %s", r.body)
	require.Contains(t, string(r.body), "NoSuchNamespaceException")
}

// tokenForm posts a token request with form values kv (name, value pairs)
// and optional HTTP Basic credentials.
func tokenForm(t *testing.T, client *http.Client, base string, basic []string, kv ...string) authResponse {
	t.Helper()
	form := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		form.Set(kv[i], kv[i+1])
	}
	hdr := []string{"Content-Type", "application/x-www-form-urlencoded"}
	if basic != nil {
		hdr = append(hdr, "Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(basic[0]+":"+basic[1])))
	}
	return send(t, client, "POST", base+localcatalog.TokenPath, strings.NewReader(form.Encode()), hdr...)
}

type tokenResponse struct {
	AccessToken     string `json:"access_token"`
	TokenType       string `json:"token_type"`
	ExpiresIn       int    `json:"expires_in"`
	IssuedTokenType string `json:"issued_token_type"`
	Scope           string `json:"scope"`
}

func decodeToken(t *testing.T, r authResponse) tokenResponse {
	t.Helper()
	require.Equal(t, http.StatusOK, r.status, "body: %s", r.body)
	require.Equal(t, "no-store", r.header.Get("Cache-Control"))
	var tr tokenResponse
	require.NoError(t, json.Unmarshal(r.body, &tr))
	require.NotEmpty(t, tr.AccessToken)
	return tr
}

// requireOAuthError checks an RFC 6749 error response.
func requireOAuthError(t *testing.T, r authResponse, status int, kind string) {
	t.Helper()
	require.Equal(t, status, r.status, "body: %s", r.body)
	var e struct {
		Error       string `json:"error"`
		Description string `json:"error_description"`
	}
	require.NoError(t, json.Unmarshal(r.body, &e), "body: %s", r.body)
	require.Equal(t, kind, e.Error, "body: %s", r.body)
}

func TestClientCredentials(t *testing.T) {
	const id, secret = "spark", "s3cret+/=:x"
	srv := authServer(t, localcatalog.Options{Clients: map[string]string{id: secret, "other": "other-secret"}})
	ns := srv.URL() + "/v1/namespaces"
	requireNotAuthorized(t, send(t, nil, "GET", ns, nil))

	// Form-body client authentication, as Iceberg's clients send it.
	tr := decodeToken(t, tokenForm(t, nil, srv.URL(), nil,
		"grant_type", "client_credentials", "client_id", id, "client_secret", secret, "scope", "catalog"))
	require.Equal(t, "bearer", strings.ToLower(tr.TokenType))
	require.Equal(t, 3600, tr.ExpiresIn, "default lifetime 1h")
	require.Equal(t, "urn:ietf:params:oauth:token-type:access_token", tr.IssuedTokenType)
	require.Equal(t, "catalog", tr.Scope)
	// 32 random bytes or more, in hex or base64url.
	entropy := 0
	if b, err := hex.DecodeString(tr.AccessToken); err == nil {
		entropy = len(b)
	} else if b, err := base64.RawURLEncoding.DecodeString(tr.AccessToken); err == nil {
		entropy = len(b)
	}
	require.GreaterOrEqual(t, entropy, 32, "token of %d chars", len(tr.AccessToken))
	r := send(t, nil, "POST", ns, strings.NewReader(`{"namespace":["db"]}`), append(bearer(tr.AccessToken), "Content-Type", "application/json")...)
	require.Equal(t, http.StatusOK, r.status, "body: %s", r.body)
	r = send(t, nil, "GET", ns, nil, bearer(tr.AccessToken)...)
	require.Equal(t, http.StatusOK, r.status, "body: %s", r.body)
	require.JSONEq(t, `{"namespaces":[["db"]]}`, string(r.body))

	// HTTP Basic client authentication, with and without RFC 6749's form
	// encoding of id and secret.
	basicTok := decodeToken(t, tokenForm(t, nil, srv.URL(), []string{id, secret}, "grant_type", "client_credentials"))
	require.NotEqual(t, tr.AccessToken, basicTok.AccessToken)
	require.Empty(t, basicTok.Scope)
	r = send(t, nil, "GET", ns, nil, bearer(basicTok.AccessToken)...)
	require.Equal(t, http.StatusOK, r.status, "body: %s", r.body)
	encoded := decodeToken(t, tokenForm(t, nil, srv.URL(),
		[]string{url.QueryEscape(id), url.QueryEscape(secret)}, "grant_type", "client_credentials"))
	r = send(t, nil, "GET", ns, nil, bearer(encoded.AccessToken)...)
	require.Equal(t, http.StatusOK, r.status, "body: %s", r.body)

	// Wrong secrets and unknown clients.
	requireOAuthError(t, tokenForm(t, nil, srv.URL(), nil,
		"grant_type", "client_credentials", "client_id", id, "client_secret", secret+"x"), 401, "invalid_client")
	requireOAuthError(t, tokenForm(t, nil, srv.URL(), nil,
		"grant_type", "client_credentials", "client_id", id, "client_secret", "other-secret"), 401, "invalid_client")
	requireOAuthError(t, tokenForm(t, nil, srv.URL(), nil,
		"grant_type", "client_credentials", "client_id", "nobody", "client_secret", secret), 401, "invalid_client")
	requireOAuthError(t, tokenForm(t, nil, srv.URL(), nil,
		"grant_type", "client_credentials", "client_secret", secret), 401, "invalid_client")
	r = tokenForm(t, nil, srv.URL(), []string{id, "wrong"}, "grant_type", "client_credentials")
	requireOAuthError(t, r, 401, "invalid_client")
	require.True(t, strings.HasPrefix(r.header.Get("WWW-Authenticate"), "Basic"), r.header.Get("WWW-Authenticate"))

	// Grants and requests the endpoint does not take.
	requireOAuthError(t, tokenForm(t, nil, srv.URL(), nil,
		"grant_type", "password", "client_id", id, "client_secret", secret), 400, "unsupported_grant_type")
	requireOAuthError(t, tokenForm(t, nil, srv.URL(), nil, "client_id", id, "client_secret", secret), 400, "invalid_request")
	requireOAuthError(t, tokenForm(t, nil, srv.URL(), []string{id, secret},
		"grant_type", "client_credentials", "client_id", id, "client_secret", secret), 400, "invalid_request")
	r = send(t, nil, "GET", srv.URL()+localcatalog.TokenPath+"?grant_type=client_credentials&client_id="+id+"&client_secret="+url.QueryEscape(secret), nil)
	requireOAuthError(t, r, 405, "invalid_request")
	r = send(t, nil, "POST", srv.URL()+localcatalog.TokenPath, strings.NewReader(`{"grant_type":"client_credentials"}`), "Content-Type", "application/json")
	requireOAuthError(t, r, 400, "invalid_request")

	// A live token is exchanged for a fresh one (RFC 8693), as Iceberg's
	// Java client refreshes; a made-up one is not.
	const exchange, accessType = "urn:ietf:params:oauth:grant-type:token-exchange", "urn:ietf:params:oauth:token-type:access_token"
	fresh := decodeToken(t, tokenForm(t, nil, srv.URL(), nil, "grant_type", exchange,
		"subject_token", tr.AccessToken, "subject_token_type", accessType, "scope", "catalog"))
	require.NotEqual(t, tr.AccessToken, fresh.AccessToken)
	r = send(t, nil, "GET", ns, nil, bearer(fresh.AccessToken)...)
	require.Equal(t, http.StatusOK, r.status, "body: %s", r.body)
	requireOAuthError(t, tokenForm(t, nil, srv.URL(), nil, "grant_type", exchange,
		"subject_token", "at-made-up", "subject_token_type", accessType), 400, "invalid_grant")

	// Tokens are not interchangeable with secrets or made-up values.
	requireNotAuthorized(t, send(t, nil, "GET", ns, nil, bearer(secret)...))
	requireNotAuthorized(t, send(t, nil, "GET", ns, nil, bearer(tr.AccessToken[:len(tr.AccessToken)-1])...))
}

func TestTokenExpiry(t *testing.T) {
	const id, secret = "c", "sec"
	const ttl = 300 * time.Millisecond
	srv := authServer(t, localcatalog.Options{Clients: map[string]string{id: secret}, TokenTTL: ttl})
	ns := srv.URL() + "/v1/namespaces"
	issued := time.Now()
	tr := decodeToken(t, tokenForm(t, nil, srv.URL(), nil, "grant_type", "client_credentials", "client_id", id, "client_secret", secret))
	require.Equal(t, 1, tr.ExpiresIn, "a sub-second lifetime is advertised as 1 s, never 0 (no expiry)")
	r := send(t, nil, "GET", ns, nil, bearer(tr.AccessToken)...)
	if time.Since(issued) < ttl {
		require.Equal(t, http.StatusOK, r.status, "body: %s", r.body)
	}
	time.Sleep(ttl - time.Since(issued) + 50*time.Millisecond)
	requireNotAuthorized(t, send(t, nil, "GET", ns, nil, bearer(tr.AccessToken)...))
	// Asked again, it is still refused (it was forgotten, not revived).
	requireNotAuthorized(t, send(t, nil, "GET", ns, nil, bearer(tr.AccessToken)...))

	// A new token works again.
	tr = decodeToken(t, tokenForm(t, nil, srv.URL(), nil, "grant_type", "client_credentials", "client_id", id, "client_secret", secret))
	r = send(t, nil, "GET", ns, nil, bearer(tr.AccessToken)...)
	require.Equal(t, http.StatusOK, r.status, "body: %s", r.body)
}

func TestTokenAndClientsTogether(t *testing.T) {
	const static = "the-static-one"
	srv := authServer(t, localcatalog.Options{Token: static, Clients: map[string]string{"c": "s"}})
	ns := srv.URL() + "/v1/namespaces"
	tr := decodeToken(t, tokenForm(t, nil, srv.URL(), nil, "grant_type", "client_credentials", "client_id", "c", "client_secret", "s"))
	for _, tok := range []string{static, tr.AccessToken} {
		r := send(t, nil, "GET", ns, nil, bearer(tok)...)
		require.Equal(t, http.StatusOK, r.status, "body: %s", r.body)
	}
	requireNotAuthorized(t, send(t, nil, "GET", ns, nil, bearer("s")...))
	requireNotAuthorized(t, send(t, nil, "GET", ns, nil))
}

func TestAuthOptionErrors(t *testing.T) {
	for name, opts := range map[string]localcatalog.Options{
		"empty secret":  {Clients: map[string]string{"c": ""}},
		"negative ttl":  {Clients: map[string]string{"c": "s"}, TokenTTL: -time.Second},
		"cert, no key":  {TLSCert: "cert.pem"},
		"key, no cert":  {TLSKey: "key.pem"},
		"missing files": {TLSCert: "/nonexistent/cert.pem", TLSKey: "/nonexistent/key.pem"},
	} {
		t.Run(name, func(t *testing.T) {
			opts.Dir = t.TempDir()
			srv, err := localcatalog.Listen("127.0.0.1:0", opts)
			if err == nil {
				srv.Close()
			}
			require.Error(t, err)
		})
	}
}

// TestAuthLogsNoSecrets: the request log names requests, never tokens or
// client secrets, also for the token endpoint and refused requests.
func TestAuthLogsNoSecrets(t *testing.T) {
	var buf syncbuf.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	t.Cleanup(func() { slog.SetDefault(prev) })

	const static, secret = "static-sekrit-1", "client-sekrit-2"
	srv := authServer(t, localcatalog.Options{Token: static, Clients: map[string]string{"c": secret}})
	tr := decodeToken(t, tokenForm(t, nil, srv.URL(), nil, "grant_type", "client_credentials", "client_id", "c", "client_secret", secret))
	send(t, nil, "GET", srv.URL()+"/v1/config", nil, bearer(tr.AccessToken)...)
	send(t, nil, "GET", srv.URL()+"/v1/config", nil, bearer(static)...)
	send(t, nil, "GET", srv.URL()+"/v1/config", nil, bearer("wrong-sekrit-3")...)
	tokenForm(t, nil, srv.URL(), nil, "grant_type", "client_credentials", "client_id", "c", "client_secret", "bad-sekrit-4")
	out := buf.String()
	require.Equal(t, 5, strings.Count(out, "msg=localcatalog "), out)
	require.NotContains(t, out, "sekrit")
	require.NotContains(t, out, tr.AccessToken)
}

// writeSelfSigned writes a self-signed ECDSA certificate for 127.0.0.1 and
// its key into dir and returns their paths and the certificate.
func writeSelfSigned(t *testing.T, dir string) (certFile, keyFile string, cert *x509.Certificate) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(time.Now().UnixNano()),
		Subject:               pkix.Name{CommonName: "icebeam test"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		IPAddresses:           []net.IP{net.ParseIP("127.0.0.1")},
		DNSNames:              []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	cert, err = x509.ParseCertificate(der)
	require.NoError(t, err)
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	require.NoError(t, err)
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	require.NoError(t, os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644))
	require.NoError(t, os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600))
	return certFile, keyFile, cert
}

func TestTLS(t *testing.T) {
	certFile, keyFile, cert := writeSelfSigned(t, t.TempDir())
	const id, secret = "c", "s"
	srv := authServer(t, localcatalog.Options{TLSCert: certFile, TLSKey: keyFile, Clients: map[string]string{id: secret}})
	require.True(t, strings.HasPrefix(srv.URL(), "https://127.0.0.1:"), srv.URL())

	pool := x509.NewCertPool()
	pool.AddCert(cert)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	t.Cleanup(client.CloseIdleConnections)

	tr := decodeToken(t, tokenForm(t, client, srv.URL(), []string{id, secret}, "grant_type", "client_credentials"))
	r := send(t, client, "GET", srv.URL()+"/v1/config", nil, bearer(tr.AccessToken)...)
	require.Equal(t, http.StatusOK, r.status, "body: %s", r.body)
	require.Contains(t, string(r.body), `"defaults"`)
	requireNotAuthorized(t, send(t, client, "GET", srv.URL()+"/v1/namespaces", nil))

	// A client that does not trust the certificate fails the handshake,
	// and plain HTTP on the TLS port gets no catalog answer.
	_, err := http.Get(srv.URL() + "/v1/config")
	require.Error(t, err)
	var certErr x509.UnknownAuthorityError
	require.ErrorAs(t, err, &certErr)
	plain := "http://" + strings.TrimPrefix(srv.URL(), "https://")
	r = send(t, nil, "GET", plain+"/v1/config", nil, bearer(tr.AccessToken)...)
	require.Equal(t, http.StatusBadRequest, r.status, "body: %s", r.body)
}
