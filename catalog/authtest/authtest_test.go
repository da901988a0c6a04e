package authtest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestGuardAndVend checks the guard's answers for missing, live and expired
// tokens, and that vending keeps the load answer intact: 64-bit snapshot
// ids must survive (a decode into any would round them through float64).
func TestGuardAndVend(t *testing.T) {
	tokens := NewTokenServer(time.Hour, 3600)
	const body = `{"metadata-location":"m","metadata":{"current-snapshot-id":8341462568104187459}}`
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, body) })
	env := Guarded(t, tokens, inner, VendCredentials(tokens.IssueWithExpiry))

	get := func(tok string, vend bool) (int, string) {
		req, _ := http.NewRequest(http.MethodGet, env.URL+"/v1/namespaces/ns/tables/t", nil)
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		if vend {
			req.Header.Set(VendHeader, "true")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, _ := get("", false); code != http.StatusUnauthorized {
		t.Errorf("no token: %d, want 401", code)
	}
	if code, _ := get("at-unknown", false); code != http.StatusUnauthorized {
		t.Errorf("unknown token: %d, want 401", code)
	}
	tok := tokens.Issue()
	if code, got := get(tok, false); code != http.StatusOK || got != body {
		t.Errorf("live token: %d %s", code, got)
	}
	code, got := get(tok, true)
	if code != http.StatusOK || !strings.Contains(got, "8341462568104187459") {
		t.Errorf("vended load changed the snapshot id: %d %s", code, got)
	}
	var vended struct {
		Config map[string]string `json:"config"`
	}
	if err := json.Unmarshal([]byte(got), &vended); err != nil || tokens.Status(vended.Config["gcs.oauth2.token"]) != Live {
		t.Errorf("no live vended token in %s (%v)", got, err)
	}
	tokens.ExpireAll()
	if code, _ := get(tok, false); code != StatusAuthenticationTimeout {
		t.Errorf("expired token: %d, want 419", code)
	}
	if n := env.Guard.Rejections(http.StatusUnauthorized); n != 2 {
		t.Errorf("%d 401s, want 2", n)
	}

	// The token endpoint: right and wrong client secrets.
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {ClientID}, "client_secret": {tokens.ClientSecret}, "scope": {"catalog"}}
	resp, err := http.PostForm(env.URL+TokenPath, form)
	if err != nil {
		t.Fatal(err)
	}
	var tr struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int    `json:"expires_in"`
	}
	json.NewDecoder(resp.Body).Decode(&tr)
	resp.Body.Close()
	if tokens.Status(tr.AccessToken) != Live || tr.ExpiresIn != 3600 {
		t.Errorf("token response %+v", tr)
	}
	form.Set("client_secret", "wrong")
	resp, err = http.PostForm(env.URL+TokenPath, form)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("wrong secret: %d, want 401", resp.StatusCode)
	}
}
