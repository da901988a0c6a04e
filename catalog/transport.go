package catalog

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/apache/iceberg-go/catalog/rest"
)

// statusAuthenticationTimeout is the non-standard 419 some catalogs answer
// when a token has expired.
const statusAuthenticationTimeout = 419

// transport is the http.RoundTripper under every catalog request (iceberg-go
// adds its own default headers above it). It sets the --header values and
// the Authorization header on every request, /v1/config included. When the
// catalog rejects a token (401, or 419 for an expired one) it renews the
// token and sends the request once more; iceberg-go itself would fail the
// call, and a streaming job outlives any one token. A repeated commit is
// safe: a rejected request did nothing, and the sink checks its commit id.
// Idempotent reads answered with 429 or 503 are retried with bounded
// backoff; writes are not, since the server may have acted on them.
type transport struct {
	base    http.RoundTripper
	headers map[string]string
	tokens  *tokenSource // nil for --auth=none

	maxRetries int           // for 429/503 on GET and HEAD
	backoff    time.Duration // first wait; doubles each retry
	maxBackoff time.Duration // cap on any one wait, Retry-After included
}

// catalogTransport is the connection pool of catalog clients. The default
// keeps two idle connections a host: a sink committing many tables at once
// would open (and, to a cloud catalog, handshake TLS for) a connection per
// request past the second.
var catalogTransport = func() http.RoundTripper {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 64
	return t
}()

func newTransport(base http.RoundTripper, headers map[string]string, tokens *tokenSource) *transport {
	if base == nil {
		base = catalogTransport
	}
	return &transport{
		base:       base,
		headers:    headers,
		tokens:     tokens,
		maxRetries: 5,
		backoff:    250 * time.Millisecond,
		maxBackoff: 10 * time.Second,
	}
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	body, err := replayableBody(req)
	if err != nil {
		return nil, err
	}
	idempotent := req.Method == http.MethodGet || req.Method == http.MethodHead
	renewed := false
	for retries := 0; ; {
		r := req.Clone(req.Context())
		r.Body = body()
		for k, v := range t.headers {
			r.Header.Set(k, v)
		}
		var used string
		if t.tokens != nil {
			tok, err := t.tokens.Token()
			if err != nil {
				return nil, err
			}
			used = tok.AccessToken
			r.Header.Set("Authorization", "Bearer "+used)
		}
		resp, err := t.base.RoundTrip(r)
		if err != nil {
			return nil, err
		}
		code := resp.StatusCode
		switch {
		case t.tokens != nil && (code == http.StatusUnauthorized || code == statusAuthenticationTimeout):
			if !t.tokens.refreshes() {
				return nil, staticTokenRejected(resp, used)
			}
			if renewed {
				return resp, nil // a fresh token was refused: not an expiry
			}
			drain(resp)
			t.tokens.invalidate(used)
			renewed = true
			continue
		case idempotent && (code == http.StatusTooManyRequests || code == http.StatusServiceUnavailable) && retries < t.maxRetries:
			wait := t.wait(retries, resp.Header.Get("Retry-After"))
			drain(resp)
			retries++
			timer := time.NewTimer(wait)
			select {
			case <-timer.C:
			case <-req.Context().Done():
				timer.Stop()
				return nil, req.Context().Err()
			}
			continue
		}
		return resp, nil
	}
}

// wait is the pause before retry n: the server's Retry-After when it gives
// one in seconds, else exponential backoff with jitter, capped either way.
func (t *transport) wait(n int, retryAfter string) time.Duration {
	if s, err := strconv.Atoi(strings.TrimSpace(retryAfter)); err == nil && s >= 0 {
		return min(time.Duration(s)*time.Second, t.maxBackoff)
	}
	d := t.backoff << n
	d += rand.N(d/2 + 1)
	return min(d, t.maxBackoff)
}

// replayableBody returns a function giving a fresh copy of req's body for
// each attempt, buffering the body when the request cannot recreate it.
func replayableBody(req *http.Request) (func() io.ReadCloser, error) {
	if req.Body == nil || req.Body == http.NoBody {
		return func() io.ReadCloser { return req.Body }, nil
	}
	if req.GetBody != nil {
		// Every attempt reads its own copy; the original is not needed.
		req.Body.Close()
		return func() io.ReadCloser {
			b, err := req.GetBody()
			if err != nil {
				return io.NopCloser(errReader{err})
			}
			return b
		}, nil
	}
	b, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("catalog: buffering the body of %s %s: %w", req.Method, req.URL.Redacted(), err)
	}
	return func() io.ReadCloser { return io.NopCloser(bytes.NewReader(b)) }, nil
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// drain lets the connection be reused before the retry.
func drain(resp *http.Response) {
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
}

// staticTokenRejected explains a rejected --auth=bearer token: most likely
// it expired, and only the user can get a new one.
func staticTokenRejected(resp *http.Response, token string) error {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	resp.Body.Close()
	said := strings.TrimSpace(string(b))
	if token != "" {
		said = strings.ReplaceAll(said, token, redacted)
	}
	status := http.StatusText(resp.StatusCode)
	if resp.StatusCode == statusAuthenticationTimeout {
		status = "Authentication Timeout"
	}
	msg := fmt.Sprintf("(HTTP %d %s); --auth=bearer tokens are never refreshed, so it has most likely expired: pass a fresh --token, or use --auth=google or --auth=oauth2 --credential=ID:SECRET, which renew tokens themselves",
		resp.StatusCode, status)
	if said != "" {
		msg += "; the catalog said: " + said
	}
	return fmt.Errorf("catalog: %w %s", ErrStaticTokenRejected, msg)
}

// ErrStaticTokenRejected is in the error of a request whose --auth=bearer
// token the catalog refused. Nothing renews such a token, so repeating the
// request cannot help.
var ErrStaticTokenRejected = errors.New("the catalog rejected the static --token")

// CommitStateUnknown reports errors of a commit request after which the
// commit may or may not have been applied (5xx answers, transport failures),
// so that a committer looks for it before retrying or cleaning up.
func CommitStateUnknown(err error) bool {
	if errors.Is(err, ErrStaticTokenRejected) {
		return false // refused before it reached the catalog's logic
	}
	var nerr net.Error
	return errors.Is(err, rest.ErrCommitStateUnknown) || errors.Is(err, rest.ErrServerError) ||
		errors.Is(err, rest.ErrServiceUnavailable) || errors.As(err, &nerr)
}

// Sleep waits about d, plus up to d of jitter so that retrying workers
// spread out, or until ctx ends.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d + rand.N(d))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
