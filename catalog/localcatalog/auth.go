package localcatalog

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// TokenPath is the OAuth2 token endpoint the server serves when
// Options.Clients is set: the REST spec's /v1/oauth/tokens, which is where
// Iceberg clients (and icebeam's --auth=oauth2) look by default.
const TokenPath = "/v1/oauth/tokens"

// DefaultTokenTTL is the lifetime of issued tokens when Options.TokenTTL is 0.
const DefaultTokenTTL = time.Hour

// maxLiveTokens bounds the issued tokens kept in memory. Issuing one more
// evicts the oldest, which is also the one closest to expiry; a client whose
// token was evicted gets 401 and fetches a new one.
var maxLiveTokens = 100_000

// maxTokenRequest bounds the form body of a token request.
const maxTokenRequest = 64 << 10

const (
	clientCredentialsGrant = "client_credentials"
	tokenExchangeGrant     = "urn:ietf:params:oauth:grant-type:token-exchange"
	accessTokenType        = "urn:ietf:params:oauth:token-type:access_token"
)

// authenticator admits requests that carry a valid bearer token and serves
// the token endpoint for the configured OAuth2 clients.
type authenticator struct {
	next    http.Handler
	static  *[sha256.Size]byte // hash of Options.Token; nil if unset
	clients map[string][sha256.Size]byte
	ttl     time.Duration

	mu     sync.Mutex
	live   map[[sha256.Size]byte]time.Time // hash of token -> expiry
	issued []issuedToken                   // in issue order, so in expiry order
}

type issuedToken struct {
	key    [sha256.Size]byte
	expiry time.Time
}

// Authenticate wraps next so that, when opts configures authentication
// (Options.Token or Options.Clients), every request must carry
// "Authorization: Bearer <token>" and the token endpoint (TokenPath) is
// served for Options.Clients. Requests without a valid token are answered
// 401 with a NotAuthorizedException in the REST error model. Without
// authentication options it returns next itself. Listen uses it; programs
// that mount Handler themselves may too.
func Authenticate(next http.Handler, opts Options) (http.Handler, error) {
	a, err := newAuthenticator(opts)
	if err != nil || a == nil {
		return next, err
	}
	a.next = next
	return a, nil
}

// newAuthenticator checks the authentication options and returns nil when
// there are none.
func newAuthenticator(opts Options) (*authenticator, error) {
	if opts.TokenTTL < 0 {
		return nil, fmt.Errorf("localcatalog: Options.TokenTTL is negative (%v)", opts.TokenTTL)
	}
	if opts.Token == "" && len(opts.Clients) == 0 {
		return nil, nil
	}
	a := &authenticator{ttl: opts.TokenTTL, live: map[[sha256.Size]byte]time.Time{}}
	if a.ttl == 0 {
		a.ttl = DefaultTokenTTL
	}
	if opts.Token != "" {
		h := sha256.Sum256([]byte(opts.Token))
		a.static = &h
	}
	if len(opts.Clients) > 0 {
		a.clients = make(map[string][sha256.Size]byte, len(opts.Clients))
		for id, secret := range opts.Clients {
			if secret == "" {
				return nil, fmt.Errorf("localcatalog: Options.Clients: client %q has an empty secret", id)
			}
			a.clients[id] = sha256.Sum256([]byte(secret))
		}
	}
	return a, nil
}

func (a *authenticator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if a.clients != nil && r.URL.Path == TokenPath {
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		a.serveToken(rec, r)
		// Never the form: it holds the client secret.
		slog.Debug("localcatalog", "method", r.Method, "path", r.URL.Path, "status", rec.status)
		return
	}
	tok, ok := bearerToken(r)
	if !ok {
		a.reject(w, r, "Not authorized: missing bearer token (Authorization: Bearer <token>)", "Bearer")
		return
	}
	if msg := a.check(tok); msg != "" {
		a.reject(w, r, msg, `Bearer error="invalid_token"`)
		return
	}
	a.next.ServeHTTP(w, r)
}

// bearerToken returns the token of an "Authorization: Bearer" header.
func bearerToken(r *http.Request) (string, bool) {
	scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	tok = strings.TrimSpace(tok)
	return tok, tok != ""
}

// check returns "" for a valid token and the reason it was refused
// otherwise. Tokens are compared by their SHA-256: the static one in
// constant time, issued ones by map lookup, whose timing tells nothing
// about the tokens themselves.
func (a *authenticator) check(tok string) string {
	h := sha256.Sum256([]byte(tok))
	if a.static != nil && subtle.ConstantTimeCompare(h[:], a.static[:]) == 1 {
		return ""
	}
	if a.clients == nil {
		return "Not authorized: invalid token"
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	exp, ok := a.live[h]
	switch {
	case !ok:
		return "Not authorized: invalid or expired token"
	case !time.Now().Before(exp):
		delete(a.live, h)
		return "Not authorized: token expired"
	}
	return ""
}

// reject answers 401 in the REST error model with a Bearer challenge.
func (a *authenticator) reject(w http.ResponseWriter, r *http.Request, msg, challenge string) {
	w.Header().Set("WWW-Authenticate", challenge)
	const code = http.StatusUnauthorized
	if r.Method == http.MethodHead {
		w.WriteHeader(code)
	} else {
		writeJSON(w, code, map[string]restError{"error": {Message: msg, Type: "NotAuthorizedException", Code: code}})
	}
	// Never headers: they hold the token that was refused.
	slog.Debug("localcatalog", "method", r.Method, "path", r.URL.Path, "status", code)
}

// oauthError answers a token request as RFC 6749 section 5.2 says.
func oauthError(w http.ResponseWriter, code int, kind, desc string) {
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, code, map[string]string{"error": kind, "error_description": desc})
}

// serveToken is the client-credentials grant of RFC 6749 section 4.4, with
// the client authenticated by HTTP Basic or by client_id and client_secret
// in the form body (section 2.3.1), as Iceberg's clients send them.
func (a *authenticator) serveToken(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		oauthError(w, http.StatusMethodNotAllowed, "invalid_request", "the token endpoint takes POST")
		return
	}
	ct := strings.ToLower(strings.TrimSpace(strings.Split(r.Header.Get("Content-Type"), ";")[0]))
	if ct != "application/x-www-form-urlencoded" {
		oauthError(w, http.StatusBadRequest, "invalid_request", "the body must be application/x-www-form-urlencoded")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxTokenRequest)
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", "malformed form body")
		return
	}
	form := r.PostForm // never the query string: secrets do not belong in URLs
	grant := form.Get("grant_type")
	switch {
	case grant == "":
		oauthError(w, http.StatusBadRequest, "invalid_request", "grant_type is missing")
		return
	case grant == tokenExchangeGrant:
		// Iceberg's Java client refreshes a token by exchanging it (RFC
		// 8693) before it expires: a live token buys a fresh one.
		if form.Get("subject_token") == "" || a.check(form.Get("subject_token")) != "" {
			oauthError(w, http.StatusBadRequest, "invalid_grant", "subject_token is not a live token of this server")
			return
		}
		a.grant(w, form)
		return
	case grant != clientCredentialsGrant:
		oauthError(w, http.StatusBadRequest, "unsupported_grant_type",
			fmt.Sprintf("grant_type %q is not supported; use client_credentials", grant))
		return
	}
	id, secret, basic := r.BasicAuth()
	_, inForm := form["client_secret"]
	switch {
	case basic && inForm:
		oauthError(w, http.StatusBadRequest, "invalid_request", "client authenticated both by HTTP Basic and in the body")
		return
	case basic:
		// RFC 6749 section 2.3.1: id and secret are form-encoded before
		// Basic encoding. Clients that skip that are accepted too.
		if a.clientOK(id, secret) {
			break
		}
		uid, err1 := url.QueryUnescape(id)
		usecret, err2 := url.QueryUnescape(secret)
		if err1 != nil || err2 != nil || !a.clientOK(uid, usecret) {
			w.Header().Set("WWW-Authenticate", `Basic realm="iceberg"`)
			oauthError(w, http.StatusUnauthorized, "invalid_client", "unknown client or wrong secret")
			return
		}
	default:
		if !a.clientOK(form.Get("client_id"), form.Get("client_secret")) {
			oauthError(w, http.StatusUnauthorized, "invalid_client", "unknown client or wrong secret")
			return
		}
	}
	a.grant(w, form)
}

// grant issues a token and answers the token request with it.
func (a *authenticator) grant(w http.ResponseWriter, form url.Values) {
	tok, err := a.issue()
	if err != nil {
		slog.Error("localcatalog: issuing a token", "error", err)
		oauthError(w, http.StatusInternalServerError, "server_error", "could not issue a token")
		return
	}
	resp := map[string]any{
		"access_token":      tok,
		"token_type":        "bearer",
		"expires_in":        max(1, int64(a.ttl/time.Second)),
		"issued_token_type": accessTokenType,
	}
	// Every client may do everything: the scope asked for is granted.
	if scope := form.Get("scope"); scope != "" {
		resp["scope"] = scope
	}
	b, _ := json.Marshal(resp)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Pragma", "no-cache")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
}

// clientOK checks a client's secret in constant time (for known ids; which
// ids exist is not secret).
func (a *authenticator) clientOK(id, secret string) bool {
	want, ok := a.clients[id]
	got := sha256.Sum256([]byte(secret))
	return subtle.ConstantTimeCompare(got[:], want[:]) == 1 && ok
}

// issue makes a new random token valid for the TTL. It first forgets
// expired tokens, then, at maxLiveTokens, the oldest live ones.
func (a *authenticator) issue() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	tok := base64.RawURLEncoding.EncodeToString(b[:])
	key := sha256.Sum256([]byte(tok))
	now := time.Now()

	a.mu.Lock()
	defer a.mu.Unlock()
	evicted := 0
	for len(a.issued) > 0 && (!now.Before(a.issued[0].expiry) || len(a.live) >= maxLiveTokens) {
		if now.Before(a.issued[0].expiry) {
			if _, ok := a.live[a.issued[0].key]; ok {
				evicted++
			}
		}
		delete(a.live, a.issued[0].key)
		a.issued[0] = issuedToken{}
		a.issued = a.issued[1:]
	}
	if evicted > 0 {
		slog.Warn("localcatalog: too many live tokens; the oldest were revoked", "revoked", evicted, "limit", maxLiveTokens)
	}
	exp := now.Add(a.ttl)
	a.live[key] = exp
	a.issued = append(a.issued, issuedToken{key: key, expiry: exp})
	return tok, nil
}

// liveTokens counts the tokens kept, for tests.
func (a *authenticator) liveTokens() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.live)
}
