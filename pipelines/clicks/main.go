// Command clicks is a streaming pipeline that writes generated clicks to an
// Iceberg table through a REST catalog, committing once per triggering window:
// the Go counterpart of Google's Java Dataflow example "streaming write to
// Iceberg with a REST catalog". Unlike that example it keeps running past the
// first token's expiry: catalog credentials refresh.
//
// With no flags it runs on prism against the embedded local catalog:
//
//	go run ./pipelines/clicks --duration=1m
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"reflect"
	"strings"
	"syscall"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/google/uuid"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/internal/launch"
	"github.com/icebeam/icebeam/transforms/clicks"
	"github.com/icebeam/icebeam/transforms/icebergio"
	_ "github.com/icebeam/icebeam/transforms/portable" // exactly once on Beam's portable Flink runner
)

var (
	icebergTable = flag.String("iceberg_table", "clicks.user_clicks", "destination table, namespace.table; may name row fields as in clicks.user_{user_id}")
	triggerSecs  = flag.Int("triggering_frequency_seconds", 20, "seconds between commits")
	interval     = flag.Duration("interval", 5*time.Second, "time between generated rows")
	partitionBy  partitionFields
	duration     = flag.Duration("duration", 0, "stop generating after this long and finish once the last window is committed; 0 runs until cancelled")
	writeShards  = flag.Int("write_shards", 1, "workers that write each table's pane in parallel (one still commits it); raise it when one worker cannot keep up with a table")
	users        = flag.Int("users", 10, "distinct user ids: row i's user_id is user-(i % users); with a table template such as many.clicks_{user_id}, the number of tables")
	seqColumn    = flag.Bool("seq_column", false, "add a column seq holding each row's position in the stream (0, 1, 2, ...), to check that every row landed exactly once")

	catalogFlags catalog.Config

	// version is stamped at build time (-ldflags "-X main.version=...").
	version = "dev"
)

func init() {
	flag.Var(&partitionBy, "partition_by", "partition field of a table the pipeline creates, e.g. 'bucket(user_id, 4)', user_id or 'truncate(user_id, 4)' (repeatable)")
	catalogFlags.RegisterFlags(flag.CommandLine)
}

// partitionFields is a repeatable flag: one partition field per use, since
// transforms such as bucket(user_id, 4) hold commas.
type partitionFields []string

func (p *partitionFields) String() string     { return strings.Join(*p, "; ") }
func (p *partitionFields) Set(v string) error { *p = append(*p, v); return nil }

func main() {
	launch.Start("clicks", version, "Streams generated clicks (one row per --interval) into an Iceberg table, one commit per\n"+
		"--triggering_frequency_seconds; runs until Ctrl-C (which commits the open window) or --duration.")
	writeCfg := icebergio.Config{
		WriterID:            "clicks-" + uuid.NewString(),
		Table:               *icebergTable,
		TriggeringFrequency: time.Duration(*triggerSecs) * time.Second,
		PartitionBy:         partitionBy,
		Shards:              *writeShards,
	}
	// One table takes the rows as Arrow batches, with no element per row;
	// a template is filled from each row's fields.
	records := !strings.Contains(*icebergTable, "{")
	checkWrite := func() error {
		if records {
			return icebergio.CheckRecords(writeCfg, clicks.Schema(*seqColumn))
		}
		rowType := reflect.TypeFor[clicks.Click]()
		if *seqColumn {
			rowType = reflect.TypeFor[clicks.SequencedClick]()
		}
		return icebergio.Check(writeCfg, rowType)
	}
	ctx := context.Background()
	cfg, stop := launch.Begin(ctx, "clicks", catalogFlags, checkFlags, checkWrite)
	defer stop()

	p, s := beam.NewPipelineWithRoot()
	gen := clicks.Config{Interval: *interval, Duration: *duration, Users: *users, Sequenced: *seqColumn, Records: records}
	rows := clicks.Generate(s, gen)
	writeCfg.Catalog = cfg
	if records {
		icebergio.WriteRecords(s.Scope("WriteToIceberg"), writeCfg, clicks.Schema(*seqColumn), rows)
	} else {
		icebergio.Write(s.Scope("WriteToIceberg"), writeCfg, rows)
	}

	if launch.Local() {
		stopOnSignal()
	}
	start := time.Now()
	if err := beamx.Run(ctx, p); err != nil {
		stop()
		launch.Fatalf("clicks: job failed: %v", launch.Failed(err))
	}
	if !launch.Waits() {
		return // nothing has run yet (dry run, template, async submission)
	}
	commits, err := committedBy(ctx, cfg, *icebergTable, writeCfg.WriterID)
	if err != nil {
		log.Printf("clicks: the job finished; its summary failed: %v", err)
		return
	}
	printSummary(os.Stdout, cfg, catalogFlags, commits, time.Since(start))
}

// stopOnSignal makes the first SIGINT or SIGTERM end the stream where it
// is, so that the job commits its open window, prints its summary and exits
// 0, as a Dataflow drain does; a second one aborts at once.
func stopOnSignal() {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-sigs
		log.Printf("clicks: %v: generating no more rows; committing the open window (again to abort)", sig)
		clicks.Stop()
		sig = <-sigs
		log.Printf("clicks: %v: aborted; rows of the open window are not committed", sig)
		os.Exit(130)
	}()
}

// checkFlags refuses values the job cannot run with, before any work.
func checkFlags() error {
	switch {
	case *interval <= 0:
		return fmt.Errorf("--interval=%v: want a positive duration, e.g. 5s or 100ms", *interval)
	case *duration < 0:
		return fmt.Errorf("--duration=%v: want 0 (until stopped) or a positive duration", *duration)
	case *duration > 0 && *duration < *interval:
		return fmt.Errorf("--duration=%v is shorter than --interval=%v: the stream would hold no row", *duration, *interval)
	case *triggerSecs < 1:
		return fmt.Errorf("--triggering_frequency_seconds=%d: want at least 1", *triggerSecs)
	case *users < 1:
		return fmt.Errorf("--users=%d: want at least 1", *users)
	case *writeShards < 1:
		return fmt.Errorf("--write_shards=%d: want at least 1", *writeShards)
	}
	return nil
}
