// Command clickspart is ./pipelines/clicks with a partition spec: the same
// generated stream and sink, writing a table the sink creates partitioned by
// --partition_by, so the interop suite can check that Spark and pyiceberg
// read partitioned streaming commits. The clicks pipeline itself has no
// partition flag; this is its main plus icebergio.Config.PartitionBy.
//
//	clickspart --catalog_uri=URI --iceberg_table=ns.t --partition_by='bucket(user_id, 4)' --duration=8s
package main

import (
	"context"
	"flag"
	"log"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/internal/launch"
	"github.com/icebeam/icebeam/transforms/clicks"
	"github.com/icebeam/icebeam/transforms/icebergio"
)

// partitionFlag is repeatable: transforms such as bucket(user_id, 4) hold commas.
type partitionFlag []string

func (p *partitionFlag) String() string     { return strings.Join(*p, "; ") }
func (p *partitionFlag) Set(v string) error { *p = append(*p, v); return nil }

var (
	icebergTable = flag.String("iceberg_table", "clicks.partitioned", "destination table, namespace.table")
	triggerSecs  = flag.Int("triggering_frequency_seconds", 2, "seconds between commits")
	interval     = flag.Duration("interval", 5*time.Millisecond, "time between generated rows")
	duration     = flag.Duration("duration", 8*time.Second, "stop generating after this long")
	partitionBy  partitionFlag

	catalogFlags catalog.Config
)

func init() {
	flag.Var(&partitionBy, "partition_by", "partition field of the created table, e.g. 'bucket(user_id, 4)' or user_id (repeatable)")
	catalogFlags.RegisterFlags(flag.CommandLine)
}

func main() {
	launch.Parse()
	beam.Init()
	launch.ConfigureRunner()
	if err := launch.CheckCatalog(catalogFlags); err != nil {
		log.Fatalf("clickspart: %v", err)
	}
	ctx := context.Background()
	cfg, stop, err := catalog.Launch(ctx, catalogFlags)
	if err != nil {
		log.Fatalf("clickspart: %v", err)
	}
	defer stop()

	p, s := beam.NewPipelineWithRoot()
	rows := clicks.Generate(s, clicks.Config{Interval: *interval, Duration: *duration})
	icebergio.Write(s.Scope("WriteToIceberg"), icebergio.Config{
		Catalog:             cfg,
		Table:               *icebergTable,
		TriggeringFrequency: time.Duration(*triggerSecs) * time.Second,
		PartitionBy:         partitionBy,
	}, rows)
	if err := beamx.Run(ctx, p); err != nil {
		stop()
		log.Fatalf("clickspart: %v", err)
	}
}
