// Package commit is the one way icebeam's transforms commit to an Iceberg
// table: the sink's panes, replaces and schema updates, and maintenance's
// rewrites, expiries and manifest rewrites. A commit is staged on a freshly
// loaded table for every attempt; an idempotency key, found in the table
// before each attempt and after any attempt whose outcome is unknown, keeps
// a replayed or racing change from landing twice; each failure falls in one
// class (conflict, rejected token, unknown outcome, refusal) that decides
// whether to retry, look, or give up; files the change owns are removed
// only when nothing can still commit them; and retries share one deadline
// and one backoff.
//
// iceberg-go would otherwise replay a conflicting commit itself (table
// property commit.retry.num-retries), on the refreshed table, past the
// key lookup: a zombie attempt of a pane racing the live one would then
// commit it twice. Every attempt here pins the branch head it was staged
// on, which makes a conflict end iceberg-go's attempt and come back here.
package commit

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/catalog/rest"
	"github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/catalog"
)

// Request is one change to one table.
type Request struct {
	// Ident is the table; Name how errors and logs call the change, e.g.
	// "table ns.t commit w/1a2b".
	Ident table.Identifier
	Name  string
	// Lookup, when set, finds the change in a table it may already have
	// landed in (by the idempotency key in a snapshot summary, see
	// Summary, or in a table property that outlives snapshot expiry).
	Lookup func(tbl *table.Table) (snapshotID int64, found bool)
	// Base, when set, is the table as just loaded by the caller; the
	// first attempt stages on it instead of loading the table again.
	Base *table.Table
	// Stage stages the change on tx, a transaction on tbl, freshly loaded
	// for each attempt. An error from it ends the commit, as a refusal
	// does. A Stage that decides there is nothing to commit returns
	// ErrNothingToCommit.
	Stage func(ctx context.Context, tbl *table.Table, tx *table.Transaction, attempt int) error
	// Deadline ends the retries; Window is how long they were given, for
	// messages.
	Deadline time.Time
	Window   time.Duration
	// MaxAttempts, when above 0, also bounds the attempts.
	MaxAttempts int
	// Discard deletes what the caller wrote for the change (data files).
	// It is called once nothing landed and no retry will commit them; not
	// after an attempt whose outcome stayed unknown. tbl may be nil.
	Discard func(ctx context.Context, tbl *table.Table)
	// BeforeAttempt, when set (by tests), runs before each attempt is
	// committed: a concurrent writer's moment.
	BeforeAttempt func(ctx context.Context, attempt int)
}

// Result is what a commit did.
type Result struct {
	// Table is the table after the commit, or as loaded when the change
	// was found there.
	Table *table.Table
	// SnapshotID is the snapshot holding the change (0 for a change that
	// adds no snapshot, such as a schema update).
	SnapshotID int64
	// Replayed says that the change had landed before this call, or was
	// landed by another attempt racing it: this call committed nothing.
	Replayed bool
	// Attempts is the number of commit requests sent.
	Attempts int
	// AfterCommit is a failure after the change landed: an iceberg-go
	// post-commit step's, such as deleting the files only expired
	// snapshots referenced.
	AfterCommit error
	// Nothing says that Stage found nothing to commit (Together).
	Nothing bool
}

// ErrNothingToCommit, returned by a Stage, ends the commit without sending
// anything; Commit then returns it with a zero Result's Table set.
var ErrNothingToCommit = errors.New("nothing to commit")

// Class says what a failed commit request means for the change.
type Class int

const (
	// Conflict: the catalog refused the request's requirements (409); it
	// applied nothing. Retried on the reloaded table.
	Conflict Class = iota
	// Rejected: the catalog rejected the token even after the transport
	// renewed it (401, 419); it applied nothing. Retried.
	Rejected
	// Unknown: a 5xx answer or no answer; the catalog may have applied
	// the request. Looked for, then retried.
	Unknown
	// Refused: any other answer (400, 404 ...), or an error before the
	// request was sent; nothing was applied, and a retry would fail the
	// same way.
	Refused
)

// Classify puts a commit request's error in its class.
func Classify(err error) Class {
	switch {
	case errors.Is(err, table.ErrCommitFailed) || errors.Is(err, table.ErrCommitDiverged):
		return Conflict
	case errors.Is(err, rest.ErrUnauthorized) || errors.Is(err, rest.ErrAuthorizationExpired):
		return Rejected
	case catalog.CommitStateUnknown(err):
		return Unknown
	}
	return Refused
}

// Transient reports failures of a catalog read (a load, a create) that a
// retry may mend: those that could have left a commit in an unknown state
// and rejected tokens.
func Transient(err error) bool {
	c := Classify(err)
	return c == Unknown || c == Rejected
}

const (
	firstBackoff = 100 * time.Millisecond
	maxBackoff   = 5 * time.Second
)

// Backoff is the wait before retry n (1-based): 100 ms doubling to 5 s,
// plus jitter (catalog.Sleep).
func Backoff(n int) time.Duration {
	d := firstBackoff
	for i := 1; i < n && d < maxBackoff; i++ {
		d *= 2
	}
	return min(d, maxBackoff)
}

// Retry runs op, a catalog read or create that is safe to repeat, until it
// succeeds, fails in a way a retry cannot mend, or the deadline is near.
// what says what op does, for the log and the error.
func Retry(ctx context.Context, deadline time.Time, window time.Duration, name, what string, op func() error) error {
	for attempt := 1; ; attempt++ {
		err := op()
		if err == nil || !Transient(err) {
			return err
		}
		backoff := Backoff(attempt)
		if time.Now().Add(backoff).After(deadline) {
			return fmt.Errorf("%w (failing for %v, %d attempts)", err, window, attempt)
		}
		log.Warnf(ctx, "%s: %s, attempt %d: %v; retrying", name, what, attempt, err)
		if err := catalog.Sleep(ctx, backoff); err != nil {
			return err
		}
	}
}

// Commit commits req's change at most once: see the package doc.
func Commit(ctx context.Context, cat icecatalog.Catalog, req Request) (Result, error) {
	var res Result
	maybeLanded := false // an attempt ended in an unknown state
	fail := func(tbl *table.Table, err error) (Result, error) {
		if !maybeLanded && req.Discard != nil {
			req.Discard(ctx, tbl)
		}
		return res, err
	}
	load := func(what string) (tbl *table.Table, err error) {
		err = Retry(ctx, req.Deadline, req.Window, req.Name, what, func() (err error) {
			tbl, err = cat.LoadTable(ctx, req.Ident)
			return err
		})
		return tbl, err
	}
	tbl := req.Base
	if tbl == nil {
		var err error
		if tbl, err = load("loading the table"); err != nil {
			return fail(nil, fmt.Errorf("%s: loading the table: %w", req.Name, err))
		}
	}
	var lastErr error
	for attempt := 1; ; attempt++ {
		// A replay, a racing attempt that won, or our own attempt whose
		// answer was lost.
		if req.Lookup != nil {
			if id, ok := req.Lookup(tbl); ok {
				res.Table, res.SnapshotID, res.Replayed = tbl, id, !maybeLanded
				return res, nil
			}
		}
		if lastErr != nil {
			backoff := Backoff(attempt - 1)
			if (req.MaxAttempts > 0 && attempt > req.MaxAttempts) || time.Now().Add(backoff).After(req.Deadline) {
				return fail(tbl, fmt.Errorf("%s failed after %d attempts in %v: %w", req.Name, attempt-1, req.Window, lastErr))
			}
			log.Warnf(ctx, "%s attempt %d: %v; retrying", req.Name, attempt-1, lastErr)
			if err := catalog.Sleep(ctx, backoff); err != nil {
				return res, fmt.Errorf("%s: %w", req.Name, err)
			}
		}
		tx := tbl.NewTransaction()
		if err := req.Stage(ctx, tbl, tx, attempt); err != nil {
			if errors.Is(err, ErrNothingToCommit) {
				res.Table = tbl
				return res, err
			}
			return fail(tbl, fmt.Errorf("%s: %w", req.Name, err))
		}
		// Pin the branch head the change was staged on: iceberg-go then
		// reports a conflict instead of replaying the change on a table
		// the lookup has not seen.
		if err := tx.AssertRefSnapshotID(""); err != nil {
			return fail(tbl, fmt.Errorf("%s: %w", req.Name, err))
		}
		if req.BeforeAttempt != nil {
			req.BeforeAttempt(ctx, attempt)
		}
		res.Attempts = attempt
		committed, err := tx.Commit(ctx)
		if committed != nil {
			// Landed; an error here is a post-commit hook's.
			res.Table = committed
			if req.Lookup != nil {
				res.SnapshotID, _ = req.Lookup(committed)
			}
			res.AfterCommit = err
			return res, nil
		}
		switch Classify(err) {
		case Conflict, Rejected:
			removeFiles(ctx, tbl, stagedMetadataFiles(ctx, tbl, tx))
		case Unknown:
			maybeLanded = true
		case Refused:
			if errors.Is(err, rest.ErrRESTError) || req.Lookup == nil {
				removeFiles(ctx, tbl, stagedMetadataFiles(ctx, tbl, tx))
				return fail(tbl, fmt.Errorf("%s failed: %w", req.Name, err))
			}
			// Not an answer from the catalog: it may have applied it.
			maybeLanded = true
		}
		lastErr = err
		if tbl, err = load("reloading after a failed commit"); err != nil {
			return res, fmt.Errorf("%s: reloading after %v: %w", req.Name, lastErr, err)
		}
	}
}

// stagedMetadataFiles lists the manifest list and manifests that staging
// tx wrote: garbage if its commit is refused.
func stagedMetadataFiles(ctx context.Context, tbl *table.Table, tx *table.Transaction) []string {
	staged, err := tx.StagedTable()
	if err != nil {
		return nil
	}
	snap := staged.CurrentSnapshot()
	if snap == nil || snap.ManifestList == "" || (tbl.CurrentSnapshot() != nil && tbl.CurrentSnapshot().SnapshotID == snap.SnapshotID) {
		return nil
	}
	fs, err := tbl.FS(ctx)
	if err != nil {
		return nil
	}
	paths := []string{snap.ManifestList}
	manifests, err := snap.Manifests(fs)
	if err != nil {
		return nil // unreadable: leave them rather than guess
	}
	for _, m := range manifests {
		if m.SnapshotID() == snap.SnapshotID {
			paths = append(paths, m.FilePath())
		}
	}
	return paths
}

// removeFiles deletes files no commit references. It only logs failures:
// an orphan file costs storage (remove_orphan_files finds it), not
// correctness.
func removeFiles(ctx context.Context, tbl *table.Table, paths []string) {
	if len(paths) == 0 || tbl == nil {
		return
	}
	fs, err := tbl.FS(ctx)
	if err != nil {
		log.Warnf(ctx, "table %s: %d unreferenced files left: %v", strings.Join(tbl.Identifier(), "."), len(paths), err)
		return
	}
	for _, p := range paths {
		if err := fs.Remove(p); err != nil {
			log.Warnf(ctx, "table %s: unreferenced file %s left: %v", strings.Join(tbl.Identifier(), "."), p, err)
		}
	}
}

// ErrNoTransactions says that the catalog does not commit several tables
// in one transaction: it is not an iceberg-go TransactionalCatalog, its
// server does not advertise POST /v1/{prefix}/transactions/commit, or it
// answered that endpoint 501. Nothing was sent that could have landed; the
// caller commits the tables one by one instead.
var ErrNoTransactions = errors.New("the catalog does not commit several tables in one transaction")

// Together commits reqs, changes to distinct tables, in one multi-table
// transaction (POST /v1/{prefix}/transactions/commit): all of them land,
// or none does. It is Commit for several tables: each attempt stages every
// change on a freshly loaded table, and the idempotency key is looked up
// in every table before each attempt, so a change found in its table (a
// replay, an attempt whose answer was lost) is not staged again; a
// conflict restages all of them. Only the first request's Deadline,
// Window and MaxAttempts count, and a Base is used only on the first
// attempt. name says what the commit is, for errors and logs.
//
// A table whose Stage returns ErrNothingToCommit is left out of the
// transaction; its Result has Nothing set. When the catalog cannot commit
// tables together, Together returns ErrNoTransactions before anything
// was sent, without calling Discard.
func Together(ctx context.Context, cat icecatalog.Catalog, name string, reqs []Request) ([]Result, error) {
	if _, ok := cat.(icecatalog.TransactionalCatalog); !ok {
		return nil, fmt.Errorf("%s: %w", name, ErrNoTransactions)
	}
	first := reqs[0]
	res := make([]Result, len(reqs))
	maybeLanded := false
	tbls := make([]*table.Table, len(reqs))
	fail := func(err error) ([]Result, error) {
		if !maybeLanded {
			for i, r := range reqs {
				if r.Discard != nil && !res[i].Nothing {
					r.Discard(ctx, tbls[i])
				}
			}
		}
		return res, err
	}
	load := func(i int, what string) error {
		return Retry(ctx, first.Deadline, first.Window, reqs[i].Name, what, func() (err error) {
			tbls[i], err = cat.LoadTable(ctx, reqs[i].Ident)
			return err
		})
	}
	for i, r := range reqs {
		if tbls[i] = r.Base; tbls[i] == nil {
			if err := load(i, "loading the table"); err != nil {
				return fail(fmt.Errorf("%s: loading the table: %w", r.Name, err))
			}
		}
	}
	done := make([]bool, len(reqs)) // found, or nothing to commit
	var lastErr error
	for attempt := 1; ; attempt++ {
		for i, r := range reqs {
			if done[i] || r.Lookup == nil {
				continue
			}
			if id, ok := r.Lookup(tbls[i]); ok {
				res[i].Table, res[i].SnapshotID, res[i].Replayed = tbls[i], id, !maybeLanded
				done[i] = true
			}
		}
		if !slices.Contains(done, false) {
			return res, nil
		}
		if lastErr != nil {
			backoff := Backoff(attempt - 1)
			if (first.MaxAttempts > 0 && attempt > first.MaxAttempts) || time.Now().Add(backoff).After(first.Deadline) {
				return fail(fmt.Errorf("%s failed after %d attempts in %v: %w", name, attempt-1, first.Window, lastErr))
			}
			log.Warnf(ctx, "%s attempt %d: %v; retrying", name, attempt-1, lastErr)
			if err := catalog.Sleep(ctx, backoff); err != nil {
				return res, fmt.Errorf("%s: %w", name, err)
			}
		}
		mtx, err := icecatalog.NewMultiTableTransaction(cat)
		if err != nil {
			return nil, fmt.Errorf("%s: %w: %v", name, ErrNoTransactions, err)
		}
		var sent []int // the tables in this attempt's request
		txs := make([]*table.Transaction, len(reqs))
		for i, r := range reqs {
			if done[i] {
				continue
			}
			tx := tbls[i].NewTransaction()
			if err := r.Stage(ctx, tbls[i], tx, attempt); err != nil {
				if errors.Is(err, ErrNothingToCommit) {
					res[i] = Result{Table: tbls[i], Nothing: true}
					done[i] = true
					continue
				}
				removeStaged(ctx, tbls, txs)
				return fail(fmt.Errorf("%s: %w", r.Name, err))
			}
			if err := tx.AssertRefSnapshotID(""); err != nil {
				return fail(fmt.Errorf("%s: %w", r.Name, err))
			}
			if err := mtx.AddTransaction(tx); err != nil {
				return fail(fmt.Errorf("%s: %w", r.Name, err))
			}
			txs[i] = tx
			sent = append(sent, i)
		}
		if len(sent) == 0 {
			return res, nil
		}
		for _, i := range sent {
			if reqs[i].BeforeAttempt != nil {
				reqs[i].BeforeAttempt(ctx, attempt)
			}
			res[i].Attempts = attempt
		}
		err = mtx.Commit(ctx)
		if err == nil {
			// The endpoint answers 204: the tables as they are now come
			// from loading them.
			for _, i := range sent {
				if err := load(i, "loading the table after its commit"); err != nil {
					return res, fmt.Errorf("%s landed; loading it after: %w", reqs[i].Name, err)
				}
				res[i].Table = tbls[i]
				if reqs[i].Lookup != nil {
					res[i].SnapshotID, _ = reqs[i].Lookup(tbls[i])
				}
			}
			return res, nil
		}
		if !maybeLanded && attempt == 1 && (errors.Is(err, rest.ErrEndpointNotSupported) || errors.Is(err, iceberg.ErrNotImplemented)) {
			removeStaged(ctx, tbls, txs)
			return nil, fmt.Errorf("%s: %w: %v", name, ErrNoTransactions, err)
		}
		switch Classify(err) {
		case Conflict, Rejected:
			removeStaged(ctx, tbls, txs)
		case Unknown:
			maybeLanded = true
		case Refused:
			if errors.Is(err, rest.ErrRESTError) || errors.Is(err, icecatalog.ErrNoSuchTable) {
				removeStaged(ctx, tbls, txs)
				return fail(fmt.Errorf("%s failed: %w", name, err))
			}
			maybeLanded = true
		}
		lastErr = err
		for _, i := range sent {
			if err := load(i, "reloading after a failed commit"); err != nil {
				return res, fmt.Errorf("%s: reloading after %v: %w", reqs[i].Name, lastErr, err)
			}
		}
	}
}

// removeStaged removes the metadata files staging txs (on tbls) wrote.
func removeStaged(ctx context.Context, tbls []*table.Table, txs []*table.Transaction) {
	for i, tx := range txs {
		if tx != nil {
			removeFiles(ctx, tbls[i], stagedMetadataFiles(ctx, tbls[i], tx))
		}
	}
}
