package maintenance

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/fsouza/fake-gcs-server/fakestorage"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/internal/launch"
	mt "github.com/icebeam/icebeam/transforms/maintenance/maintenancetest"
)

// On gs://, through the catalog's storage code (fake-gcs-server): the
// rewrite reads and writes objects, and orphan removal lists the table's
// prefix only, deleting the old unreferenced object under it and neither a
// young one nor one under a sibling prefix that shares the table's name as
// a string prefix.
func TestOnGCS(t *testing.T) {
	ctx := context.Background()
	srv, err := fakestorage.NewServerWithOptions(fakestorage.Options{Scheme: "http", Host: "127.0.0.1", Writer: io.Discard})
	require.NoError(t, err)
	t.Cleanup(srv.Stop)
	srv.CreateBucketWithOpts(fakestorage.CreateBucketOpts{Name: "lake"})
	cfg, stop, err := launch.Catalog(ctx, catalog.Config{LocalDir: t.TempDir(), Warehouse: "gs://lake/wh", GCSEndpoint: srv.URL() + "/storage/v1/"})
	require.NoError(t, err)
	t.Cleanup(func() { _ = stop() })
	cat, err := catalog.Open(ctx, cfg)
	require.NoError(t, err)

	tbl := mt.CreateTable(t, cat, "db.t", true, nil)
	require.True(t, strings.HasPrefix(tbl.Location(), "gs://lake/wh/"), tbl.Location())
	var rows []mt.Row
	for i := range 6 {
		batch := mt.Rows(i*30, 30, parts, false)
		tbl = mt.Append(t, tbl, batch)
		rows = append(rows, batch...)
	}
	prefix := strings.TrimPrefix(tbl.Location(), "gs://lake/")
	old := time.Now().Add(-48 * time.Hour)
	plant := func(name string, at time.Time) {
		srv.CreateObject(fakestorage.Object{ObjectAttrs: fakestorage.ObjectAttrs{BucketName: "lake", Name: name, Created: at, Updated: at}, Content: []byte("stray")})
	}
	inside, young, outside := prefix+"/data/part=a/stray.parquet", prefix+"/data/part=b/young.parquet", prefix+"_sibling/data/stray.parquet"
	plant(inside, old)
	plant(young, time.Now())
	plant(outside, old)

	sum, err := Run(ctx, cat, Options{Table: "db.t", RewriteDataFiles: true, TargetFileSize: 1 << 20, MinInputFiles: 5,
		RemoveOrphanFiles: true, OrphanOlderThan: time.Hour}, InProcess(2))
	require.NoError(t, err)
	require.EqualValues(t, 18, sum.Rewrite.FilesRewritten)
	require.EqualValues(t, 3, sum.Rewrite.FilesWritten)
	require.Equal(t, []string{"gs://lake/" + inside}, sum.Orphans.Found)
	require.Equal(t, []string{"gs://lake/" + inside}, sum.Orphans.Removed)
	exists := func(name string) bool { _, err := srv.GetObject("lake", name); return err == nil }
	require.False(t, exists(inside), "the orphan is still there")
	require.True(t, exists(young), "a young file was removed")
	require.True(t, exists(outside), "a file outside the table's location was removed")

	tbl, err = cat.LoadTable(ctx, tbl.Identifier())
	require.NoError(t, err)
	require.Len(t, mt.LiveDataFiles(t, tbl), 3)
	checkPartitions(t, tbl, rows)
}
