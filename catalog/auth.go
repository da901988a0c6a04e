package catalog

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
	"golang.org/x/oauth2/google"
)

// tokenFetchTimeout bounds one request to a token endpoint: oauth2 token
// sources take no context, so this is what keeps a stalled endpoint from
// hanging every catalog call behind it.
const tokenFetchTimeout = time.Minute

// maxEarlyRefresh is how long before expiry a token is renewed at most;
// shorter-lived tokens are renewed when a third of their life is left, so a
// request that waits a little between taking the token and reaching the
// server still arrives in time (Cloud Storage requests are not retried on
// 401).
const maxEarlyRefresh = time.Minute

// tokenSource caches one access token, renews it shortly before it expires
// and can be told that a server rejected it. Every fetch asks the token
// endpoint anew: the oauth2 library's own sources cache their token until
// ten seconds before expiry and could not be forced to renew after a 401.
type tokenSource struct {
	mode  string // AuthGoogle, AuthOAuth2 or AuthBearer
	fetch func() (*oauth2.Token, error)

	mu      sync.Mutex
	tok     *oauth2.Token
	fetched time.Time
	fetches int
}

// Token returns the current token, fetching a new one when there is none or
// it is about to expire.
func (s *tokenSource) Token() (*oauth2.Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	if s.tok != nil && !s.expiring(now) {
		return s.tok, nil
	}
	tok, err := s.fetch()
	if err != nil {
		return nil, err
	}
	s.tok, s.fetched = tok, now
	s.fetches++
	return tok, nil
}

func (s *tokenSource) expiring(now time.Time) bool {
	if s.mode == AuthBearer || s.tok.Expiry.IsZero() {
		return false
	}
	margin := min(maxEarlyRefresh, s.tok.Expiry.Sub(s.fetched)/3)
	return !now.Before(s.tok.Expiry.Add(-margin))
}

// invalidate drops the token a server rejected, if it is still the current
// one, so the next Token call fetches a new one. Requests rejected together
// with the same token thus cause one refresh, not one each.
func (s *tokenSource) invalidate(rejected string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tok != nil && s.tok.AccessToken == rejected {
		s.tok = nil
	}
}

// refreshes reports whether rejected tokens can be replaced.
func (s *tokenSource) refreshes() bool { return s.mode != AuthBearer }

// sources holds the token sources sharedTokenSource made, by credentials.
var sources processCache[*tokenSource]

// TokenSource returns the token source cfg's --auth describes, or nil for
// --auth=none. Tokens from google and oauth2 sources are renewed before they
// expire for as long as the process runs; a bearer source returns the static
// --token. Every catalog connection and storage client in this process that
// uses the same credentials shares one source, so one refresh serves all.
// Workers call this with the Config they were given: each builds its own
// source from its own credentials (the worker's service account for google).
// Tokens are fetched on a context of their own, not ctx, because they
// outlive the call that first asks for them.
func TokenSource(ctx context.Context, cfg Config) (oauth2.TokenSource, error) {
	ep, err := authEndpoint(cfg)
	if err != nil {
		return nil, err
	}
	s, err := sharedTokenSource(cfg, ep)
	if s == nil || err != nil {
		return nil, err // a nil *tokenSource must not become a non-nil interface
	}
	return s, nil
}

// authEndpoint resolves what authentication needs, also for a Config that
// still waits for Launch to start the embedded catalog.
func authEndpoint(cfg Config) (endpoint, error) {
	if cfg.Embedded() {
		ep := endpoint{}
		return ep, cfg.resolveAuth(&ep)
	}
	return cfg.resolve()
}

// sharedTokenSource returns the process's token source for cfg, creating
// and testing it on first use so misconfiguration fails at Open.
func sharedTokenSource(cfg Config, ep endpoint) (*tokenSource, error) {
	if ep.auth == AuthNone {
		return nil, nil
	}
	// The key holds the secret reference or literal; it never leaves the
	// process.
	key := strings.Join([]string{ep.auth, ep.tokenURL, ep.scope, string(cfg.Credential), string(cfg.Token)}, "\x00")
	return sources.get(key, func() (*tokenSource, error) {
		s, err := newTokenSource(cfg, ep)
		if err != nil {
			return nil, err
		}
		if _, err := s.Token(); err != nil {
			return nil, err
		}
		return s, nil
	})
}

func newTokenSource(cfg Config, ep endpoint) (*tokenSource, error) {
	// Token requests outlive the request that triggered them (the token is
	// shared), so they run on their own context with their own timeout.
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, &http.Client{Timeout: tokenFetchTimeout})
	switch ep.auth {
	case AuthGoogle:
		return &tokenSource{mode: AuthGoogle, fetch: func() (*oauth2.Token, error) {
			// A fresh lookup each time: the credentials' own token
			// source would hand back its cached token.
			creds, err := google.FindDefaultCredentials(ctx, ep.scope)
			if err != nil {
				return nil, fmt.Errorf("catalog: --auth=google: %w", err)
			}
			tok, err := creds.TokenSource.Token()
			if err != nil {
				return nil, fmt.Errorf("catalog: --auth=google: getting an access token: %w", err)
			}
			return tok, nil
		}}, nil
	case AuthOAuth2:
		cred, err := cfg.Credential.Resolve("credential")
		if err != nil {
			return nil, err
		}
		id, secret, ok := strings.Cut(cred, ":")
		if !ok {
			// As Iceberg's clients do: a credential without a colon is a
			// secret without a client id.
			id, secret = "", cred
		}
		cc := &clientcredentials.Config{
			ClientID:     id,
			ClientSecret: secret,
			TokenURL:     ep.tokenURL,
			Scopes:       []string{ep.scope},
			// Iceberg's clients send the client id and secret in the form
			// body, so catalogs' token endpoints expect them there.
			AuthStyle: oauth2.AuthStyleInParams,
		}
		return &tokenSource{mode: AuthOAuth2, fetch: func() (*oauth2.Token, error) {
			tok, err := cc.Token(ctx)
			if err != nil {
				return nil, fmt.Errorf("catalog: --auth=oauth2: getting a token from %s: %w", ep.tokenURL, err)
			}
			return tok, nil
		}}, nil
	case AuthBearer:
		tok, err := cfg.Token.Resolve("token")
		if err != nil {
			return nil, err
		}
		slog.Warn("catalog: --auth=bearer uses a static token that will expire and is never refreshed; long-running pipelines should use --auth=google or --auth=oauth2")
		t := &oauth2.Token{AccessToken: tok, TokenType: "Bearer"}
		return &tokenSource{mode: AuthBearer, fetch: func() (*oauth2.Token, error) { return t, nil }}, nil
	}
	return nil, fmt.Errorf("catalog: unknown --auth=%q", ep.auth)
}
