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
	"log"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/internal/launch"
	"github.com/icebeam/icebeam/transforms/clicks"
	"github.com/icebeam/icebeam/transforms/icebergio"
)

var (
	icebergTable = flag.String("iceberg_table", "clicks.user_clicks", "destination table, namespace.table; may name row fields as in clicks.user_{user_id}")
	triggerSecs  = flag.Int("triggering_frequency_seconds", 20, "seconds between commits")
	interval     = flag.Duration("interval", 5*time.Second, "time between generated rows")
	partitionBy  partitionFields
	duration     = flag.Duration("duration", 0, "stop generating after this long and finish once the last window is committed; 0 runs until cancelled")
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
	launch.Parse()
	beam.Init()
	launch.ConfigureRunner()
	log.Printf("clicks %s, runner %s", version, launch.Runner())
	if err := launch.CheckCatalog(catalogFlags); err != nil {
		log.Fatalf("clicks: %v", err)
	}
	ctx := context.Background()

	cfg, stop, err := catalog.Launch(ctx, catalogFlags)
	if err != nil {
		log.Fatalf("clicks: %v", err)
	}
	defer stop()

	launch.StreamEndsAfter(*duration)
	p, s := beam.NewPipelineWithRoot()
	gen := clicks.Config{Interval: *interval, Duration: *duration, Sequenced: *seqColumn}
	if launch.Portable() {
		gen.BundleLength = time.Second // see clicks.Config.BundleLength
	}
	rows := clicks.Generate(s, gen)
	icebergio.Write(s.Scope("WriteToIceberg"), icebergio.Config{
		Catalog:             cfg,
		Table:               *icebergTable,
		TriggeringFrequency: time.Duration(*triggerSecs) * time.Second,
		PartitionBy:         partitionBy,
	}, rows)

	if _, err := launch.Run(ctx, p); err != nil {
		stop()
		log.Fatalf("clicks: %v", err)
	}
}
