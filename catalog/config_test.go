package catalog

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	resolved, err := Resolve(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if resolved.Project != "p1" || resolved.URI != "" {
		t.Errorf("Resolve: project %q, uri %q; want p1 and no embedded catalog", resolved.Project, resolved.URI)
	}
	b, _ := json.Marshal(resolved)
	if !strings.Contains(string(b), `"project":"p1"`) {
		t.Errorf("workers would not get the project: %s", b)
	}
}
