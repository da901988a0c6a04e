package icebergio

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	iceio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
	"github.com/google/uuid"

	"github.com/icebeam/icebeam/transforms/icebergio/internal/rowcodec"
	"github.com/icebeam/icebeam/transforms/icebergio/internal/stitch"
	"github.com/icebeam/icebeam/transforms/internal/commit"
)

// Snapshot summary and table property keys that carry commit ids.
const (
	// CommitIDKey names the snapshot summary entry holding the commit id:
	// "<writer id>/<pane hash>", the hash taken over the ids of the
	// pane's chunks (see paneCommitID).
	CommitIDKey = "icebeam.commit-id"
	// batchesSentKey names the snapshot summary entry of a streaming commit
	// holding when the pane's first and last row batches were sent to the
	// shuffle ("<unix ms>-<unix ms>"), and paneTimingKey the pane's timing
	// ("early" for a processing-time firing, "ontime" for the last pane of
	// a finished input). With the triggering frequency F they bound when
	// the pane's trigger was due, to measure commit latency against: an
	// early pane k was due no sooner than min(first_k, last_{k-1}) + F
	// (whether the runner arms the trigger at the pane's first element or
	// at the previous firing), the last pane no sooner than last_k.
	batchesSentKey = "icebeam.batches-sent-ms"
	paneTimingKey  = "icebeam.pane-timing"
	// commitsKeyPrefix + WriterID is the table property holding the pane
	// hashes of the writer's most recent commits, the time of the last one
	// and the writer's totals, commits and rows added
	// ("<hash>,<hash>,...@<unix ms>;<commits>;<rows>"). Unlike snapshots it
	// survives snapshot expiry, so a pane replayed after its snapshot
	// expired is still recognised, and it is in the metadata every catalog
	// serves (Nessie serves only the current snapshot), so CommittedBy
	// counts what the writer committed wherever it wrote.
	commitsKeyPrefix = "icebeam.commits."
)

// recentCommits is how many pane hashes commitsKeyPrefix keeps per writer.
// A runner replays only panes whose commit it has not yet acknowledged: on
// Flink those since the last completed checkpoint, on Dataflow the panes of
// one retried bundle; a few per table.
const recentCommits = 32

// writerTTL is how long another writer's recent commits are kept after its
// last one. No replayed pane outlives it, so the lists of finished jobs
// (with random writer ids) are dropped instead of piling up in the table's
// metadata.
const writerTTL = 7 * 24 * time.Hour

// CommitResult describes one commit (or one skipped duplicate) of a pane of
// rows to one table.
type CommitResult struct {
	Table      string `beam:"table"`
	CommitID   string `beam:"commit_id"`
	SnapshotID int64  `beam:"snapshot_id"`
	Files      int64  `beam:"files"`
	Rows       int64  `beam:"rows"`
	Bytes      int64  `beam:"bytes"`
	// Skipped is true when the commit id had already landed (a retried
	// bundle): nothing was written or committed.
	Skipped bool `beam:"skipped"`
	// DeletedRows and DeleteFiles are what an Upsert or Changes commit
	// deleted: rows (with deletion vectors) or keys (with equality
	// deletes), and the delete files written.
	DeletedRows int64 `beam:"deleted_rows"`
	DeleteFiles int64 `beam:"delete_files"`
	// Together is true when the commit landed in one multi-table
	// transaction with the other tables of its pane (Config.CommitTogether),
	// false when it landed alone.
	Together bool `beam:"together"`
}

var (
	rowsCounter          = beam.NewCounter("icebergio", "rows")
	filesCounter         = beam.NewCounter("icebergio", "files")
	bytesCounter         = beam.NewCounter("icebergio", "bytes")
	commitsCounter       = beam.NewCounter("icebergio", "commits")
	conflictsCounter     = beam.NewCounter("icebergio", "commit_conflict_retries")
	skippedCounter       = beam.NewCounter("icebergio", "skipped_duplicate_commits")
	schemaUpdatesCounter = beam.NewCounter("icebergio", "schema_updates")
	latencyDist          = beam.NewDistribution("icebergio", "commit_latency_ms")
	// Row-level commits: the changes that took effect (see
	// UpsertedRowsKey), those older than the table's row, and the delete
	// files written.
	upsertedCounter    = beam.NewCounter("icebergio", "upserted_rows")
	updatedCounter     = beam.NewCounter("icebergio", "updated_rows")
	deletedCounter     = beam.NewCounter("icebergio", "deleted_rows")
	staleCounter       = beam.NewCounter("icebergio", "stale_changes")
	dvCounter          = beam.NewCounter("icebergio", "deletion_vectors")
	eqDeleteCounter    = beam.NewCounter("icebergio", "equality_delete_files")
	compactionsCounter = beam.NewCounter("icebergio", "compactions")
	compactedCounter   = beam.NewCounter("icebergio", "compacted_files")
	rejectedCounter    = beam.NewCounter("icebergio", "rejected_rows")
)

// retryFor is how long one pane's commit retries failures that may pass
// (409 conflicts, 5xx answers, an unreachable catalog, rejected tokens):
// one and a half triggering periods, at least 10 s. A commit that cannot
// succeed then fails its bundle, with the table and the cause, before the
// next pane's commit would be due, and a stream whose catalog stays down
// fails instead of stalling.
func (s *sink) retryFor() time.Duration {
	return max(10*time.Second, s.cfg.TriggeringFrequency*3/2)
}

// sink writes and commits panes of rows to tables. It is the part of the
// transform that runs on workers, kept free of Beam types so that tests can
// replay commits directly.
type sink struct {
	cat  icecatalog.Catalog
	cfg  Config
	rows *rowcodec.Schema
	spec iceberg.PartitionSpec
	enc  *chunkEncoder // the layout chunks arrive in
	id   string        // random: this instance's data files carry it (see fileTag)
	// table is how the sink creates a table that does not exist (see
	// Config.tableSchema).
	table newTable
	// collapseBytes is how much of a pane's chunks collapse decodes at
	// once (defaultCollapseBytes; tests lower it to fold every chunk).
	collapseBytes int64

	mu   sync.Mutex
	more map[string]*sink // columnsSink's, by the columns' encoded schema
}

func newSink(cat icecatalog.Catalog, cfg Config, rows *rowcodec.Schema) (*sink, error) {
	spec, err := partitionSpec(cfg.PartitionBy, rows.Iceberg)
	if err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	enc, err := newChunkEncoder(rows, spec, cfg)
	if err != nil {
		return nil, err
	}
	created, err := cfg.tableSchema(rows)
	if err != nil {
		return nil, err
	}
	return &sink{cat: cat, cfg: cfg, rows: rows, spec: spec, enc: enc, id: uuid.NewString()[:8],
		table: newTable{schema: created, spec: spec, props: cfg.tableProperties()}, collapseBytes: defaultCollapseBytes}, nil
}

func (s *sink) commitsKey() string { return commitsKeyPrefix + s.cfg.WriterID }

// loadOrCreate loads dest, creating its namespace and the table (from the
// row schema, with the partition spec and properties) when missing.
func (s *sink) loadOrCreate(ctx context.Context, dest string) (tbl *table.Table, created bool, err error) {
	return s.table.loadOrCreate(ctx, s.cat, dest)
}

// newTable is a table the sink creates where none exists: the committer at
// a table's first pane, or before it the encode step of a row-level write
// that stages chunks under the table's location (staging.go).
type newTable struct {
	schema *iceberg.Schema
	spec   iceberg.PartitionSpec
	props  iceberg.Properties
}

// loadOrCreate loads dest from cat, creating its namespace and the table as
// t when missing.
func (t newTable) loadOrCreate(ctx context.Context, cat icecatalog.Catalog, dest string) (tbl *table.Table, created bool, err error) {
	ident, err := parseIdent(dest)
	if err != nil {
		return nil, false, err
	}
	tbl, err = cat.LoadTable(ctx, ident)
	if err == nil {
		return tbl, false, nil
	}
	if !errors.Is(err, icecatalog.ErrNoSuchTable) {
		return nil, false, fmt.Errorf("icebergio: loading table %s: %w", dest, err)
	}
	ns := icecatalog.NamespaceFromIdent(ident)
	if err := cat.CreateNamespace(ctx, ns, nil); err != nil && !errors.Is(err, icecatalog.ErrNamespaceAlreadyExists) {
		return nil, false, fmt.Errorf("icebergio: creating namespace %s: %w", strings.Join(ns, "."), err)
	}
	tbl, err = cat.CreateTable(ctx, ident, t.schema,
		icecatalog.WithPartitionSpec(&t.spec), icecatalog.WithProperties(t.props))
	if errors.Is(err, icecatalog.ErrTableAlreadyExists) {
		// Another worker created it first.
		tbl, err = cat.LoadTable(ctx, ident)
		if err != nil {
			return nil, false, fmt.Errorf("icebergio: loading table %s: %w", dest, err)
		}
		return tbl, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("icebergio: creating table %s: %w", dest, err)
	}
	return tbl, true, nil
}

// landed reports whether commitID is already part of tbl: in a snapshot's
// summary, or among the writer's recent commits, which outlive snapshot
// expiry.
func (s *sink) landed(tbl *table.Table, commitID string) (snapshotID int64, ok bool) {
	meta := tbl.Metadata()
	snaps := meta.Snapshots()
	for i := len(snaps) - 1; i >= 0; i-- {
		if sum := snaps[i].Summary; sum != nil && sum.Properties[CommitIDKey] == commitID {
			return snaps[i].SnapshotID, true
		}
	}
	hashes, _ := splitRecent(meta.Properties()[s.commitsKey()])
	_, hash, _ := strings.Cut(commitID, "/")
	return 0, slices.Contains(strings.Split(hashes, ","), hash)
}

// withCommit is the writer's recent-commits list (the value of its
// commitsKeyPrefix property, without the time) once commitID lands.
func withCommit(recent, commitID string) string {
	_, hash, _ := strings.Cut(commitID, "/")
	if recent == "" {
		return hash
	}
	list := append(strings.Split(recent, ","), hash)
	return strings.Join(list[max(0, len(list)-recentCommits):], ",")
}

// paneCommitID is the commit id of a pane of chunks: the writer id and a
// hash of the chunks' ids, in any order. A runner that replays a pane
// (a retried bundle, a Flink restore of buffered input) hands the same
// chunks to the committer again and gets the same id, so the replay is
// skipped; a pane re-formed from replayed rows holds new chunks and is
// committed, so a failover can duplicate rows but never lose them. The id
// does not involve the pane's index or window, which restarts renumber.
func paneCommitID(writer string, ids []chunkID) string {
	sorted := slices.Clone(ids)
	slices.SortFunc(sorted, func(a, b chunkID) int { return bytes.Compare(a[:], b[:]) })
	h := sha256.New()
	for _, id := range sorted {
		h.Write(id[:])
	}
	return writer + "/" + hex.EncodeToString(h.Sum(nil)[:16])
}

// splitRecent splits a commitsKeyPrefix property value into its list of
// pane hashes and the time of the last commit.
func splitRecent(v string) (hashes string, at time.Time) {
	v, _, _ = strings.Cut(v, ";")
	i := strings.LastIndexByte(v, '@')
	if i < 0 {
		return v, time.Time{}
	}
	ms, err := strconv.ParseInt(v[i+1:], 10, 64)
	if err != nil {
		return v, time.Time{}
	}
	return v[:i], time.UnixMilli(ms)
}

// staleWriters lists other writers' recent-commits properties whose last
// commit is older than writerTTL.
func (s *sink) staleWriters(props iceberg.Properties, now time.Time) []string {
	var stale []string
	for k, v := range props {
		if !strings.HasPrefix(k, commitsKeyPrefix) || k == s.commitsKey() {
			continue
		}
		if _, at := splitRecent(v); !at.IsZero() && now.Sub(at) > writerTTL {
			stale = append(stale, k)
		}
	}
	return stale
}

// commit writes a pane's chunks as data files of dest and commits them
// once, under the pane's commit id (paneCommitID), with extra snapshot
// summary entries asked for once the chunks are consumed (summary may be
// nil). It is idempotent: a pane that already landed is not committed
// again, and the files written for it are removed.
func (s *sink) commit(ctx context.Context, dest string, chunks iter.Seq2[*chunk, error], summary func() iceberg.Properties) (CommitResult, error) {
	deadline := time.Now().Add(s.retryFor())
	w, err := s.write(ctx, deadline, dest, chunks)
	if err != nil {
		return CommitResult{Table: dest}, err
	}
	return s.commitWritten(ctx, deadline, dest, w, summary)
}

// written is a pane of one table, or a shard's part of one, written as data
// files and not committed yet.
type written struct {
	tbl     *table.Table    // the table the files were written for; nil in a committer that only got their description
	schema  *iceberg.Schema // the schema the files were written with
	created bool            // the writer created the table
	files   []iceberg.DataFile
	ids     []chunkID // the chunks the files hold
	writeMS int64
	// owned says that no other attempt can commit these files: they were
	// written in the committing bundle, and a retry writes its own. A
	// sharded pane's files are written before the committing bundle, and
	// every retry of it commits the same files, so they are never removed
	// after a failure and, after a replay, only those the pane's landed
	// snapshot does not hold.
	owned bool
}

// write writes chunks as data files of dest, creating the table when
// missing. A replacing write writes against the schema it will commit,
// which may differ from the table's current one.
func (s *sink) write(ctx context.Context, deadline time.Time, dest string, chunks iter.Seq2[*chunk, error]) (*written, error) {
	var tbl *table.Table
	var created bool
	err := s.retry(ctx, deadline, dest, "loading the table", func() (err error) {
		tbl, created, err = s.loadOrCreate(ctx, dest)
		return err
	})
	if err != nil {
		return nil, err
	}
	if s.cfg.Mode == Append && !created {
		if tbl, err = s.fitSchema(ctx, deadline, dest, tbl); err != nil {
			return nil, err
		}
	}
	if s.cfg.Mode == CreateOrReplace && !created {
		tx := tbl.NewTransaction()
		if err := s.evolveSchema(tx, tbl.Schema()); err != nil {
			return nil, fmt.Errorf("icebergio: table %s: %w", dest, err)
		}
		staged, err := tx.StagedTable()
		if err != nil {
			return nil, fmt.Errorf("icebergio: table %s: staging schema: %w", dest, err)
		}
		tbl = staged.Table
	}
	w := &written{tbl: tbl, schema: tbl.Schema(), created: created, owned: true}
	start := time.Now()
	ids := func(yield func(*chunk, error) bool) {
		for c, err := range chunks {
			if err == nil {
				w.ids = append(w.ids, c.ID)
			}
			if !yield(c, err) {
				return
			}
		}
	}
	w.tbl, w.files, err = s.writeColumns(ctx, deadline, dest, tbl, ids)
	w.writeMS = time.Since(start).Milliseconds()
	if err != nil {
		return nil, fmt.Errorf("icebergio: table %s: writing data files: %w", dest, err)
	}
	w.schema = w.tbl.Schema()
	return w, nil
}

// writeColumns writes chunks as data files of tbl, each run of chunks of
// the same columns by the sink of those columns (columnsSink): chunks of
// more columns than the sink's first make the table take them, with a
// schema update of its own (fitSchema), so every file is written for a
// schema that holds its columns. It returns the table as it is after
// that.
func (s *sink) writeColumns(ctx context.Context, deadline time.Time, dest string, tbl *table.Table, chunks iter.Seq2[*chunk, error]) (*table.Table, []iceberg.DataFile, error) {
	next, stop := iter.Pull2(chunks)
	defer stop()
	// The next chunk, or why there is none.
	c, cerr, ok := next()
	tag := s.fileTag(ctx)
	var files []iceberg.DataFile
	fail := func(err error) (*table.Table, []iceberg.DataFile, error) {
		s.removeFiles(ctx, tbl, files)
		return nil, nil, err
	}
	for ok {
		if cerr != nil {
			return fail(cerr)
		}
		columns := c.columns
		cs, err := s.columnsSink(columns)
		if err != nil {
			return fail(err)
		}
		if cs != s {
			if tbl, err = cs.fitSchema(ctx, deadline, dest, tbl); err != nil {
				return fail(err)
			}
		}
		run := func(yield func(*chunk, error) bool) {
			for ok && (cerr != nil || bytes.Equal(c.columns, columns)) {
				if !yield(c, cerr) {
					return
				}
				c, cerr, ok = next()
			}
		}
		more, err := cs.writeFiles(ctx, tbl, tag, run)
		if err != nil {
			return fail(err)
		}
		files = append(files, more...)
	}
	return tbl, files, nil
}

// columnsSink is the sink of chunks of columns (chunk.columns): s for its
// own columns (nil), else a sink of the same configuration for rows of
// those columns, made once.
func (s *sink) columnsSink(columns []byte) (*sink, error) {
	if columns == nil {
		return s, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if cs, ok := s.more[string(columns)]; ok {
		return cs, nil
	}
	sc, err := DecodeSchema(columns)
	if err != nil {
		return nil, err
	}
	rows, err := rowcodec.FromArrow(sc)
	if err != nil {
		return nil, err
	}
	cs, err := newSink(s.cat, s.cfg, rows)
	if err != nil {
		return nil, err
	}
	cs.id = s.id
	if s.more == nil {
		s.more = map[string]*sink{}
	}
	s.more[string(columns)] = cs
	return cs, nil
}

// commitWritten commits w's files once, under the commit id of w's chunks.
// Files that are not committed (a replay, a refused commit) are removed.
func (s *sink) commitWritten(ctx context.Context, deadline time.Time, dest string, w *written, summary func() iceberg.Properties) (CommitResult, error) {
	props := iceberg.Properties{}
	if summary != nil {
		props = summary()
	}
	ids := w.ids
	// A pane of source ranges alone (its records went to other tables, or
	// had landed before) commits the writer's offsets, so that a job
	// started again does not read its records again.
	rangesOnly := len(w.files) == 0 && props[SourceRangesKey] != "" && s.cfg.Mode == Append
	if rangesOnly {
		ids = []chunkID{rangesID(props[SourceRangesKey])}
	}
	commitID := paneCommitID(s.cfg.WriterID, ids)
	res := CommitResult{Table: dest, CommitID: commitID}
	for _, f := range w.files {
		res.Files++
		res.Rows += f.Count()
		res.Bytes += f.FileSizeBytes()
	}
	if len(w.files) == 0 && !rangesOnly {
		return res, nil
	}
	replace := s.cfg.Mode == CreateOrReplace && !w.created
	files := w.files

	start := time.Now()
	// Commit on a fresh load, one pane at a time per table in this process.
	// prism runs panes of a table concurrently, and writing files takes long
	// enough that the table loaded before it is usually stale by now: a
	// fresh base saves a 409 round trip, and some catalogs (Nessie 0.99)
	// fail to reject a stale first commit at all.
	defer lockTable(s.cfg.Catalog.URI + " " + dest)()
	ident, err := parseIdent(dest)
	if err != nil {
		return res, err
	}
	req := s.paneRequest(ident, dest, commitID, props, deadline, func(ctx context.Context, tbl *table.Table, tx *table.Transaction) error {
		return s.stage(ctx, tbl, tx, replace, w.schema, files, commitID, props)
	})
	req.Discard = func(ctx context.Context, tbl *table.Table) {
		if tbl == nil {
			tbl = w.tbl
		}
		w.discard(ctx, s, tbl)
	}
	done, err := commit.Commit(ctx, s.cat, req)
	if err != nil {
		return res, err
	}
	if done.Replayed {
		// A replayed pane, or a duplicate attempt of this bundle that
		// landed while we wrote.
		return s.skip(ctx, res, done.Table, done.SnapshotID, w), nil
	}
	res.SnapshotID = done.SnapshotID
	if done.AfterCommit != nil {
		log.Warnf(ctx, "icebergio: table %s commit %s landed; after it: %v", dest, commitID, done.AfterCommit)
	}
	ms := countCommit(ctx, start, res)
	log.Infof(ctx, "icebergio: committed table=%s commit=%s snapshot=%d files=%d rows=%d bytes=%d ms=%d write_ms=%d",
		dest, commitID, res.SnapshotID, res.Files, res.Rows, res.Bytes, ms, w.writeMS)
	s.expire(ctx, dest)
	return res, nil
}

// countCommit adds res, a commit that landed after it began at start, to
// the metrics every commit moves, and returns how long it took in
// milliseconds.
func countCommit(ctx context.Context, start time.Time, res CommitResult) int64 {
	ms := time.Since(start).Milliseconds()
	latencyDist.Update(ctx, ms)
	commitsCounter.Inc(ctx, 1)
	rowsCounter.Inc(ctx, res.Rows)
	filesCounter.Inc(ctx, res.Files)
	bytesCounter.Inc(ctx, res.Bytes)
	return ms
}

// paneRequest is the commit of one pane of dest under commitID, with
// summary's entries, found by its id when it has landed (or, for a pane of
// source ranges, when the writer's offsets already cover them: a pane
// formed again from records read again holds new chunks), staged by stage
// on each attempt.
func (s *sink) paneRequest(ident table.Identifier, dest, commitID string, summary iceberg.Properties, deadline time.Time, stage func(context.Context, *table.Table, *table.Transaction) error) commit.Request {
	return commit.Request{
		Ident: ident,
		Name:  fmt.Sprintf("icebergio: table %s commit %s", dest, commitID),
		Lookup: func(tbl *table.Table) (int64, bool) {
			if id, ok := s.landed(tbl, commitID); ok {
				return id, ok
			}
			return rangesLanded(tbl, s.cfg.WriterID, summary)
		},
		Stage: func(ctx context.Context, tbl *table.Table, tx *table.Transaction, attempt int) error {
			if attempt > 1 {
				conflictsCounter.Inc(ctx, 1)
			}
			return stage(ctx, tbl, tx)
		},
		Deadline: deadline,
		Window:   s.retryFor(),
	}
}

// retry runs op, a catalog read or create that is safe to repeat, until it
// succeeds, fails in a way a retry cannot mend, or the deadline is near.
func (s *sink) retry(ctx context.Context, deadline time.Time, dest, what string, op func() error) error {
	return commit.Retry(ctx, deadline, s.retryFor(), "icebergio: table "+dest, what, op)
}

// skip reports a pane that had already landed (as snapshot id) and removes
// the files written for it again.
func (s *sink) skip(ctx context.Context, res CommitResult, tbl *table.Table, id int64, w *written) CommitResult {
	skippedCounter.Inc(ctx, 1)
	log.Infof(ctx, "icebergio: table %s commit %s had already landed (snapshot %d): skipped", res.Table, res.CommitID, id)
	if w.owned {
		s.removeFiles(ctx, tbl, w.files)
	} else if err := s.removeUnreferenced(ctx, tbl, id, w.files); err != nil {
		log.Warnf(ctx, "icebergio: table %s: files of a replayed pane left: %v", res.Table, err)
	}
	res.SnapshotID, res.Skipped = id, true
	res.Files, res.Rows, res.Bytes = 0, 0, 0
	return res
}

// discard removes w's files after a failed commit, if no retry can commit
// them (see written.owned).
func (w *written) discard(ctx context.Context, s *sink, tbl *table.Table) {
	if w.owned {
		s.removeFiles(ctx, tbl, w.files)
	}
}

// removeUnreferenced removes those of files that snapshot id did not add:
// written again for a pane that had landed with other copies.
func (s *sink) removeUnreferenced(ctx context.Context, tbl *table.Table, id int64, files []iceberg.DataFile) error {
	snap := tbl.Metadata().SnapshotByID(id)
	if snap == nil {
		return fmt.Errorf("snapshot %d of the landed pane is expired; cannot tell its files", id)
	}
	fsys, err := tbl.FS(ctx)
	if err != nil {
		return err
	}
	manifests, err := snap.Manifests(fsys)
	if err != nil {
		return err
	}
	added := map[string]bool{}
	for _, m := range manifests {
		if m.SnapshotID() != id {
			continue
		}
		entries, err := m.FetchEntries(fsys, true)
		if err != nil {
			return err
		}
		for _, e := range entries {
			added[e.DataFile().FilePath()] = true
		}
	}
	var orphans []iceberg.DataFile
	for _, f := range files {
		if !added[f.FilePath()] {
			orphans = append(orphans, f)
		}
	}
	s.removeFiles(ctx, tbl, orphans)
	return nil
}

// removeFiles deletes data files that no commit references. It only logs
// failures: an orphan file costs storage, not correctness.
func (s *sink) removeFiles(ctx context.Context, tbl *table.Table, files []iceberg.DataFile) {
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.FilePath()
	}
	removePaths(ctx, tbl, "unreferenced data file", paths)
}

// removePaths deletes paths from tbl's storage, in one call where the
// storage removes in bulk (GCS batches), else 16 at a time. It only logs
// failures, calling the files what (a file already gone is not a failure).
func removePaths(ctx context.Context, tbl *table.Table, what string, paths []string) {
	if len(paths) == 0 {
		return
	}
	if tbl == nil {
		log.Warnf(ctx, "icebergio: %d %ss left (the table could not be loaded to remove them)", len(paths), what)
		return
	}
	fsys, err := tbl.FS(ctx)
	if err != nil {
		log.Warnf(ctx, "icebergio: table %s: %d %ss left: %v", tbl.Identifier(), len(paths), what, err)
		return
	}
	if bulk, ok := fsys.(iceio.BulkRemovableIO); ok {
		if _, err := bulk.DeleteFiles(ctx, paths); err != nil {
			log.Warnf(ctx, "icebergio: table %s: %ss left: %v", tbl.Identifier(), what, err)
		}
		return
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 16)
	for _, p := range paths {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			if err := fsys.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				log.Warnf(ctx, "icebergio: table %s: %s %s left: %v", tbl.Identifier(), what, p, err)
			}
		})
	}
	wg.Wait()
}

// commitLocks holds one mutex per catalog and table for lockTable.
var commitLocks sync.Map // "catalog-uri table" -> *sync.Mutex

// lockTable serializes commits to one table (named by catalog URI and
// table) within this process and returns the unlock function.
func lockTable(key string) (unlock func()) {
	mu, _ := commitLocks.LoadOrStore(key, new(sync.Mutex))
	mu.(*sync.Mutex).Lock()
	return mu.(*sync.Mutex).Unlock
}

// stage stages the pane's commit on tx, a transaction on tbl.
func (s *sink) stage(ctx context.Context, tbl *table.Table, tx *table.Transaction, replace bool, writeSchema *iceberg.Schema, files []iceberg.DataFile, commitID string, summary iceberg.Properties) error {
	props := iceberg.Properties{CommitIDKey: commitID}
	for k, v := range summary {
		props[k] = v
	}
	if replace {
		if err := s.evolveSchema(tx, tbl.Schema()); err != nil {
			return err
		}
		staged, err := tx.StagedTable()
		if err != nil {
			return err
		}
		if !staged.Schema().Equals(writeSchema) {
			return fmt.Errorf("the table schema changed concurrently while replacing it (now %s)", staged.Schema())
		}
		current, err := currentDataFiles(ctx, tbl)
		if err != nil {
			return err
		}
		if err := replaceDataFiles(ctx, tx, tbl.Metadata().Version(), current, files, props); err != nil {
			return err
		}
	} else if len(files) > 0 {
		// Without files, a pane of source ranges alone: the writer's
		// offsets are all it commits.
		if err := appendDataFiles(ctx, tx, tbl.Metadata().Version(), files, props); err != nil {
			return err
		}
	}
	var rows int64
	for _, f := range files {
		rows += f.Count()
	}
	return s.stageRecent(tx, tbl, commitID, rows, props)
}

// appendDataFiles stages an append of files on tx, a transaction on a table
// of format version.
//
// A v3 table gives every row an id: a new file's first_row_id is inherited
// from its manifest, which the manifest list numbers from the table's
// next-row-id when the commit is built, again on every attempt. iceberg-go's
// AddDataFiles refuses files without a first_row_id of their own, and one set
// here would go stale on a retry after another writer's commit; its row
// delta leaves them to inheritance.
func appendDataFiles(ctx context.Context, tx *table.Transaction, version int, files []iceberg.DataFile, props iceberg.Properties) error {
	if version >= 3 {
		return tx.NewRowDelta(props).AddRows(files...).Commit(ctx)
	}
	// The files have fresh unique names: no need to scan every manifest.
	return tx.AddDataFiles(ctx, files, props, table.WithoutDuplicateCheck())
}

// replaceDataFiles stages on tx the replacement of the table's data files
// current by files. On a v3 table, whose new files iceberg-go numbers only
// through a row delta (see appendDataFiles), that is two snapshots in one
// commit: an overwrite that removes current, then an append of files.
func replaceDataFiles(ctx context.Context, tx *table.Transaction, version int, current, files []iceberg.DataFile, props iceberg.Properties) error {
	if version < 3 {
		return tx.ReplaceDataFilesWithDataFiles(ctx, current, files, props)
	}
	if len(current) > 0 {
		if err := tx.ReplaceDataFilesWithDataFiles(ctx, current, nil, props); err != nil {
			return err
		}
	}
	return appendDataFiles(ctx, tx, version, files, props)
}

// writerTotals reads the commits and rows a commitsKeyPrefix property value
// counts; ok is false for a value without them (written before they were
// kept, or none).
func writerTotals(v string) (commits, rows int64, ok bool) {
	parts := strings.Split(v, ";")
	if len(parts) != 3 {
		return 0, 0, false
	}
	c, err1 := strconv.ParseInt(parts[1], 10, 64)
	r, err2 := strconv.ParseInt(parts[2], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return c, r, true
}

// CommittedBy is what the sink with Config.WriterID writer has committed
// to tbl, over all its runs with that id: commits and rows added (for
// Upsert and Changes, rows written). It is kept in the table's properties
// in each commit's own transaction, so it counts exactly what landed,
// replays skipped, whichever snapshots the catalog serves or expiry left.
// ok is false when the writer has committed nothing to tbl, or only with a
// version of the sink that did not count.
func CommittedBy(tbl *table.Table, writer string) (commits, rows int64, ok bool) {
	return writerTotals(tbl.Properties()[commitsKeyPrefix+writer])
}

// stageRecent adds commitID, which adds rows, to the writer's recent
// commits and totals on tx, and the source ranges its snapshot summary
// lists to the writer's SourceOffsets, and drops other writers' lists past
// writerTTL.
func (s *sink) stageRecent(tx *table.Transaction, tbl *table.Table, commitID string, rows int64, summary iceberg.Properties) error {
	if err := stageOffsets(tx, tbl, s.cfg.WriterID, summary); err != nil {
		return err
	}
	now := time.Now()
	v := tbl.Properties()[s.commitsKey()]
	recent, _ := splitRecent(v)
	commits, total, _ := writerTotals(v)
	v = fmt.Sprintf("%s@%d;%d;%d", withCommit(recent, commitID), now.UnixMilli(), commits+1, total+rows)
	if err := tx.SetProperties(iceberg.Properties{s.commitsKey(): v}); err != nil {
		return err
	}
	if stale := s.staleWriters(tbl.Properties(), now); len(stale) > 0 {
		return tx.RemoveProperties(stale)
	}
	return nil
}

// currentDataFiles lists the data files of tbl's current snapshot.
func currentDataFiles(ctx context.Context, tbl *table.Table) ([]iceberg.DataFile, error) {
	if tbl.CurrentSnapshot() == nil {
		return nil, nil
	}
	tasks, err := tbl.Scan().PlanFiles(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing current data files: %w", err)
	}
	seen := map[string]bool{}
	var files []iceberg.DataFile
	for _, t := range tasks {
		if p := t.File.FilePath(); !seen[p] {
			seen[p] = true
			files = append(files, t.File)
		}
	}
	return files, nil
}

// evolveSchema stages on tx the changes that make the row schema the
// table's current schema: columns the rows lack are dropped, new ones added,
// types widened. Unchanged columns keep their field ids, so old snapshots
// stay readable.
func (s *sink) evolveSchema(tx *table.Transaction, current *iceberg.Schema) error {
	target := s.rows.Iceberg
	u := tx.UpdateSchema(true, true)
	// Not rowcodec.Match: this walks the table's columns, not the rows',
	// and only through structs, leaving what UnionByNameWith settles.
	var drop func(path []string, cur, want []iceberg.NestedField)
	drop = func(path []string, cur, want []iceberg.NestedField) {
		for _, c := range cur {
			i := slices.IndexFunc(want, func(w iceberg.NestedField) bool { return w.Name == c.Name })
			p := append(slices.Clone(path), c.Name)
			if i < 0 {
				u.DeleteColumn(p)
				continue
			}
			cs, ok1 := c.Type.(*iceberg.StructType)
			ws, ok2 := want[i].Type.(*iceberg.StructType)
			if ok1 && ok2 {
				drop(p, cs.FieldList, ws.FieldList)
			}
		}
	}
	drop(nil, current.Fields(), target.Fields())
	u.UnionByNameWith(target)
	if err := u.Commit(); err != nil {
		return fmt.Errorf("making the row schema current: %w", err)
	}
	return nil
}

// writeFiles turns chunks into data files of tbl, rolling at the target
// size; chunks are consumed one at a time. Chunks whose layout matches the
// table are concatenated as they are; otherwise (a table partitioned
// differently, a column of a wider type) their rows are decoded and written
// again by iceberg-go. Stitched files' names start with tag.
func (s *sink) writeFiles(ctx context.Context, tbl *table.Table, tag string, chunks iter.Seq2[*chunk, error]) ([]iceberg.DataFile, error) {
	layout, err := stitch.LayoutFor(s.enc.tbl, tbl)
	if err != nil {
		log.Infof(ctx, "icebergio: table %s: re-encoding rows (%v)", strings.Join(tbl.Identifier(), "."), err)
		return s.rewriteFiles(ctx, tbl, chunks)
	}
	st, err := stitch.New(ctx, tbl, stitch.Config{Layout: layout, Codec: chunkCodec{s.enc},
		TargetFileSize: s.targetFileSize(tbl), RowGroupRows: maxBatchRows, Tag: tag})
	if err != nil {
		return nil, err
	}
	for c, err := range chunks {
		switch {
		case err != nil:
		case c.ipc != nil:
			var rec arrow.RecordBatch
			if rec, err = s.enc.rowsOf(c); err == nil {
				err = st.AddRows(ctx, rec)
			}
		default:
			err = st.Add(ctx, c.stitched())
		}
		if err != nil {
			st.Abort()
			return nil, err
		}
	}
	files, err := st.Close(ctx)
	if err != nil {
		st.Abort()
	}
	return files, err
}

// targetFileSize is where tbl's data files roll over: the table's own
// write.target-file-size-bytes, whoever set it, else Config.TargetFileSize.
func (s *sink) targetFileSize(tbl *table.Table) int64 {
	if v, err := strconv.ParseInt(tbl.Properties()[table.WriteTargetFileSizeBytesKey], 10, 64); err == nil && v > 0 {
		return v
	}
	return s.cfg.TargetFileSize
}

// rewriteFiles decodes chunks and writes their rows with iceberg-go, with
// the table's Parquet settings, as the table's columns: values widened to
// the table's types, nulls for the columns the rows lack.
func (s *sink) rewriteFiles(ctx context.Context, tbl *table.Table, chunks iter.Seq2[*chunk, error]) ([]iceberg.DataFile, error) {
	asTable, arrowSchema, err := s.tableColumns(ctx, tbl, s.enc.decode(ctx, chunks))
	if err != nil {
		return nil, err
	}
	w, batches, err := withRowGroupBytes(tbl, asTable)
	if err != nil {
		return nil, err
	}
	var files []iceberg.DataFile
	for f, err := range table.WriteRecords(ctx, w, arrowSchema, batches, table.WithTargetFileSize(s.targetFileSize(tbl))) {
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

// tableColumns converts batches of rows into batches of tbl's schema.
func (s *sink) tableColumns(ctx context.Context, tbl *table.Table, batches iter.Seq2[arrow.RecordBatch, error]) (iter.Seq2[arrow.RecordBatch, error], *arrow.Schema, error) {
	rows, err := withTableIDs(s.rows.Iceberg, tbl.Schema())
	if err != nil {
		return nil, nil, err
	}
	return s.tableColumnsOf(ctx, tbl, rows, batches)
}

// expire drops old snapshots when the config asks for it. It runs after the
// data commit and never fails it: expiry is hygiene, retried next time.
func (s *sink) expire(ctx context.Context, dest string) {
	e := s.cfg.Expire
	if e.RetainLast <= 0 && e.OlderThan <= 0 {
		return
	}
	ident, _ := parseIdent(dest)
	retain := max(e.RetainLast, 1)
	_, err := commit.Commit(ctx, s.cat, commit.Request{
		Ident: ident,
		Name:  "icebergio: table " + dest + ": snapshot expiry",
		Stage: func(_ context.Context, tbl *table.Table, tx *table.Transaction, _ int) error {
			if len(tbl.Metadata().Snapshots()) <= retain {
				return commit.ErrNothingToCommit
			}
			return tx.ExpireSnapshots(table.WithRetainLast(retain), table.WithOlderThan(e.OlderThan))
		},
		// One attempt: expiry is hygiene, retried after the next commit.
		MaxAttempts: 1,
		Deadline:    time.Now().Add(s.retryFor()),
		Window:      s.retryFor(),
	})
	if err != nil && !errors.Is(err, commit.ErrNothingToCommit) {
		log.Warnf(ctx, "%v (retried after the next commit)", err)
	}
}
