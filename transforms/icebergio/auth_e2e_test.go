package icebergio

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"log"
	"log/slog"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/catalog/authtest"
	"github.com/icebeam/icebeam/catalog/localcatalog"
	ilaunch "github.com/icebeam/icebeam/internal/launch"
	clickgen "github.com/icebeam/icebeam/transforms/clicks"
)

// End-to-end token refresh: streaming pipelines on prism commit through a
// catalog that admits only live tokens lasting about two seconds, so one run
// spans many token lifetimes.

const (
	e2eInterval = 5 * time.Millisecond
	e2eDuration = 10 * time.Second
	e2eTrigger  = 1500 * time.Millisecond
	e2eTable    = "web.clicks"
)

// logCapture collects everything logged through slog and the standard log
// package (prism, the SDK harness, iceberg-go, icebeam) while a test runs.
type logCapture struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (c *logCapture) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.Write(p)
}

func (c *logCapture) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.String()
}

func captureLogs(t *testing.T) *logCapture {
	c := &logCapture{}
	prevSlog, prevOut, prevFlags := slog.Default(), log.Writer(), log.Flags()
	slog.SetDefault(slog.New(slog.NewTextHandler(c, &slog.HandlerOptions{Level: slog.LevelDebug})))
	log.SetOutput(c)
	t.Cleanup(func() {
		slog.SetDefault(prevSlog)
		log.SetOutput(prevOut)
		log.SetFlags(prevFlags)
	})
	return c
}

// base64Run finds what may be base64 inside logged text (prism logs the
// pipeline proto, whose DoFn payloads are base64).
var base64Run = regexp.MustCompile(`[A-Za-z0-9+/_-]{40,}={0,2}`)

// requireNoSecret fails if any secret appears in the logs or in extra text,
// as is or base64-encoded.
func requireNoSecret(t *testing.T, logs *logCapture, secrets []string, extra ...string) {
	t.Helper()
	all := logs.String() + "\n" + strings.Join(extra, "\n")
	require.NotEmpty(t, logs.String(), "nothing was logged: the capture is not working")
	var decoded []string
	for _, run := range base64Run.FindAllString(all, -1) {
		run = strings.TrimRight(run, "=")
		// A run may start with the tail of an escape such as \x07: try
		// every alignment.
		for off := 0; off < 4 && off < len(run); off++ {
			for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
				sub := run[off:]
				sub = sub[:len(sub)/4*4]
				if b, err := enc.DecodeString(sub); err == nil {
					decoded = append(decoded, string(b))
				}
			}
		}
	}
	all += "\n" + strings.Join(decoded, "\n")
	for _, s := range secrets {
		if s != "" && strings.Contains(all, s) {
			t.Errorf("secret %.8s... appears in the logs or errors", s)
		}
	}
}

// secretRef puts value in an environment variable for the test and returns
// the env: reference the pipeline gets instead of the literal. A literal
// travels inside the serialized DoFn, and Beam's universal runner logs the
// whole pipeline proto (DoFn payloads base64-encoded) at debug level, where
// requireNoSecret finds it; a reference keeps the value out of the job.
func secretRef(t *testing.T, name, value string) catalog.Secret {
	t.Setenv(name, value)
	return catalog.Secret("env:" + name)
}

// runClicks streams clicks into e2eTable through cfg on prism and returns
// the commit results and the pipeline's error.
func runClicks(t *testing.T, cfg catalog.Config) ([]CommitResult, error) {
	t.Helper()
	p, s := beam.NewPipelineWithRoot()
	rows := clickgen.Generate(s, clickgen.Config{Interval: e2eInterval, Duration: e2eDuration})
	res := Write(s, Config{Catalog: cfg, Table: e2eTable, TriggeringFrequency: e2eTrigger}, rows)
	got := collect(s, res)
	start := time.Now()
	err := ptest.Run(p)
	t.Logf("pipeline ran %v", time.Since(start).Round(time.Millisecond))
	return got(), err
}

// clickKey counts rows per (user_id, click_count).
type clickKey struct {
	user  string
	count int64
}

// expectedClicks is the example's stream written out by hand: row i has
// user "user-<i mod 10>" and click_count i mod 100.
func expectedClicks(n int) map[clickKey]int {
	want := map[clickKey]int{}
	for i := 0; i < n; i++ {
		want[clickKey{fmt.Sprintf("user-%d", i%10), int64(i % 100)}]++
	}
	return want
}

func countClicks(rows []clickgen.Click) map[clickKey]int {
	got := map[clickKey]int{}
	for _, r := range rows {
		got[clickKey{r.UserID, r.ClickCount}]++
	}
	return got
}

// checkExactlyOnce reads the table back and checks every generated row is
// there exactly once, each snapshot is one pane with its own commit id, and
// the snapshots add up to the table.
func checkExactlyOnce(t *testing.T, cat catalog.Config, res []CommitResult) *table.Table {
	t.Helper()
	n := int(e2eDuration / e2eInterval)
	tbl := loadTable(t, openCat(t, cat), e2eTable)
	got := readRows[clickgen.Click](t, tbl)
	require.Len(t, got, n)
	require.Equal(t, expectedClicks(n), countClicks(got))

	ids := map[string]bool{}
	var added int
	for _, sn := range tbl.Metadata().Snapshots() {
		id := sn.Summary.Properties[CommitIDKey]
		require.NotEmpty(t, id, "snapshot %d has no commit id", sn.SnapshotID)
		require.False(t, ids[id], "commit id %s twice", id)
		ids[id] = true
		k, err := strconv.Atoi(sn.Summary.Properties["added-records"])
		require.NoError(t, err)
		added += k
	}
	require.Equal(t, n, added)
	var committed int64
	for _, r := range res {
		require.False(t, r.Skipped, "no bundle was retried, so nothing may be skipped")
		committed += r.Rows
	}
	require.EqualValues(t, n, committed)
	require.Len(t, res, len(ids), "one result per commit")
	require.GreaterOrEqual(t, len(ids), 4, "a %v stream with a %v trigger commits several times", e2eDuration, e2eTrigger)
	return tbl
}

// checkRefreshed checks the run used many tokens and that any 419 (a token
// that expired in flight) was absorbed: the guard never answered 401.
func checkRefreshed(t *testing.T, env *authtest.Catalog) {
	t.Helper()
	issued, distinct := env.Tokens.Issued(), env.Guard.DistinctTokens()
	r401, r419 := env.Guard.Rejections(http.StatusUnauthorized), env.Guard.Rejections(authtest.StatusAuthenticationTimeout)
	t.Logf("catalog: %d requests admitted with %d distinct tokens (%d issued); %d answered 419, %d answered 401",
		len(env.Guard.Requests()), distinct, issued, r419, r401)
	require.GreaterOrEqual(t, distinct, 3, "a %v run with %v tokens must renew them", e2eDuration, env.Tokens.Lifetime)
	require.Zero(t, r401, "requests without a known token")
}

func TestTokenRefreshOAuth2(t *testing.T) {
	logs := captureLogs(t)
	// Tokens live 2 s but are advertised for 6 s, as a client with a slow
	// clock would see them: the client renews them at 4 s, so requests in
	// between meet 419 and must be replayed with a new token.
	tokens := authtest.NewTokenServer(2*time.Second, 6)
	env := authtest.NewCatalog(t, tokens, localcatalog.Options{})
	cfg := catalog.Config{URI: env.URL, Auth: catalog.AuthOAuth2, Credential: secretRef(t, "ICEBEAM_E2E_CREDENTIAL", tokens.Credential())}

	res, err := runClicks(t, cfg)
	require.NoError(t, err)
	checkExactlyOnce(t, cfg, res)
	checkRefreshed(t, env)
	require.Positive(t, env.Guard.Rejections(authtest.StatusAuthenticationTimeout), "skewed expiry must have caused 419s, all absorbed")
	for _, s := range tokens.Scopes() {
		require.Equal(t, "catalog", s)
	}
	requireNoSecret(t, logs, append(tokens.Tokens(), tokens.ClientSecret))
}

func TestTokenRefreshGoogle(t *testing.T) {
	logs := captureLogs(t)
	tokens := authtest.NewTokenServer(2*time.Second, 2)
	env := authtest.NewCatalog(t, tokens, localcatalog.Options{})
	keyFile := tokens.WriteServiceAccountKey(t, env.GoogleTokenURL())
	t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", keyFile)
	cfg := catalog.Config{URI: env.URL, Auth: catalog.AuthGoogle}

	res, err := runClicks(t, cfg)
	require.NoError(t, err)
	checkExactlyOnce(t, cfg, res)
	checkRefreshed(t, env)
	require.GreaterOrEqual(t, tokens.JWTGrants(), 3, "tokens come from signed service-account grants")
	key, err := os.ReadFile(keyFile)
	require.NoError(t, err)
	requireNoSecret(t, logs, append(tokens.Tokens(), privateKeyLines(string(key))...))
}

// privateKeyLines returns the base64 lines of the PEM key in a key file's
// JSON, where newlines are escaped.
func privateKeyLines(keyJSON string) []string {
	var out []string
	for _, l := range strings.Split(keyJSON, `\n`) {
		if len(l) == 64 && !strings.ContainsAny(l, " -\"") {
			out = append(out, l)
		}
	}
	return out
}

func TestStaticBearerTokenFailsClearly(t *testing.T) {
	logs := captureLogs(t)
	// The token outlives the first commits, then expires mid-stream.
	tokens := authtest.NewTokenServer(4*time.Second, 4)
	env := authtest.NewCatalog(t, tokens, localcatalog.Options{})
	tok := tokens.Issue()
	cfg := catalog.Config{URI: env.URL, Auth: catalog.AuthBearer, Token: secretRef(t, "ICEBEAM_E2E_TOKEN", tok)}

	start := time.Now()
	res, err := runClicks(t, cfg)
	require.Error(t, err, "a static token cannot outlive its expiry")
	msg := err.Error()
	for _, l := range strings.Split(msg, "\n") {
		if strings.Contains(l, "static --token") {
			t.Logf("failed after %v: %s", time.Since(start).Round(time.Millisecond), strings.TrimSpace(l))
		}
	}
	for _, want := range []string{"static --token", "expired", "--auth=oauth2"} {
		require.Contains(t, msg, want)
	}
	require.Less(t, time.Since(start), e2eDuration+5*time.Second, "the failure ends the job, not a hang")
	require.Equal(t, 1, tokens.Issued(), "a static token is never renewed")
	require.Positive(t, env.Guard.Rejections(authtest.StatusAuthenticationTimeout))

	// Nothing partial: whatever was committed before the expiry is whole
	// panes, each once, and the table holds exactly their rows.
	reader := catalog.Config{URI: env.URL, Auth: catalog.AuthOAuth2, Credential: catalog.Secret(tokens.Credential())}
	cat := openCat(t, reader)
	ident, _ := parseIdent(e2eTable)
	tbl, lerr := cat.LoadTable(context.Background(), ident)
	if lerr != nil {
		t.Logf("table never created: %v", lerr)
		return
	}
	got := readRows[clickgen.Click](t, tbl)
	var added int
	ids := map[string]bool{}
	for _, sn := range tbl.Metadata().Snapshots() {
		id := sn.Summary.Properties[CommitIDKey]
		require.NotEmpty(t, id)
		require.False(t, ids[id])
		ids[id] = true
		k, _ := strconv.Atoi(sn.Summary.Properties["added-records"])
		added += k
	}
	require.Equal(t, added, len(got), "rows in the table = rows the snapshots added")
	for k, c := range countClicks(got) {
		require.LessOrEqual(t, c, expectedClicks(int(e2eDuration / e2eInterval))[k], "%v more often than generated", k)
	}
	for _, r := range res {
		require.False(t, r.Skipped)
	}
	t.Logf("%d commits (%d rows) landed before the token expired", len(ids), added)
	requireNoSecret(t, logs, []string{tok}, msg)
}

// TestTokenRefreshOAuth2WithGCS runs the OAuth2 stream with the embedded
// catalog's warehouse on gs://, in fake-gcs-server behind a proxy that
// admits only live tokens. The catalog's OAuth2 tokens are not Google's, so
// Cloud Storage is reached as with BigLake: the catalog vends a short-lived
// storage token with every table load, and the sink loads the table for
// every pane. The embedded catalog writes metadata with its own Google
// service-account tokens from the same token server.
func TestTokenRefreshOAuth2WithGCS(t *testing.T) {
	logs := captureLogs(t)
	ctx := context.Background()
	tokens := authtest.NewTokenServer(2*time.Second, 2)
	gcsGuard, gcsEndpoint := authtest.NewFakeGCS(t, tokens, "lake")

	// The key's token_uri must be known before the catalog starts; the
	// token server is reachable before the guard is, on its own mux.
	tokenSrv := authtest.Guarded(t, tokens, http.NotFoundHandler())
	keyFile := tokens.WriteServiceAccountKey(t, tokenSrv.GoogleTokenURL())
	t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", keyFile)

	embedded, stop, err := ilaunch.Catalog(ctx, catalog.Config{
		LocalDir: t.TempDir(), Warehouse: "gs://lake/wh", GCSEndpoint: gcsEndpoint, Auth: catalog.AuthGoogle,
	})
	require.NoError(t, err)
	t.Cleanup(func() { _ = stop() })
	target, err := url.Parse(embedded.URI)
	require.NoError(t, err)
	vended := map[string]bool{}
	var vendedMu sync.Mutex
	env := authtest.Guarded(t, tokens, httputil.NewSingleHostReverseProxy(target), authtest.VendCredentials(func() (string, time.Time) {
		tok, exp := tokens.IssueWithExpiry()
		vendedMu.Lock()
		vended[tok] = true
		vendedMu.Unlock()
		return tok, exp
	}))

	cfg := catalog.Config{
		URI: env.URL, Auth: catalog.AuthOAuth2, Credential: secretRef(t, "ICEBEAM_E2E_CREDENTIAL", tokens.Credential()),
		GCSEndpoint: gcsEndpoint,
		Headers:     map[string]string{authtest.VendHeader: "true"},
	}
	res, err := runClicks(t, cfg)
	require.NoError(t, err)
	tbl := checkExactlyOnce(t, cfg, res)
	require.True(t, strings.HasPrefix(tbl.Location(), "gs://lake/wh/"), tbl.Location())
	checkRefreshed(t, env)

	reqs := gcsGuard.Requests()
	var uploads, byVended int
	for _, r := range reqs {
		if strings.HasPrefix(r.Path, "/upload/") {
			uploads++
		}
		vendedMu.Lock()
		if vended[strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")] {
			byVended++
		}
		vendedMu.Unlock()
	}
	r401, r419 := gcsGuard.Rejections(http.StatusUnauthorized), gcsGuard.Rejections(authtest.StatusAuthenticationTimeout)
	t.Logf("GCS: %d requests (%d uploads, %d with vended tokens) with %d distinct tokens; rejected %d 401, %d 419; %d JWT grants",
		len(reqs), uploads, byVended, gcsGuard.DistinctTokens(), r401, r419, tokens.JWTGrants())
	require.Zero(t, r401+r419, "every GCS request must carry a live token")
	require.GreaterOrEqual(t, gcsGuard.DistinctTokens(), 3, "GCS tokens are renewed over the run")
	require.GreaterOrEqual(t, uploads, 2*len(res), "data files and metadata went through the proxy")
	require.Positive(t, byVended, "the sink used vended storage tokens")
	requireNoSecret(t, logs, append(tokens.Tokens(), tokens.ClientSecret))
}
