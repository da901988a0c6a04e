// Command goread is the interop suite's reader for icebergio.Read: it reads
// the suite's Spark-made events table (reads.events: merge-on-read deletes
// and updates, a widened and an added column) on prism into a Go struct and
// prints the rows as JSON lines, for the Python checks to compare with
// pyiceberg's and Spark's reads of the same table.
//
//	goread --catalog_uri=http://127.0.0.1:8181 --table=reads.events [--filter="id < 100"] [--snapshot_id=N]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"reflect"
	"sync"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/internal/launch"
	"github.com/icebeam/icebeam/transforms/icebergio"
)

// Event is a row of reads.events, its current schema.
type Event struct {
	ID     int64    `beam:"id" json:"id"`
	User   *string  `beam:"user" json:"user"`
	Amount *float64 `beam:"amount" json:"amount"`
	Day    *int32   `beam:"day" iceberg:"date" json:"day"`
	Note   *string  `beam:"note" json:"note"`
}

var (
	mu   sync.Mutex
	rows []Event
)

// collect gathers rows in this process: prism runs the workers here.
func collect(e Event) {
	mu.Lock()
	defer mu.Unlock()
	rows = append(rows, e)
}

func init() {
	register.Function1x0(collect)
	beam.RegisterType(reflect.TypeOf(Event{}))
}

func main() {
	var cfg catalog.Config
	cfg.RegisterFlags(flag.CommandLine)
	name := flag.String("table", "reads.events", "table to read, namespace.table")
	filter := flag.String("filter", "", "icebergio.ReadConfig.Filter")
	snapshot := flag.Int64("snapshot_id", 0, "read this snapshot (time travel)")
	launch.Parse()
	beam.Init()
	launch.ConfigureRunner()
	ctx := context.Background()
	p, s := beam.NewPipelineWithRoot()
	read := icebergio.ReadConfig{Catalog: cfg, Table: *name, Filter: *filter, SnapshotID: *snapshot}
	if err := icebergio.CheckRead(ctx, read, reflect.TypeFor[Event]()); err != nil {
		log.Fatalf("goread: %v", err)
	}
	beam.ParDo0(s, collect, icebergio.Read(s, read, reflect.TypeFor[Event]()))
	if _, err := launch.Run(ctx, p); err != nil {
		log.Fatalf("goread: %v", err)
	}
	out := json.NewEncoder(os.Stdout)
	for _, r := range rows {
		if err := out.Encode(r); err != nil {
			log.Fatalf("goread: %v", err)
		}
	}
	fmt.Fprintf(os.Stderr, "goread: %d rows\n", len(rows))
}
