package icebergio

// Compaction of row-level tables (format v3). Every pane's updates and
// deletes leave rows in older data files that deletion vectors mark
// deleted; readers still read those rows to skip them. A stream that
// changes most keys every pane soon has many times more deleted rows than
// live ones in the table, and reads slow down in proportion. So after a
// pane's commit the committer, which knows from its key index how many
// live rows each data file has, compacts when more than MaxDeletedShare of
// the stored rows are deleted: it rewrites the files with the most deleted
// rows, their live rows only, as `icebeam maintain --rewrite_data_files`
// does and through the same code, in a replace snapshot of its own, and
// moves the index to the new files. The pane is committed before: a
// compaction that fails costs read speed, not data, and is tried again
// after the next pane.

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/transforms/maintenance"
)

// compactRunSuffix ends the run id of the compaction after a pane: the
// pane's commit id and it, so that a replayed pane finds its compaction.
const compactRunSuffix = "/compact"

// compact rewrites tbl's most deleted data files when deleted rows exceed
// the configured share; idx reflects tbl's current snapshot.
func (s *sink) compact(ctx context.Context, dest string, ident table.Identifier, tbl *table.Table, idx *keyIndex, keys []string, commitID string) {
	chosen := idx.toCompact(s.cfg.MaxDeletedShare)
	if len(chosen) == 0 {
		return
	}
	if err := s.compactFiles(ctx, dest, ident, tbl, idx, keys, commitID, chosen); err != nil {
		log.Warnf(ctx, "icebergio: table %s: compaction after commit %s: %v (the next pane's commit tries again)", dest, commitID, err)
		idx.invalidate()
	}
}

// toCompact picks the data files to rewrite: none while at most share of
// the stored rows are deleted, else the files with the largest deleted
// share, until at most half of share would be left; a file is picked only
// if more than share of its own rows are deleted.
func (idx *keyIndex) toCompact(share float64) []int32 {
	if share < 0 {
		return nil
	}
	var stored, live int64
	var files []int32
	for fi, f := range idx.files {
		if f.gone {
			continue
		}
		stored += f.file.Count()
		live += f.live
		files = append(files, int32(fi))
	}
	if stored == 0 || float64(stored-live) <= share*float64(stored) {
		return nil
	}
	deleted := func(fi int32) float64 {
		f := idx.files[fi]
		return float64(f.file.Count()-f.live) / float64(max(f.file.Count(), 1))
	}
	slices.SortFunc(files, func(a, b int32) int { return cmp.Compare(deleted(b), deleted(a)) })
	var chosen []int32
	for _, fi := range files {
		if float64(stored-live) <= share/2*float64(stored) || deleted(fi) <= share {
			break
		}
		f := idx.files[fi]
		stored -= f.file.Count() - f.live
		chosen = append(chosen, fi)
	}
	return chosen
}

// compactFiles rewrites the chosen data files of tbl and commits the
// result as one replace snapshot, then points idx at the new files.
func (s *sink) compactFiles(ctx context.Context, dest string, ident table.Identifier, tbl *table.Table, idx *keyIndex, keys []string, commitID string, chosen []int32) error {
	start := time.Now()
	planned := tbl.CurrentSnapshot().SnapshotID
	want := map[string]bool{}
	for _, fi := range chosen {
		want[idx.files[fi].file.FilePath()] = true
	}
	all, err := tbl.Scan().PlanFiles(ctx)
	if err != nil {
		return fmt.Errorf("listing the table's files: %w", err)
	}
	var tasks []table.FileScanTask
	for _, t := range all {
		if want[t.File.FilePath()] {
			tasks = append(tasks, t)
		}
	}
	if len(tasks) != len(chosen) {
		return fmt.Errorf("%d of the %d files to rewrite are in the table", len(tasks), len(chosen))
	}
	target := s.cfg.TargetFileSize
	if _, set := tbl.Properties()[table.WriteTargetFileSizeBytesKey]; set {
		target = maintenance.TargetFileSize(tbl, 0)
	}
	var results []maintenance.GroupResult
	for _, g := range maintenance.GroupTasks(tbl, tasks) {
		r, err := maintenance.RewriteGroup(ctx, tbl, g, target)
		if err != nil {
			return err
		}
		results = append(results, r)
	}
	rep, err := maintenance.CommitRewrite(ctx, s.cat, ident, commitID+compactRunSuffix, planned, results)
	if err != nil {
		return err
	}
	compactionsCounter.Inc(ctx, 1)
	compactedCounter.Inc(ctx, rep.FilesRewritten)
	done, err := s.cat.LoadTable(ctx, ident)
	if err != nil {
		return err
	}
	snap := done.Metadata().SnapshotByID(rep.SnapshotID)
	if snap == nil || snap.ParentSnapshotID == nil || *snap.ParentSnapshotID != planned {
		// Another writer committed in between: rebuild at the next pane.
		idx.invalidate()
		return nil
	}
	var written []string
	for _, r := range results {
		for _, f := range r.New {
			written = append(written, f.FilePath())
		}
	}
	if err := idx.applyRewrite(ctx, done, rep.SnapshotID, chosen, results, keys, s.cfg.Order); err != nil {
		return err
	}
	log.Infof(ctx, "icebergio: table %s: compacted %d data files into %d after commit %s (snapshot %d) in %v: %s",
		dest, len(chosen), len(written), commitID, rep.SnapshotID, time.Since(start).Round(time.Millisecond), strings.Join(written, ", "))
	return nil
}

// applyRewrite moves idx from the snapshot it reflected to the rewrite's:
// the rewritten files' rows leave, the new files' rows come in.
func (idx *keyIndex) applyRewrite(ctx context.Context, tbl *table.Table, snapshot int64, old []int32, results []maintenance.GroupResult, keys []string, order string) error {
	idx.snapshot = -1
	for _, fi := range old {
		idx.files[fi].gone = true
		delete(idx.byPath, idx.files[fi].file.FilePath())
	}
	var files []iceberg.DataFile
	for _, r := range results {
		files = append(files, r.New...)
	}
	gone := func(i int) bool { e := &idx.entries[i]; return e.live() && idx.files[e.file].gone }
	added, err := idx.readFiles(ctx, tbl, files, keys, order)
	if err != nil {
		return err
	}
	if err := idx.merge(added, gone); err != nil {
		return err
	}
	idx.snapshot = snapshot
	return nil
}
