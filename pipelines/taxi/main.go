// Command taxi reads NYC TLC yellow-taxi trip records (Parquet, local or
// gs://), drops invalid trips, and replaces an Iceberg table with daily
// aggregates per (trip_date, payment_type) in one atomic commit. It is the
// Beam Go counterpart of the BigLake tutorial's taxi_to_iceberg.py and gives
// the same numbers.
//
// With no flags it generates a sample month, starts the embedded local
// catalog in ./lakehouse and runs on prism:
//
//	go run ./pipelines/taxi
//
// Against another catalog and real data:
//
//	go run ./pipelines/taxi --input=gs://BUCKET/raw/nyc_taxi/ --catalog_uri=http://127.0.0.1:8181
//
// Trips already in an Iceberg table of the same catalog:
//
//	go run ./pipelines/taxi --input=iceberg:nyc_taxi.yellow_trips
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/catalog/inspect"
	"github.com/icebeam/icebeam/internal/launch"
	"github.com/icebeam/icebeam/transforms/icebergio"
	_ "github.com/icebeam/icebeam/transforms/portable" // exactly once on Beam's portable Flink runner
	"github.com/icebeam/icebeam/transforms/taxi"
)

var (
	input      = flag.String("input", "", "yellow-taxi Parquet: a file, a directory or a glob, local or gs://; or iceberg:NAMESPACE.TABLE, a table of trips in the catalog; empty generates a sample")
	namespace  = flag.String("namespace", "nyc_taxi", "Iceberg namespace (created when missing)")
	tableName  = flag.String("table", "yellow_trips_analyzed", "Iceberg table, replaced by each run")
	sampleRows = flag.Int("sample_rows", 200_000, "rows in the generated sample used when --input is empty")

	catalogFlags catalog.Config

	// version is stamped at build time (-ldflags "-X main.version=...").
	version = "dev"
)

// remoteRequired are the flags a remote runner's workers cannot default; the
// Flex Template metadata marks exactly these as not optional.
var remoteRequired = []string{"input"}

func init() { catalogFlags.RegisterFlags(flag.CommandLine) }

func main() {
	launch.Start("taxi", version, "Reads NYC TLC yellow-taxi trips (Parquet, local or gs://; a generated sample when --input is\n"+
		"empty), drops invalid ones and replaces an Iceberg table with daily aggregates per (trip_date, payment_type).")
	if err := run(context.Background()); err != nil {
		launch.Fatalf("taxi: %v", err)
	}
}

func run(ctx context.Context) error {
	if *input == "" && *sampleRows < 1 {
		return fmt.Errorf("--sample_rows=%d: the generated sample needs at least 1 row (or give --input)", *sampleRows)
	}
	writeCfg := icebergio.Config{Table: *namespace + "." + *tableName, Mode: icebergio.CreateOrReplace}
	if err := icebergio.Check(writeCfg, reflect.TypeFor[taxi.DailyStat]()); err != nil {
		return fmt.Errorf("--namespace=%s --table=%s: %w", *namespace, *tableName, err)
	}
	srcTable, fromIceberg := strings.CutPrefix(*input, "iceberg:")
	if fromIceberg && srcTable == writeCfg.Table {
		return fmt.Errorf("--input=%s: the job replaces %s with its result; read the trips from another table", *input, writeCfg.Table)
	}
	if !launch.Local() {
		if err := launch.Require(remoteRequired...); err != nil {
			return fmt.Errorf("%w: the generated sample would be a local file the workers cannot read", err)
		}
		if launch.Runner() == "dataflow" && !fromIceberg && !strings.HasPrefix(*input, "gs://") {
			return fmt.Errorf("--input=%s: Dataflow workers read gs:// paths only", *input)
		}
		if err := launch.CheckCatalog(catalogFlags); err != nil {
			return err
		}
	}
	in := *input
	if in != "" && !fromIceberg && launch.Local() {
		// Workers in this process read what this process can: check it
		// before any work (remote workers check it themselves).
		n, err := taxi.CheckInput(ctx, in)
		if err != nil {
			return fmt.Errorf("--input: %s", strings.TrimPrefix(err.Error(), "taxi: "))
		}
		log.Printf("taxi: reading %d Parquet files from %s", n, in)
	}

	cfg, stop, err := launch.Catalog(ctx, catalogFlags)
	if err != nil {
		return err
	}
	defer stop()

	// The source table's columns, checked before any work, also on remote
	// runners: their workers read through the same catalog.
	var srcColumns []string
	if fromIceberg {
		if srcColumns, err = taxi.IcebergColumns(ctx, cfg, srcTable); err != nil {
			return fmt.Errorf("--input: %s", strings.TrimPrefix(err.Error(), "taxi: "))
		}
		log.Printf("taxi: reading trips from Iceberg table %s", srcTable)
	}

	ident := table.Identifier{*namespace, *tableName}
	// The snapshot the run must replace; loading it also checks, before
	// any work, that the catalog answers and accepts our credentials.
	var before int64
	if launch.Waits() {
		if before, err = currentSnapshot(ctx, cfg, ident); err != nil {
			return err
		}
	}
	if in == "" {
		path, err := writeSample(*sampleRows)
		if err != nil {
			return err
		}
		defer os.RemoveAll(filepath.Dir(path))
		in = path
	}
	p, s := beam.NewPipelineWithRoot()
	var stats beam.PCollection
	if fromIceberg {
		stats = taxi.DailyStatsFromIceberg(s.Scope("DailyStats"), icebergio.ReadConfig{Catalog: cfg, Table: srcTable}, srcColumns)
	} else {
		stats = taxi.DailyStats(s.Scope("DailyStats"), in)
	}
	writeCfg.Catalog = cfg
	icebergio.Write(s.Scope("WriteToIceberg"), writeCfg, stats)

	start := time.Now()
	if err := beamx.Run(ctx, p); err != nil {
		return fmt.Errorf("job failed, table %s.%s left as it was: %w", *namespace, *tableName, launch.Failed(err))
	}
	if !launch.Waits() {
		// Nothing has run yet (dry run, template, async submission).
		return nil
	}
	return printSummary(ctx, cfg, ident, before, time.Since(start))
}

// currentSnapshot is the id of ident's current snapshot, 0 when the table
// or its snapshot does not exist.
func currentSnapshot(ctx context.Context, cfg catalog.Config, ident table.Identifier) (int64, error) {
	cat, err := catalog.Open(ctx, cfg)
	if err != nil {
		return 0, err
	}
	tbl, err := cat.LoadTable(ctx, ident)
	if errors.Is(err, icecatalog.ErrNoSuchTable) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("catalog %s at %s: loading table %s: %w", cfg.Name, cfg.URI, strings.Join(ident, "."), err)
	}
	if snap := tbl.CurrentSnapshot(); snap != nil {
		return snap.SnapshotID, nil
	}
	return 0, nil
}

func writeSample(rows int) (string, error) {
	dir, err := os.MkdirTemp("", "icebeam-taxi-sample-")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "yellow_tripdata_sample.parquet")
	if err := taxi.WriteSampleFile(path, rows, 1); err != nil {
		return "", fmt.Errorf("generating the sample input: %w", err)
	}
	log.Printf("taxi: no --input given; generated %d sample trips in %s", rows, path)
	return path, nil
}

// printSummary is the seed's verification step (its `bq query`): what was
// committed, then the top 10 days by trips. A run whose input held no
// valid trip commits nothing (before is still current): replacing daily
// aggregates with an empty table because an input was empty or wrong would
// blank every report that reads them, so the run fails instead.
func printSummary(ctx context.Context, cfg catalog.Config, ident table.Identifier, before int64, took time.Duration) error {
	cat, err := catalog.Open(ctx, cfg)
	if err != nil {
		return err
	}
	tbl, err := cat.LoadTable(ctx, ident)
	if err != nil {
		return fmt.Errorf("loading the committed table: %w", err)
	}
	snap := tbl.CurrentSnapshot()
	if snap == nil || snap.SnapshotID == before {
		return fmt.Errorf("no valid trips in the input: nothing committed, table %s left as it was", strings.Join(ident, "."))
	}
	props := map[string]string{}
	if snap.Summary != nil {
		props = snap.Summary.Properties
	}
	where := fmt.Sprintf("catalog %s at %s", cfg.Name, cfg.URI)
	if catalogFlags.URI == "" && cfg.LocalDir != "" {
		// The embedded catalog's address died with the job.
		where = "the local catalog in " + cfg.LocalDir
	}
	fmt.Printf("Wrote Iceberg table %s.%s (%s) in %s\n", ident[0], ident[1], where, took.Round(time.Millisecond))
	fmt.Printf("  snapshot %d: %s rows in %s data files\n", snap.SnapshotID, props["added-records"], props["added-data-files"])
	fmt.Printf("  location %s\n\n", tbl.Location())

	rows, err := inspect.Read(ctx, tbl)
	if err != nil {
		return err
	}
	if err := rows.SortBy("total_trips", true); err != nil {
		return err
	}
	rows.Limit(10)
	if err := rows.Select("trip_date", "payment_type", "total_trips", "avg_fare", "avg_tip_percentage", "total_revenue"); err != nil {
		return err
	}
	fmt.Println("Top 10 by total_trips:")
	return rows.Write(os.Stdout, inspect.Aligned)
}
