// Command clicks_per_minute is the next table in a medallion chain: it
// reads the clicks the clicks pipeline lands in Iceberg as a stream (each new
// append snapshot's rows, exactly once), counts them per user per minute of
// commit time, and writes the counts to another Iceberg table, one row per
// user and minute, once the minute is complete.
//
//	go run ./pipelines/clicks --duration=10m &
//	go run ./pipelines/clicks_per_minute --backfill --duration=10m
//
// A click's minute is the commit time of the snapshot that added it (the
// clicks table has no event-time column). A minute's counts are written once
// the source has a later snapshot (or has been idle for a minute). Run again
// after a stop, it picks up where the output ends: the newest minute it holds
// may be partial, so its rows are deleted and it is counted again from the
// source's first snapshot of that minute. Without --backfill a first run
// counts from the start of the current minute; with it, from the oldest
// snapshot still in the source's history.
package main

import (
	"context"
	"flag"
	"log"
	"reflect"
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
	sourceTable  = flag.String("source_table", "clicks.user_clicks", "the clicks table to read, namespace.table")
	icebergTable = flag.String("iceberg_table", "clicks.user_clicks_per_minute", "destination table, namespace.table")
	backfill     = flag.Bool("backfill", false, "on a first run, count the source's whole snapshot history first")

	windows      launch.Windows
	catalogFlags catalog.Config

	// version is stamped at build time (-ldflags "-X main.version=...").
	version = "dev"
)

func init() {
	windows.RegisterFlags(flag.CommandLine, "the counting window (a minute; shorter for tests)")
	catalogFlags.RegisterFlags(flag.CommandLine)
}

func main() {
	launch.Start("clicks_per_minute", version, "Counts the clicks of an Iceberg clicks table per user and minute of commit time, as a stream,\n"+
		"into another Iceberg table; resumes where the output ends.")
	ctx := context.Background()
	cfg, stop := launch.Begin(ctx, "clicks_per_minute", catalogFlags, windows.Check)
	defer stop()

	start := time.Now()
	changes := icebergio.ChangesConfig{
		Catalog:      cfg,
		Table:        *sourceTable,
		Columns:      []string{"user_id", "click_count"},
		PollInterval: windows.PollInterval,
	}
	if windows.Duration > 0 {
		changes.StopAt = start.Add(windows.Duration)
	}
	if launch.Waits() {
		from, note, err := resume(ctx, cfg, *sourceTable, *icebergTable, windows.Window, *backfill, start)
		if err != nil {
			stop()
			launch.Fatalf("clicks_per_minute: %v", err)
		}
		changes.From = from
		log.Printf("clicks_per_minute: %s", note)
	}
	p, s := beam.NewPipelineWithRoot()
	rows := icebergio.ReadChanges(s.Scope("ReadFromIceberg"), changes, reflect.TypeFor[clicks.Click]())
	counts := clicks.PerWindow(s, windows.Window, rows)
	icebergio.Write(s.Scope("WriteToIceberg"), icebergio.Config{
		Catalog:             cfg,
		Table:               *icebergTable,
		TriggeringFrequency: windows.Trigger(),
		WriterID:            "clicks_per_minute-" + uuid.NewString(),
		PartitionBy:         []string{"day(window_start)"},
	}, counts)
	if err := beamx.Run(ctx, p); err != nil {
		stop()
		launch.Fatalf("clicks_per_minute: job failed: %v", launch.Failed(err))
	}
	if launch.Waits() {
		log.Printf("clicks_per_minute: done in %v; counts in %s", time.Since(start).Round(time.Second), *icebergTable)
	}
}
