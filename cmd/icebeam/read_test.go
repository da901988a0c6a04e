package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/catalog/authtest"
	"github.com/icebeam/icebeam/catalog/localcatalog"
	"github.com/icebeam/icebeam/internal/launch"
)

// fixture is a table written with iceberg-go, and what is known about it
// independently of the commands under test.
type fixture struct {
	uri   string
	tbl   *table.Table // after the last main commit
	snaps []int64      // main's snapshots, oldest first, then dev's
	// filesPerAppend is the number of distinct categories in each append:
	// the table is partitioned by category, one file per partition.
	filesPerAppend []int
	rowsPerAppend  []int
}

var readSchema = iceberg.NewSchema(0,
	iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.PrimitiveTypes.Int64, Required: true},
	iceberg.NestedField{ID: 2, Name: "category", Type: iceberg.PrimitiveTypes.String},
	iceberg.NestedField{ID: 3, Name: "score", Type: iceberg.PrimitiveTypes.Float64},
)

// rowsFor makes rows with ids [from, to): category "c<id%k>", score id/2.
func rowsFor(from, to, k int) arrow.Table {
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "category", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "score", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	for i := from; i < to; i++ {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		b.Field(1).(*array.StringBuilder).Append("c" + strconv.Itoa(i%k))
		b.Field(2).(*array.Float64Builder).Append(float64(i) / 2)
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	return array.NewTableFromRecords(sc, []arrow.RecordBatch{rec})
}

// newFixture creates db.events on uri through cat: two appends to main
// (ids 0-9 in 2 categories, ids 10-14 in 3), then one to branch dev (ids
// 100-102 in 1 category).
func newFixture(t *testing.T, cat icecatalog.Catalog, uri string) *fixture {
	t.Helper()
	ctx := context.Background()
	require.NoError(t, cat.CreateNamespace(ctx, table.Identifier{"db"}, nil))
	spec := iceberg.NewPartitionSpec(iceberg.PartitionField{SourceIDs: []int{2}, FieldID: 1000, Name: "category", Transform: iceberg.IdentityTransform{}})
	tbl, err := cat.CreateTable(ctx, table.Identifier{"db", "events"}, readSchema,
		icecatalog.WithPartitionSpec(&spec), icecatalog.WithProperties(iceberg.Properties{"owner": "ops-team"}))
	require.NoError(t, err)
	f := &fixture{uri: uri}
	for i, a := range []struct{ from, to, k int }{{0, 10, 2}, {10, 15, 3}} {
		at := rowsFor(a.from, a.to, a.k)
		tbl, err = tbl.AppendTable(ctx, at, 100, iceberg.Properties{"icebeam.commit-id": "w/global/" + strconv.Itoa(i)})
		at.Release()
		require.NoError(t, err)
		f.snaps = append(f.snaps, tbl.CurrentSnapshot().SnapshotID)
		f.filesPerAppend = append(f.filesPerAppend, a.k)
		f.rowsPerAppend = append(f.rowsPerAppend, a.to-a.from)
	}
	f.tbl = tbl
	tx := tbl.NewTransactionOnBranch("dev")
	at := rowsFor(100, 103, 1)
	require.NoError(t, tx.AppendTable(ctx, at, 100, nil))
	at.Release()
	withDev, err := tx.Commit(ctx)
	require.NoError(t, err)
	f.snaps = append(f.snaps, withDev.SnapshotByName("dev").SnapshotID)
	f.filesPerAppend = append(f.filesPerAppend, 1)
	f.rowsPerAppend = append(f.rowsPerAppend, 3)
	require.Equal(t, f.snaps[1], withDev.CurrentSnapshot().SnapshotID, "the dev commit must leave main alone")
	f.tbl = withDev
	return f
}

func localFixture(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	cfg, stop, err := launch.Catalog(ctx, catalog.Config{LocalDir: t.TempDir()})
	require.NoError(t, err)
	t.Cleanup(func() { _ = stop() })
	cat, err := catalog.Open(ctx, cfg)
	require.NoError(t, err)
	return newFixture(t, cat, cfg.URI)
}

// icebeam runs the command in-process and returns stdout, stderr and the error.
func icebeam(args ...string) (string, string, error) {
	var out, errOut bytes.Buffer
	err := run(context.Background(), args, &out, &errOut)
	return out.String(), errOut.String(), err
}

// scanIDs runs scan with --format=json and returns the ids, sorted.
func scanIDs(t *testing.T, args ...string) []int64 {
	t.Helper()
	out, stderr, err := icebeam(append([]string{"scan", "--format=json", "--limit=0"}, args...)...)
	require.NoError(t, err, stderr)
	var ids []int64
	dec := json.NewDecoder(strings.NewReader(out))
	for dec.More() {
		var row struct {
			ID       int64   `json:"id"`
			Category string  `json:"category"`
			Score    float64 `json:"score"`
		}
		require.NoError(t, dec.Decode(&row))
		require.Equal(t, float64(row.ID)/2, row.Score, "row %d", row.ID)
		ids = append(ids, row.ID)
	}
	slices.Sort(ids)
	return ids
}

func seq(from, to int) []int64 {
	var out []int64
	for i := from; i < to; i++ {
		out = append(out, int64(i))
	}
	return out
}

func TestDescribe(t *testing.T) {
	f := localFixture(t)
	out, stderr, err := icebeam("describe", "--catalog_uri", f.uri, "db.events")
	require.NoError(t, err, stderr)
	t.Logf("icebeam describe db.events:\n%s", out)
	lines := strings.Split(out, "\n")
	has := func(re string) {
		t.Helper()
		for _, l := range lines {
			if regexp.MustCompile(re).MatchString(l) {
				return
			}
		}
		t.Errorf("describe output has no line matching %q:\n%s", re, out)
	}
	has(`^table\s+db\.events$`)
	has(`^location\s+` + regexp.QuoteMeta(f.tbl.Location()) + `$`)
	has(`^format version\s+2$`)
	has(fmt.Sprintf(`^current snapshot\s+%d \(.*, append, 3 snapshots in all\)$`, f.snaps[1]))
	has(`^  1\s+id\s+long\s+required$`)
	has(`^  2\s+category\s+string\s+optional$`)
	has(`^  3\s+score\s+double\s+optional$`)
	has(`^  1000\s+category\s+identity\(category\)$`)
	has(`^  owner=ops-team$`)
	has(fmt.Sprintf(`^  dev\s+branch\s+%d$`, f.snaps[2]))
	has(fmt.Sprintf(`^  main\s+branch\s+%d$`, f.snaps[1]))

	has(`^sort order \(id 0\): unsorted$`)

	// The same table at the dev branch.
	out, stderr, err = icebeam("describe", "--catalog_uri", f.uri, "db.events@dev")
	require.NoError(t, err, stderr)
	require.Regexp(t, fmt.Sprintf(`(?m)^snapshot\s+%d \(`, f.snaps[2]), out)
	require.Regexp(t, `(?m)^ref\s+dev$`, out)

	// A keyed, sorted table: identifier fields and sort order, as the web
	// UI shows them.
	ctx := context.Background()
	cat, err := catalog.Open(ctx, catalog.Config{URI: f.uri})
	require.NoError(t, err)
	keyed := iceberg.NewSchemaWithIdentifiers(0, []int{1, 2},
		iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.PrimitiveTypes.Int64, Required: true},
		iceberg.NestedField{ID: 2, Name: "category", Type: iceberg.PrimitiveTypes.String, Required: true},
		iceberg.NestedField{ID: 3, Name: "score", Type: iceberg.PrimitiveTypes.Float64},
	)
	order, err := table.NewSortOrder(1, []table.SortField{
		{SourceIDs: []int{3}, Transform: iceberg.IdentityTransform{}, Direction: table.SortDESC, NullOrder: table.NullsLast},
		{SourceIDs: []int{1}, Transform: iceberg.BucketTransform{NumBuckets: 4}, Direction: table.SortASC, NullOrder: table.NullsFirst},
	})
	require.NoError(t, err)
	_, err = cat.CreateTable(ctx, table.Identifier{"db", "keyed"}, keyed, icecatalog.WithSortOrder(order))
	require.NoError(t, err)
	out, stderr, err = icebeam("describe", "--catalog_uri", f.uri, "db.keyed")
	require.NoError(t, err, stderr)
	require.Regexp(t, `(?m)^  1\s+id\s+long\s+required\s+identifier$`, out)
	require.Regexp(t, `(?m)^  2\s+category\s+string\s+required\s+identifier$`, out)
	require.Regexp(t, `(?m)^  3\s+score\s+double\s+optional$`, out)
	require.Regexp(t, `(?m)^sort order \(id 1\):\n  identity\(score\) desc nulls-last\n  bucket\[4\]\(id\) asc nulls-first$`, out)
}

func TestSnapshots(t *testing.T) {
	f := localFixture(t)
	table, stderr, err := icebeam("snapshots", "--catalog_uri", f.uri, "db.events")
	require.NoError(t, err, stderr)
	t.Logf("icebeam snapshots db.events:\n%s", table)
	out, stderr, err := icebeam("snapshots", "--catalog_uri", f.uri, "--format", "csv", "db.events")
	require.NoError(t, err, stderr)
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	require.NoError(t, err)
	require.Equal(t, []string{"snapshot_id", "parent_id", "timestamp", "operation", "added_records", "added_data_files", "commit_id"}, recs[0])
	require.Len(t, recs, 4, out)
	commitIDs := []string{"w/global/0", "w/global/1", ""}
	parents := []string{"", strconv.FormatInt(f.snaps[0], 10), strconv.FormatInt(f.snaps[1], 10)}
	for i, r := range recs[1:] {
		require.Equal(t, strconv.FormatInt(f.snaps[i], 10), r[0], "row %d", i)
		require.Equal(t, parents[i], r[1], "parent of row %d", i)
		ts, err := time.Parse(time.RFC3339Nano, r[2])
		require.NoError(t, err)
		require.Equal(t, f.tbl.SnapshotByID(f.snaps[i]).TimestampMs, ts.UnixMilli())
		require.Equal(t, "append", r[3])
		require.Equal(t, strconv.Itoa(f.rowsPerAppend[i]), r[4], "added-records of row %d", i)
		require.Equal(t, strconv.Itoa(f.filesPerAppend[i]), r[5], "added-data-files of row %d", i)
		require.Equal(t, commitIDs[i], r[6])
	}

	// main's history only: the dev snapshot is not its ancestor.
	out, stderr, err = icebeam("snapshots", "--catalog_uri", f.uri, "--format=json", "--ref=main", "db.events")
	require.NoError(t, err, stderr)
	var ids []int64
	dec := json.NewDecoder(strings.NewReader(out))
	dec.UseNumber() // snapshot ids need all 64 bits
	for dec.More() {
		var row map[string]any
		require.NoError(t, dec.Decode(&row))
		id, err := row["snapshot_id"].(json.Number).Int64()
		require.NoError(t, err)
		ids = append(ids, id)
		require.IsType(t, json.Number(""), row["added_records"], "counts are JSON numbers")
	}
	require.Equal(t, f.snaps[:2], ids)
}

func TestScan(t *testing.T) {
	f := localFixture(t)
	uri := "--catalog_uri=" + f.uri
	require.Equal(t, seq(0, 15), scanIDs(t, uri, "db.events"))
	require.Equal(t, append(seq(0, 15), seq(100, 103)...), scanIDs(t, uri, "db.events@dev"))
	require.Equal(t, append(seq(0, 15), seq(100, 103)...), scanIDs(t, "db.events", uri, "--ref", "dev"), "flags after the table")
	require.Equal(t, seq(0, 10), scanIDs(t, uri, "--snapshot", strconv.FormatInt(f.snaps[0], 10), "db.events"))

	// Aligned output with a limit: a header and exactly 3 rows whose
	// values match the generator (category c<id%k>, score id/2).
	out, stderr, err := icebeam("scan", uri, "--limit=3", "db.events")
	require.NoError(t, err, stderr)
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	require.Len(t, lines, 4, out)
	require.Equal(t, []string{"id", "category", "score"}, strings.Fields(lines[0]))
	for _, l := range lines[1:] {
		cells := strings.Fields(l)
		require.Len(t, cells, 3, l)
		id, err := strconv.Atoi(cells[0])
		require.NoError(t, err)
		k := 2
		if id >= 10 {
			k = 3
		}
		require.Equal(t, "c"+strconv.Itoa(id%k), cells[1], l)
		require.Equal(t, strconv.FormatFloat(float64(id)/2, 'f', -1, 64), cells[2], l)
	}

	// CSV of a snapshot: 10 rows plus the header.
	out, stderr, err = icebeam("scan", uri, "--format=csv", "--limit=0", "--snapshot="+strconv.FormatInt(f.snaps[0], 10), "db.events")
	require.NoError(t, err, stderr)
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	require.NoError(t, err)
	require.Len(t, recs, 11)
}

func TestReadCommandErrors(t *testing.T) {
	f := localFixture(t)
	uri := "--catalog_uri=" + f.uri
	for _, tc := range []struct {
		args  []string
		usage bool
		want  string
	}{
		{args: []string{"scan", uri, "db.events#0123abcd"}, want: "only --catalog=nessie"},
		{args: []string{"scan", uri, "events"}, usage: true, want: "NAMESPACE.TABLE"},
		{args: []string{"scan", uri, "db.events#xyz"}, usage: true, want: "hex"},
		{args: []string{"scan", uri}, usage: true, want: "one NS.TABLE"},
		{args: []string{"scan", uri, "--format=xml", "db.events"}, usage: true, want: "--format"},
		{args: []string{"scan", uri, "db.nope"}, want: "loading table db.nope"},
		{args: []string{"scan", uri, "db.events@nope"}, want: `no branch or tag "nope" (has dev, main)`},
		{args: []string{"scan", uri, "--snapshot=42", "db.events"}, want: "no snapshot 42"},
		{args: []string{"scan", uri, "--snapshot=42", "db.events@dev"}, want: "either --snapshot"},
		{args: []string{"describe", uri, "--ref=main", "db.events@dev"}, want: "different references"},
	} {
		_, stderr, err := icebeam(tc.args...)
		require.Error(t, err, tc.args)
		msg := err.Error()
		if tc.usage {
			require.ErrorIs(t, err, errUsage, tc.args)
			msg = stderr
		}
		require.Contains(t, msg, tc.want, tc.args)
	}
	out, _, err := icebeam("help", "scan")
	require.NoError(t, err)
	for _, flag := range []string{"-snapshot", "-limit", "-format", "-catalog_uri", "-auth", "-credential", "-project", "-ref"} {
		require.Contains(t, out, flag)
	}
}

// TestNessieReferences serves the local catalog where Nessie serves
// references, /iceberg/<ref>/v1/..., and checks which reference path each
// table form reaches.
func TestNessieReferences(t *testing.T) {
	h, err := localcatalog.Open(localcatalog.Options{Dir: t.TempDir()})
	require.NoError(t, err)
	t.Cleanup(func() { h.Close() })
	var (
		mu   sync.Mutex
		refs = map[string]bool{}
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rest, ok := strings.CutPrefix(r.URL.Path, "/iceberg/")
		ref, path, ok2 := strings.Cut(rest, "/")
		if !ok || !ok2 {
			http.NotFound(w, r)
			return
		}
		mu.Lock()
		refs[ref] = true
		mu.Unlock()
		// Every reference sees the same tables here: the test is about
		// addressing, which Nessie resolves on its side.
		r2 := r.Clone(r.Context())
		r2.URL.Path = "/" + path
		r2.URL.RawPath = ""
		h.ServeHTTP(w, r2)
	}))
	t.Cleanup(srv.Close)
	ctx := context.Background()
	cat, err := catalog.Open(ctx, catalog.Config{Preset: catalog.PresetNessie, URI: srv.URL + "/iceberg", Ref: "main"})
	require.NoError(t, err)
	newFixture(t, cat, "")

	const hash = "2e1cfa82b035c26cbbbdae632cea070514eb8b773f616aaeaf668e2f0be8f10d"
	for _, tc := range []struct {
		table string
		flags []string
		want  string
	}{
		{"db.events", nil, "main"}, // --ref below
		{"db.events@dev", nil, "dev"},
		{"db.events#" + hash, nil, "@" + hash},
		{"db.events@dev#" + hash, nil, "dev@" + hash},
		{"db.events#" + hash, []string{"--ref=feature"}, "feature@" + hash},
	} {
		mu.Lock()
		clear(refs)
		mu.Unlock()
		args := append([]string{"scan", "--catalog=nessie", "--catalog_uri=" + srv.URL + "/iceberg", "--format=csv"}, tc.flags...)
		if tc.want == "main" {
			args = append(args, "--ref=main")
		}
		args = append(args, tc.table)
		out, stderr, err := icebeam(args...)
		require.NoError(t, err, "%v: %s", args, stderr)
		require.Equal(t, 16, strings.Count(out, "\n"), "15 rows and a header")
		mu.Lock()
		got := slices.Sorted(maps.Keys(refs))
		mu.Unlock()
		require.Equal(t, []string{tc.want}, got, tc.table)
	}
}

// TestReadWithOAuth2 reads through a catalog that admits only live OAuth2
// tokens, with the pipelines' auth flags; the secret is never printed.
func TestReadWithOAuth2(t *testing.T) {
	tokens := authtest.NewTokenServer(time.Hour, 3600)
	env := authtest.NewCatalog(t, tokens, localcatalog.Options{})
	ctx := context.Background()
	cat, err := catalog.Open(ctx, catalog.Config{URI: env.URL, Auth: catalog.AuthOAuth2, Credential: catalog.Secret(tokens.Credential())})
	require.NoError(t, err)
	newFixture(t, cat, env.URL)
	t.Setenv("ICEBEAM_TEST_CRED", tokens.Credential())
	out, stderr, err := icebeam("describe", "--catalog_uri", env.URL, "--auth=oauth2", "--credential=env:ICEBEAM_TEST_CRED", "db.events")
	require.NoError(t, err, stderr)
	require.Contains(t, out, "owner=ops-team")
	require.Equal(t, seq(0, 15), scanIDs(t, "--catalog_uri", env.URL, "--credential=env:ICEBEAM_TEST_CRED", "db.events"))
	require.Zero(t, env.Guard.Rejections(http.StatusUnauthorized))

	// Without credentials the guarded catalog refuses, and says so.
	_, _, err = icebeam("describe", "--catalog_uri", env.URL, "db.events")
	require.Error(t, err)
	for _, s := range append(tokens.Tokens(), tokens.ClientSecret) {
		require.NotContains(t, out+stderr+err.Error(), s)
	}
}

// TestReadBigLakePreset reads with --catalog=biglake and --project on the
// command's own flag set (no Beam flags registered), Google credentials from
// a service-account key, against the local catalog standing in for BigLake.
func TestReadBigLakePreset(t *testing.T) {
	tokens := authtest.NewTokenServer(time.Hour, 3600)
	wh := "file://" + t.TempDir()
	env := authtest.NewCatalog(t, tokens, localcatalog.Options{AllowLocations: []string{wh}})
	t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", tokens.WriteServiceAccountKey(t, env.GoogleTokenURL()))
	ctx := context.Background()
	cat, err := catalog.Open(ctx, catalog.Config{Preset: catalog.PresetBigLake, URI: env.URL, Project: "proj-1", Warehouse: wh})
	require.NoError(t, err)
	f := newFixture(t, cat, env.URL)
	before := len(env.Guard.Requests())

	out, stderr, err := icebeam("describe", "--catalog=biglake", "--project=proj-1", "--catalog_uri="+env.URL, "--warehouse="+wh, "db.events")
	require.NoError(t, err, stderr)
	require.Regexp(t, `(?m)^location\s+`+regexp.QuoteMeta(f.tbl.Location())+`$`, out)
	reqs := env.Guard.Requests()[before:]
	require.NotEmpty(t, reqs)
	for _, r := range reqs {
		require.Equal(t, "proj-1", r.Header.Get("X-Goog-User-Project"), "%s %s", r.Method, r.Path)
	}
	_, stderr, err = icebeam("describe", "--catalog=biglake", "--catalog_uri="+env.URL, "db.events")
	require.ErrorContains(t, err, "needs --project", stderr)
}

// TestReadEmbedded reads a lakehouse directory directly (no --catalog_uri),
// as after a local pipeline run, and refuses a directory that holds none.
func TestReadEmbedded(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	cfg, stop, err := launch.Catalog(ctx, catalog.Config{LocalDir: dir})
	require.NoError(t, err)
	cat, err := catalog.Open(ctx, cfg)
	require.NoError(t, err)
	newFixture(t, cat, cfg.URI)
	require.NoError(t, stop())

	require.Equal(t, seq(0, 15), scanIDs(t, "--local_dir", dir, "db.events"))
	empty := t.TempDir()
	_, _, err = icebeam("describe", "--local_dir", empty, "db.events")
	require.ErrorContains(t, err, "no local catalog at "+filepath.Join(empty, localcatalog.DBFile))
	entries, _ := os.ReadDir(empty)
	require.Empty(t, entries, "a read must not create a lakehouse")
}

// scan applies equality deletes (as a v2 upsert writes them) and the
// deletion vectors a v3 table's deletes are.
func TestScanAppliesRowLevelDeletes(t *testing.T) {
	ctx := context.Background()
	for _, version := range []string{"2", "3"} {
		t.Run("v"+version, func(t *testing.T) {
			cfg, stop, err := launch.Catalog(ctx, catalog.Config{LocalDir: t.TempDir()})
			require.NoError(t, err)
			t.Cleanup(func() { _ = stop() })
			cat, err := catalog.Open(ctx, cfg)
			require.NoError(t, err)
			require.NoError(t, cat.CreateNamespace(ctx, table.Identifier{"db"}, nil))
			tbl, err := cat.CreateTable(ctx, table.Identifier{"db", "accounts"}, readSchema,
				icecatalog.WithProperties(iceberg.Properties{table.PropertyFormatVersion: version, table.WriteDeleteModeKey: table.WriteModeMergeOnRead}))
			require.NoError(t, err)
			at := rowsFor(0, 20, 2)
			tbl, err = tbl.AppendTable(ctx, at, 100, nil)
			at.Release()
			require.NoError(t, err)
			tx := tbl.NewTransaction()
			if version == "2" {
				// Equality deletes of ids 3 and 7, as an upsert sink writes them.
				keys := rowsFor(3, 4, 1)
				seven := rowsFor(7, 8, 1)
				recs := func(yield func(arrow.RecordBatch, error) bool) {
					for _, t := range []arrow.Table{keys, seven} {
						col := array.NewTableReader(t, 10)
						for col.Next() {
							rec := col.RecordBatch()
							ids := array.NewRecordBatch(arrow.NewSchema(rec.Schema().Fields()[:1], nil), rec.Columns()[:1], rec.NumRows())
							if !yield(ids, nil) {
								col.Release()
								return
							}
						}
						col.Release()
					}
				}
				eq, err := tx.WriteEqualityDeletes(ctx, []int{1}, recs)
				require.NoError(t, err)
				require.NoError(t, tx.NewRowDelta(nil).AddDeletes(eq...).Commit(ctx))
			} else {
				// Merge-on-read deletes of a v3 table are deletion vectors.
				require.NoError(t, tx.Delete(ctx, iceberg.IsIn(iceberg.Reference("id"), int64(3), int64(7)), nil))
			}
			tbl, err = tx.Commit(ctx)
			require.NoError(t, err)
			require.Equal(t, "1", tbl.CurrentSnapshot().Summary.Properties["added-delete-files"], "the deletes are a delete file, not a rewrite")
			want := slices.DeleteFunc(seq(0, 20), func(i int64) bool { return i == 3 || i == 7 })
			require.Equal(t, want, scanIDs(t, "--catalog_uri="+cfg.URI, "db.accounts"))
		})
	}
}
