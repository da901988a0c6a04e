package maintenance_test

import (
	"context"
	"io/fs"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/transforms/icebergio"
	"github.com/icebeam/icebeam/transforms/maintenance"
	mt "github.com/icebeam/icebeam/transforms/maintenance/maintenancetest"
)

// Expiry and orphan removal on a v3 table of the sink's row-level writes:
// the deletion vectors (Puffin files) the current snapshot uses stay, the
// ones later commits replaced go with their snapshots, and the table reads
// as the changes say throughout.
func TestExpiryAndOrphansKnowDeletionVectors(t *testing.T) {
	ctx := context.Background()
	cfg, cat := mt.Catalog(t)
	want := map[int64]int64{}
	lsn := int64(0)
	write := func(changes ...[3]int64) { // op (0 upsert, 1 delete), id, balance
		t.Helper()
		var rows []any
		for _, c := range changes {
			lsn++
			op := "u"
			if c[0] == 1 {
				op = "d"
				delete(want, c[1])
			} else {
				want[c[1]] = c[2]
			}
			rows = append(rows, account{Op: op, LSN: lsn, ID: c[1], Balance: c[2]})
		}
		p, s := beam.NewPipelineWithRoot()
		icebergio.Write(s, icebergio.Config{
			Catalog: cfg, Table: "cdc.gc", Mode: icebergio.Changes,
			Key: []string{"id"}, Op: "op", Order: "lsn", WriterID: "test",
		}, beam.Create(s, rows...))
		require.NoError(t, ptest.Run(p))
	}
	var load [][3]int64
	for id := range int64(40) {
		load = append(load, [3]int64{0, id, id})
	}
	write(load...)
	// Each commit changes a few rows of the first file: its DV is merged
	// and replaced every time.
	for round := int64(1); round <= 4; round++ {
		write([3]int64{0, round, 1000 + round}, [3]int64{1, 10 + round, 0})
	}
	id, err := catalog.ParseTable("cdc.gc")
	require.NoError(t, err)
	tbl, err := cat.LoadTable(ctx, id)
	require.NoError(t, err)
	_, _, dvs := mt.DeleteFiles(t, tbl)
	require.Len(t, dvs, 1, "the load's file has one deletion vector")
	dir := localPath(t, tbl.Location())
	require.Greater(t, len(puffins(t, dir)), 1, "the replaced deletion vectors are still on disk before expiry")

	_, err = maintenance.ExpireSnapshots(ctx, cat, id, 0, 1, false)
	require.NoError(t, err)
	_, err = maintenance.RemoveOrphanFiles(ctx, cat, id, 0, false)
	require.NoError(t, err)

	tbl, err = cat.LoadTable(ctx, id)
	require.NoError(t, err)
	require.Equal(t, want, balances(t, tbl), "after expiry and orphan removal")
	_, _, dvs = mt.DeleteFiles(t, tbl)
	require.Len(t, dvs, 1)
	require.Equal(t, []string{localPath(t, dvs[0].FilePath())}, puffins(t, dir), "only the live deletion vector is left on disk")
}

func localPath(t *testing.T, location string) string {
	t.Helper()
	u, err := url.Parse(location)
	require.NoError(t, err)
	return u.Path
}

// puffins lists the Puffin files under dir.
func puffins(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".puffin") {
			out = append(out, p)
		}
		return err
	}))
	return out
}
