package main

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/iceberg-go"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/internal/launch"
	mt "github.com/icebeam/icebeam/transforms/maintenance/maintenancetest"
)

// `icebeam maintain` on a pipeline's lakehouse (the embedded catalog it
// starts itself): a dry run changes nothing, the real run compacts 42 small
// files into 3 in this process and the rows stay the same.
func TestMaintain(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	cfg, stop, err := launch.Catalog(ctx, catalog.Config{LocalDir: dir})
	require.NoError(t, err)
	cat, err := catalog.Open(ctx, cfg)
	require.NoError(t, err)
	tbl := mt.CreateTable(t, cat, "db.events", true, nil)
	var rows []mt.Row
	for i := range 14 {
		batch := mt.Rows(i*30, 30, []string{"a", "b", "c"}, false)
		tbl = mt.Append(t, tbl, batch)
		rows = append(rows, batch...)
	}
	snapshot := tbl.CurrentSnapshot().SnapshotID
	require.NoError(t, stop())

	args := []string{"maintain", "--local_dir", dir, "--table=db.events", "--rewrite_data_files", "--target_file_size_bytes=1048576"}
	var out, errOut bytes.Buffer
	require.NoError(t, run(ctx, append(args, "--dry_run"), &out, &errOut), errOut.String())
	require.Contains(t, out.String(), "(dry run: nothing changed)")
	require.Contains(t, out.String(), "would rewrite 42 of 42 data files")

	out.Reset()
	require.NoError(t, run(ctx, append(args, "--parallelism=3"), &out, &errOut), errOut.String())
	require.Contains(t, out.String(), "3 groups: 42 data files (")
	require.Contains(t, out.String(), "rewritten as 3")

	cfg, stop, err = launch.Catalog(ctx, catalog.Config{LocalDir: dir})
	require.NoError(t, err)
	defer stop()
	cat, err = catalog.Open(ctx, cfg)
	require.NoError(t, err)
	tbl, err = cat.LoadTable(ctx, tbl.Identifier())
	require.NoError(t, err)
	require.Equal(t, snapshot, *tbl.CurrentSnapshot().ParentSnapshotID, "the dry run committed something")
	require.Len(t, mt.LiveDataFiles(t, tbl), 3)
	if d := mt.DiffCounts(mt.Count(mt.Read(t, tbl)), mt.Count(rows)); d != "" {
		t.Fatalf("rows changed:\n%s", d)
	}
}

// `icebeam maintain --convert_equality_deletes` on a v2 table with the
// equality deletes of upserts: the dry run changes nothing, the real run
// leaves position deletes only, and the rows stay the same.
func TestMaintainConvertEqualityDeletes(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	cfg, stop, err := launch.Catalog(ctx, catalog.Config{LocalDir: dir})
	require.NoError(t, err)
	cat, err := catalog.Open(ctx, cfg)
	require.NoError(t, err)
	tbl := mt.CreateTable(t, cat, "db.upserts", true, iceberg.Properties{"format-version": "2"})
	rows := mt.Rows(0, 30, []string{"a", "b", "c"}, false)
	tbl = mt.Append(t, tbl, rows)
	// ids 3 (part a) and 4 (part b) deleted: two equality delete files.
	tbl = mt.EqDeletes(t, tbl, []string{"id", "part"}, []map[string]any{{"id": int64(3), "part": "a"}, {"id": int64(4), "part": "b"}})
	want := slices.DeleteFunc(slices.Clone(rows), func(r mt.Row) bool { return r.ID == 3 || r.ID == 4 })
	snapshot := tbl.CurrentSnapshot().SnapshotID
	require.NoError(t, stop())

	args := []string{"maintain", "--local_dir", dir, "--table=db.upserts", "--convert_equality_deletes"}
	var out, errOut bytes.Buffer
	require.NoError(t, run(ctx, append(args, "--dry_run"), &out, &errOut), errOut.String())
	require.Contains(t, out.String(), "would convert 2 of 2 equality delete files applying to 2 data files into position delete files")

	out.Reset()
	require.NoError(t, run(ctx, args, &out, &errOut), errOut.String())
	require.Contains(t, out.String(), "convert_equality_deletes 2 of 2 equality delete files removed; 2 rows marked in 2 data files by 2 new position delete files")

	cfg, stop, err = launch.Catalog(ctx, catalog.Config{LocalDir: dir})
	require.NoError(t, err)
	defer stop()
	cat, err = catalog.Open(ctx, cfg)
	require.NoError(t, err)
	tbl, err = cat.LoadTable(ctx, tbl.Identifier())
	require.NoError(t, err)
	require.NotEqual(t, snapshot, tbl.CurrentSnapshot().SnapshotID)
	eq, pos, _ := mt.DeleteFiles(t, tbl)
	require.Empty(t, eq)
	require.Len(t, pos, 2)
	if d := mt.DiffCounts(mt.Count(mt.Read(t, tbl)), mt.Count(want)); d != "" {
		t.Fatalf("rows changed:\n%s", d)
	}
}

func TestMaintainUsage(t *testing.T) {
	ctx := context.Background()
	var out, errOut bytes.Buffer
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"maintain", "--rewrite_data_files"}, "--table=NAMESPACE.TABLE is required"},
		{[]string{"maintain", "--table=db.t"}, "no action"},
		{[]string{"maintain", "--table=db.t", "--remove_orphan_files", "--orphan_older_than=1m"}, "pass --force"},
		{[]string{"maintain", "--table=db.t", "--expire_snapshots", "db.t"}, `unexpected argument "db.t"`},
		{[]string{"maintain", "--table=db.t", "--expire_snapshots", "--parallelism=0"}, "--parallelism=0"},
	} {
		errOut.Reset()
		err := run(ctx, tc.args, &out, &errOut)
		require.ErrorIs(t, err, errUsage, strings.Join(tc.args, " "))
		require.Contains(t, errOut.String(), tc.want)
	}
	missing := filepath.Join(t.TempDir(), "none")
	err := run(ctx, []string{"maintain", "--local_dir", missing, "--table=db.t", "--expire_snapshots"}, &out, &errOut)
	require.ErrorContains(t, err, "no local catalog at "+missing)

	out.Reset()
	require.NoError(t, run(ctx, []string{"help", "maintain"}, &out, &errOut))
	require.Contains(t, out.String(), "Start with --dry_run")
	require.Contains(t, out.String(), "-rewrite_data_files")
	require.Contains(t, out.String(), "-convert_equality_deletes")
}
