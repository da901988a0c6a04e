package maintenance

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"
	"github.com/apache/iceberg-go/table/compaction"
	"github.com/icebeam/icebeam/catalog/manifests"
	"github.com/icebeam/icebeam/transforms/internal/commit"
	"github.com/icebeam/icebeam/transforms/internal/filecodec"
)

// Snapshot summary entries of a rewrite snapshot.
const (
	// RunIDKey holds the id of the maintenance run that committed the
	// snapshot: a retried committer finds its own commit by it, and the
	// launcher its result.
	RunIDKey = "icebeam.maintenance.run-id"
	// GroupsKey holds how many groups the rewrite committed.
	GroupsKey = "icebeam.rewrite.groups"
	// AttemptKey holds the commit attempt that landed (1 without conflict).
	AttemptKey = "icebeam.rewrite.attempt"
)

// ErrAborted marks a rewrite that was not committed because the table
// changed under it in a way that a replay cannot absorb: a file it replaces
// was removed, or delete files were added that may apply to one. The table
// is as the other writers left it and the rewrite's new files are deleted.
var ErrAborted = errors.New("rewrite aborted")

// RewritePlan is a compaction planned on one snapshot of a table.
type RewritePlan struct {
	RunID          string
	Table          string
	SnapshotID     int64 // the snapshot the groups were planned on
	TargetFileSize int64
	MinInputFiles  int
	Groups         []Group
	TableFiles     int   // data files in the snapshot
	TableBytes     int64 // their size
}

// Group is a set of small data files of one partition (and partition spec)
// rewritten together by one worker.
type Group struct {
	Index     int
	Partition string // for people: "part=a", "unpartitioned", with "(spec N)" for older specs
	SpecID    int
	Tasks     []table.FileScanTask
	Bytes     int64
}

// GroupResult is a group rewritten: the files it replaces and the files
// written in their place, not committed yet.
type GroupResult struct {
	Index       int
	Partition   string
	Old         []iceberg.DataFile // data files replaced
	New         []iceberg.DataFile // data files written
	DVs         []iceberg.DataFile // deletion vectors of the replaced files (v3)
	BytesBefore int64
	BytesAfter  int64
}

// RewriteReport says what a rewrite did, or, planned only, would do.
type RewriteReport struct {
	Planned        bool // only planned: dry run, or nothing to do
	Submitted      bool // the job was submitted, not waited for
	Groups         int
	FilesRewritten int64
	BytesRewritten int64
	FilesWritten   int64
	BytesWritten   int64
	// The table's data files and size before and after (from the snapshot
	// summaries; -1 when a writer did not record them).
	TableFilesBefore, TableFilesAfter int64
	TableBytesBefore, TableBytesAfter int64
	SnapshotID                        int64
	Attempt                           int
	GroupList                         []string // planned groups, for a dry run
	TargetFileSize                    int64
	MinInputFiles                     int
}

// TargetFileSize is where compacted files roll over: override when
// positive, else the table's write.target-file-size-bytes, else 512 MiB.
func TargetFileSize(tbl *table.Table, override int64) int64 {
	if override > 0 {
		return override
	}
	if v, err := strconv.ParseInt(tbl.Properties()[table.WriteTargetFileSizeBytesKey], 10, 64); err == nil && v > 0 {
		return v
	}
	return table.WriteTargetFileSizeBytesDefault
}

// PlanRewrite plans the compaction of tbl's current snapshot: data files
// under 75% of the target size (or with many deletes) are bin-packed per
// partition and partition spec into groups of about the target size, each
// of at least minInputFiles files.
func PlanRewrite(ctx context.Context, tbl *table.Table, targetOverride int64, minInputFiles int) (*RewritePlan, error) {
	snap := tbl.CurrentSnapshot()
	plan := &RewritePlan{
		Table:          strings.Join(tbl.Identifier(), "."),
		TargetFileSize: TargetFileSize(tbl, targetOverride),
		MinInputFiles:  minInputFiles,
	}
	if snap == nil {
		return plan, nil
	}
	return planAt(ctx, tbl, plan, snap.SnapshotID)
}

// planAt fills plan with the groups of snapshot id.
func planAt(ctx context.Context, tbl *table.Table, plan *RewritePlan, id int64) (*RewritePlan, error) {
	plan.SnapshotID = id
	tasks, err := tbl.Scan(table.WithSnapshotID(id)).PlanFiles(ctx)
	if err != nil {
		return nil, fmt.Errorf("planning the rewrite of %s: listing data files: %w", plan.Table, err)
	}
	for _, t := range tasks {
		plan.TableFiles++
		plan.TableBytes += t.File.FileSizeBytes()
	}
	cfg := compaction.DefaultConfig()
	cfg.TargetFileSizeBytes = plan.TargetFileSize
	cfg.MinFileSizeBytes = plan.TargetFileSize * 3 / 4
	cfg.MaxFileSizeBytes = plan.TargetFileSize * 9 / 5
	cfg.MinInputFiles = uint(plan.MinInputFiles)
	cp, err := cfg.PlanCompaction(tasks)
	if err != nil {
		return nil, fmt.Errorf("planning the rewrite of %s: %w", plan.Table, err)
	}
	meta := tbl.Metadata()
	for i, g := range cp.Groups {
		spec := int(g.Tasks[0].File.SpecID())
		plan.Groups = append(plan.Groups, Group{
			Index:     i,
			Partition: partitionLabel(meta, g.Tasks[0].File),
			SpecID:    spec,
			Tasks:     g.Tasks,
			Bytes:     g.TotalSizeBytes,
		})
	}
	slices.SortStableFunc(plan.Groups, func(a, b Group) int { return strings.Compare(a.Partition, b.Partition) })
	for i := range plan.Groups {
		plan.Groups[i].Index = i
	}
	return plan, nil
}

// GroupTasks puts the tasks of files chosen for a rewrite into groups, one
// per partition and partition spec (PlanRewrite bin-packs small files
// instead).
func GroupTasks(tbl *table.Table, tasks []table.FileScanTask) []Group {
	meta := tbl.Metadata()
	byKey := map[string]int{}
	var groups []Group
	for _, t := range tasks {
		k := partitionKey(t.File)
		i, ok := byKey[k]
		if !ok {
			i = len(groups)
			byKey[k] = i
			groups = append(groups, Group{Index: i, Partition: partitionLabel(meta, t.File), SpecID: int(t.File.SpecID())})
		}
		groups[i].Tasks = append(groups[i].Tasks, t)
		groups[i].Bytes += t.File.FileSizeBytes()
	}
	return groups
}

// report is what a plan alone says: for a dry run, or nothing to do.
func (p *RewritePlan) report() *RewriteReport {
	r := &RewriteReport{Planned: true, Groups: len(p.Groups), SnapshotID: p.SnapshotID,
		TableFilesBefore: int64(p.TableFiles), TableBytesBefore: p.TableBytes,
		TableFilesAfter: -1, TableBytesAfter: -1, TargetFileSize: p.TargetFileSize, MinInputFiles: p.MinInputFiles}
	for _, g := range p.Groups {
		r.FilesRewritten += int64(len(g.Tasks))
		r.BytesRewritten += g.Bytes
		r.GroupList = append(r.GroupList, fmt.Sprintf("%s: %d files, %s", g.Partition, len(g.Tasks), formatBytes(g.Bytes)))
	}
	return r
}

// partitionLabel names df's partition for people.
func partitionLabel(meta table.Metadata, df iceberg.DataFile) string {
	spec := meta.PartitionSpecByID(int(df.SpecID()))
	if spec == nil {
		return fmt.Sprintf("spec %d", df.SpecID())
	}
	var parts []string
	values := df.Partition()
	for _, f := range spec.Fields() {
		v, ok := values[f.FieldID]
		switch {
		case !ok || v == nil:
			parts = append(parts, f.Name+"=null")
		default:
			parts = append(parts, fmt.Sprintf("%s=%v", f.Name, v))
		}
	}
	label := strings.Join(parts, ", ")
	if label == "" {
		label = "unpartitioned"
	}
	if spec.ID() != meta.DefaultPartitionSpec() {
		label += fmt.Sprintf(" (spec %d)", spec.ID())
	}
	return label
}

// RewriteGroup reads a group's files through iceberg-go's scan (projected
// onto the table's current schema: columns a file lacks read as null,
// promoted types are widened, delete files are applied) and writes their
// rows as new data files of about target bytes with the table's Parquet
// settings. Nothing is committed. On failure the files it wrote are
// removed.
func RewriteGroup(ctx context.Context, tbl *table.Table, g Group, target int64) (GroupResult, error) {
	res := GroupResult{Index: g.Index, Partition: g.Partition}
	if len(g.Tasks) == 0 {
		return res, nil
	}
	rowLimit, err := rowGroupLimit(ctx, tbl, g)
	if err != nil {
		return res, fmt.Errorf("rewriting group %s: %w", g.Partition, err)
	}
	if g.SpecID == tbl.Metadata().DefaultPartitionSpec() {
		// One partition of the current spec: iceberg-go's own group
		// executor, with its clustered writer and v3 row lineage.
		gr, err := table.ExecuteCompactionGroup(ctx, tbl, table.CompactionTaskGroup{
			PartitionKey: g.Partition, Tasks: g.Tasks, TotalSizeBytes: g.Bytes,
		}, table.WithCompactionTargetFileSize(target), table.WithCompactionParquetRowGroupLimit(int(rowLimit)))
		if err != nil {
			removeDataFiles(ctx, tbl, gr.NewDataFiles)
			return res, fmt.Errorf("rewriting group %s: %w", g.Partition, err)
		}
		res.Old, res.New, res.DVs = gr.OldDataFiles, gr.NewDataFiles, gr.SafeDeletionVectors
		res.BytesBefore, res.BytesAfter = gr.BytesBefore, gr.BytesAfter
		return res, nil
	}
	// Files of an older partition spec are rewritten into the current
	// one, where their rows may fall into several partitions: the fanout
	// writer takes them in any order.
	schema, records, err := tbl.Scan().ReadTasks(ctx, g.Tasks)
	if err != nil {
		return res, fmt.Errorf("rewriting group %s: reading: %w", g.Partition, err)
	}
	for df, err := range table.WriteRecords(ctx, tbl, schema, records, table.WithTargetFileSize(target), table.WithParquetRowGroupLimit(int(rowLimit))) {
		if err != nil {
			removeDataFiles(ctx, tbl, res.New)
			return res, fmt.Errorf("rewriting group %s: writing: %w", g.Partition, err)
		}
		res.New = append(res.New, df)
		res.BytesAfter += df.FileSizeBytes()
	}
	for _, t := range g.Tasks {
		res.Old = append(res.Old, t.File)
	}
	res.DVs = table.CollectSafeDeletionVectors(g.Tasks)
	res.BytesBefore = g.Bytes
	return res, nil
}

// rowGroupLimit is the row limit that stands for the table's
// write.parquet.row-group-size-bytes, which iceberg-go's writer ignores
// (it cuts row groups by write.parquet.row-group-limit): the byte size over
// the uncompressed bytes per row of the group's first file, read from its
// footer. 0 when the table sets no byte size or its row limit is smaller.
func rowGroupLimit(ctx context.Context, tbl *table.Table, g Group) (int64, error) {
	want, err := strconv.ParseInt(tbl.Properties()[table.ParquetRowGroupSizeBytesKey], 10, 64)
	if err != nil || want <= 0 || len(g.Tasks) == 0 || g.Tasks[0].File.FileFormat() != iceberg.ParquetFile {
		return 0, nil
	}
	fs, err := tbl.FS(ctx)
	if err != nil {
		return 0, err
	}
	f, err := fs.Open(g.Tasks[0].File.FilePath())
	if err != nil {
		return 0, err
	}
	defer f.Close()
	rd, err := file.NewParquetReader(f)
	if err != nil {
		return 0, fmt.Errorf("reading the footer of %s: %w", g.Tasks[0].File.FilePath(), err)
	}
	defer rd.Close()
	var bytes, rows int64
	for _, rg := range rd.MetaData().RowGroups {
		bytes += rg.TotalByteSize
		rows += rg.NumRows
	}
	limit := max(want/max(bytes/max(rows, 1), 1), 1)
	if cur, err := strconv.ParseInt(tbl.Properties()[table.ParquetRowGroupLimitKey], 10, 64); err == nil && cur > 0 && cur <= limit {
		return 0, nil
	}
	return limit, nil
}

// removeDataFiles deletes files no commit references; failures cost
// storage (remove_orphan_files finds them), not correctness.
func removeDataFiles(ctx context.Context, tbl *table.Table, files []iceberg.DataFile) {
	if len(files) == 0 {
		return
	}
	fs, err := tbl.FS(ctx)
	if err != nil {
		return
	}
	for _, f := range files {
		_ = fs.Remove(f.FilePath())
	}
}

// beforeCommitAttempt, when set (by tests), runs before each commit
// attempt once the rewrite is staged: a concurrent writer's moment.
var beforeCommitAttempt func(ctx context.Context, attempt int)

// commitRetryFor bounds how long CommitRewrite retries conflicts.
const commitRetryFor = 2 * time.Minute

// CommitRewrite commits the groups' results as one replace snapshot of
// the table, planned on snapshot planned. Appends committed by others since
// are kept: on a conflict (409) it reloads the table and retries as long as
// every file it replaces is still live and no delete file that may apply
// to one has been added since planned. Otherwise it aborts (ErrAborted):
// nothing is committed and the new files are deleted. A run id already
// committed (a retried committer) is reported, not committed again.
func CommitRewrite(ctx context.Context, cat icecatalog.Catalog, ident table.Identifier, runID string, planned int64, results []GroupResult) (*RewriteReport, error) {
	name := strings.Join(ident, ".")
	var old, added, dvs []iceberg.DataFile
	groups := 0
	for _, r := range results {
		if len(r.Old) == 0 {
			continue
		}
		groups++
		old = append(old, r.Old...)
		added = append(added, r.New...)
		dvs = append(dvs, r.DVs...)
	}
	if groups == 0 {
		return &RewriteReport{Planned: true, TableFilesAfter: -1, TableBytesAfter: -1}, nil
	}
	rewritten := make(map[string]struct{}, len(old))
	for _, f := range old {
		rewritten[f.FilePath()] = struct{}{}
	}

	var invalid error // why the rewrite no longer applies
	discarded := false
	done, err := commit.Commit(ctx, cat, commit.Request{
		Ident: ident,
		Name:  "committing the rewrite of " + name,
		Lookup: func(tbl *table.Table) (int64, bool) {
			if snap := landed(tbl, runID); snap != nil {
				return snap.SnapshotID, true
			}
			return 0, false
		},
		Stage: func(ctx context.Context, tbl *table.Table, tx *table.Transaction, attempt int) error {
			if invalid = checkStillValid(ctx, tbl, planned, rewritten); invalid != nil {
				return invalid
			}
			fs, err := tbl.FS(ctx)
			if err != nil {
				return err
			}
			rw := tx.NewRewrite(iceberg.Properties{
				RunIDKey:   runID,
				GroupsKey:  strconv.Itoa(groups),
				AttemptKey: strconv.Itoa(attempt),
			})
			rw.ApplyResult(table.CompactionGroupResult{OldDataFiles: old, NewDataFiles: added, SafeDeletionVectors: dvs})
			// Classic position deletes that only target replaced files are
			// dead once those go: found against this attempt's base.
			dead, err := table.CollectDeadPositionDeletes(ctx, fs, tbl.CurrentSnapshot(), rewritten)
			if err != nil {
				return err
			}
			for _, df := range dead {
				rw.DeleteFile(df)
			}
			if err := rw.Commit(ctx); err != nil {
				return fmt.Errorf("staging: %w", err)
			}
			return nil
		},
		Deadline: time.Now().Add(commitRetryFor),
		Window:   commitRetryFor,
		Discard: func(ctx context.Context, _ *table.Table) {
			discarded = true
			discardNewFiles(ctx, cat, ident, added)
		},
		BeforeAttempt: beforeCommitAttempt,
	})
	switch {
	case err == nil:
		return reportFromSnapshot(done.Table, done.Table.Metadata().SnapshotByID(done.SnapshotID)), nil
	case invalid != nil && discarded:
		return nil, fmt.Errorf("%w: table %s left as the other writers made it, the rewrite's %d new files deleted: %w", ErrAborted, name, len(added), invalid)
	case invalid != nil:
		return nil, fmt.Errorf("%w: table %s: %w (an earlier attempt's outcome is unknown: its %d new files are kept)", ErrAborted, name, invalid, len(added))
	case !discarded:
		return nil, fmt.Errorf("%w (its outcome is unknown: the %d new files are kept; if the commit did not land, remove_orphan_files deletes them once old enough)", err, len(added))
	}
	return nil, err
}

// landed finds the snapshot run id committed, if any.
func landed(tbl *table.Table, runID string) *table.Snapshot {
	snaps := tbl.Metadata().Snapshots()
	for i := len(snaps) - 1; i >= 0; i-- {
		if s := snaps[i].Summary; s != nil && s.Properties[RunIDKey] == runID {
			return &snaps[i]
		}
	}
	return nil
}

// checkStillValid reports why replacing the rewritten files of snapshot
// planned in tbl's current snapshot could lose or resurrect rows: planned
// is no longer in the current snapshot's history, a rewritten file is no
// longer live, or a snapshot since planned added delete files that may
// apply to one (position deletes naming one or in the same partition as
// one, any equality delete).
func checkStillValid(ctx context.Context, tbl *table.Table, planned int64, rewritten map[string]struct{}) error {
	cur := tbl.CurrentSnapshot()
	if cur == nil {
		return errors.New("the table has no current snapshot any more")
	}
	meta := tbl.Metadata()
	since, ok := table.AncestorsBetween(cur.SnapshotID, planned, meta.SnapshotByID)
	if !ok {
		return fmt.Errorf("snapshot %d it was planned on is no longer in the history of the current snapshot %d (rolled back, or expired while it ran)", planned, cur.SnapshotID)
	}
	fs, err := tbl.FS(ctx)
	if err != nil {
		return err
	}
	// Partitions of the rewritten files, for partition-scoped deletes.
	partitions := map[string]struct{}{}
	live := 0
	manifests, err := cur.Manifests(fs)
	if err != nil {
		return err
	}
	for _, m := range manifests {
		if m.ManifestContent() != iceberg.ManifestContentData {
			continue
		}
		for e, err := range m.Entries(fs, true) {
			if err != nil {
				return err
			}
			if _, ok := rewritten[e.DataFile().FilePath()]; ok {
				live++
				partitions[partitionKey(e.DataFile())] = struct{}{}
			}
		}
	}
	if live != len(rewritten) {
		return fmt.Errorf("%d of the %d files it replaces were removed by a concurrent commit since snapshot %d", len(rewritten)-live, len(rewritten), planned)
	}
	for _, s := range since {
		ms, err := s.Manifests(fs)
		if err != nil {
			return err
		}
		for _, m := range ms {
			if m.ManifestContent() != iceberg.ManifestContentDeletes || m.SnapshotID() != s.SnapshotID {
				continue
			}
			for e, err := range m.Entries(fs, true) {
				if err != nil {
					return err
				}
				if e.Status() != iceberg.EntryStatusADDED {
					continue
				}
				df := e.DataFile()
				if df.ContentType() == iceberg.EntryContentEqDeletes {
					return fmt.Errorf("snapshot %d added equality deletes (%s) while it ran", s.SnapshotID, df.FilePath())
				}
				if ref := df.ReferencedDataFile(); ref != nil && *ref != "" {
					if _, ok := rewritten[*ref]; ok {
						return fmt.Errorf("snapshot %d added deletes (%s) to a file it replaces, %s", s.SnapshotID, df.FilePath(), *ref)
					}
					continue
				}
				if _, ok := partitions[partitionKey(df)]; ok {
					return fmt.Errorf("snapshot %d added position deletes (%s) in a partition it rewrites", s.SnapshotID, df.FilePath())
				}
			}
		}
	}
	return nil
}

// partitionKey identifies a file's spec and partition values.
func partitionKey(df iceberg.DataFile) string {
	p := df.Partition()
	ids := make([]int, 0, len(p))
	for id := range p {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var b strings.Builder
	fmt.Fprintf(&b, "%d", df.SpecID())
	for _, id := range ids {
		fmt.Fprintf(&b, "|%d=%T:%v", id, p[id], p[id])
	}
	return b.String()
}

// discardNewFiles deletes a rewrite's new files after it was not
// committed, except any the table references after all (a committer
// replayed after its commit landed and that snapshot expired).
func discardNewFiles(ctx context.Context, cat icecatalog.Catalog, ident table.Identifier, files []iceberg.DataFile) {
	tbl, err := cat.LoadTable(ctx, ident)
	if err != nil {
		return
	}
	referenced, err := referencedDataFiles(ctx, tbl)
	if err != nil {
		return // cannot tell: keep them (remove_orphan_files can)
	}
	var orphans []iceberg.DataFile
	for _, f := range files {
		if _, ok := referenced[f.FilePath()]; !ok {
			orphans = append(orphans, f)
		}
	}
	removeDataFiles(ctx, tbl, orphans)
}

// referencedDataFiles lists the data and delete files any snapshot of tbl
// references.
func referencedDataFiles(ctx context.Context, tbl *table.Table) (map[string]struct{}, error) {
	fs, err := tbl.FS(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]struct{}{}
	for m, err := range manifests.All(fs, tbl.Metadata().Snapshots()) {
		if err != nil {
			return nil, err
		}
		for e, err := range m.Entries(fs, false) {
			if err != nil {
				return nil, err
			}
			out[e.DataFile().FilePath()] = struct{}{}
		}
	}
	return out, nil
}

// reportFromSnapshot reads a rewrite's report from its snapshot's summary.
func reportFromSnapshot(tbl *table.Table, snap *table.Snapshot) *RewriteReport {
	r := &RewriteReport{TableFilesBefore: -1, TableFilesAfter: -1, TableBytesBefore: -1, TableBytesAfter: -1}
	if snap == nil {
		return r
	}
	r.SnapshotID = snap.SnapshotID
	props := iceberg.Properties{}
	if snap.Summary != nil {
		props = snap.Summary.Properties
	}
	num := func(p iceberg.Properties, k string) int64 {
		if v, err := strconv.ParseInt(p[k], 10, 64); err == nil {
			return v
		}
		return -1
	}
	r.Groups = int(max(0, num(props, GroupsKey)))
	r.Attempt = int(max(0, num(props, AttemptKey)))
	r.FilesRewritten = max(0, num(props, "deleted-data-files"))
	r.FilesWritten = max(0, num(props, "added-data-files"))
	r.BytesRewritten = max(0, num(props, "removed-files-size"))
	r.BytesWritten = max(0, num(props, "added-files-size"))
	r.TableFilesAfter = num(props, "total-data-files")
	r.TableBytesAfter = num(props, "total-files-size")
	if snap.ParentSnapshotID != nil {
		if parent := tbl.SnapshotByID(*snap.ParentSnapshotID); parent != nil && parent.Summary != nil {
			r.TableFilesBefore = num(parent.Summary.Properties, "total-data-files")
			r.TableBytesBefore = num(parent.Summary.Properties, "total-files-size")
		}
	}
	return r
}

// Descriptions of groups and their results as they travel between
// workers (filecodec), so that the committer never reads rows.
type (
	groupDesc struct {
		Index     int              `json:"index"`
		Partition string           `json:"partition"`
		SpecID    int              `json:"spec"`
		Bytes     int64            `json:"bytes"`
		Tasks     []filecodec.Task `json:"tasks"`
	}
	resultDesc struct {
		Index       int              `json:"index"`
		Partition   string           `json:"partition"`
		Schema      int              `json:"schema"` // the schema the files are described with
		Old         []filecodec.File `json:"old"`
		New         []filecodec.File `json:"new"`
		DVs         []filecodec.File `json:"dvs,omitempty"`
		BytesBefore int64            `json:"bytes_before"`
		BytesAfter  int64            `json:"bytes_after"`
	}
)

// encodeGroup describes g for another worker.
func encodeGroup(meta table.Metadata, g Group) ([]byte, error) {
	d := groupDesc{Index: g.Index, Partition: g.Partition, SpecID: g.SpecID, Bytes: g.Bytes}
	for _, t := range g.Tasks {
		td, err := filecodec.EncodeTask(meta, meta.CurrentSchema(), t)
		if err != nil {
			return nil, err
		}
		d.Tasks = append(d.Tasks, td)
	}
	return filecodec.Marshal(d)
}

// decodeGroup reads a group description against the table's metadata.
func decodeGroup(meta table.Metadata, b []byte) (Group, error) {
	var d groupDesc
	if err := filecodec.Unmarshal(b, &d); err != nil {
		return Group{}, fmt.Errorf("decoding a rewrite group: %w", err)
	}
	g := Group{Index: d.Index, Partition: d.Partition, SpecID: d.SpecID, Bytes: d.Bytes}
	for _, td := range d.Tasks {
		t, err := td.Decode(meta)
		if err != nil {
			return Group{}, fmt.Errorf("decoding a rewrite group: %w", err)
		}
		g.Tasks = append(g.Tasks, t)
	}
	return g, nil
}

// encodeResult describes a group's result for the committer.
func encodeResult(meta table.Metadata, r GroupResult) ([]byte, error) {
	schema := meta.CurrentSchema()
	d := resultDesc{Index: r.Index, Partition: r.Partition, Schema: schema.ID, BytesBefore: r.BytesBefore, BytesAfter: r.BytesAfter}
	var err error
	if d.Old, err = filecodec.EncodeFiles(meta, schema, r.Old); err != nil {
		return nil, err
	}
	if d.New, err = filecodec.EncodeFiles(meta, schema, r.New); err != nil {
		return nil, err
	}
	if d.DVs, err = filecodec.EncodeFiles(meta, schema, r.DVs); err != nil {
		return nil, err
	}
	return filecodec.Marshal(d)
}

// decodeResult reads a result description against the table's metadata.
func decodeResult(meta table.Metadata, b []byte) (GroupResult, error) {
	var d resultDesc
	if err := filecodec.Unmarshal(b, &d); err != nil {
		return GroupResult{}, fmt.Errorf("decoding a rewrite result: %w", err)
	}
	schema, err := filecodec.SchemaByID(meta, d.Schema)
	if err != nil {
		return GroupResult{}, err
	}
	r := GroupResult{Index: d.Index, Partition: d.Partition, BytesBefore: d.BytesBefore, BytesAfter: d.BytesAfter}
	if r.Old, err = filecodec.DecodeFiles(meta, schema, d.Old); err != nil {
		return GroupResult{}, err
	}
	if r.New, err = filecodec.DecodeFiles(meta, schema, d.New); err != nil {
		return GroupResult{}, err
	}
	if r.DVs, err = filecodec.DecodeFiles(meta, schema, d.DVs); err != nil {
		return GroupResult{}, err
	}
	return r, nil
}
