package catalog

import (
	"context"
	"fmt"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"cloud.google.com/go/storage"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/math"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"
	"google.golang.org/api/iterator"

	"github.com/icebeam/icebeam/catalog/authtest"
	"github.com/icebeam/icebeam/catalog/localcatalog"
	"github.com/icebeam/icebeam/internal/syncbuf"
)

// logs collects everything the package and its dependencies log during the
// tests, so tests can check that no secret was logged.
var logs syncbuf.Buffer

func TestMain(m *testing.M) {
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	log.SetOutput(&logs)
	os.Exit(m.Run())
}

// assertNotLogged fails if any secret appears in the captured logs or in
// extra (error messages and the like).
func assertNotLogged(t *testing.T, secrets []string, extra ...string) {
	t.Helper()
	all := logs.String() + "\n" + strings.Join(extra, "\n")
	for _, s := range secrets {
		if s != "" && strings.Contains(all, s) {
			t.Errorf("secret %.6s... appears in logs or errors", s)
		}
	}
}

var testSchema = iceberg.NewSchema(0,
	iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.PrimitiveTypes.Int64},
	iceberg.NestedField{ID: 2, Name: "name", Type: iceberg.PrimitiveTypes.String},
)

func createTable(t *testing.T, cat icecatalog.Catalog, ns, name string) *table.Table {
	t.Helper()
	ctx := context.Background()
	if err := cat.CreateNamespace(ctx, table.Identifier{ns}, nil); err != nil {
		t.Fatalf("creating namespace %s: %v", ns, err)
	}
	tbl, err := cat.CreateTable(ctx, table.Identifier{ns, name}, testSchema)
	if err != nil {
		t.Fatalf("creating table %s.%s: %v", ns, name, err)
	}
	return tbl
}

// setProperty commits one property change: a real commit through the REST
// catalog.
func setProperty(ctx context.Context, cat icecatalog.Catalog, ident table.Identifier, k, v string) error {
	tbl, err := cat.LoadTable(ctx, ident)
	if err != nil {
		return fmt.Errorf("load: %w", err)
	}
	tx := tbl.NewTransaction()
	if err := tx.SetProperties(iceberg.Properties{k: v}); err != nil {
		return err
	}
	if _, err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

func TestOAuth2HeadersOnEveryRequestFromConfigOn(t *testing.T) {
	ctx := context.Background()
	tokens := authtest.NewTokenServer(time.Hour, 3600)
	env := authtest.NewCatalog(t, tokens, localcatalog.Options{})
	t.Setenv("ICEBEAM_TEST_CREDENTIAL", authtest.ClientID+":"+tokens.ClientSecret)
	cfg := Config{
		URI:        env.URL,
		Credential: "env:ICEBEAM_TEST_CREDENTIAL", // --auth=oauth2 implied
		Headers:    map[string]string{"X-Icebeam-Test": "hello"},
	}
	cat, err := Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	createTable(t, cat, "ns", "t")

	reqs := env.Guard.Requests()
	if len(reqs) < 3 || reqs[0].Path != "/v1/config" {
		t.Fatalf("first admitted request: want GET /v1/config among >= 3, got %d requests starting %+v", len(reqs), reqs[0])
	}
	for _, r := range reqs {
		if got := r.Header.Get("X-Icebeam-Test"); got != "hello" {
			t.Errorf("%s %s: X-Icebeam-Test = %q, want hello", r.Method, r.Path, got)
		}
		if !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer at-") {
			t.Errorf("%s %s: no bearer token", r.Method, r.Path)
		}
	}
	if n := tokens.Issued(); n != 1 {
		t.Errorf("token endpoint issued %d tokens, want 1 (cached for its hour)", n)
	}
	if tokens.Scopes()[0] != "catalog" {
		t.Errorf("scope %q, want catalog", tokens.Scopes()[0])
	}
	if n := env.Guard.Rejections(http.StatusUnauthorized) + env.Guard.Rejections(statusAuthenticationTimeout); n != 0 {
		t.Errorf("%d requests rejected", n)
	}
	assertNotLogged(t, append(tokens.Tokens(), tokens.ClientSecret))
}

func TestOAuth2RefreshesOnceAndRetriesAfter419(t *testing.T) {
	ctx := context.Background()
	tokens := authtest.NewTokenServer(time.Hour, 3600)
	env := authtest.NewCatalog(t, tokens, localcatalog.Options{})
	cfg := Config{URI: env.URL, Auth: AuthOAuth2, Credential: Secret(authtest.ClientID + ":" + tokens.ClientSecret)}
	cat, err := Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	createTable(t, cat, "ns", "t")
	ident := table.Identifier{"ns", "t"}
	tbl, err := cat.LoadTable(ctx, ident)
	if err != nil {
		t.Fatal(err)
	}
	before := tokens.Issued()

	// The catalog ends the token early, between load and commit: the
	// commit (a POST with a body) gets 419, and must be replayed.
	tokens.ExpireAll()
	tx := tbl.NewTransaction()
	if err := tx.SetProperties(iceberg.Properties{"marker": "after-419"}); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Commit(ctx); err != nil {
		t.Fatalf("commit after token expiry: %v", err)
	}
	if got := env.Guard.Rejections(statusAuthenticationTimeout); got != 1 {
		t.Errorf("419 answers: %d, want 1", got)
	}
	if got := tokens.Issued() - before; got != 1 {
		t.Errorf("tokens fetched after the 419: %d, want 1", got)
	}
	reloaded, err := cat.LoadTable(ctx, ident)
	if err != nil {
		t.Fatal(err)
	}
	if got := reloaded.Properties()["marker"]; got != "after-419" {
		t.Errorf("marker = %q after the retried commit", got)
	}
	if n := len(reloaded.Metadata().Snapshots()); n != 0 {
		t.Errorf("%d snapshots, want 0 (a property commit)", n)
	}
}

// TestManyTokenLifetimes runs catalog reads and commits from two goroutines
// across several 1 s token lifetimes. "renew" advertises the real lifetime,
// so tokens are renewed before they expire; "skewed" advertises 3 s for a
// 1 s token, as a client with a slow clock would see it, so the catalog
// answers 419 every lifetime and every one must be absorbed by a retry.
func TestManyTokenLifetimes(t *testing.T) {
	for _, tc := range []struct {
		name       string
		advertised int
	}{{"renew", 1}, {"skewed", 3}} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			tokens := authtest.NewTokenServer(time.Second, tc.advertised)
			env := authtest.NewCatalog(t, tokens, localcatalog.Options{})
			cfg := Config{URI: env.URL, Auth: AuthOAuth2, Credential: Secret(authtest.ClientID + ":" + tokens.ClientSecret)}
			cat, err := Open(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			createTable(t, cat, "ns", "t")
			ident := table.Identifier{"ns", "t"}

			const run = 4500 * time.Millisecond
			deadline := time.Now().Add(run)
			var (
				wg      sync.WaitGroup
				reads   int
				readErr error
			)
			wg.Add(1)
			go func() {
				defer wg.Done()
				for time.Now().Before(deadline) {
					for _, err := range cat.ListTables(ctx, table.Identifier{"ns"}) {
						if err != nil && readErr == nil {
							readErr = err
						}
					}
					if _, err := cat.LoadTable(ctx, ident); err != nil && readErr == nil {
						readErr = err
					}
					reads++
					time.Sleep(20 * time.Millisecond)
				}
			}()
			commits := 0
			for time.Now().Before(deadline) {
				commits++
				if err := setProperty(ctx, cat, ident, "n", strconv.Itoa(commits)); err != nil {
					t.Fatalf("commit %d: %v", commits, err)
				}
				time.Sleep(50 * time.Millisecond)
			}
			wg.Wait()
			if readErr != nil {
				t.Fatalf("read: %v", readErr)
			}
			tbl, err := cat.LoadTable(ctx, ident)
			if err != nil {
				t.Fatal(err)
			}
			if got := tbl.Properties()["n"]; got != strconv.Itoa(commits) {
				t.Errorf("n = %s, want %d", got, commits)
			}
			issued, r419, r401 := tokens.Issued(), env.Guard.Rejections(statusAuthenticationTimeout), env.Guard.Rejections(http.StatusUnauthorized)
			t.Logf("%d commits, %d read rounds, %d tokens, %d answered 419, %d answered 401", commits, reads, issued, r419, r401)
			if issued < 4 {
				t.Errorf("%d tokens over %v of 1 s tokens, want >= 4", issued, run)
			}
			if r401 != 0 {
				t.Errorf("%d requests without a known token", r401)
			}
			if tc.name == "skewed" && r419 < 2 {
				t.Errorf("%d 419 answers with skewed expiry, want >= 2", r419)
			}
			assertNotLogged(t, append(tokens.Tokens(), tokens.ClientSecret))
		})
	}
}

func TestStaticBearerFailsClearlyAfterExpiry(t *testing.T) {
	ctx := context.Background()
	tokens := authtest.NewTokenServer(time.Hour, 3600)
	env := authtest.NewCatalog(t, tokens, localcatalog.Options{})
	tok := tokens.Issue()
	cfg := Config{URI: env.URL, Token: Secret(tok)} // --auth=bearer implied
	cat, err := Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	createTable(t, cat, "ns", "t")
	if !strings.Contains(logs.String(), "never refreshed") {
		t.Error("no warning that a static token is never refreshed")
	}

	tokens.ExpireAll()
	_, err = cat.LoadTable(ctx, table.Identifier{"ns", "t"})
	if err == nil {
		t.Fatal("LoadTable with an expired static token succeeded")
	}
	msg := err.Error()
	for _, want := range []string{"419", "expired", "--token", "--auth=oauth2"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not mention %q", msg, want)
		}
	}
	if got := tokens.Issued(); got != 1 {
		t.Errorf("%d tokens issued, want 1: a static token must not be refreshed", got)
	}
	assertNotLogged(t, []string{tok}, msg, fmt.Sprintf("%v %+v %#v", cfg, cfg, cfg))
}

// TestGoogleAuthBigLakePresetAndGCS runs the BigLake preset against the
// local catalog with Google credentials from a generated service-account key
// whose token_uri is a loopback endpoint that checks the signed assertion.
// Tokens last 3 s; the table lives in fake-gcs-server behind a proxy that
// admits only live tokens, and appends go on for several lifetimes.
func TestGoogleAuthBigLakePresetAndGCS(t *testing.T) {
	ctx := context.Background()
	tokens := authtest.NewTokenServer(3*time.Second, 3)
	gcsGuard, gcsEndpoint := authtest.NewFakeGCS(t, tokens, "lake-bucket")
	const warehouse = "gs://lake-bucket/warehouse"
	var vended []string
	var vendedMu sync.Mutex
	env := authtest.NewCatalog(t, tokens, localcatalog.Options{Warehouse: warehouse}, authtest.VendCredentials(func() (string, time.Time) {
		tok := tokens.Issue()
		vendedMu.Lock()
		vended = append(vended, tok)
		vendedMu.Unlock()
		// As BigLake does: the vended token is advertised for an hour.
		return tok, time.Now().Add(time.Hour)
	}))
	keyFile := tokens.WriteServiceAccountKey(t, env.GoogleTokenURL())
	t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", keyFile)

	// The catalog server writes metadata through this process's gs
	// factory, as the embedded catalog does: give it the emulator too.
	UseStorageOf(Config{Auth: AuthGoogle, GCSEndpoint: gcsEndpoint})
	t.Cleanup(func() { storageState.mu.Lock(); storageState.embedded = nil; storageState.mu.Unlock() })

	cfg := Config{
		Preset:      PresetBigLake,
		URI:         env.URL, // BigLake itself is not reachable offline
		Project:     "test-project",
		Name:        "lake",
		Warehouse:   warehouse,
		GCSEndpoint: gcsEndpoint,
	}
	cat, err := Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	tbl := createTable(t, cat, "nyc", "trips")

	arrowSchema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	const appends, rows = 6, 400
	var wantSum int64
	for a := 0; a < appends; a++ {
		b := array.NewRecordBuilder(memory.DefaultAllocator, arrowSchema)
		for i := 0; i < rows; i++ {
			id := int64(a*rows + i)
			wantSum += id
			b.Field(0).(*array.Int64Builder).Append(id)
			b.Field(1).(*array.StringBuilder).Append("row-" + strconv.FormatInt(id, 10))
		}
		rec := b.NewRecordBatch()
		b.Release()
		at := array.NewTableFromRecords(arrowSchema, []arrow.RecordBatch{rec})
		tbl, err = tbl.AppendTable(ctx, at, rows, iceberg.Properties{"append": strconv.Itoa(a)})
		at.Release()
		rec.Release()
		if err != nil {
			t.Fatalf("append %d: %v", a, err)
		}
		time.Sleep(700 * time.Millisecond)
	}

	reloaded, err := cat.LoadTable(ctx, table.Identifier{"nyc", "trips"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := reloaded.Scan().ToArrowTable(ctx)
	if err != nil {
		t.Fatalf("scanning the table back from GCS: %v", err)
	}
	defer got.Release()
	var gotSum int64
	for _, ch := range got.Column(0).Data().Chunks() {
		gotSum += math.Int64.Sum(ch.(*array.Int64))
	}
	if got.NumRows() != appends*rows || gotSum != wantSum {
		t.Errorf("read back %d rows with id sum %d, want %d rows with sum %d", got.NumRows(), gotSum, appends*rows, wantSum)
	}
	if n := len(reloaded.Metadata().Snapshots()); n != appends {
		t.Errorf("%d snapshots, want %d", n, appends)
	}

	for _, r := range env.Guard.Requests() {
		if got := r.Header.Get("X-Goog-User-Project"); got != "test-project" {
			t.Errorf("%s %s: x-goog-user-project = %q", r.Method, r.Path, got)
		}
	}
	gcsReqs := gcsGuard.Requests()
	var objectWrites int
	for _, r := range gcsReqs {
		if strings.HasPrefix(r.Path, "/upload/") {
			objectWrites++
		}
	}
	t.Logf("catalog: %d requests, %d answered 419; GCS: %d requests (%d uploads) with %d distinct tokens; %d tokens from %d JWT grants",
		len(env.Guard.Requests()), env.Guard.Rejections(statusAuthenticationTimeout), len(gcsReqs), objectWrites,
		gcsGuard.DistinctTokens(), tokens.Issued(), tokens.JWTGrants())
	if r := gcsGuard.Rejections(http.StatusUnauthorized) + gcsGuard.Rejections(statusAuthenticationTimeout); r != 0 {
		t.Errorf("GCS proxy rejected %d requests: tokens were not renewed in time", r)
	}
	if objectWrites < appends {
		t.Errorf("%d uploads through the proxy, want >= %d", objectWrites, appends)
	}
	if gcsGuard.DistinctTokens() < 2 || tokens.JWTGrants() < 2 {
		t.Errorf("GCS saw %d distinct tokens from %d JWT grants: want renewed tokens (>= 2)", gcsGuard.DistinctTokens(), tokens.JWTGrants())
	}
	// What fileio does with the same Config: its own client from
	// StorageClientOptions, authenticated by the same token source.
	opts, err := StorageClientOptions(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := storage.NewClient(ctx, opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	var parquetFiles int
	it := sc.Bucket("lake-bucket").Objects(ctx, &storage.Query{Prefix: "warehouse/nyc.db/trips/data/"})
	for {
		o, err := it.Next()
		if err == iterator.Done {
			break
		}
		if err != nil {
			t.Fatalf("listing data files with StorageClientOptions: %v", err)
		}
		if strings.HasSuffix(o.Name, ".parquet") {
			parquetFiles++
		}
	}
	if parquetFiles < appends {
		t.Errorf("%d data files listed, want >= %d", parquetFiles, appends)
	}

	// A reader whose catalog vends GCS tokens uses them: its own
	// credentials (oauth2, the catalog's) are not Google's, so without the
	// vended token the proxy would refuse it.
	before := len(gcsGuard.Requests())
	reader, err := Open(ctx, Config{
		URI: env.URL, Warehouse: warehouse, GCSEndpoint: gcsEndpoint,
		Credential: Secret(authtest.ClientID + ":" + tokens.ClientSecret),
		Headers:    map[string]string{authtest.VendHeader: "true"},
	})
	if err != nil {
		t.Fatal(err)
	}
	vtbl, err := reader.LoadTable(ctx, table.Identifier{"nyc", "trips"})
	if err != nil {
		t.Fatal(err)
	}
	vgot, err := vtbl.Scan().ToArrowTable(ctx)
	if err != nil {
		t.Fatalf("scanning with vended credentials: %v", err)
	}
	defer vgot.Release()
	if vgot.NumRows() != appends*rows {
		t.Errorf("vended read: %d rows, want %d", vgot.NumRows(), appends*rows)
	}
	vendedMu.Lock()
	isVended := map[string]bool{}
	for _, v := range vended {
		isVended[v] = true
	}
	vendedMu.Unlock()
	var after []authtest.Request
	for _, r := range gcsGuard.Requests()[before:] {
		// The catalog server reads metadata.json itself, with its own
		// credentials; the reader reads manifests and data files.
		if !strings.HasSuffix(r.Path, ".metadata.json") {
			after = append(after, r)
		}
	}
	for _, r := range after {
		if tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "); !isVended[tok] {
			t.Errorf("vended read: %s %s did not use a vended token", r.Method, r.Path)
		}
	}
	if len(after) == 0 || len(isVended) == 0 {
		t.Errorf("vended read: %d GCS requests, %d tokens vended", len(after), len(isVended))
	}

	// The storage client must use the catalog's token source, not find
	// credentials of its own: every grant the token server saw was ours.
	var ours int
	sources.mu.Lock()
	for _, s := range sources.m {
		if s.mode == AuthGoogle {
			s.mu.Lock()
			ours += s.fetches
			s.mu.Unlock()
		}
	}
	sources.mu.Unlock()
	if ours != tokens.JWTGrants() {
		t.Errorf("token server saw %d JWT grants, icebeam's google token source made %d", tokens.JWTGrants(), ours)
	}
	assertNotLogged(t, tokens.Tokens())
}

// TestNessiePresetAddressesTheBranch serves the local catalog where Nessie
// serves a branch, under /iceberg/<branch>, and nothing at /iceberg.
func TestNessiePresetAddressesTheBranch(t *testing.T) {
	h, err := localcatalog.Open(localcatalog.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	var (
		mu    sync.Mutex
		paths []string
	)
	mux := http.NewServeMux()
	mux.Handle("/iceberg/dev-branch/", http.StripPrefix("/iceberg/dev-branch", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.Path)
		mu.Unlock()
		h.ServeHTTP(w, r)
	})))
	srv := newServer(t, mux)
	cat, err := Open(context.Background(), Config{Preset: PresetNessie, URI: srv + "/iceberg/", Ref: "dev-branch"})
	if err != nil {
		t.Fatal(err)
	}
	createTable(t, cat, "ns", "t")
	if len(paths) == 0 || paths[0] != "/v1/config" {
		t.Errorf("requests under /iceberg/dev-branch: %v", paths)
	}
}

func TestTransportRetriesIdempotentReadsOnly(t *testing.T) {
	var (
		mu    sync.Mutex
		calls = map[string]int{}
	)
	srv := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls[r.Method]++
		n := calls[r.Method]
		mu.Unlock()
		switch {
		case r.Method == http.MethodGet && n == 1:
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusTooManyRequests)
		case n <= 2:
			w.WriteHeader(http.StatusServiceUnavailable)
		default:
			fmt.Fprint(w, "ok")
		}
	}))
	tr := newTransport(nil, nil, nil)
	tr.backoff = time.Millisecond
	client := &http.Client{Transport: tr}

	resp, err := client.Get(srv)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || calls[http.MethodGet] != 3 {
		t.Errorf("GET: status %d after %d calls, want 200 after 3", resp.StatusCode, calls[http.MethodGet])
	}
	resp, err = client.Post(srv, "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || calls[http.MethodPost] != 1 {
		t.Errorf("POST: status %d after %d calls, want 503 after 1 (writes are not retried)", resp.StatusCode, calls[http.MethodPost])
	}

	tr.maxRetries = 2
	calls = map[string]int{}
	srv2 := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls[r.Method]++
		mu.Unlock()
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	resp, err = client.Get(srv2)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if calls[http.MethodGet] != 3 {
		t.Errorf("GET to a server that stays unavailable: %d calls, want 3 (bounded)", calls[http.MethodGet])
	}
}

func TestOpenFailsClearly(t *testing.T) {
	ctx := context.Background()
	tokens := authtest.NewTokenServer(time.Hour, 3600)
	env := authtest.NewCatalog(t, tokens, localcatalog.Options{})
	wrong := "wrong-secret-" + authtest.RandomHex(4)
	_, err := Open(ctx, Config{URI: env.URL, Credential: Secret(authtest.ClientID + ":" + wrong)})
	if err == nil || !strings.Contains(err.Error(), "invalid_client") || !strings.Contains(err.Error(), "--auth=oauth2") {
		t.Errorf("wrong client secret: got %v, want an invalid_client error naming --auth=oauth2", err)
	}
	_, err = Open(ctx, Config{URI: env.URL, Token: "env:ICEBEAM_TEST_UNSET_VARIABLE"})
	if err == nil || !strings.Contains(err.Error(), "ICEBEAM_TEST_UNSET_VARIABLE is not set") {
		t.Errorf("unset token variable: got %v", err)
	}
	var msgs []string
	if err != nil {
		msgs = append(msgs, err.Error())
	}
	assertNotLogged(t, []string{wrong}, msgs...)
}

func newServer(t *testing.T, h http.Handler) string {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}
