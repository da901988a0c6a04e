package maintenance

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	mt "github.com/icebeam/icebeam/transforms/maintenance/maintenancetest"
)

// Expiry keeps the last --retain_last snapshots and every row; orphan
// removal lists (dry run) and deletes (real run) exactly the old
// unreferenced file planted inside the table's location: never one
// outside it, never one younger than the safety age, never a referenced
// one, although every file of the table is made old enough to qualify.
func TestExpireSnapshotsAndRemoveOrphanFiles(t *testing.T) {
	ctx := context.Background()
	_, cat := mt.Catalog(t)
	tbl := mt.CreateTable(t, cat, "db.aging", true, nil)
	var rows []mt.Row
	for i := range 6 {
		batch := mt.Rows(i*12, 12, parts, false)
		tbl = mt.Append(t, tbl, batch)
		rows = append(rows, batch...)
	}
	ident := tbl.Identifier()
	snaps := tbl.Metadata().Snapshots()
	require.Len(t, snaps, 6)
	// Appends only: a straight line, so the last two are the current
	// snapshot and its parent.
	wantKept := []int64{snaps[4].SnapshotID, snaps[5].SnapshotID}

	// Expiry, dry run first.
	rep, err := ExpireSnapshots(ctx, cat, ident, 0, 2, true)
	require.NoError(t, err)
	require.Len(t, rep.Expired, 4)
	tbl, err = cat.LoadTable(ctx, ident)
	require.NoError(t, err)
	require.Len(t, tbl.Metadata().Snapshots(), 6, "a dry run expired snapshots")

	rep, err = ExpireSnapshots(ctx, cat, ident, 0, 2, false)
	require.NoError(t, err)
	require.Empty(t, rep.Warning)
	require.Equal(t, 6, rep.Before)
	require.Equal(t, 2, rep.After)
	require.ElementsMatch(t, []int64{snaps[0].SnapshotID, snaps[1].SnapshotID, snaps[2].SnapshotID, snaps[3].SnapshotID}, rep.Expired)
	tbl, err = cat.LoadTable(ctx, ident)
	require.NoError(t, err)
	require.ElementsMatch(t, wantKept, snapshotIDs(tbl))
	if d := mt.DiffCounts(mt.Count(mt.Read(t, tbl)), mt.Count(rows)); d != "" {
		t.Fatalf("rows after expiry:\n%s", d)
	}

	// Orphans: an old one inside the location, a young one inside, an
	// old one outside (a sibling directory whose name extends the
	// table's), and every table file made old.
	loc := mt.LocalPath(t, tbl.Location())
	old := time.Now().Add(-48 * time.Hour)
	inside := filepath.Join(loc, "data", "part=a", "00000-orphan.parquet")
	young := filepath.Join(loc, "data", "part=b", "00000-young.parquet")
	outside := filepath.Join(loc+"_sibling", "data", "00000-outside.parquet")
	for _, f := range []string{inside, young, outside} {
		require.NoError(t, os.MkdirAll(filepath.Dir(f), 0o755))
		require.NoError(t, os.WriteFile(f, []byte("not referenced"), 0o644))
	}
	referenced := mt.Referenced(t, tbl)
	for _, f := range append(mt.Files(t, loc), outside) {
		if f != young {
			require.NoError(t, os.Chtimes(f, old, old))
		}
	}

	orep, err := RemoveOrphanFiles(ctx, cat, ident, time.Hour, true)
	require.NoError(t, err)
	require.Equal(t, []string{inside}, localPaths(t, orep.Found))
	require.Empty(t, orep.Removed)
	for _, f := range []string{inside, young, outside} {
		require.FileExists(t, f, "a dry run removed a file")
	}

	orep, err = RemoveOrphanFiles(ctx, cat, ident, time.Hour, false)
	require.NoError(t, err)
	require.Equal(t, []string{inside}, localPaths(t, orep.Found))
	require.Equal(t, []string{inside}, localPaths(t, orep.Removed))
	require.NoFileExists(t, inside)
	require.FileExists(t, young, "a file younger than the safety age was removed")
	require.FileExists(t, outside, "a file outside the table's location was removed")
	for f := range referenced {
		if strings.HasPrefix(f, loc) {
			require.FileExists(t, f, "a referenced file was removed")
		}
	}
	tbl, err = cat.LoadTable(ctx, ident)
	require.NoError(t, err)
	if d := mt.DiffCounts(mt.Count(mt.Read(t, tbl)), mt.Count(rows)); d != "" {
		t.Fatalf("rows after orphan removal:\n%s", d)
	}

	// The same through Run, which prints what it did.
	sum, err := Run(ctx, cat, Options{Table: "db.aging", RemoveOrphanFiles: true, OrphanOlderThan: time.Minute, Force: true,
		ExpireSnapshots: true, OlderThan: time.Hour, RetainLast: 1, MinInputFiles: 5}, nil)
	require.NoError(t, err)
	require.Empty(t, sum.Expire.Expired, "no snapshot is older than an hour")
	require.Empty(t, sum.Orphans.Found)
	var out strings.Builder
	sum.Write(&out)
	require.Contains(t, out.String(), "expired 0 of 2 snapshots")
	require.Contains(t, out.String(), "0 orphan files")
}

// A table that turns garbage collection off is left alone.
func TestOrphansRefusedWithoutGC(t *testing.T) {
	ctx := context.Background()
	_, cat := mt.Catalog(t)
	tbl := mt.CreateTable(t, cat, "db.nogc", false, map[string]string{"gc.enabled": "false"})
	mt.Append(t, tbl, mt.Rows(0, 5, parts, false))
	_, err := RemoveOrphanFiles(ctx, cat, tbl.Identifier(), time.Hour, true)
	require.ErrorContains(t, err, "gc.enabled=false")
}

// Manifests of many appends are merged into one; the rows stay.
func TestRewriteManifests(t *testing.T) {
	ctx := context.Background()
	_, cat := mt.Catalog(t)
	tbl, rows := smallFiles(t, cat, "db.manifests")
	before, err := dataManifests(ctx, tbl)
	require.NoError(t, err)
	require.Equal(t, 14, before, "one manifest per append")

	rep, err := RewriteManifests(ctx, cat, tbl.Identifier(), true)
	require.NoError(t, err)
	require.Equal(t, 14, rep.Before)
	require.Zero(t, rep.SnapshotID)

	rep, err = RewriteManifests(ctx, cat, tbl.Identifier(), false)
	require.NoError(t, err)
	require.Equal(t, 14, rep.Before)
	require.Equal(t, 1, rep.After)
	tbl, err = cat.LoadTable(ctx, tbl.Identifier())
	require.NoError(t, err)
	require.Equal(t, rep.SnapshotID, tbl.CurrentSnapshot().SnapshotID)
	n, err := dataManifests(ctx, tbl)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	checkPartitions(t, tbl, rows)
	requireNothingUnreferenced(t, tbl)
}

func localPaths(t *testing.T, locs []string) []string {
	var out []string
	for _, l := range locs {
		out = append(out, mt.LocalPath(t, l))
	}
	slices.Sort(out)
	return out
}
