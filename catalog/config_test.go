package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go/table"
	"github.com/fsouza/fake-gcs-server/fakestorage"
)

func TestFlagsAndRedaction(t *testing.T) {
	const token, secret = "tok-LITERAL-0123456789", "sec-LITERAL-9876543210"
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	var cfg Config
	cfg.RegisterFlags(fs)
	err := fs.Parse([]string{
		"--catalog_uri=http://cat.example:8181", "--auth=oauth2",
		"--credential=client:" + secret, "--token=" + token,
		"--header=X-A=1", "--header", "X-B=two=2", "--scope=sc", "--oauth2_server_uri=http://idp/token",
		"--catalog=rest", "--gcs_endpoint=http://gcs/storage/v1/",
	})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Credential != "client:"+secret || cfg.Token != token || cfg.Headers["X-A"] != "1" || cfg.Headers["X-B"] != "two=2" || cfg.Scope != "sc" {
		t.Fatalf("flags not parsed into Config: %#v (headers %v)", cfg, cfg.Headers)
	}

	// What Beam records as pipeline options: flag.Visit over f.Value.String().
	var options []string
	fs.Visit(func(f *flag.Flag) { options = append(options, f.Name+"="+f.Value.String()) })
	var usage bytes.Buffer
	fs.SetOutput(&usage)
	fs.PrintDefaults()
	var text, js bytes.Buffer
	slog.New(slog.NewTextHandler(&text, nil)).Info("cfg", "catalog", cfg)
	slog.New(slog.NewJSONHandler(&js, nil)).Info("cfg", "catalog", cfg)
	printed := strings.Join(append(options,
		fmt.Sprint(cfg), fmt.Sprintf("%+v", cfg), fmt.Sprintf("%#v", cfg),
		fmt.Sprintf("%v", &cfg), usage.String(), text.String(), js.String()), "\n")
	for _, s := range []string{token, secret} {
		if strings.Contains(printed, s) {
			t.Errorf("secret %s printed:\n%s", s, printed)
		}
	}
	if !strings.Contains(printed, "token="+redacted) {
		t.Errorf("pipeline options do not show the token as %s:\n%s", redacted, strings.Join(options, "\n"))
	}

	// Workers get the Config as JSON, and need the literal.
	b, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var back Config
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Token != token || back.Credential != "client:"+secret || back.Headers["X-B"] != "two=2" {
		t.Errorf("JSON round trip lost data: %s", b)
	}

	// References print as they are: they are not secret.
	ref := Secret("env:MY_TOKEN")
	if ref.String() != "env:MY_TOKEN" {
		t.Errorf("reference printed as %q", ref.String())
	}

	// (The flag package quotes the rejected value in its own error: that
	// goes to the terminal of whoever typed it, not into the job.)
	if err := fs.Parse([]string{"--header=Authorization=Bearer " + token}); err == nil {
		t.Error("--header=Authorization=... accepted; the token would be printed as a pipeline option")
	}
}

func TestSecretResolve(t *testing.T) {
	t.Setenv("ICEBEAM_TEST_SECRET", "from-env")
	p := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(p, []byte("from-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for in, want := range map[Secret]string{
		"env:ICEBEAM_TEST_SECRET": "from-env",
		Secret("file:" + p):       "from-file",
		"literal":                 "literal",
	} {
		got, err := in.Resolve("token")
		if err != nil || got != want {
			t.Errorf("Resolve(%s) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := Secret("file:/nonexistent/x").Resolve("credential"); err == nil || !strings.Contains(err.Error(), "--credential=file:/nonexistent/x") {
		t.Errorf("missing file: %v", err)
	}
}

func TestPresets(t *testing.T) {
	ep, err := Config{Preset: PresetBigLake, Project: "proj", Name: "lakehouse"}.resolve()
	if err != nil {
		t.Fatal(err)
	}
	if ep.uri != "https://biglake.googleapis.com/iceberg/v1/restcatalog" || ep.warehouse != "bl://projects/proj/catalogs/lakehouse" ||
		ep.headers["x-goog-user-project"] != "proj" || ep.auth != AuthGoogle || ep.scope != "https://www.googleapis.com/auth/cloud-platform" {
		t.Errorf("biglake preset: %+v", ep)
	}
	ep, err = Config{Preset: PresetNessie, URI: "http://nessie:19120/iceberg", Ref: "etl/dev"}.resolve()
	if err != nil || ep.uri != "http://nessie:19120/iceberg/etl%2Fdev" || ep.auth != AuthNone {
		t.Errorf("nessie preset: %+v, %v", ep, err)
	}
	ep, err = Config{URI: "http://cat:8181/api/", Credential: "a:b"}.resolve()
	if err != nil || ep.auth != AuthOAuth2 || ep.tokenURL != "http://cat:8181/api/v1/oauth/tokens" || ep.scope != "catalog" {
		t.Errorf("oauth2 defaults: %+v, %v", ep, err)
	}
	for _, bad := range []struct {
		cfg  Config
		want string
	}{
		{Config{Preset: PresetBigLake}, "--project"},
		{Config{Preset: PresetNessie}, "--catalog_uri"},
		{Config{URI: "http://x", Ref: "dev"}, "--ref"},
		{Config{Preset: "glue", URI: "http://x"}, "unknown --catalog"},
		{Config{URI: "http://x", Auth: "kerberos"}, "unknown --auth"},
		{Config{URI: "http://x", Auth: AuthGoogle, Credential: "a:b"}, "--credential is only used with --auth=oauth2"},
		{Config{URI: "http://x", Auth: AuthOAuth2}, "needs --credential"},
		{Config{URI: "http://x", Auth: AuthBearer}, "needs --token"},
	} {
		if _, err := bad.cfg.resolve(); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%+v: got %v, want an error mentioning %q", bad.cfg, err, bad.want)
		}
	}
}

// TestProjectFlagSharedWithBeam: Beam's gcpopts defines --project on the
// command line; RegisterFlags must reuse it rather than panic.
func TestProjectFlagSharedWithBeam(t *testing.T) {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	beamProject := fs.String("project", "", "Beam's")
	var cfg Config
	cfg.RegisterFlags(fs)
	if err := fs.Parse([]string{"--project=p1", "--catalog=biglake"}); err != nil {
		t.Fatal(err)
	}
	if *beamProject != "p1" {
		t.Fatalf("beam's flag = %q", *beamProject)
	}
	resolved, stop, err := Launch(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if resolved.Project != "p1" || resolved.URI != "" {
		t.Errorf("Launch: project %q, uri %q; want p1 and no embedded catalog", resolved.Project, resolved.URI)
	}
	b, _ := json.Marshal(resolved)
	if !strings.Contains(string(b), `"project":"p1"`) {
		t.Errorf("workers would not get the project: %s", b)
	}
}

// TestEmbeddedCatalog: Launch without a URI starts the local catalog; local
// file tables keep working, and a gs:// warehouse goes through --gcs_endpoint
// for the server's metadata writes and the client's data files alike.
func TestEmbeddedCatalog(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct{ name, warehouse string }{{"file", ""}, {"gcs", "gs://embedded-bucket/wh"}} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := Config{LocalDir: t.TempDir(), Warehouse: tc.warehouse}
			if tc.warehouse != "" {
				srv, err := fakestorage.NewServerWithOptions(fakestorage.Options{Scheme: "http", Host: "127.0.0.1", Writer: io.Discard})
				if err != nil {
					t.Fatal(err)
				}
				defer srv.Stop()
				srv.CreateBucketWithOpts(fakestorage.CreateBucketOpts{Name: "embedded-bucket"})
				cfg.GCSEndpoint = srv.URL() + "/storage/v1/"
				t.Cleanup(func() { storageState.mu.Lock(); storageState.embedded = nil; storageState.mu.Unlock() })
			}
			resolved, stop, err := Launch(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer stop()
			cat, err := Open(ctx, resolved)
			if err != nil {
				t.Fatal(err)
			}
			tbl := createTable(t, cat, "ns", "t")
			wantPrefix := "file://" + resolved.LocalDir
			if tc.warehouse != "" {
				wantPrefix = tc.warehouse
			}
			if !strings.HasPrefix(tbl.Location(), wantPrefix) {
				t.Errorf("table location %s, want under %s", tbl.Location(), wantPrefix)
			}
			sc := arrow.NewSchema([]arrow.Field{
				{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
				{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
			}, nil)
			b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
			b.Field(0).(*array.Int64Builder).AppendValues([]int64{7, 35}, nil)
			b.Field(1).(*array.StringBuilder).AppendValues([]string{"a", "b"}, nil)
			rec := b.NewRecordBatch()
			at := array.NewTableFromRecords(sc, []arrow.RecordBatch{rec})
			if _, err := tbl.AppendTable(ctx, at, 10, nil); err != nil {
				t.Fatal(err)
			}
			back, err := cat.LoadTable(ctx, table.Identifier{"ns", "t"})
			if err != nil {
				t.Fatal(err)
			}
			got, err := back.Scan().ToArrowTable(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer got.Release()
			ids := got.Column(0).Data().Chunk(0).(*array.Int64)
			if got.NumRows() != 2 || ids.Value(0)+ids.Value(1) != 42 {
				t.Errorf("read back %d rows", got.NumRows())
			}
		})
	}
}
