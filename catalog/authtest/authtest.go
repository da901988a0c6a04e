// Package authtest provides loopback OAuth2/Google token endpoints, a
// token-enforcing REST catalog and a GCS emulator for tests: real servers on
// 127.0.0.1 that issue short-lived tokens, check signed service-account
// assertions as Google's endpoint does, and admit only requests that carry a
// live token, so tests can run icebeam's catalog and storage clients across
// many token lifetimes. It does not import package catalog, so catalog's own
// tests can use it.
package authtest

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fsouza/fake-gcs-server/fakestorage"

	"github.com/icebeam/icebeam/catalog/localcatalog"
)

const (
	// ClientID is the only OAuth2 client the token server knows.
	ClientID = "icebeam-test"
	// StatusAuthenticationTimeout is the non-standard 419 the guard
	// answers to an expired token, as some catalogs do.
	StatusAuthenticationTimeout = 419
	// TokenPath is where Catalog serves OAuth2 client-credentials tokens:
	// the default --oauth2_server_uri of a catalog at Catalog.URL.
	TokenPath = "/v1/oauth/tokens"
	// GoogleTokenPath is where Catalog serves Google service-account
	// (JWT bearer) grants.
	GoogleTokenPath = "/google/token"

	jwtBearerGrant = "urn:ietf:params:oauth:grant-type:jwt-bearer"
	// googleScope is what Google credentials must ask for (catalog.GoogleScope).
	googleScope = "https://www.googleapis.com/auth/cloud-platform"
)

// TokenServer is an OAuth2 token endpoint: RFC 6749 client credentials with
// HTTP Basic or form-body client authentication, and RFC 7523 JWT bearer
// grants as Google service-account keys use them. Tokens are valid for
// Lifetime; expires_in advertises Advertised seconds, which a test may set
// above the real lifetime to mimic clock skew.
type TokenServer struct {
	ClientSecret string
	Lifetime     time.Duration
	Advertised   int

	mu        sync.Mutex
	saEmail   string
	saKey     *rsa.PublicKey
	audience  string // the token URI a JWT assertion must name
	tokens    map[string]time.Time
	issued    int
	jwtGrants int
	scopes    []string
}

// NewTokenServer returns a token server with a random client secret.
func NewTokenServer(lifetime time.Duration, advertised int) *TokenServer {
	return &TokenServer{
		ClientSecret: "s3cr3t-" + RandomHex(8),
		Lifetime:     lifetime,
		Advertised:   advertised,
		tokens:       map[string]time.Time{},
	}
}

// Credential is the --credential value the server accepts, CLIENT_ID:SECRET.
func (s *TokenServer) Credential() string { return ClientID + ":" + s.ClientSecret }

// RandomHex returns n random bytes in hex.
func RandomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

func oauthError(w http.ResponseWriter, code int, kind, desc string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(map[string]string{"error": kind, "error_description": desc})
}

func (s *TokenServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		oauthError(w, http.StatusMethodNotAllowed, "invalid_request", "POST only")
		return
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/x-www-form-urlencoded") {
		oauthError(w, http.StatusBadRequest, "invalid_request", "want a form body, got "+ct)
		return
	}
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", err.Error())
		return
	}
	switch r.PostForm.Get("grant_type") {
	case "client_credentials":
		id, secret, basic := r.BasicAuth()
		if !basic {
			id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
		}
		if id != ClientID || secret != s.ClientSecret {
			oauthError(w, http.StatusUnauthorized, "invalid_client", "unknown client or wrong secret")
			return
		}
		s.mu.Lock()
		s.scopes = append(s.scopes, r.PostForm.Get("scope"))
		s.mu.Unlock()
	case jwtBearerGrant:
		if err := s.verifyAssertion(r.PostForm.Get("assertion")); err != nil {
			oauthError(w, http.StatusBadRequest, "invalid_grant", err.Error())
			return
		}
		s.mu.Lock()
		s.jwtGrants++
		s.mu.Unlock()
	default:
		oauthError(w, http.StatusBadRequest, "unsupported_grant_type", r.PostForm.Get("grant_type"))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(map[string]any{
		"access_token": s.Issue(),
		"token_type":   "Bearer",
		"expires_in":   s.Advertised,
	})
}

// Issue makes a new token valid for Lifetime, as if granted.
func (s *TokenServer) Issue() string {
	tok, _ := s.IssueWithExpiry()
	return tok
}

// IssueWithExpiry is Issue that also says when the token expires.
func (s *TokenServer) IssueWithExpiry() (string, time.Time) {
	tok := "at-" + RandomHex(16)
	exp := time.Now().Add(s.Lifetime)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens[tok] = exp
	s.issued++
	return tok, exp
}

// verifyAssertion checks an RS256 JWT as Google's token endpoint would:
// signature by the service account's key, issuer, audience, scope, expiry.
func (s *TokenServer) verifyAssertion(jwt string) error {
	s.mu.Lock()
	email, key, aud := s.saEmail, s.saKey, s.audience
	s.mu.Unlock()
	if key == nil {
		return fmt.Errorf("no service account key was generated (call WriteServiceAccountKey)")
	}
	parts := strings.Split(jwt, ".")
	if len(parts) != 3 {
		return fmt.Errorf("assertion is not a JWT")
	}
	var header struct{ Alg, Kid string }
	var claims struct {
		Iss, Aud, Scope string
		Exp, Iat        int64
	}
	for i, v := range []any{&header, &claims} {
		b, err := base64.RawURLEncoding.DecodeString(parts[i])
		if err != nil {
			return fmt.Errorf("JWT part %d: %v", i, err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			return fmt.Errorf("JWT part %d: %v", i, err)
		}
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil {
		return fmt.Errorf("JWT signature: %v", err)
	}
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if header.Alg != "RS256" {
		return fmt.Errorf("alg %q, want RS256", header.Alg)
	}
	if err := rsa.VerifyPKCS1v15(key, crypto.SHA256, sum[:], sig); err != nil {
		return fmt.Errorf("bad signature: %v", err)
	}
	now := time.Now().Unix()
	switch {
	case claims.Iss != email:
		return fmt.Errorf("iss %q", claims.Iss)
	case claims.Aud != aud:
		return fmt.Errorf("aud %q, want %q", claims.Aud, aud)
	case !strings.Contains(claims.Scope, googleScope):
		return fmt.Errorf("scope %q", claims.Scope)
	case claims.Exp < now || claims.Iat > now+60:
		return fmt.Errorf("assertion expired or from the future")
	}
	return nil
}

// Token states reported by Status.
const (
	Live    = "live"
	Expired = "expired"
	Unknown = "unknown"
)

// Status says whether tok is a Live token of this server, an Expired one,
// or Unknown.
func (s *TokenServer) Status(tok string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	exp, ok := s.tokens[tok]
	switch {
	case !ok:
		return Unknown
	case time.Now().After(exp):
		return Expired
	}
	return Live
}

// ExpireAll ends every token issued so far, as a server-side expiry would.
func (s *TokenServer) ExpireAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k := range s.tokens {
		s.tokens[k] = time.Time{}
	}
}

// Issued counts the tokens issued so far.
func (s *TokenServer) Issued() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.issued
}

// JWTGrants counts the service-account grants answered.
func (s *TokenServer) JWTGrants() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.jwtGrants
}

// Scopes lists the scopes client-credentials requests asked for, in order.
func (s *TokenServer) Scopes() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.scopes...)
}

// Tokens lists every token issued so far: the secrets a test checks logs
// for.
func (s *TokenServer) Tokens() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.tokens))
	for k := range s.tokens {
		out = append(out, k)
	}
	return out
}

// WriteServiceAccountKey generates an RSA key, writes a service-account key
// file whose token_uri is tokenURL into a temp dir of t, and makes s accept
// its assertions. Point GOOGLE_APPLICATION_CREDENTIALS at the returned path.
func (s *TokenServer) WriteServiceAccountKey(t testing.TB, tokenURL string) string {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	const email = "icebeam-test@test-project.iam.gserviceaccount.com"
	s.mu.Lock()
	s.saEmail, s.saKey, s.audience = email, &key.PublicKey, tokenURL
	s.mu.Unlock()
	b, _ := json.Marshal(map[string]string{
		"type":           "service_account",
		"project_id":     "test-project",
		"private_key_id": "k1",
		"private_key":    string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})),
		"client_email":   email,
		"client_id":      "1234567890",
		"token_uri":      tokenURL,
	})
	p := filepath.Join(t.TempDir(), "sa.json")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// Request is what a Guard records of each request it admits.
type Request struct {
	Method, Path string
	Header       http.Header
}

// Guard admits requests that carry a live token of Tokens: 401 without
// one or with an unknown one, 419 with an expired one (as catalogs answer
// expired tokens).
type Guard struct {
	Tokens *TokenServer
	next   http.Handler

	mu       sync.Mutex
	admitted []Request
	rejected map[int]int
	seen     map[string]bool
}

// NewGuard puts a guard in front of next.
func NewGuard(tokens *TokenServer, next http.Handler) *Guard {
	return &Guard{Tokens: tokens, next: next, rejected: map[int]int{}, seen: map[string]bool{}}
}

func (g *Guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	code := 0
	if !ok {
		code = http.StatusUnauthorized
	} else {
		switch g.Tokens.Status(tok) {
		case Unknown:
			code = http.StatusUnauthorized
		case Expired:
			code = StatusAuthenticationTimeout
		}
	}
	g.mu.Lock()
	if code != 0 {
		g.rejected[code]++
	} else {
		g.admitted = append(g.admitted, Request{r.Method, r.URL.Path, r.Header.Clone()})
		g.seen[tok] = true
	}
	g.mu.Unlock()
	if code != 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
			"message": "token missing, unknown or expired", "type": "NotAuthorizedException", "code": code,
		}})
		return
	}
	g.next.ServeHTTP(w, r)
}

// Rejections counts the requests answered with code.
func (g *Guard) Rejections(code int) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.rejected[code]
}

// Requests lists the admitted requests in arrival order.
func (g *Guard) Requests() []Request {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]Request(nil), g.admitted...)
}

// DistinctTokens counts the different tokens admitted requests carried.
func (g *Guard) DistinctTokens() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.seen)
}

// Catalog is the local REST catalog (catalog/localcatalog) behind a Guard,
// on a loopback httptest server that also serves Tokens at TokenPath and
// GoogleTokenPath (outside the guard).
type Catalog struct {
	URL    string
	Tokens *TokenServer
	Guard  *Guard
}

// GoogleTokenURL is the token_uri for WriteServiceAccountKey.
func (c *Catalog) GoogleTokenURL() string { return c.URL + GoogleTokenPath }

// NewCatalog starts the guarded catalog; opts.Dir defaults to a temp dir.
// wrap, innermost first, goes between the guard and the catalog. Everything
// stops when t ends.
func NewCatalog(t testing.TB, tokens *TokenServer, opts localcatalog.Options, wrap ...func(http.Handler) http.Handler) *Catalog {
	t.Helper()
	if opts.Dir == "" {
		opts.Dir = t.TempDir()
	}
	h, err := localcatalog.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return Guarded(t, tokens, h, wrap...)
}

// Guarded serves h behind a guard as NewCatalog does, for catalogs other
// than a fresh local one, such as a reverse proxy to the embedded catalog
// that launch.Catalog starts.
func Guarded(t testing.TB, tokens *TokenServer, h http.Handler, wrap ...func(http.Handler) http.Handler) *Catalog {
	t.Helper()
	inner := h
	for _, w := range wrap {
		inner = w(inner)
	}
	g := NewGuard(tokens, inner)
	mux := http.NewServeMux()
	mux.Handle(TokenPath, tokens)
	mux.Handle(GoogleTokenPath, tokens)
	mux.Handle("/", g)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return &Catalog{URL: srv.URL, Tokens: tokens, Guard: g}
}

// NewFakeGCS starts fake-gcs-server with bucket, behind a guard. It returns
// the guard and the proxy's JSON API endpoint (for --gcs_endpoint).
func NewFakeGCS(t testing.TB, tokens *TokenServer, bucket string) (*Guard, string) {
	t.Helper()
	var g *Guard
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { g.ServeHTTP(w, r) }))
	t.Cleanup(proxy.Close)
	// fake-gcs-server reports ExternalURL as its URL, so pick its port here
	// to know where it really listens.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	srv, err := fakestorage.NewServerWithOptions(fakestorage.Options{
		Scheme: "http",
		Host:   "127.0.0.1",
		Port:   uint16(port),
		// Resumable-upload Location headers must point at the proxy too.
		ExternalURL: proxy.URL,
		Writer:      io.Discard,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	srv.CreateBucketWithOpts(fakestorage.CreateBucketOpts{Name: bucket})
	target, _ := url.Parse(fmt.Sprintf("http://127.0.0.1:%d", port))
	g = NewGuard(tokens, httputil.NewSingleHostReverseProxy(target))
	return g, proxy.URL + "/storage/v1/"
}

// VendHeader is the request header that asks VendCredentials for vended
// storage credentials, as X-Iceberg-Access-Delegation: vended-credentials
// asks BigLake.
const VendHeader = "X-Test-Vend"

// VendCredentials wraps a catalog so that table loads and creates (the
// answers that carry a LoadTableResult) for clients that send VendHeader:
// true carry vended GCS credentials (gcs.oauth2.token and
// gcs.oauth2.token-expires-at) from token.
func VendCredentials(token func() (string, time.Time)) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			load := r.Method == http.MethodGet && strings.Contains(r.URL.Path, "/tables/")
			create := r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/tables")
			if r.Header.Get(VendHeader) != "true" || !(load || create) {
				next.ServeHTTP(w, r)
				return
			}
			rec := httptest.NewRecorder()
			next.ServeHTTP(rec, r)
			// Raw values: decoding the metadata into any would turn 64-bit
			// snapshot ids into float64 and corrupt them.
			var body map[string]json.RawMessage
			if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &body) != nil {
				w.WriteHeader(rec.Code)
				w.Write(rec.Body.Bytes())
				return
			}
			tok, exp := token()
			body["config"], _ = json.Marshal(map[string]string{
				"gcs.oauth2.token":            tok,
				"gcs.oauth2.token-expires-at": strconv.FormatInt(exp.UnixMilli(), 10),
			})
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(body)
		})
	}
}
