// Command clickstream is a Beam Go pipeline written as an icebeam user
// writes one: public packages only, run with plain beamx.Run. It streams
// generated clicks into an Iceberg table of a REST catalog, one commit per
// triggering period, exactly once on any runner that can promise it (prism,
// Beam's Flink runner, Dataflow); a runner that cannot refuses the job
// before it starts.
//
//	go run ./examples/clickstream --catalog_uri=http://localhost:8181 --duration=1m
//	go run ./examples/clickstream --catalog_uri=http://catalog:8181 --duration=1m \
//	    --runner=flink --endpoint=localhost:8099 --environment_type=LOOPBACK
package main

import (
	"context"
	"flag"
	"log"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/transforms/clicks"
	"github.com/icebeam/icebeam/transforms/icebergio"
	_ "github.com/icebeam/icebeam/transforms/portable" // exactly once on Beam's portable Flink runner
)

var (
	table    = flag.String("table", "examples.clicks", "destination table, namespace.table")
	interval = flag.Duration("interval", time.Second, "time between generated rows")
	duration = flag.Duration("duration", time.Minute, "how long the stream runs; the job ends once its last rows are committed")
	every    = flag.Duration("triggering_frequency", 20*time.Second, "time between commits")

	catalogConfig catalog.Config
)

func init() {
	catalogConfig.RegisterFlags(flag.CommandLine)
}

func main() {
	flag.Parse()
	beam.Init()

	p, s := beam.NewPipelineWithRoot()
	rows := clicks.Generate(s, clicks.Config{Interval: *interval, Duration: *duration, Sequenced: true})
	icebergio.Write(s, icebergio.Config{
		Catalog:             catalogConfig,
		Table:               *table,
		TriggeringFrequency: *every,
	}, rows)

	if err := beamx.Run(context.Background(), p); err != nil {
		log.Fatalf("clickstream: %v", err)
	}
}
