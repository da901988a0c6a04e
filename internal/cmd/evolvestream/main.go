// Command evolvestream is a clicks stream whose row type changes between
// releases, to show (and test, in interop/) icebergio's schema evolution:
// run it with --row_version=1, then with --row_version=2 into the same
// table, and the table gains v2's new columns and widens v1's narrow ones
// while every row of both runs stays readable.
//
//	evolvestream --row_version=1 --duration=10s
//	evolvestream --row_version=2 --duration=10s --seq_offset=2000
//
// Row seq s (s counted from --seq_offset) holds, in v1:
//
//	seq s, user_id "user-"+s%10, click_count s%100 (int), score s/4 (float),
//	device {os "os-"+s%2}
//
// and in v2 click_count (s%100)<<32 (long), score s/3 (double), device
// {os, version "2.0"} and a new column session "session-"+s%7.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"reflect"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/internal/evolve"
	"github.com/icebeam/icebeam/internal/launch"
	"github.com/icebeam/icebeam/transforms/clicks"
	"github.com/icebeam/icebeam/transforms/icebergio"
)

// toV1Fn and toV2Fn turn the generator's rows into a release's rows.
type toV1Fn struct{ Offset int64 }

func (f *toV1Fn) ProcessElement(c clicks.SequencedClick) evolve.ClickV1 {
	s := f.Offset + c.Seq
	return evolve.ClickV1{Seq: s, UserID: fmt.Sprintf("user-%d", s%10), ClickCount: int32(s % 100), Score: float32(s) / 4,
		Device: evolve.DeviceV1{OS: fmt.Sprintf("os-%d", s%2)}}
}

type toV2Fn struct{ Offset int64 }

func (f *toV2Fn) ProcessElement(c clicks.SequencedClick) evolve.ClickV2 {
	s := f.Offset + c.Seq
	version, session := "2.0", fmt.Sprintf("session-%d", s%7)
	return evolve.ClickV2{Seq: s, UserID: fmt.Sprintf("user-%d", s%10), ClickCount: (s % 100) << 32, Score: float64(s) / 3,
		Device: evolve.DeviceV2{OS: fmt.Sprintf("os-%d", s%2), Version: &version}, Session: &session}
}

func init() {
	register.DoFn1x1[clicks.SequencedClick, evolve.ClickV1](&toV1Fn{})
	register.DoFn1x1[clicks.SequencedClick, evolve.ClickV2](&toV2Fn{})
	beam.RegisterType(reflect.TypeOf(evolve.ClickV1{}))
	beam.RegisterType(reflect.TypeOf(evolve.ClickV2{}))
}

var (
	table       = flag.String("iceberg_table", "clicks.evolving", "destination table, namespace.table")
	rowVersion  = flag.Int("row_version", 1, "the row type: 1 or 2")
	seqOffset   = flag.Int64("seq_offset", 0, "seq of the first row")
	interval    = flag.Duration("interval", 5*time.Millisecond, "time between rows")
	duration    = flag.Duration("duration", 10*time.Second, "how long to generate rows")
	triggerSecs = flag.Int("triggering_frequency_seconds", 2, "seconds between commits")
	evolution   = flag.String("schema_evolution", "", "icebergio.Config.SchemaEvolution: empty (tables the sink created), always or never")

	catalogFlags catalog.Config
)

func init() { catalogFlags.RegisterFlags(flag.CommandLine) }

func main() {
	launch.Start("evolvestream", "dev", "A clicks stream with a v1 or v2 row type, to show schema evolution.")
	if *rowVersion != 1 && *rowVersion != 2 || *duration <= 0 {
		launch.Fatalf("evolvestream: --row_version must be 1 or 2 and --duration positive")
	}
	ctx := context.Background()
	cfg, stop, err := launch.Catalog(ctx, catalogFlags)
	if err != nil {
		launch.Fatalf("evolvestream: %v", err)
	}
	defer stop()

	p, s := beam.NewPipelineWithRoot()
	genCfg := clicks.Config{Interval: *interval, Duration: *duration, Sequenced: true}
	gen := clicks.Generate(s, genCfg)
	rows := beam.ParDo(s, &toV1Fn{Offset: *seqOffset}, gen)
	if *rowVersion == 2 {
		rows = beam.ParDo(s, &toV2Fn{Offset: *seqOffset}, gen)
	}
	icebergio.Write(s, icebergio.Config{
		Catalog:             cfg,
		Table:               *table,
		TriggeringFrequency: time.Duration(*triggerSecs) * time.Second,
		WriterID:            fmt.Sprintf("evolvestream-v%d", *rowVersion),
		SchemaEvolution:     icebergio.SchemaEvolution(*evolution),
	}, rows)
	if err := beamx.Run(ctx, p); err != nil {
		stop()
		launch.Fatalf("evolvestream: job failed: %v", launch.Failed(err))
	}
	log.Printf("evolvestream: v%d rows seq %d.. written to %s", *rowVersion, *seqOffset, *table)
}
