package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/internal/launch/launchtest"
	mt "github.com/icebeam/icebeam/transforms/maintenance/maintenancetest"
)

const testVersion = "v0.0.0-test.maintain"

// pipelineBin is this pipeline built once per test run by the Dockerfile's
// own build line.
var pipelineBin = &launchtest.Binary{Pipeline: "maintain", Version: testVersion}

func TestMain(m *testing.M) {
	code := m.Run()
	pipelineBin.Remove()
	os.Exit(code)
}

var parts = []string{"a", "b", "c"}

// smallFiles makes db.events a table of 42 small files over three
// partitions and returns the rows it holds.
func smallFiles(t *testing.T, cat icecatalog.Catalog) (*table.Table, []mt.Row) {
	t.Helper()
	tbl := mt.CreateTable(t, cat, "db.events", true, nil)
	var rows []mt.Row
	for i := range 14 {
		batch := mt.Rows(i*30, 30, parts, false)
		tbl = mt.Append(t, tbl, batch)
		rows = append(rows, batch...)
	}
	return tbl, rows
}

func reload(t *testing.T, cat icecatalog.Catalog, tbl *table.Table) *table.Table {
	t.Helper()
	tbl, err := cat.LoadTable(context.Background(), tbl.Identifier())
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// The binary on prism against a catalog over HTTP: a dry run changes
// nothing and says what it would do; the real run compacts 42 files into
// 3 on the Beam workers, rewrites manifests, expires every snapshot but the
// last (deleting the small files with them) and finds no orphan; the rows
// stay the same and the summary says so.
func TestMaintainOnPrism(t *testing.T) {
	cfg, cat := mt.Catalog(t)
	tbl, rows := smallFiles(t, cat)
	loc := mt.LocalPath(t, tbl.Location())
	bin := pipelineBin.Path(t)
	all := []string{"--catalog_uri=" + cfg.URI, "--table=db.events", "--rewrite_data_files", "--target_file_size_bytes=1048576",
		"--rewrite_manifests", "--expire_snapshots", "--older_than=0s", "--remove_orphan_files"}

	filesBefore := mt.Files(t, loc)
	out, err := launchtest.Run(t, t.TempDir(), bin, nil, append(all, "--dry_run")...)
	if err != nil {
		t.Fatalf("dry run: %v\n%s", err, launchtest.Tail(out))
	}
	for _, want := range []string{"(dry run: nothing changed)", "would rewrite 42 of 42 data files", "part=a: 14 files",
		"would expire 13 of 14 snapshots", "0 orphan files"} {
		if !strings.Contains(out, want) {
			t.Errorf("dry run output lacks %q:\n%s", want, launchtest.Tail(out))
		}
	}
	if got := mt.Files(t, loc); !slices.Equal(got, filesBefore) {
		t.Fatalf("the dry run changed the files under the table")
	}
	if got := reload(t, cat, tbl).CurrentSnapshot().SnapshotID; got != tbl.CurrentSnapshot().SnapshotID {
		t.Fatalf("the dry run committed snapshot %d", got)
	}

	out, err = launchtest.Run(t, t.TempDir(), bin, nil, all...)
	if err != nil {
		t.Fatalf("%v\n%s", err, launchtest.Tail(out))
	}
	for _, want := range []string{"3 groups: 42 data files", "rewritten as 3", "the table: 42 data files before, 3 after",
		"expire_snapshots", "0 orphan files", "is current"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, launchtest.Tail(out))
		}
	}
	tbl = reload(t, cat, tbl)
	if n := len(mt.LiveDataFiles(t, tbl)); n != 3 {
		t.Errorf("%d data files after the rewrite, want 3", n)
	}
	if n := len(tbl.Metadata().Snapshots()); n != 1 {
		t.Errorf("%d snapshots after expiry with --retain_last=1, want 1", n)
	}
	if d := mt.DiffCounts(mt.Count(mt.Read(t, tbl)), mt.Count(rows)); d != "" {
		t.Errorf("rows changed:\n%s", d)
	}
	// The small files went with the snapshots that held them.
	ref := mt.Referenced(t, tbl)
	for _, f := range mt.Files(t, loc) {
		if strings.HasSuffix(f, ".parquet") && !ref[f] {
			t.Errorf("data file %s is left although no snapshot references it", f)
		}
	}
}

// Mistakes and failures end the run with one line at ERROR naming the
// cause, before any work where they can be seen before it.
func TestFailuresInOneLine(t *testing.T) {
	cfg, cat := mt.Catalog(t)
	smallFiles(t, cat)
	uri := "--catalog_uri=" + cfg.URI
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{uri, "--rewrite_data_files"}, "--table=NAMESPACE.TABLE is required"},
		{[]string{uri, "--table=db.events"}, "no action: give one or more of --rewrite_data_files"},
		{[]string{uri, "--table=events", "--expire_snapshots"}, "want namespace.table"},
		{[]string{uri, "--table=db.events", "--remove_orphan_files", "--orphan_older_than=10m"}, "pass --force if no writer is running"},
		{[]string{uri, "--table=db.missing", "--rewrite_data_files"}, "loading table db.missing"},
		{[]string{"--local_dir=" + filepath.Join(t.TempDir(), "none"), "--table=db.events", "--expire_snapshots"}, "no local catalog at"},
	} {
		t.Run(strings.Join(tc.args[1:], " "), func(t *testing.T) {
			out, err := launchtest.Run(t, t.TempDir(), pipelineBin.Path(t), nil, tc.args...)
			if err == nil {
				t.Fatalf("exited 0:\n%s", launchtest.Tail(out))
			}
			lines := strings.Split(strings.TrimSpace(out), "\n")
			last := lines[len(lines)-1]
			if !strings.Contains(last, tc.want) {
				t.Errorf("last line %q does not name %q:\n%s", last, tc.want, launchtest.Tail(out))
			}
			if !strings.Contains(last, "level=ERROR") {
				t.Errorf("last line %q is not at ERROR", last)
			}
		})
	}
}

// TestVetRunner: every function and type the rewrite pipeline uses is
// registered, which stripped or reflection-free workers need.
func TestVetRunner(t *testing.T) {
	cfg, cat := mt.Catalog(t)
	tbl, _ := smallFiles(t, cat)
	out, err := launchtest.Run(t, t.TempDir(), pipelineBin.Path(t), nil,
		"--runner=vet", "--catalog_uri="+cfg.URI, "--table=db.events", "--rewrite_data_files", "--target_file_size_bytes=1048576")
	if err != nil {
		t.Fatalf("vet runner: %v\n%s", err, launchtest.Tail(out))
	}
	if strings.Contains(out, "not performant") {
		t.Errorf("unexpected vet output:\n%s", launchtest.Tail(out))
	}
	if got := reload(t, cat, tbl).CurrentSnapshot().SnapshotID; got != tbl.CurrentSnapshot().SnapshotID {
		t.Errorf("the vet runner committed snapshot %d", got)
	}
}

func TestBinaryIsStaticLinuxAMD64(t *testing.T) {
	if err := launchtest.CheckStatic(pipelineBin.Path(t)); err != nil {
		t.Fatal(err)
	}
}
