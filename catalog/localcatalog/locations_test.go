package localcatalog_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"io/fs"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/catalog/localcatalog"
)

// filesUnder lists the regular files under dir.
func filesUnder(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			out = append(out, p)
		}
		return err
	}))
	return out
}

// TestLocationsConfined: every way a request can name where the server
// writes (table, view and namespace locations, write.metadata.path at
// create and by commit, set-location, register's metadata file, another
// warehouse) is refused outside the warehouse and the allowed prefixes,
// and writes nothing there.
func TestLocationsConfined(t *testing.T) {
	dir, outside, extra := t.TempDir(), t.TempDir(), t.TempDir()
	h, err := localcatalog.Open(localcatalog.Options{Dir: dir, AllowLocations: []string{extra}})
	require.NoError(t, err)
	ts := httptest.NewServer(h)
	t.Cleanup(func() { ts.Close(); h.Close() })
	base := ts.URL + "/v1"
	const schema = `"schema":{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"id","type":"long","required":false}]}`
	status, body := do(t, "POST", base+"/namespaces", `{"namespace":["db"]}`)
	require.Equal(t, 200, status, "%s", body)

	// A metadata file a client could have placed outside, for register.
	status, body = do(t, "POST", base+"/namespaces/db/tables", `{"name":"src",`+schema+`}`)
	require.Equal(t, 200, status, "%s", body)
	src := filesUnder(t, filepath.Join(dir, "warehouse", "db.db", "src"))
	require.Len(t, src, 1)
	planted := filepath.Join(extra, "planted.metadata.json")
	b, err := os.ReadFile(src[0])
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(outside, "planted.metadata.json"), b, 0o644))
	require.NoError(t, os.WriteFile(planted, b, 0o644))

	refused := []struct{ name, method, path, body string }{
		{"absolute path", "POST", "/namespaces/db/tables", `{"name":"a","location":"` + outside + `",` + schema + `}`},
		{"file URI", "POST", "/namespaces/db/tables", `{"name":"b","location":"file://` + outside + `",` + schema + `}`},
		{"file: URI", "POST", "/namespaces/db/tables", `{"name":"c","location":"file:` + outside + `",` + schema + `}`},
		{"traversal", "POST", "/namespaces/db/tables", `{"name":"d","location":"` + filepath.Join(dir, "warehouse") + `/../../..` + outside + `",` + schema + `}`},
		{"relative", "POST", "/namespaces/db/tables", `{"name":"e","location":"../../x",` + schema + `}`},
		{"the state directory", "POST", "/namespaces/db/tables", `{"name":"f","location":"` + dir + `",` + schema + `}`},
		{"metadata path at create", "POST", "/namespaces/db/tables", `{"name":"g",` + schema + `,"properties":{"write.metadata.path":"` + outside + `"}}`},
		{"metadata path by commit", "POST", "/namespaces/db/tables/src", `{"requirements":[],"updates":[{"action":"set-properties","updates":{"write.metadata.path":"` + outside + `"}}]}`},
		{"set-location", "POST", "/namespaces/db/tables/src", `{"requirements":[],"updates":[{"action":"set-location","location":"` + outside + `"}]}`},
		{"namespace location", "POST", "/namespaces", `{"namespace":["ns2"],"properties":{"location":"` + outside + `"}}`},
		{"namespace location update", "POST", "/namespaces/db/properties", `{"removals":[],"updates":{"location":"` + outside + `"}}`},
		{"view location", "POST", "/namespaces/db/views", `{"name":"v","location":"` + outside + `",` + schema +
			`,"view-version":{"version-id":1,"schema-id":0,"timestamp-ms":1,"summary":{},"representations":[{"type":"sql","sql":"select 1","dialect":"spark"}],"default-namespace":["db"]}}`},
		{"register", "POST", "/namespaces/db/register", `{"name":"r","metadata-location":"` + filepath.Join(outside, "planted.metadata.json") + `"}`},
		{"warehouse", "GET", "/config?warehouse=file://" + outside, ""},
	}
	for _, r := range refused {
		status, body := do(t, r.method, base+r.path, r.body)
		if status != 400 && status != 403 {
			t.Errorf("%s: status %d, want 400 or 403: %s", r.name, status, body)
		}
	}
	status, body = do(t, "POST", base+"/namespaces/db/tables", `{"name":"h","location":"nosuch://bucket/x",`+schema+`}`)
	require.Equal(t, 400, status, "an unknown scheme is the client's mistake: %s", body)
	require.Contains(t, string(body), "no storage is registered for nosuch://")
	// A warehouse prefix made up without asking /v1/config.
	prefix := "wh-" + base64.RawURLEncoding.EncodeToString([]byte("file://"+outside))
	status, body = do(t, "POST", ts.URL+"/v1/"+prefix+"/namespaces", `{"namespace":["db"]}`)
	require.Equal(t, 403, status, "%s", body)
	require.Equal(t, []string{filepath.Join(outside, "planted.metadata.json")}, filesUnder(t, outside), "files written outside")
	_, err = os.Stat(filepath.Join(dir, localcatalog.DBFile))
	require.NoError(t, err)

	// Under an allowed prefix, the same requests work.
	status, body = do(t, "POST", base+"/namespaces/db/tables", `{"name":"x","location":"`+filepath.Join(extra, "x")+`",`+schema+`}`)
	require.Equal(t, 200, status, "%s", body)
	status, body = do(t, "POST", base+"/namespaces/db/register", `{"name":"r","metadata-location":"`+planted+`"}`)
	// planted names src's location, which src holds: two tables never share one.
	require.Equal(t, 400, status, "%s", body)
	require.Contains(t, string(body), "overlaps")

	// Two tables cannot share a location, nor nest one in the other.
	for i, loc := range []string{filepath.Join(extra, "x"), filepath.Join(extra, "x", "inner"), extra} {
		status, body := do(t, "POST", base+"/namespaces/db/tables", fmt.Sprintf(`{"name":"y%d","location":"%s",%s}`, i, loc, schema))
		require.Equal(t, 400, status, "%s: %s", loc, body)
		require.Contains(t, string(body), "db.x")
	}
}

// TestPurgeDeletesOnlyTheTablesFiles: a purge deletes the files the table
// references and keeps a data file another table references, a file
// outside the allowed places that a manifest names, and unreferenced files
// beside the table's.
func TestPurgeDeletesOnlyTheTablesFiles(t *testing.T) {
	ctx := context.Background()
	dir, outside := t.TempDir(), t.TempDir()
	srv := startServer(t, dir)
	cat := connect(t, srv.URL())
	t1 := appendRows(t, createTable(t, cat, table.Identifier{"db", "t1"}), rows(t, "x", 0, 2))
	var t1Data []string
	tasks, err := t1.Scan().PlanFiles(ctx)
	require.NoError(t, err)
	for _, tk := range tasks {
		t1Data = append(t1Data, tk.File.FilePath())
	}
	require.Len(t, t1Data, 1)

	// t2 references t1's data file, and a file outside the allowed places.
	foreign := filepath.Join(outside, "foreign.parquet")
	b, err := os.ReadFile(localPath(t, t1Data[0]))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(foreign, b, 0o644))
	t2 := createTable(t, cat, table.Identifier{"db", "t2"})
	tx := t2.NewTransaction()
	require.NoError(t, tx.AddFiles(ctx, []string{t1Data[0]}, nil, false))
	_, err = tx.Commit(ctx)
	require.NoError(t, err)
	t1 = reload(t, cat, "t1")
	tx = t1.NewTransaction()
	require.NoError(t, tx.AddFiles(ctx, []string{"file://" + foreign}, nil, false))
	t1, err = tx.Commit(ctx)
	require.NoError(t, err)
	note := filepath.Join(localPath(t, t1.Location()), "data", "README.txt")
	require.NoError(t, os.WriteFile(note, []byte("not the table's"), 0o644))

	require.NoError(t, cat.PurgeTable(ctx, table.Identifier{"db", "t1"}))
	left := filesUnder(t, localPath(t, t1.Location()))
	require.ElementsMatch(t, []string{localPath(t, t1Data[0]), note}, left,
		"purge must leave the shared data file and the unreferenced note, and delete every other file of t1")
	_, err = os.Stat(foreign)
	require.NoError(t, err, "a file outside the allowed places must stay")
	require.Equal(t, names("x", 0, 2), readNames(t, reload(t, cat, "t2")), "t2 must still read its rows")
}

func reload(t *testing.T, cat interface {
	LoadTable(context.Context, table.Identifier) (*table.Table, error)
}, name string) *table.Table {
	t.Helper()
	tbl, err := cat.LoadTable(context.Background(), table.Identifier{"db", name})
	require.NoError(t, err)
	return tbl
}
