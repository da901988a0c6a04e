package catalog

import (
	"context"
	"io"
	"net/url"
	"strings"
	"testing"
	"time"

	iceio "github.com/apache/iceberg-go/io"

	"github.com/icebeam/icebeam/catalog/authtest"
)

// Nessie and Iceberg Java vend gcs.service.host as Java's client takes it,
// the service's root URL; the Go client wants the JSON API's base URL.
func TestServiceHostEndpoint(t *testing.T) {
	for in, want := range map[string]string{
		"http://127.0.0.1:4443":              "http://127.0.0.1:4443/storage/v1/",
		"http://127.0.0.1:4443/":             "http://127.0.0.1:4443/storage/v1/",
		"https://storage.googleapis.com":     "https://storage.googleapis.com/storage/v1/",
		"http://gcs.local:8080/storage/v1/":  "http://gcs.local:8080/storage/v1/",
		"http://gcs.local:8080/custom/path/": "http://gcs.local:8080/custom/path/",
		"gcs.local:8080":                     "gcs.local:8080",
	} {
		if got := serviceHostEndpoint(in); got != want {
			t.Errorf("serviceHostEndpoint(%q) = %q, want %q", in, got, want)
		}
	}
}

// A table whose catalog vends a bare gcs.service.host and a token reads and
// writes through fake-gcs-server, which admits only live tokens.
func TestVendedServiceHostAndToken(t *testing.T) {
	ctx := context.Background()
	tokens := authtest.NewTokenServer(time.Hour, 3600)
	_, endpoint := authtest.NewFakeGCS(t, tokens, "vended-bucket")
	props := map[string]string{
		iceio.GCSServiceHost:    strings.TrimSuffix(endpoint, "/storage/v1/"),
		iceio.GCSOAuthToken:     tokens.Issue(),
		iceio.GCSOAuthExpiresAt: "",
	}
	u, _ := url.Parse("gs://vended-bucket/warehouse")
	fsys, err := gcsIO(ctx, u, props)
	if err != nil {
		t.Fatal(err)
	}
	const path = "gs://vended-bucket/warehouse/t/data/a.parquet"
	want := []byte("PAR1 not really")
	if err := fsys.(iceio.WriteFileIO).WriteFile(path, want); err != nil {
		t.Fatalf("writing %s: %v", path, err)
	}
	f, err := fsys.Open(path)
	if err != nil {
		t.Fatalf("opening %s: %v", path, err)
	}
	defer f.Close()
	got, err := io.ReadAll(f)
	if err != nil || string(got) != string(want) {
		t.Fatalf("read back %q, %v; want %q", got, err, want)
	}
}
