package catalog

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/catalog/localcatalog"
)

// TestOAuth2AgainstLocalCatalog: the pipelines' own client (--auth=oauth2
// --credential=ID:SECRET, token endpoint defaulted from the URI) works
// against the local catalog's own token endpoint, which `icebeam serve
// --client_credential` turns on, and renews its tokens across several
// server-side lifetimes.
func TestOAuth2AgainstLocalCatalog(t *testing.T) {
	ctx := context.Background()
	const id, secret = "pipeline", "local-oauth2-secret-9f3b"
	srv, err := localcatalog.Listen("127.0.0.1:0", localcatalog.Options{
		Dir:      t.TempDir(),
		Clients:  map[string]string{id: secret},
		TokenTTL: 1500 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })

	// Without credentials the server refuses.
	rsp, err := http.Get(srv.URL() + "/v1/config")
	if err != nil {
		t.Fatal(err)
	}
	rsp.Body.Close()
	if rsp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("GET /v1/config without a token: %d, want 401", rsp.StatusCode)
	}

	// A wrong secret fails at Open, naming the problem.
	_, err = Open(ctx, Config{URI: srv.URL(), Auth: AuthOAuth2, Credential: Secret(id + ":wrong-secret")})
	if err == nil || !strings.Contains(err.Error(), "invalid_client") {
		t.Fatalf("Open with a wrong secret: %v, want an invalid_client error", err)
	}

	cat, err := Open(ctx, Config{URI: srv.URL(), Auth: AuthOAuth2, Credential: Secret(id + ":" + secret)})
	if err != nil {
		t.Fatal(err)
	}
	if err := cat.CreateNamespace(ctx, table.Identifier{"authed"}, nil); err != nil {
		t.Fatalf("creating a namespace: %v", err)
	}
	createTable(t, cat, "authed2", "t")

	// Keep using the catalog across two token lifetimes: the client must
	// renew (or, on a 401, refetch) its token.
	deadline := time.Now().Add(3500 * time.Millisecond)
	for i := 0; time.Now().Before(deadline); i++ {
		ok, err := cat.CheckNamespaceExists(ctx, table.Identifier{"authed"})
		if err != nil || !ok {
			t.Fatalf("check %d after %v: exists=%v, %v", i, time.Until(deadline), ok, err)
		}
		if _, err := cat.LoadTable(ctx, table.Identifier{"authed2", "t"}); err != nil {
			t.Fatalf("load %d: %v", i, err)
		}
		time.Sleep(200 * time.Millisecond)
	}

	// Seen without the client: a token fetched by hand lists the namespaces.
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {id}, "client_secret": {secret}}
	rsp, err = http.PostForm(srv.URL()+"/v1/oauth/tokens", form)
	if err != nil {
		t.Fatal(err)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	err = json.NewDecoder(rsp.Body).Decode(&tok)
	rsp.Body.Close()
	if err != nil || rsp.StatusCode != http.StatusOK {
		t.Fatalf("token request: %d, %v", rsp.StatusCode, err)
	}
	req, _ := http.NewRequest("GET", srv.URL()+"/v1/namespaces", nil)
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	rsp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(rsp.Body)
	rsp.Body.Close()
	if rsp.StatusCode != http.StatusOK || !strings.Contains(string(body), `["authed"]`) {
		t.Fatalf("GET /v1/namespaces: %d %s, want authed listed", rsp.StatusCode, body)
	}
	assertNotLogged(t, []string{secret, tok.AccessToken})
}

// TestBearerAgainstLocalCatalog: --auth=bearer with the static token of
// `icebeam serve --token`.
func TestBearerAgainstLocalCatalog(t *testing.T) {
	ctx := context.Background()
	const token = "local-static-token-77c1"
	srv, err := localcatalog.Listen("127.0.0.1:0", localcatalog.Options{Dir: t.TempDir(), Token: token})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })

	if _, err := Open(ctx, Config{URI: srv.URL(), Auth: AuthBearer, Token: "not-" + token}); err == nil {
		t.Fatal("Open with a wrong bearer token succeeded")
	}
	cat, err := Open(ctx, Config{URI: srv.URL(), Auth: AuthBearer, Token: token})
	if err != nil {
		t.Fatal(err)
	}
	if err := cat.CreateNamespace(ctx, table.Identifier{"b"}, nil); err != nil {
		t.Fatalf("creating a namespace: %v", err)
	}
	ok, err := cat.CheckNamespaceExists(ctx, table.Identifier{"b"})
	if err != nil || !ok {
		t.Fatalf("namespace b: exists=%v, %v", ok, err)
	}
	assertNotLogged(t, []string{token})
}
