package launch

import (
	"testing"

	"github.com/icebeam/icebeam/catalog"
)

// The command a pipeline prints to look at its table names the catalog as
// the user did: a Nessie branch on an emulated GCS (where it once left all
// of that out and failed as printed), secrets only as references.
func TestLookCommand(t *testing.T) {
	for _, c := range []struct {
		flags catalog.Config
		want  string
	}{
		{catalog.Config{Name: catalog.DefaultName, LocalDir: catalog.DefaultLocalDir},
			"go run ./cmd/icebeam scan clicks.user_clicks"},
		{catalog.Config{Name: catalog.DefaultName, LocalDir: "/tmp/lh"},
			"go run ./cmd/icebeam scan clicks.user_clicks --local_dir=/tmp/lh"},
		{catalog.Config{Name: catalog.DefaultName, URI: "http://localhost:19120/iceberg", Preset: "nessie", Ref: "dev",
			GCSEndpoint: "http://127.0.0.1:4443/storage/v1/", LocalDir: catalog.DefaultLocalDir},
			"go run ./cmd/icebeam scan clicks.user_clicks --catalog_uri=http://localhost:19120/iceberg --catalog=nessie --ref=dev --gcs_endpoint=http://127.0.0.1:4443/storage/v1/"},
		{catalog.Config{Name: "lake", URI: "https://h/v1", Auth: "oauth2", Credential: "env:CRED", Token: "literal", LocalDir: catalog.DefaultLocalDir},
			"go run ./cmd/icebeam scan clicks.user_clicks --catalog_uri=https://h/v1 --catalog_name=lake --auth=oauth2 --credential=env:CRED"},
	} {
		if got := LookCommand("scan", "clicks.user_clicks", c.flags); got != c.want {
			t.Errorf("LookCommand(%+v)\n got %s\nwant %s", c.flags, got, c.want)
		}
	}
}
