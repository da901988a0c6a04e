// Command cdc keeps Iceberg tables up to date from a database's change
// log: inserts, updates and deletes, applied once per triggering window as
// one row-level commit per table (deletion vectors on format v3 tables,
// equality deletes on v2), exactly once.
//
// With no --input it applies a generated change stream of an accounts
// table (transforms/cdc Generated: change i of --keys accounts is a pure
// function of i). With --input, newline-delimited Debezium JSON change
// events of any tables (a record's value as Kafka Connect's JSON converter
// writes it, with or without the schema envelope), replayed as a stream
// at --rate events per second through the decoder pipelines/kafka uses:
// each source table into its own table (--iceberg_table, a template over
// {db}, {schema} and {table}; {schema}.{table} when not given), keyed by
// --key or the existing table's identifier fields, since files carry no
// record keys. The files are read once before the job starts, so a line
// that cannot be applied refuses the job, naming its file and line,
// before anything lands. Events that name no source table are the
// accounts log this command always read, landed as before.
//
//	go run ./pipelines/cdc --interval=10ms --duration=1m
//	go run ./pipelines/cdc --input='/data/inventory-*.json' --key=id
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	"github.com/apache/iceberg-go/table"
	"github.com/google/uuid"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/internal/launch"
	"github.com/icebeam/icebeam/transforms/cdc"
	"github.com/icebeam/icebeam/transforms/icebergio"
	"github.com/icebeam/icebeam/transforms/maintenance"
	_ "github.com/icebeam/icebeam/transforms/portable" // exactly once on Beam's portable Flink runner
)

var (
	icebergTable  = flag.String("iceberg_table", "cdc.accounts", "destination table, namespace.table; with --input of events that name their source tables, a template over their {db}, {schema} and {table} (default there: {schema}.{table})")
	triggerSecs   = flag.Int("triggering_frequency_seconds", 20, "seconds between commits")
	duration      = flag.Duration("duration", 0, "generated stream: stop after this long and finish once the last window is committed; 0 runs until cancelled")
	formatVersion = flag.Int("format_version", 3, "Iceberg format version of a table the job creates: 3 (deletes as deletion vectors) or 2 (equality deletes)")
	writeShards   = flag.Int("write_shards", 1, "workers that write each table's pane; row-level changes are committed from one worker per table, so only 1 is accepted for now")
	input         = flag.String("input", "", "Debezium JSON change events, one per line: a file, a directory or a glob, local or gs://; empty: a generated change stream")
	rate          = flag.Float64("rate", 0, "with --input: events per second to replay at; 0 as fast as it goes")
	interval      = flag.Duration("interval", 5*time.Second, "generated stream: time between changes")
	keys          = flag.Int64("keys", 1000, "generated stream: number of accounts")
	staging       = flag.Int64("staging_threshold", 64<<10, "bytes (as Arrow buffers) from which a bundle's changes cross the runner's shuffle as a file under the table's location instead of as bytes; negative: never")
	keyFlag       = flag.String("key", "", "with --input: the key columns of the events' tables, comma-separated (files hold Debezium's values, not their record keys); default: the existing table's identifier fields")
	changes       = flag.String("changes", "cycle", "generated stream: cycle (every key inserted, updated 5 times, deleted, in turn) or mixed (every key inserted, then 60% updates, 25% inserts, 15% deletes of random keys)")

	catalogFlags catalog.Config

	// version is stamped at build time (-ldflags "-X main.version=...").
	version = "dev"
)

func init() { catalogFlags.RegisterFlags(flag.CommandLine) }

func main() {
	launch.Start("cdc", version, "Applies a change log to Iceberg tables, one row-level commit per --triggering_frequency_seconds:\n"+
		"a generated accounts stream, or with --input Debezium JSON change events of any tables; runs until the\n"+
		"log ends or Ctrl-C.")
	writeCfg := icebergio.Config{
		WriterID:            "cdc-" + uuid.NewString(),
		Table:               *icebergTable,
		Mode:                icebergio.Changes,
		Key:                 []string{"id"},
		Op:                  "op",
		Order:               "lsn",
		TriggeringFrequency: time.Duration(*triggerSecs) * time.Second,
		Shards:              *writeShards,
		StagingThreshold:    *staging,
		Properties:          map[string]string{table.PropertyFormatVersion: fmt.Sprint(*formatVersion)},
	}
	ctx := context.Background()
	checkWrite := func() error {
		if *input == "" {
			return icebergio.CheckRecords(writeCfg, cdc.Schema())
		}
		return nil // checked once PlanTables has found the tables
	}
	cfg, stop := launch.Begin(ctx, "cdc", catalogFlags, checkFlags, checkWrite)
	defer stop()
	writeCfg.Catalog = cfg

	p, s := beam.NewPipelineWithRoot()
	// What the summary reports: each table and the column whose values
	// count its rows.
	landed := []landing{{name: *icebergTable, key: "id"}}
	switch {
	case *input == "":
		// The generated stream comes as Arrow batches, with no element
		// per change.
		changeLog := cdc.Generate(s, cdc.GenerateConfig{Keys: *keys, Interval: *interval, Duration: *duration, Mixed: *changes == "mixed", Records: true})
		icebergio.WriteRecords(s.Scope("WriteToIceberg"), writeCfg, cdc.Schema(), changeLog)
	default:
		plan, err := planInput(ctx, cfg)
		if err != nil {
			stop()
			// transforms/cdc's errors name their package, which is this
			// command's name too.
			launch.Fatalf("cdc: %s", strings.TrimPrefix(err.Error(), "cdc: "))
		}
		if plan.Accounts {
			// The accounts log of events that name no table, parsed
			// one by one as before the shared decoder.
			if err := icebergio.Check(writeCfg, reflect.TypeFor[cdc.Change]()); err != nil {
				stop()
				launch.Fatalf("cdc: %v", err)
			}
			changeLog := cdc.ReadDebezium(s, cdc.ReadConfig{Pattern: *input, Rate: *rate})
			icebergio.Write(s.Scope("WriteToIceberg"), writeCfg, changeLog)
			break
		}
		landed = landed[:0]
		batches := cdc.ReadTables(s, cdc.ReadConfig{Pattern: *input, Rate: *rate}, plan.Tables)
		for _, t := range plan.Tables {
			w := writeCfg
			w.Table, w.Key, w.Op, w.Order = t.Name, t.Key, cdc.OpColumn, cdc.OrderColumn
			sc, err := icebergio.DecodeSchema(t.Schema)
			if err == nil {
				err = icebergio.CheckRecords(w, sc)
			}
			if err != nil {
				stop()
				launch.Fatalf("cdc: table %s: %v", t.Source, err)
			}
			log.Printf("cdc: table %s -> %s, key %s", t.Source, t.Name, strings.Join(t.Key, ","))
			icebergio.WriteRecords(s.Scope("Write "+t.Name), w, sc, cdc.SelectTable(s, t.Name, batches))
			landed = append(landed, landing{name: t.Name, key: t.Key[0]})
		}
	}

	start := time.Now()
	if err := beamx.Run(ctx, p); err != nil {
		stop()
		launch.Fatalf("cdc: job failed: %v", launch.Failed(err))
	}
	if !launch.Waits() {
		return // nothing has run yet (dry run, template, async submission)
	}
	took := time.Since(start)
	for _, l := range landed {
		sum, err := summarize(ctx, cfg, l, writeCfg.WriterID)
		if err != nil {
			fmt.Fprintf(os.Stderr, "cdc: the job finished; the summary of %s failed: %v\n", l.name, err)
			continue
		}
		printSummary(os.Stdout, cfg, l.name, sum, took)
	}
}

// landing is a table the job lands and a column every row has a value of.
type landing struct{ name, key string }

// planInput finds the tables of the --input files, and where each lands.
func planInput(ctx context.Context, cfg catalog.Config) (cdc.Plan, error) {
	cat, err := catalog.Open(ctx, cfg)
	if err != nil {
		return cdc.Plan{}, err
	}
	// --iceberg_table's default is the accounts log's table; events that
	// name their tables land in tables named after them unless told.
	tmpl := cdc.DefaultTable
	flag.Visit(func(f *flag.Flag) {
		if f.Name == "iceberg_table" {
			tmpl = *icebergTable
		}
	})
	var key []string
	for k := range strings.SplitSeq(*keyFlag, ",") {
		if k = strings.TrimSpace(k); k != "" {
			key = append(key, k)
		}
	}
	plan, err := cdc.PlanTables(ctx, cat, cdc.PlanConfig{Pattern: *input, Table: tmpl, Key: key})
	if err == nil && plan.Accounts && len(key) > 0 && !slices.Equal(key, []string{"id"}) {
		err = fmt.Errorf("--key=%s: the accounts change log (events that name no source table) is keyed by id", *keyFlag)
	}
	return plan, err
}

// checkFlags refuses values the job cannot run with, before any work.
func checkFlags() error {
	switch {
	case *formatVersion != 2 && *formatVersion != 3:
		return fmt.Errorf("--format_version=%d: want 2 or 3", *formatVersion)
	case *writeShards != 1:
		return fmt.Errorf("--write_shards=%d: row-level changes are committed from one worker per table for now; leave it at 1", *writeShards)
	case *triggerSecs < 1:
		return fmt.Errorf("--triggering_frequency_seconds=%d: want at least 1", *triggerSecs)
	case *rate < 0:
		return fmt.Errorf("--rate=%v: want 0 (as fast as it goes) or a positive rate", *rate)
	case *input == "" && *interval <= 0:
		return fmt.Errorf("--interval=%v: want a positive duration", *interval)
	case *input == "" && *changes != "cycle" && *changes != "mixed":
		return fmt.Errorf("--changes=%s: want cycle or mixed", *changes)
	case *input == "" && *keys < 1:
		return fmt.Errorf("--keys=%d: want at least 1", *keys)
	case *duration < 0:
		return fmt.Errorf("--duration=%v: want 0 (until stopped) or a positive duration", *duration)
	case *input == "" && *keyFlag != "":
		return fmt.Errorf("--key applies to --input; the generated stream is keyed by id")
	case *input != "" && *duration != 0:
		return fmt.Errorf("--duration applies to the generated stream; with --input the job ends with the input")
	}
	return nil
}

// summary is what the job's commits did to the table, from their
// snapshots' summaries (Beam's metrics can restart with a restored job),
// and the rows the table holds now.
type summary struct {
	commits                                  int
	changes                                  int64
	upserted, updated, deleted               int64
	dataFiles, deletionVectors, equalityDels int64
	live                                     int64
	compactions, compactedFiles              int64
}

func summarize(ctx context.Context, cfg catalog.Config, l landing, writer string) (summary, error) {
	name := l.name
	var sum summary
	cat, err := catalog.Open(ctx, cfg)
	if err != nil {
		return sum, err
	}
	ident, err := catalog.ParseTable(name)
	if err != nil {
		return sum, err
	}
	tbl, err := cat.LoadTable(ctx, ident)
	if err != nil {
		return sum, err
	}
	for _, snap := range tbl.Metadata().Snapshots() {
		if snap.Summary == nil {
			continue
		}
		num := func(k string) int64 { n, _ := strconv.ParseInt(snap.Summary.Properties[k], 10, 64); return n }
		if run := snap.Summary.Properties[maintenance.RunIDKey]; strings.HasPrefix(run, writer+"/") {
			// The sink's compaction after a pane (icebergio.Config.MaxDeletedShare).
			sum.compactions++
			sum.compactedFiles += num("deleted-data-files")
			continue
		}
		if !strings.HasPrefix(snap.Summary.Properties[icebergio.CommitIDKey], writer+"/") {
			continue
		}
		sum.commits++
		sum.changes += num(icebergio.ChangeRowsKey)
		sum.upserted += num(icebergio.UpsertedRowsKey)
		sum.updated += num(icebergio.UpdatedRowsKey)
		sum.deleted += num(icebergio.DeletedRowsKey)
		sum.dataFiles += num("added-data-files")
		// DVs: what the sink writes as position deletes on v3 tables.
		sum.deletionVectors += num("added-position-delete-files")
		sum.equalityDels += num("added-equality-delete-files")
	}
	at, err := tbl.Scan(table.WithSelectedFields(l.key)).ToArrowTable(ctx)
	if err != nil {
		return sum, err
	}
	defer at.Release()
	sum.live = at.NumRows()
	return sum, nil
}

// printSummary says what the job applied, what it wrote, and how to look.
func printSummary(w io.Writer, cfg catalog.Config, name string, sum summary, took time.Duration) {
	where := launch.Where(cfg, catalogFlags)
	fmt.Fprintf(w, "Applied %d changes to %s in %d commits in %s (%s):\n", sum.changes, name, sum.commits, took.Round(time.Second), where)
	if *formatVersion == 3 {
		fmt.Fprintf(w, "  inserted %d, updated %d, deleted %d rows\n", sum.upserted-sum.updated, sum.updated, sum.deleted)
	} else {
		fmt.Fprintf(w, "  upserted %d rows, deleted %d keys\n", sum.upserted, sum.deleted)
	}
	fmt.Fprintf(w, "  wrote %d data files, %d deletion vectors, %d equality delete files\n",
		sum.dataFiles, sum.deletionVectors, sum.equalityDels)
	if sum.compactions > 0 {
		fmt.Fprintf(w, "  compacted %d times as it went, rewriting %d data files whose rows were mostly deleted\n", sum.compactions, sum.compactedFiles)
	}
	fmt.Fprintf(w, "  the table holds %d rows\n", sum.live)
	fmt.Fprintf(w, "Look at it: %s\n", launch.LookCommand("scan", name, catalogFlags))
}
