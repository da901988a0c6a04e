package maintenance

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"slices"
	"strings"
	"time"

	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"
	"github.com/icebeam/icebeam/transforms/internal/commit"
)

// metadataRetries bounds the attempts of the metadata-only actions
// (expiry, manifest rewrite) against concurrent commits: each attempt is
// planned again on the reloaded table, so a stream committing every few
// seconds only delays them.
const metadataRetries = 10

// ExpireReport says what ExpireSnapshots did, or would do.
type ExpireReport struct {
	Planned    bool // dry run: nothing expired
	OlderThan  time.Duration
	RetainLast int
	Before     int     // snapshots before
	Expired    []int64 // snapshot ids expired (or to expire)
	After      int     // snapshots after
	// Warning is a failure after the commit, while deleting the files
	// only the expired snapshots referenced: the snapshots are gone, the
	// files are left for remove_orphan_files.
	Warning string
}

// ExpireSnapshots expires the table's snapshots older than olderThan,
// keeping at least the retainLast most recent of each branch and every
// snapshot a branch or tag points at (iceberg-go's ExpireSnapshots), then
// deletes the manifests, manifest lists and data files only the expired
// snapshots referenced. A concurrent commit makes it plan again on the
// reloaded table.
func ExpireSnapshots(ctx context.Context, cat icecatalog.Catalog, ident table.Identifier, olderThan time.Duration, retainLast int, dryRun bool) (*ExpireReport, error) {
	rep := &ExpireReport{Planned: dryRun, OlderThan: olderThan, RetainLast: retainLast}
	done, committed, err := commitMetadata(ctx, cat, ident, "expiring snapshots of ", func(_ context.Context, tbl *table.Table, tx *table.Transaction, _ int) error {
		before := snapshotIDs(tbl)
		rep.Before, rep.After, rep.Expired = len(before), len(before), nil
		if err := tx.ExpireSnapshots(table.WithOlderThan(olderThan), table.WithRetainLast(retainLast)); err != nil {
			return err
		}
		staged, err := tx.StagedTable()
		if err != nil {
			return err
		}
		kept := snapshotIDs(staged.Table)
		for _, id := range before {
			if !slices.Contains(kept, id) {
				rep.Expired = append(rep.Expired, id)
			}
		}
		if dryRun || len(rep.Expired) == 0 {
			rep.After = len(kept)
			return commit.ErrNothingToCommit
		}
		return nil
	})
	if !committed {
		return rep, err
	}
	rep.After = len(done.Table.Metadata().Snapshots())
	if done.AfterCommit != nil {
		rep.Warning = done.AfterCommit.Error()
	}
	return rep, nil
}

// commitMetadata commits a metadata-only action on ident, staged by stage,
// retried on conflicts metadataRetries times. committed is false when
// stage found nothing to commit, or the commit failed (err).
func commitMetadata(ctx context.Context, cat icecatalog.Catalog, ident table.Identifier, what string, stage func(context.Context, *table.Table, *table.Transaction, int) error) (done commit.Result, committed bool, err error) {
	done, err = commit.Commit(ctx, cat, commit.Request{
		Ident:       ident,
		Name:        what + strings.Join(ident, "."),
		Stage:       stage,
		MaxAttempts: metadataRetries,
		Deadline:    time.Now().Add(commitRetryFor),
		Window:      commitRetryFor,
	})
	if errors.Is(err, commit.ErrNothingToCommit) {
		return done, false, nil
	}
	return done, err == nil, err
}

func snapshotIDs(tbl *table.Table) []int64 {
	var ids []int64
	for _, s := range tbl.Metadata().Snapshots() {
		ids = append(ids, s.SnapshotID)
	}
	return ids
}

// OrphansReport says what RemoveOrphanFiles found and removed.
type OrphansReport struct {
	Planned   bool // dry run: nothing removed
	OlderThan time.Duration
	Location  string
	Found     []string // orphan files, sorted
	Bytes     int64    // their size
	Removed   []string
}

// RemoveOrphanFiles lists every file inside the table's location (through
// the table's FileIO: local directories, gs:// prefixes) and deletes those
// older than olderThan that no metadata reachable from the table
// references: the current metadata file and those in its metadata log,
// statistics files, and every snapshot's manifest list, manifests, data and
// delete files (iceberg-go's orphan planner). Files outside the location are
// never listed. With dryRun it only lists them. A table with gc.enabled=false
// is refused, as Spark refuses it.
func RemoveOrphanFiles(ctx context.Context, cat icecatalog.Catalog, ident table.Identifier, olderThan time.Duration, dryRun bool) (*OrphansReport, error) {
	name := strings.Join(ident, ".")
	rep := &OrphansReport{Planned: dryRun, OlderThan: olderThan}
	tbl, err := cat.LoadTable(ctx, ident)
	if err != nil {
		return rep, fmt.Errorf("removing orphan files of %s: loading the table: %w", name, err)
	}
	rep.Location = tbl.Location()
	if v := tbl.Properties()[table.GCEnabledKey]; strings.EqualFold(v, "false") {
		return rep, fmt.Errorf("removing orphan files of %s: refused, the table sets %s=false (its files may be referenced from elsewhere)", name, table.GCEnabledKey)
	}
	plan, err := tbl.PlanOrphanFiles(ctx, table.WithFilesOlderThan(olderThan))
	if errors.Is(err, iofs.ErrNotExist) {
		return rep, nil // nothing written under the location yet
	}
	if err != nil {
		return rep, fmt.Errorf("removing orphan files of %s: listing %s: %w", name, rep.Location, err)
	}
	rep.Found = plan.Files()
	slices.Sort(rep.Found)
	rep.Bytes = plan.TotalSizeBytes()
	if dryRun || len(rep.Found) == 0 {
		return rep, nil
	}
	res, err := tbl.ExecuteOrphanCleanup(ctx, plan)
	rep.Removed = res.DeletedFiles
	slices.Sort(rep.Removed)
	if err != nil {
		return rep, fmt.Errorf("removing orphan files of %s: %w", name, err)
	}
	return rep, nil
}

// ManifestsReport says what RewriteManifests did, or would do.
type ManifestsReport struct {
	Planned    bool  // dry run: nothing rewritten
	Before     int   // data manifests of the current snapshot before
	After      int   // and after
	SnapshotID int64 // the rewrite's snapshot; 0 when nothing was committed
	NoOp       string
}

// RewriteManifests merges the current snapshot's small data manifests into
// target-sized ones (commit.manifest.target-size-bytes, 8 MiB by default)
// as a metadata-only replace snapshot (iceberg-go's RewriteManifests). A
// concurrent commit makes it rewrite again on the reloaded table.
func RewriteManifests(ctx context.Context, cat icecatalog.Catalog, ident table.Identifier, dryRun bool) (*ManifestsReport, error) {
	rep := &ManifestsReport{Planned: dryRun}
	done, committed, err := commitMetadata(ctx, cat, ident, "rewriting manifests of ", func(ctx context.Context, tbl *table.Table, tx *table.Transaction, _ int) (err error) {
		if rep.Before, err = dataManifests(ctx, tbl); err != nil {
			return err
		}
		rep.After = rep.Before
		if dryRun {
			return commit.ErrNothingToCommit
		}
		res, err := tx.RewriteManifests(ctx)
		if err != nil {
			return err
		}
		if res.IsNoOp() {
			rep.NoOp = res.NoOpReason.String()
			return commit.ErrNothingToCommit
		}
		return nil
	})
	if !committed {
		return rep, err
	}
	if snap := done.Table.CurrentSnapshot(); snap != nil {
		rep.SnapshotID = snap.SnapshotID
	}
	rep.After, _ = dataManifests(ctx, done.Table)
	return rep, nil
}

// dataManifests counts the current snapshot's data manifests.
func dataManifests(ctx context.Context, tbl *table.Table) (int, error) {
	snap := tbl.CurrentSnapshot()
	if snap == nil {
		return 0, nil
	}
	fs, err := tbl.FS(ctx)
	if err != nil {
		return 0, err
	}
	ms, err := snap.Manifests(fs)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, m := range ms {
		if m.ManifestContent() == iceberg.ManifestContentData {
			n++
		}
	}
	return n, nil
}
