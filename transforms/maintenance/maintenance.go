// Package maintenance is icebeam's table maintenance for any Iceberg table
// of any REST catalog, whoever wrote it (Spark, pyiceberg, our sink): it owns
// bin-pack compaction of small data files (planned per partition and spec,
// each group rewritten on its own worker with iceberg-go's scan and writer,
// then committed once as a replace snapshot that survives concurrent appends
// and aborts, leaving nothing behind, when a file it replaces went away),
// conversion of equality deletes into position deletes or deletion vectors,
// snapshot expiry, removal of orphan files inside the table's location, and
// manifest rewriting. Each action is a plain function; RewriteDataFiles is
// the Beam transform that spreads the compaction over workers, and Run
// drives the actions in order for both pipelines/maintain and `icebeam
// maintain`, which differ only in the Executor that runs the rewrite groups.
package maintenance

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/google/uuid"

	"github.com/icebeam/icebeam/catalog"
)

// Defaults of the flags, those of Spark's maintenance procedures.
const (
	DefaultMinInputFiles   = 5
	DefaultOlderThan       = 5 * 24 * time.Hour
	DefaultRetainLast      = 1
	DefaultOrphanOlderThan = 3 * 24 * time.Hour
	// MinOrphanAge is the youngest --orphan_older_than accepted without
	// --force: a writer (a streaming sink, a Spark job) writes its files
	// before the commit that references them, so a younger unreferenced
	// file may be part of a commit in progress.
	MinOrphanAge = time.Hour
)

// Options say what Run does to one table. Every action is opt-in.
type Options struct {
	// Table is NAMESPACE.TABLE (nested namespaces dotted: a.b.table).
	Table string

	// RewriteDataFiles bin-packs small data files per partition and
	// partition spec into files of TargetFileSize.
	RewriteDataFiles bool
	// TargetFileSize overrides the table's write.target-file-size-bytes
	// (else 512 MiB). Files under 75% of it are candidates.
	TargetFileSize int64
	// MinInputFiles is the fewest files a group is rewritten with (>= 2).
	MinInputFiles int

	// ConvertEqualityDeletes rewrites the current snapshot's equality
	// deletes as position deletes (v2) or deletion vectors (v3) and
	// removes them, in one commit that changes no row.
	ConvertEqualityDeletes bool

	// RewriteManifests merges the current snapshot's data manifests into
	// target-sized ones (commit.manifest.target-size-bytes).
	RewriteManifests bool

	// ExpireSnapshots removes snapshots older than OlderThan beyond the
	// RetainLast most recent ones of each branch, and the files only they
	// referenced.
	ExpireSnapshots bool
	OlderThan       time.Duration
	RetainLast      int

	// RemoveOrphanFiles deletes files inside the table's location that no
	// metadata reachable from the table references and that are older
	// than OrphanOlderThan (at least MinOrphanAge unless Force).
	RemoveOrphanFiles bool
	OrphanOlderThan   time.Duration
	Force             bool

	// DryRun plans every action and reports what it would do, changing
	// nothing.
	DryRun bool

	// dryRunFlag is a --dry_run flag defined before RegisterFlags (Beam's
	// Dataflow runner defines one in every pipeline binary): both mean
	// "change nothing".
	dryRunFlag *flag.Flag
}

// RegisterFlags defines the maintenance flags on fs, writing into o, with
// the defaults of Spark's procedures. A --dry_run already defined on fs
// (Beam's) is shared rather than defined again.
func (o *Options) RegisterFlags(fs *flag.FlagSet) {
	fs.StringVar(&o.Table, "table", o.Table, "the table to maintain, NAMESPACE.TABLE")
	fs.BoolVar(&o.RewriteDataFiles, "rewrite_data_files", o.RewriteDataFiles, "compact small data files: bin-pack them per partition into files of the target size, in parallel, committed as one replace snapshot")
	fs.Int64Var(&o.TargetFileSize, "target_file_size_bytes", o.TargetFileSize, "size of compacted files; 0 takes the table's write.target-file-size-bytes, else 512 MiB (files under 75% of it are rewritten)")
	fs.IntVar(&o.MinInputFiles, "min_input_files", orDefault(o.MinInputFiles, DefaultMinInputFiles), "fewest small files of one partition worth rewriting together (at least 2)")
	fs.BoolVar(&o.ConvertEqualityDeletes, "convert_equality_deletes", o.ConvertEqualityDeletes, "rewrite the equality deletes (of upserts on a v2 table) as position deletes, or deletion vectors on v3, that readers apply without a join; rows stay the same")
	fs.BoolVar(&o.RewriteManifests, "rewrite_manifests", o.RewriteManifests, "merge the current snapshot's data manifests into fewer, target-sized ones")
	fs.BoolVar(&o.ExpireSnapshots, "expire_snapshots", o.ExpireSnapshots, "expire snapshots older than --older_than beyond the last --retain_last of each branch, deleting the files only they referenced")
	fs.DurationVar(&o.OlderThan, "older_than", orDefault(o.OlderThan, DefaultOlderThan), "--expire_snapshots: expire snapshots older than this")
	fs.IntVar(&o.RetainLast, "retain_last", orDefault(o.RetainLast, DefaultRetainLast), "--expire_snapshots: keep at least this many snapshots of each branch whatever their age")
	fs.BoolVar(&o.RemoveOrphanFiles, "remove_orphan_files", o.RemoveOrphanFiles, "delete files inside the table's location that no table metadata references (try --dry_run first)")
	fs.DurationVar(&o.OrphanOlderThan, "orphan_older_than", orDefault(o.OrphanOlderThan, DefaultOrphanOlderThan), "--remove_orphan_files: only files older than this (under 1h needs --force: writers write files before committing them)")
	fs.BoolVar(&o.Force, "force", o.Force, "allow --orphan_older_than under 1h")
	if f := fs.Lookup("dry_run"); f != nil {
		o.dryRunFlag = f
		f.Usage = dryRunUsage
	} else {
		fs.BoolVar(&o.DryRun, "dry_run", o.DryRun, dryRunUsage)
	}
}

const dryRunUsage = "report what each action would do (groups to rewrite, equality deletes to convert, snapshots to expire, orphan files to delete) and change nothing"

func orDefault[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// resolve fills in DryRun from a shared --dry_run flag.
func (o Options) resolve() Options {
	if o.dryRunFlag != nil {
		o.DryRun = o.dryRunFlag.Value.String() == "true"
		o.dryRunFlag = nil
	}
	return o
}

// Check refuses options Run cannot act on, naming the flag, before any work.
func (o Options) Check() error {
	o = o.resolve()
	if o.Table == "" {
		return errors.New("--table=NAMESPACE.TABLE is required")
	}
	if _, err := catalog.ParseTable(o.Table); err != nil {
		return fmt.Errorf("--table: %w", err)
	}
	if !o.RewriteDataFiles && !o.ConvertEqualityDeletes && !o.RewriteManifests && !o.ExpireSnapshots && !o.RemoveOrphanFiles {
		return errors.New("no action: give one or more of --rewrite_data_files, --convert_equality_deletes, --rewrite_manifests, --expire_snapshots, --remove_orphan_files (with --dry_run to see what they would do)")
	}
	switch {
	case o.RewriteDataFiles && o.TargetFileSize < 0:
		return fmt.Errorf("--target_file_size_bytes=%d: want 0 (the table's setting) or a positive size", o.TargetFileSize)
	case o.RewriteDataFiles && o.MinInputFiles < 2:
		return fmt.Errorf("--min_input_files=%d: a group of fewer than 2 files gains nothing from a rewrite", o.MinInputFiles)
	case o.ExpireSnapshots && o.RetainLast < 1:
		return fmt.Errorf("--retain_last=%d: want at least 1 (the current snapshot is always kept)", o.RetainLast)
	case o.ExpireSnapshots && o.OlderThan < 0:
		return fmt.Errorf("--older_than=%v: want a positive age", o.OlderThan)
	case o.RemoveOrphanFiles && o.OrphanOlderThan < 0:
		return fmt.Errorf("--orphan_older_than=%v: want a positive age", o.OrphanOlderThan)
	case o.RemoveOrphanFiles && o.OrphanOlderThan < MinOrphanAge && !o.Force && !o.DryRun:
		return fmt.Errorf("--orphan_older_than=%v is under %v: a file that young may belong to a commit in progress (writers write their files before committing them) and deleting it would corrupt the table; pass --force if no writer is running", o.OrphanOlderThan, MinOrphanAge)
	}
	return nil
}

// Executor runs a planned rewrite: every group's read and write, then the
// one commit (CommitRewrite). InProcess runs the groups on goroutines;
// OnBeam runs them as a Beam pipeline.
type Executor func(ctx context.Context, cat icecatalog.Catalog, plan *RewritePlan) (*RewriteReport, error)

// Run performs the actions opts asks for on one table, in the order that
// leaves least behind: convert equality deletes, rewrite data files,
// rewrite manifests, expire snapshots (which deletes the files the
// rewrites replaced, once old enough), remove orphan files. It stops at the first failure and returns
// the summary of what was done so far with the error.
func Run(ctx context.Context, cat icecatalog.Catalog, opts Options, exec Executor) (*Summary, error) {
	opts = opts.resolve()
	if err := opts.Check(); err != nil {
		return nil, err
	}
	ident, _ := catalog.ParseTable(opts.Table)
	start := time.Now()
	sum := &Summary{Table: opts.Table, DryRun: opts.DryRun}
	tbl, err := cat.LoadTable(ctx, ident)
	if err != nil {
		return nil, fmt.Errorf("loading table %s: %w", opts.Table, err)
	}
	sum.Location = tbl.Location()
	defer func() { sum.Took = time.Since(start) }()

	// Equality deletes first: the compaction then reads position deletes,
	// cheap to apply, and drops those that only its rewritten files had.
	if opts.ConvertEqualityDeletes {
		rep, err := ConvertEqualityDeletes(ctx, cat, ident, uuid.NewString(), opts.DryRun)
		sum.Convert = rep
		if err != nil {
			return sum, err
		}
		// The compaction plans on the converted table.
		if tbl, err = cat.LoadTable(ctx, ident); err != nil {
			return sum, fmt.Errorf("loading table %s: %w", opts.Table, err)
		}
	}
	if opts.RewriteDataFiles {
		plan, err := PlanRewrite(ctx, tbl, opts.TargetFileSize, opts.MinInputFiles)
		if err != nil {
			return sum, err
		}
		plan.RunID = uuid.NewString()
		switch {
		case opts.DryRun || len(plan.Groups) == 0:
			sum.Rewrite = plan.report()
		default:
			rep, err := exec(ctx, cat, plan)
			if rep != nil {
				rep.TargetFileSize, rep.MinInputFiles = plan.TargetFileSize, plan.MinInputFiles
				sum.Rewrite = rep
			}
			if err != nil {
				return sum, err
			}
		}
	}
	if opts.RewriteManifests {
		rep, err := RewriteManifests(ctx, cat, ident, opts.DryRun)
		sum.Manifests = rep
		if err != nil {
			return sum, err
		}
	}
	if opts.ExpireSnapshots {
		rep, err := ExpireSnapshots(ctx, cat, ident, opts.OlderThan, opts.RetainLast, opts.DryRun)
		sum.Expire = rep
		if err != nil {
			return sum, err
		}
	}
	if opts.RemoveOrphanFiles {
		rep, err := RemoveOrphanFiles(ctx, cat, ident, opts.OrphanOlderThan, opts.DryRun)
		sum.Orphans = rep
		if err != nil {
			return sum, err
		}
	}
	if tbl, err = cat.LoadTable(ctx, ident); err == nil {
		if snap := tbl.CurrentSnapshot(); snap != nil {
			sum.SnapshotID = snap.SnapshotID
		}
	}
	return sum, nil
}
