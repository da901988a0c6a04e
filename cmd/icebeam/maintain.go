package main

import (
	"context"
	"fmt"
	"io"
	"runtime"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/internal/launch"
	"github.com/icebeam/icebeam/transforms/maintenance"
)

// runMaintain is `icebeam maintain`: pipelines/maintain's actions with the
// same flags, run in this process. The compaction's groups are rewritten
// on goroutines instead of Beam workers; every step is the same
// transforms/maintenance function.
func runMaintain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("maintain", stderr)
	var cfg catalog.Config
	cfg.RegisterFlags(fs)
	var opts maintenance.Options
	opts.RegisterFlags(fs)
	parallelism := fs.Int("parallelism", runtime.GOMAXPROCS(0), "--rewrite_data_files: groups rewritten at once")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: icebeam maintain --table=NS.TABLE [--rewrite_data_files] [--convert_equality_deletes] [--rewrite_manifests] [--expire_snapshots] [--remove_orphan_files] [--dry_run] [flags]")
		fmt.Fprintln(stderr)
		fmt.Fprintln(stderr, "Runs the maintenance actions asked for on one table, in this process (pipelines/maintain runs the")
		fmt.Fprintln(stderr, "compaction on Beam workers instead). Start with --dry_run: it reports what each action would do and")
		fmt.Fprintln(stderr, "changes nothing.")
		fmt.Fprintln(stderr)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "icebeam maintain: unexpected argument %q (the table is --table=NS.TABLE)\n", fs.Arg(0))
		return errUsage
	}
	if err := opts.Check(); err != nil {
		fmt.Fprintf(stderr, "icebeam maintain: %v\n", err)
		return errUsage
	}
	if *parallelism < 1 {
		fmt.Fprintf(stderr, "icebeam maintain: --parallelism=%d: want at least 1\n", *parallelism)
		return errUsage
	}
	_, cat, stop, err := launch.OpenCatalog(ctx, cfg)
	if err != nil {
		return err
	}
	defer stop()
	sum, err := maintenance.Run(ctx, cat, opts, maintenance.InProcess(*parallelism))
	if sum != nil && (err == nil || sum.Any()) {
		sum.Write(stdout)
	}
	return err
}
