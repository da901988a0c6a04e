// Command kafkaevents is a Beam Go pipeline written as an icebeam user
// writes one: public packages only, run with plain beamx.Run. It lands a
// Kafka topic of JSON events in an Iceberg table of a REST catalog, one
// commit per triggering period, exactly once: each commit records the
// offsets it covers in the table, and the next run starts after them.
// Records that are not JSON objects of the table's columns land in the
// rejected table instead.
//
//	go run ./examples/kafkaevents --catalog_uri=http://localhost:8181 --bootstrap_servers=localhost:9092 --topic=events
package main

import (
	"context"
	"flag"
	"log"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/transforms/kafkaiceberg"
	"github.com/icebeam/icebeam/transforms/kafkaio"
	_ "github.com/icebeam/icebeam/transforms/portable" // exactly once on Beam's portable Flink runner
)

var (
	bootstrap = flag.String("bootstrap_servers", "localhost:9092", "a Kafka broker, host:port")
	topic     = flag.String("topic", "events", "the topic to land")
	table     = flag.String("table", "examples.events", "destination table, namespace.table")
	duration  = flag.Duration("duration", time.Minute, "how long to read; the job ends once what it read is committed")
	every     = flag.Duration("triggering_frequency", 20*time.Second, "time between commits")

	catalogConfig catalog.Config
)

func init() {
	catalogConfig.RegisterFlags(flag.CommandLine)
}

func main() {
	flag.Parse()
	beam.Init()
	ctx := context.Background()

	cat, err := catalog.Open(ctx, catalogConfig)
	if err != nil {
		log.Fatalf("kafkaevents: %v", err)
	}
	plan, err := kafkaiceberg.Plan(ctx, cat, kafkaiceberg.PlanConfig{
		Catalog: catalogConfig,
		Read: kafkaio.ReadConfig{
			BootstrapServers: []string{*bootstrap},
			Topics:           []string{*topic},
			StopAt:           time.Now().Add(*duration),
		},
		Table:               *table,
		TriggeringFrequency: *every,
		WriterID:            "kafkaevents",
	})
	if err != nil {
		log.Fatalf("kafkaevents: %v", err)
	}

	p, s := beam.NewPipelineWithRoot()
	kafkaiceberg.Land(s, plan)
	if err := beamx.Run(ctx, p); err != nil {
		log.Fatalf("kafkaevents: %v", err)
	}
}
