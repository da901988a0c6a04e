// Command maintain keeps an Iceberg table of any REST catalog healthy,
// whoever writes it (Spark, pyiceberg, our sink): it compacts small data
// files as a Beam batch job (groups rewritten in parallel on the workers,
// one replace snapshot committed at the end, concurrent appends kept),
// converts equality deletes into position deletes or deletion vectors,
// rewrites manifests, expires snapshots and removes orphan files, each when
// its flag asks, and prints what it did. See the Maintenance section of the
// README; the work itself is transforms/maintenance.
//
// Look first, change nothing:
//
//	go run ./pipelines/maintain --table=clicks.user_clicks --rewrite_data_files --expire_snapshots --remove_orphan_files --dry_run
//
// Then do it, here on prism against the embedded catalog in ./lakehouse:
//
//	go run ./pipelines/maintain --table=clicks.user_clicks --rewrite_data_files --expire_snapshots --remove_orphan_files
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/internal/launch"
	"github.com/icebeam/icebeam/transforms/maintenance"
	_ "github.com/icebeam/icebeam/transforms/portable" // exactly once on Beam's portable Flink runner
)

var (
	opts         maintenance.Options
	catalogFlags catalog.Config

	// version is stamped at build time (-ldflags "-X main.version=...").
	version = "dev"
)

func init() {
	catalogFlags.RegisterFlags(flag.CommandLine)
	opts.RegisterFlags(flag.CommandLine)
}

func main() {
	launch.Start("maintain", version, "Maintains one Iceberg table (--table=NAMESPACE.TABLE): --rewrite_data_files compacts small files on\n"+
		"Beam workers, --convert_equality_deletes, --rewrite_manifests, --expire_snapshots and --remove_orphan_files do\n"+
		"what they say. Each action runs only when asked; --dry_run (a runner flag below) reports what they would do and\n"+
		"changes nothing: run it first.")
	if err := run(context.Background()); err != nil {
		launch.Fatalf("maintain: %v", err)
	}
}

func run(ctx context.Context) error {
	if err := opts.Check(); err != nil {
		return err
	}
	if err := launch.CheckCatalog(catalogFlags); err != nil {
		return err
	}
	cfg, cat, stop, err := launch.OpenCatalog(ctx, catalogFlags)
	if err != nil {
		return err
	}
	defer stop()
	// The compaction runs as a Beam job; the other actions change
	// metadata only, from this process.
	exec := maintenance.OnBeam(cfg, func(ctx context.Context, p *beam.Pipeline) (bool, error) {
		if err := beamx.Run(ctx, p); err != nil {
			return false, fmt.Errorf("the rewrite job failed: %w", launch.Failed(err))
		}
		return launch.Waits(), nil
	})
	sum, err := maintenance.Run(ctx, cat, opts, exec)
	if sum != nil && (err == nil || sum.Any()) {
		sum.Write(os.Stdout)
	}
	return err
}
