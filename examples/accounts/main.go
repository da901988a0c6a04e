// Command accounts is a Beam Go pipeline written as an icebeam user writes
// one: public packages only, run with plain beamx.Run. It keeps an Iceberg
// table of a REST catalog up to date from the change log of an accounts
// table (inserts, updates and deletes: generated, or Debezium JSON with
// --input), one row-level commit per triggering period, exactly once on
// any runner that can promise it. Nothing bad fails the job or is dropped:
// Debezium lines that are not changes of the table (a truncate or message
// event, invalid JSON) go to the dead-letter table TABLE_rejected_lines,
// and rows the sink cannot apply (an operation it does not know: a stream
// of your own may carry one) to TABLE_rejected.
//
//	go run ./examples/accounts --catalog_uri=http://localhost:8181 --duration=1m
//	go run ./examples/accounts --catalog_uri=http://catalog:8181 --input='/data/accounts-*.json' \
//	    --runner=flink --endpoint=localhost:8099 --environment_type=LOOPBACK
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/transforms/cdc"
	"github.com/icebeam/icebeam/transforms/icebergio"
	_ "github.com/icebeam/icebeam/transforms/portable" // exactly once on Beam's portable Flink runner
)

var (
	table         = flag.String("table", "examples.accounts", "destination table, namespace.table")
	input         = flag.String("input", "", "Debezium JSON change events, one per line (a file, directory or glob); empty: a generated change stream")
	rate          = flag.Float64("rate", 0, "with --input: events per second to replay at; 0 as fast as it goes")
	keys          = flag.Int64("keys", 1000, "generated stream: number of accounts")
	interval      = flag.Duration("interval", time.Second, "generated stream: time between changes")
	duration      = flag.Duration("duration", time.Minute, "generated stream: how long it runs; the job ends once its last changes are committed")
	every         = flag.Duration("triggering_frequency", 20*time.Second, "time between commits")
	formatVersion = flag.Int("format_version", 3, "Iceberg format version of a table the job creates: 3 (deletion vectors) or 2 (equality deletes)")

	catalogConfig catalog.Config
)

func init() {
	catalogConfig.RegisterFlags(flag.CommandLine)
}

func main() {
	flag.Parse()
	beam.Init()

	p, s := beam.NewPipelineWithRoot()
	var changes beam.PCollection // of cdc.Change
	if *input != "" {
		var bad beam.PCollection // of cdc.RejectedLine
		changes, bad = cdc.ReadDebeziumWithRejects(s, cdc.ReadConfig{Pattern: *input, Rate: *rate})
		icebergio.Write(s, icebergio.Config{Catalog: catalogConfig, Table: *table + "_rejected_lines", TriggeringFrequency: *every}, bad)
	} else {
		changes = cdc.Generate(s, cdc.GenerateConfig{Keys: *keys, Interval: *interval, Duration: *duration})
	}
	_, rejected := icebergio.WriteWithRejects(s, icebergio.Config{
		Catalog:             catalogConfig,
		Table:               *table,
		Mode:                icebergio.Changes,
		Key:                 []string{"id"}, // cdc.Change's `beam` field names
		Op:                  "op",
		Order:               "lsn",
		TriggeringFrequency: *every,
		Properties:          map[string]string{"format-version": fmt.Sprint(*formatVersion)},
	}, changes)
	icebergio.Write(s, icebergio.Config{Catalog: catalogConfig, Table: *table + "_rejected", TriggeringFrequency: *every}, rejected)

	if err := beamx.Run(context.Background(), p); err != nil {
		log.Fatalf("accounts: %v", err)
	}
}
