package icebergio

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math/rand/v2"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/catalog/rest"
	"github.com/apache/iceberg-go/table"
)

// Snapshot summary and table property keys that carry commit ids.
const (
	// CommitIDKey names the snapshot summary entry holding the commit id.
	CommitIDKey = "icebeam.commit-id"
	// BatchesSentKey names the snapshot summary entry of a streaming commit
	// holding when the pane's first and last row batches were sent to the
	// shuffle ("<unix ms>-<unix ms>"), and PaneTimingKey the pane's timing
	// ("early" for a processing-time firing, "ontime" for the last pane of
	// a finished input). With the triggering frequency F they bound when
	// the pane's trigger was due, to measure commit latency against: an
	// early pane k was due no sooner than min(first_k, last_{k-1}) + F
	// (whether the runner arms the trigger at the pane's first element or
	// at the previous firing), the last pane no sooner than last_k.
	BatchesSentKey = "icebeam.batches-sent-ms"
	PaneTimingKey  = "icebeam.pane-timing"
	// MarkerKeyPrefix + WriterID is the table property holding the commit
	// id of the writer's highest pane (of its latest run and window) up to
	// which every pane has landed, and its time ("<commit id>@<unix ms>");
	// unlike snapshots it survives snapshot expiry.
	MarkerKeyPrefix = "icebeam.last-commit-id."
)

// markerTTL is how long another writer's marker is kept. No retried bundle
// outlives it, so older markers (of finished jobs with random writer ids)
// are dropped instead of piling up in the table's metadata.
const markerTTL = 7 * 24 * time.Hour

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
}

var (
	rowsCounter      = beam.NewCounter("icebergio", "rows")
	filesCounter     = beam.NewCounter("icebergio", "files")
	bytesCounter     = beam.NewCounter("icebergio", "bytes")
	commitsCounter   = beam.NewCounter("icebergio", "commits")
	conflictsCounter = beam.NewCounter("icebergio", "commit_conflict_retries")
	skippedCounter   = beam.NewCounter("icebergio", "skipped_duplicate_commits")
	latencyDist      = beam.NewDistribution("icebergio", "commit_latency_ms")
)

// maxCommitAttempts bounds retries of 409 conflicts and unknown commit
// states; with the backoff below that is about half a minute.
const maxCommitAttempts = 12

// sink writes and commits panes of rows to tables. It is the part of the
// transform that runs on workers, kept free of Beam types so that tests can
// replay commits directly.
type sink struct {
	cat  icecatalog.Catalog
	cfg  Config
	rows *rowSchema
	spec iceberg.PartitionSpec
	enc  *chunkEncoder // the layout chunks arrive in
}

func newSink(cat icecatalog.Catalog, cfg Config, rows *rowSchema) (*sink, error) {
	spec, err := partitionSpec(cfg.PartitionBy, rows.iceberg)
	if err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	enc, err := newChunkEncoder(rows, cfg)
	if err != nil {
		return nil, err
	}
	return &sink{cat: cat, cfg: cfg, rows: rows, spec: spec, enc: enc}, nil
}

func (s *sink) markerKey() string { return MarkerKeyPrefix + s.cfg.WriterID }

// loadOrCreate loads dest, creating its namespace and the table (from the
// row schema, with the partition spec and properties) when missing.
func (s *sink) loadOrCreate(ctx context.Context, dest string) (tbl *table.Table, created bool, err error) {
	ident, err := parseIdent(dest)
	if err != nil {
		return nil, false, err
	}
	tbl, err = s.cat.LoadTable(ctx, ident)
	if err == nil {
		return tbl, false, nil
	}
	if !errors.Is(err, icecatalog.ErrNoSuchTable) {
		return nil, false, fmt.Errorf("icebergio: loading table %s: %w", dest, err)
	}
	ns := icecatalog.NamespaceFromIdent(ident)
	if err := s.cat.CreateNamespace(ctx, ns, nil); err != nil && !errors.Is(err, icecatalog.ErrNamespaceAlreadyExists) {
		return nil, false, fmt.Errorf("icebergio: creating namespace %s: %w", strings.Join(ns, "."), err)
	}
	tbl, err = s.cat.CreateTable(ctx, ident, s.rows.iceberg,
		icecatalog.WithPartitionSpec(&s.spec), icecatalog.WithProperties(s.cfg.tableProperties()))
	if errors.Is(err, icecatalog.ErrTableAlreadyExists) {
		// Another worker created it first.
		tbl, err = s.cat.LoadTable(ctx, ident)
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
// summary, or covered by this writer's marker, which names the highest pane
// of a run and window up to which every pane has landed (the snapshots
// themselves may have expired). Panes of one table can commit out of order
// (a runner may process a later pane's bundle first), so a later pane's
// commit alone proves nothing about earlier ones.
func (s *sink) landed(tbl *table.Table, commitID string) (snapshotID int64, ok bool) {
	meta := tbl.Metadata()
	snaps := meta.Snapshots()
	for i := len(snaps) - 1; i >= 0; i-- {
		if sum := snaps[i].Summary; sum != nil && sum.Properties[CommitIDKey] == commitID {
			return snaps[i].SnapshotID, true
		}
	}
	value, has := meta.Properties()[s.markerKey()]
	if !has {
		return 0, false
	}
	marker, _ := splitMarker(value)
	if marker == commitID {
		return 0, true
	}
	prefix, pane, ok1 := splitCommitID(commitID)
	mprefix, mpane, ok2 := splitCommitID(marker)
	return 0, ok1 && ok2 && prefix == mprefix && pane <= mpane
}

// nextMarker is the marker to store when commitID lands on tbl: the highest
// pane of commitID's run and window such that it and every earlier pane have
// landed. ok is false while pane 0 of that run and window has not landed:
// the marker is then left as it is.
func (s *sink) nextMarker(tbl *table.Table, commitID string) (marker string, ok bool) {
	prefix, pane, ok := splitCommitID(commitID)
	if !ok {
		return commitID, true
	}
	meta := tbl.Metadata()
	upTo := int64(-1)
	if v, has := meta.Properties()[s.markerKey()]; has {
		m, _ := splitMarker(v)
		if mprefix, mpane, ok := splitCommitID(m); ok && mprefix == prefix {
			upTo = mpane
		}
	}
	done := map[int64]bool{pane: true}
	for _, snap := range meta.Snapshots() {
		if snap.Summary == nil {
			continue
		}
		if p, n, ok := splitCommitID(snap.Summary.Properties[CommitIDKey]); ok && p == prefix {
			done[n] = true
		}
	}
	for done[upTo+1] {
		upTo++
	}
	if upTo < 0 {
		return "", false
	}
	return prefix + "/" + strconv.FormatInt(upTo, 10), true
}

// commitID is deterministic per writer, run, window and pane, so a retried
// bundle produces the same id as the attempt it replays.
func commitID(writer, window string, pane int64) string {
	return writer + "/" + window + "/" + strconv.FormatInt(pane, 10)
}

func splitMarker(v string) (commitID string, at time.Time) {
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

// staleMarkers lists other writers' markers older than markerTTL.
func (s *sink) staleMarkers(props iceberg.Properties, now time.Time) []string {
	var stale []string
	for k, v := range props {
		if !strings.HasPrefix(k, MarkerKeyPrefix) || k == s.markerKey() {
			continue
		}
		if _, at := splitMarker(v); !at.IsZero() && now.Sub(at) > markerTTL {
			stale = append(stale, k)
		}
	}
	return stale
}

func splitCommitID(id string) (prefix string, pane int64, ok bool) {
	i := strings.LastIndexByte(id, '/')
	if i < 0 {
		return "", 0, false
	}
	n, err := strconv.ParseInt(id[i+1:], 10, 64)
	return id[:i], n, err == nil
}

// commit writes chunks as data files of dest and commits them once under
// commitID. It is idempotent: if commitID already landed nothing is written.
func (s *sink) commit(ctx context.Context, dest, commitID string, chunks iter.Seq2[*chunk, error]) (CommitResult, error) {
	return s.commitPane(ctx, dest, commitID, chunks, nil)
}

// commitPane is commit with extra snapshot summary entries, asked for once
// chunks are consumed (summary may be nil).
func (s *sink) commitPane(ctx context.Context, dest, commitID string, chunks iter.Seq2[*chunk, error], summary func() iceberg.Properties) (CommitResult, error) {
	res := CommitResult{Table: dest, CommitID: commitID}
	tbl, created, err := s.loadOrCreate(ctx, dest)
	if err != nil {
		return res, err
	}
	if id, ok := s.landed(tbl, commitID); ok {
		skippedCounter.Inc(ctx, 1)
		log.Infof(ctx, "icebergio: table %s commit %s already landed (snapshot %d): skipped", dest, commitID, id)
		res.SnapshotID, res.Skipped = id, true
		return res, nil
	}
	replace := s.cfg.Mode == CreateOrReplace && !created

	// A replace writes against the schema it will commit, which may differ
	// from the table's current one.
	writeTbl := tbl
	if replace {
		tx := tbl.NewTransaction()
		if err := s.evolveSchema(tx, tbl.Schema()); err != nil {
			return res, fmt.Errorf("icebergio: table %s commit %s: %w", dest, commitID, err)
		}
		staged, err := tx.StagedTable()
		if err != nil {
			return res, fmt.Errorf("icebergio: table %s commit %s: staging schema: %w", dest, commitID, err)
		}
		writeTbl = staged.Table
	}
	writeStart := time.Now()
	files, err := s.writeFiles(ctx, writeTbl, chunks)
	writeMS := time.Since(writeStart).Milliseconds()
	if err != nil {
		return res, fmt.Errorf("icebergio: table %s commit %s: writing data files: %w", dest, commitID, err)
	}
	for _, f := range files {
		res.Files++
		res.Rows += f.Count()
		res.Bytes += f.FileSizeBytes()
	}
	if len(files) == 0 {
		return res, nil
	}

	props := iceberg.Properties{}
	if summary != nil {
		props = summary()
	}
	start := time.Now()
	// Commit on a fresh load, one pane at a time per table in this process.
	// prism runs panes of a table concurrently, and writing files takes long
	// enough that the table loaded before it is usually stale by now: a
	// fresh base saves a 409 round trip, and some catalogs (Nessie 0.99)
	// fail to reject a stale first commit at all.
	defer lockTable(s.cfg.Catalog.URI + " " + dest)()
	if tbl, err = s.cat.LoadTable(ctx, tbl.Identifier()); err != nil {
		return res, fmt.Errorf("icebergio: table %s commit %s: reloading before commit: %w", dest, commitID, err)
	}
	// A duplicate attempt of this bundle may have landed while we wrote.
	if id, ok := s.landed(tbl, commitID); ok {
		skippedCounter.Inc(ctx, 1)
		log.Infof(ctx, "icebergio: table %s commit %s landed by another attempt (snapshot %d): skipped", dest, commitID, id)
		res.SnapshotID, res.Skipped = id, true
		return res, nil
	}
	backoff := 100 * time.Millisecond
	for attempt := 1; ; attempt++ {
		snap, err := s.tryCommit(ctx, tbl, replace, writeTbl.Schema(), files, commitID, props)
		if err == nil {
			res.SnapshotID = snap
			break
		}
		conflict := errors.Is(err, table.ErrCommitFailed)
		if !conflict && !unknownCommitState(err) {
			return res, fmt.Errorf("icebergio: table %s commit %s failed: %w", dest, commitID, err)
		}
		// Reload and look for our commit id: after an unknown state the
		// server may have applied it; after a conflict a zombie attempt of
		// this same bundle may be the one that won.
		fresh, rerr := s.cat.LoadTable(ctx, tbl.Identifier())
		if rerr != nil {
			return res, fmt.Errorf("icebergio: table %s commit %s: reloading after %v: %w", dest, commitID, err, rerr)
		}
		if id, ok := s.landed(fresh, commitID); ok {
			res.SnapshotID = id
			if conflict {
				// Someone else (a duplicate attempt) committed it.
				skippedCounter.Inc(ctx, 1)
				res.Skipped = true
				log.Infof(ctx, "icebergio: table %s commit %s landed by another attempt (snapshot %d): skipped", dest, commitID, id)
				return res, nil
			}
			break
		}
		if attempt >= maxCommitAttempts {
			return res, fmt.Errorf("icebergio: table %s commit %s failed after %d attempts: %w", dest, commitID, attempt, err)
		}
		conflictsCounter.Inc(ctx, 1)
		log.Warnf(ctx, "icebergio: table %s commit %s attempt %d: %v; retrying", dest, commitID, attempt, err)
		sleep := backoff + rand.N(backoff)
		select {
		case <-ctx.Done():
			return res, fmt.Errorf("icebergio: table %s commit %s: %w", dest, commitID, ctx.Err())
		case <-time.After(sleep):
		}
		backoff = min(2*backoff, 5*time.Second)
		tbl = fresh
	}
	ms := time.Since(start).Milliseconds()
	latencyDist.Update(ctx, ms)
	commitsCounter.Inc(ctx, 1)
	rowsCounter.Inc(ctx, res.Rows)
	filesCounter.Inc(ctx, res.Files)
	bytesCounter.Inc(ctx, res.Bytes)
	log.Infof(ctx, "icebergio: committed table=%s commit=%s snapshot=%d files=%d rows=%d bytes=%d ms=%d write_ms=%d",
		dest, commitID, res.SnapshotID, res.Files, res.Rows, res.Bytes, ms, writeMS)
	s.expire(ctx, dest)
	return res, nil
}

// unknownCommitState reports errors after which the commit may or may not
// have been applied: 5xx answers and transport failures.
func unknownCommitState(err error) bool {
	var nerr net.Error
	return errors.Is(err, rest.ErrCommitStateUnknown) || errors.Is(err, rest.ErrServerError) ||
		errors.Is(err, rest.ErrServiceUnavailable) || errors.As(err, &nerr)
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

// tryCommit makes one commit attempt on tbl and returns the new snapshot id.
func (s *sink) tryCommit(ctx context.Context, tbl *table.Table, replace bool, writeSchema *iceberg.Schema, files []iceberg.DataFile, commitID string, summary iceberg.Properties) (int64, error) {
	tx := tbl.NewTransaction()
	props := iceberg.Properties{CommitIDKey: commitID}
	for k, v := range summary {
		props[k] = v
	}
	if replace {
		if err := s.evolveSchema(tx, tbl.Schema()); err != nil {
			return 0, err
		}
		staged, err := tx.StagedTable()
		if err != nil {
			return 0, err
		}
		if !staged.Schema().Equals(writeSchema) {
			return 0, fmt.Errorf("the table schema changed concurrently while replacing it (now %s)", staged.Schema())
		}
		current, err := currentDataFiles(ctx, tbl)
		if err != nil {
			return 0, err
		}
		if err := tx.ReplaceDataFilesWithDataFiles(ctx, current, files, props); err != nil {
			return 0, err
		}
	} else if err := tx.AddDataFiles(ctx, files, props, table.WithoutDuplicateCheck()); err != nil {
		// The files have fresh unique names: no need to scan every manifest.
		return 0, err
	}
	now := time.Now()
	if marker, ok := s.nextMarker(tbl, commitID); ok {
		if err := tx.SetProperties(iceberg.Properties{s.markerKey(): marker + "@" + strconv.FormatInt(now.UnixMilli(), 10)}); err != nil {
			return 0, err
		}
	}
	if stale := s.staleMarkers(tbl.Properties(), now); len(stale) > 0 {
		if err := tx.RemoveProperties(stale); err != nil {
			return 0, err
		}
	}
	committed, err := tx.Commit(ctx)
	if err != nil {
		return 0, err
	}
	snap := committed.CurrentSnapshot()
	if snap == nil {
		return 0, errors.New("commit left no current snapshot")
	}
	return snap.SnapshotID, nil
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
	target := s.rows.iceberg
	u := tx.UpdateSchema(true, true)
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
// again by iceberg-go.
func (s *sink) writeFiles(ctx context.Context, tbl *table.Table, chunks iter.Seq2[*chunk, error]) ([]iceberg.DataFile, error) {
	layout, err := stitchLayoutFor(s.enc.tbl, tbl)
	if err != nil {
		log.Infof(ctx, "icebergio: table %s: re-encoding rows (%v)", tbl.Identifier(), err)
		return s.rewriteFiles(ctx, tbl, chunks)
	}
	st, err := newStitcher(ctx, tbl, layout, s.enc, s.cfg.TargetFileSize)
	if err != nil {
		return nil, err
	}
	for c, err := range chunks {
		if err == nil {
			err = st.add(ctx, c)
		}
		if err != nil {
			st.abort()
			return nil, err
		}
	}
	files, err := st.close(ctx)
	if err != nil {
		st.abort()
	}
	return files, err
}

// rewriteFiles decodes chunks and writes their rows with iceberg-go.
func (s *sink) rewriteFiles(ctx context.Context, tbl *table.Table, chunks iter.Seq2[*chunk, error]) ([]iceberg.DataFile, error) {
	var files []iceberg.DataFile
	for f, err := range table.WriteRecords(ctx, tbl, s.rows.arrow, s.enc.decode(ctx, chunks), table.WithTargetFileSize(s.cfg.TargetFileSize)) {
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

// expire drops old snapshots when the config asks for it. It runs after the
// data commit and never fails it: expiry is hygiene, retried next time.
func (s *sink) expire(ctx context.Context, dest string) {
	e := s.cfg.Expire
	if e.RetainLast <= 0 && e.OlderThan <= 0 {
		return
	}
	ident, _ := parseIdent(dest)
	tbl, err := s.cat.LoadTable(ctx, ident)
	if err != nil {
		log.Warnf(ctx, "icebergio: table %s: snapshot expiry skipped: %v", dest, err)
		return
	}
	retain := max(e.RetainLast, 1)
	if len(tbl.Metadata().Snapshots()) <= retain {
		return
	}
	tx := tbl.NewTransaction()
	if err := tx.ExpireSnapshots(table.WithRetainLast(retain), table.WithOlderThan(e.OlderThan)); err != nil {
		log.Warnf(ctx, "icebergio: table %s: snapshot expiry skipped: %v", dest, err)
		return
	}
	if _, err := tx.Commit(ctx); err != nil {
		log.Warnf(ctx, "icebergio: table %s: snapshot expiry failed (retried after the next commit): %v", dest, err)
	}
}
