package main

import (
	"testing"

	"github.com/icebeam/icebeam/internal/jobservertest"
	"github.com/icebeam/icebeam/internal/launch/launchtest"
	mt "github.com/icebeam/icebeam/transforms/maintenance/maintenancetest"
)

// TestRewriteOnFlink runs the compaction on Beam's portable Flink runner
// (parallelism 2: the groups really spread over two workers, and the
// descriptions of their files cross a Java shuffle to the one committer):
// 42 files in three partitions become 3, in one replace snapshot, and the
// rows stay the same.
func TestRewriteOnFlink(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Flink job server")
	}
	cfg, cat := mt.Catalog(t)
	tbl, rows := smallFiles(t, cat)
	before := tbl.CurrentSnapshot().SnapshotID
	js := jobservertest.Start(t, "flink")
	out, err := launchtest.Run(t, t.TempDir(), pipelineBin.Path(t), nil, "--catalog_uri="+cfg.URI, "--table=db.events",
		"--rewrite_data_files", "--target_file_size_bytes=1048576",
		"--runner=flink", "--endpoint="+js.Endpoint, "--environment_type=LOOPBACK")
	if err != nil {
		t.Fatalf("maintain on Flink: %v\n%s", err, launchtest.Tail(out))
	}
	tbl = reload(t, cat, tbl)
	if n := len(mt.LiveDataFiles(t, tbl)); n != 3 {
		t.Errorf("%d data files after the rewrite, want 3", n)
	}
	snap := tbl.CurrentSnapshot()
	if snap.ParentSnapshotID == nil || *snap.ParentSnapshotID != before || snap.Summary.Operation != "replace" {
		t.Errorf("current snapshot %d (%s, parent %v) is not one replace on top of %d", snap.SnapshotID, snap.Summary.Operation, snap.ParentSnapshotID, before)
	}
	if d := mt.DiffCounts(mt.Count(mt.Read(t, tbl)), mt.Count(rows)); d != "" {
		t.Errorf("rows changed:\n%s", d)
	}
}
