package localcatalog

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestTokenStoreBounded: expired tokens are forgotten when tokens are
// issued, and at maxLiveTokens the oldest live token gives way.
func TestTokenStoreBounded(t *testing.T) {
	prev := maxLiveTokens
	maxLiveTokens = 3
	t.Cleanup(func() { maxLiveTokens = prev })

	a, err := newAuthenticator(Options{Clients: map[string]string{"c": "s"}, TokenTTL: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	a.next = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	status := func(tok string) int {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", "/v1/config", nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		a.ServeHTTP(rec, req)
		return rec.Code
	}
	var toks []string
	for range 5 {
		tok, err := a.issue()
		if err != nil {
			t.Fatal(err)
		}
		toks = append(toks, tok)
		if n := a.liveTokens(); n > 3 {
			t.Fatalf("%d live tokens, limit 3", n)
		}
	}
	for i, tok := range toks {
		want := http.StatusNoContent
		if i < 2 {
			want = http.StatusUnauthorized // the two oldest were evicted
		}
		if got := status(tok); got != want {
			t.Errorf("token %d: status %d, want %d", i, got, want)
		}
	}

	// Expired tokens are pruned on the next issue, leaving only the new one.
	b, err := newAuthenticator(Options{Clients: map[string]string{"c": "s"}, TokenTTL: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := b.issue(); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(40 * time.Millisecond)
	if _, err := b.issue(); err != nil {
		t.Fatal(err)
	}
	if n, q := b.liveTokens(), len(b.issued); n != 1 || q != 1 {
		t.Errorf("after expiry: %d live tokens, %d queued, want 1 and 1", n, q)
	}
}
