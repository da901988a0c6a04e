package icebergio_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"reflect"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	"github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/catalog/localcatalog"
	"github.com/icebeam/icebeam/transforms/icebergio"
)

// Click is a row: beam tags name the table's columns.
type Click struct {
	UserID     string `beam:"user_id"`
	ClickCount int64  `beam:"click_count"`
	At         int64  `beam:"at" iceberg:"timestamptz"` // microseconds since the epoch
}

// Account is a row of a change log: Op and LSN say what to do and in which
// order; Op is not written to the table.
type Account struct {
	Op      string `beam:"op"`
	LSN     int64  `beam:"lsn"`
	ID      int64  `beam:"id"`
	Balance int64  `beam:"balance_cents"`
}

// Balance is a row of the table the change log keeps.
type Balance struct {
	ID      int64 `beam:"id"`
	Balance int64 `beam:"balance_cents"`
}

func printClick(c Click)                    { fmt.Println(c.UserID, c.ClickCount) }
func printBalance(b Balance)                { fmt.Println(b.ID, b.Balance) }
func printRejected(r icebergio.RejectedRow) { fmt.Println(r.Table, r.Row) }

func init() {
	register.Function1x0(printClick)
	register.Function1x0(printBalance)
	register.Function1x0(printRejected)
}

// embeddedCatalog starts the local REST catalog in a temporary directory,
// so that the examples run anywhere; a pipeline of yours names any Iceberg
// REST catalog instead, e.g. catalog.Config{URI: "http://localhost:8181"}.
// stop shuts it down and removes the directory.
func embeddedCatalog() (cfg catalog.Config, stop func()) {
	dir, err := os.MkdirTemp("", "icebergio-example-")
	if err != nil {
		log.Fatal(err)
	}
	srv, err := localcatalog.Listen("127.0.0.1:0", localcatalog.Options{Dir: dir})
	if err != nil {
		log.Fatal(err)
	}
	return catalog.Config{URI: srv.URL(), Name: catalog.DefaultName}, func() {
		srv.Close()
		os.RemoveAll(dir)
	}
}

// run runs p on the default runner (prism, in this process).
func run(p *beam.Pipeline) {
	if err := beamx.Run(context.Background(), p); err != nil {
		log.Fatal(err)
	}
}

// printTable prints a table's rows, read as row with print.
func printTable(cfg catalog.Config, table string, row reflect.Type, print any) {
	p, s := beam.NewPipelineWithRoot()
	beam.ParDo0(s, print, icebergio.Read(s, icebergio.ReadConfig{Catalog: cfg, Table: table}, row))
	run(p)
}

// Appending rows to a table the sink creates: here a bounded collection
// in one commit; a stream commits once per table every
// TriggeringFrequency, exactly once on prism, Flink and Dataflow.
func ExampleWrite() {
	cfg, stop := embeddedCatalog()
	defer stop()

	p, s := beam.NewPipelineWithRoot()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC).UnixMicro()
	clicks := beam.Create(s, Click{"ann", 3, at}, Click{"bob", 5, at}, Click{"cy", 8, at})
	icebergio.Write(s, icebergio.Config{Catalog: cfg, Table: "clicks.user_clicks"}, clicks)
	run(p)

	printTable(cfg, "clicks.user_clicks", reflect.TypeFor[Click](), printClick)
	// Unordered output:
	// ann 3
	// bob 5
	// cy 8
}

// A database's change log kept as a live table: each row's Op (c, r, u, d)
// applied to the row with the same id, the highest LSN winning; deletes
// are deletion vectors on the format v3 table the sink creates.
func ExampleWrite_changes() {
	cfg, stop := embeddedCatalog()
	defer stop()

	p, s := beam.NewPipelineWithRoot()
	changes := beam.Create(s,
		Account{Op: "c", LSN: 1, ID: 1, Balance: 100},
		Account{Op: "c", LSN: 2, ID: 2, Balance: 50},
		Account{Op: "u", LSN: 3, ID: 1, Balance: 120},
		Account{Op: "d", LSN: 4, ID: 2},
		Account{Op: "c", LSN: 5, ID: 3, Balance: 7},
	)
	icebergio.Write(s, icebergio.Config{
		Catalog: cfg,
		Table:   "cdc.accounts",
		Mode:    icebergio.Changes,
		Key:     []string{"id"},
		Op:      "op",
		Order:   "lsn",
	}, changes)
	run(p)

	printTable(cfg, "cdc.accounts", reflect.TypeFor[Balance](), printBalance)
	// Unordered output:
	// 1 120
	// 3 7
}

// Reading a table (deletes applied, an evolved schema read as the current
// one), only the rows a filter keeps.
func ExampleRead() {
	cfg, stop := embeddedCatalog()
	defer stop()
	p, s := beam.NewPipelineWithRoot()
	icebergio.Write(s, icebergio.Config{Catalog: cfg, Table: "clicks.user_clicks"},
		beam.Create(s, Click{"ann", 30, 0}, Click{"bob", 50, 0}, Click{"cy", 80, 0}))
	run(p)

	p, s = beam.NewPipelineWithRoot()
	rows := icebergio.Read(s, icebergio.ReadConfig{
		Catalog: cfg,
		Table:   "clicks.user_clicks",
		Filter:  "click_count >= 50",
	}, reflect.TypeFor[Click]())
	beam.ParDo0(s, printClick, rows)
	run(p)
	// Unordered output:
	// bob 50
	// cy 80
}

// One table per user, from a template over row fields, partitioned by day
// of the click's time for the tables the sink creates.
func ExampleWrite_templateAndPartitions() {
	cfg, stop := embeddedCatalog()
	defer stop()

	p, s := beam.NewPipelineWithRoot()
	day := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	clicks := beam.Create(s,
		Click{"ann", 3, day.UnixMicro()},
		Click{"ann", 4, day.Add(24 * time.Hour).UnixMicro()},
		Click{"bob", 5, day.UnixMicro()},
	)
	icebergio.Write(s, icebergio.Config{
		Catalog:     cfg,
		Table:       "clicks.user_{user_id}",
		PartitionBy: []string{"day(at)"},
	}, clicks)
	run(p)

	printTable(cfg, "clicks.user_ann", reflect.TypeFor[Click](), printClick)
	// Unordered output:
	// ann 3
	// ann 4
}

// Iceberg to Iceberg without leaving Arrow: a table's batches, filtered
// where they are read, appended to another table under the source's own
// Arrow schema.
func ExampleWriteRecords() {
	cfg, stop := embeddedCatalog()
	defer stop()
	p, s := beam.NewPipelineWithRoot()
	icebergio.Write(s, icebergio.Config{Catalog: cfg, Table: "clicks.user_clicks"},
		beam.Create(s, Click{"ann", 30, 0}, Click{"bob", 50, 0}, Click{"cy", 80, 0}))
	run(p)

	ctx := context.Background()
	cat, err := catalog.Open(ctx, cfg)
	if err != nil {
		log.Fatal(err)
	}
	src, err := cat.LoadTable(ctx, table.Identifier{"clicks", "user_clicks"})
	if err != nil {
		log.Fatal(err)
	}
	schema, err := table.SchemaToArrowSchema(src.Schema(), nil, false, false)
	if err != nil {
		log.Fatal(err)
	}
	p, s = beam.NewPipelineWithRoot()
	batches := icebergio.ReadRecords(s, icebergio.ReadConfig{Catalog: cfg, Table: "clicks.user_clicks", Filter: "click_count >= 50"})
	icebergio.WriteRecords(s, icebergio.Config{Catalog: cfg, Table: "clicks.busy_users"}, schema, batches)
	run(p)

	printTable(cfg, "clicks.busy_users", reflect.TypeFor[Click](), printClick)
	// Unordered output:
	// bob 50
	// cy 80
}

// The same change log with a dead-letter output: rows whose Op the sink
// does not know land, with the reason, in a table of their own instead of
// failing the job.
func ExampleWriteWithRejects() {
	cfg, stop := embeddedCatalog()
	defer stop()

	p, s := beam.NewPipelineWithRoot()
	changes := beam.Create(s,
		Account{Op: "c", LSN: 1, ID: 1, Balance: 100},
		Account{Op: "merge", LSN: 2, ID: 1, Balance: 5},
	)
	_, rejected := icebergio.WriteWithRejects(s, icebergio.Config{
		Catalog: cfg,
		Table:   "cdc.accounts",
		Mode:    icebergio.Changes,
		Key:     []string{"id"},
		Op:      "op",
		Order:   "lsn",
	}, changes)
	icebergio.Write(s, icebergio.Config{Catalog: cfg, Table: "cdc.accounts_rejected"}, rejected)
	run(p)

	printTable(cfg, "cdc.accounts", reflect.TypeFor[Balance](), printBalance)
	printTable(cfg, "cdc.accounts_rejected", reflect.TypeFor[icebergio.RejectedRow](), printRejected)
	// Output:
	// 1 100
	// cdc.accounts {"op":"merge","lsn":2,"id":1,"balance_cents":5}
}

// Reading what is appended to a table, as a stream: each append snapshot
// once, in commit order, from the first one committed in the last hour.
// StopAt ends this one once it has found nothing new after the last
// commit; a live stream leaves it unset.
func ExampleReadChanges() {
	cfg, stop := embeddedCatalog()
	defer stop()
	p, s := beam.NewPipelineWithRoot()
	icebergio.Write(s, icebergio.Config{Catalog: cfg, Table: "clicks.user_clicks"},
		beam.Create(s, Click{"ann", 3, 0}, Click{"bob", 5, 0}))
	run(p)

	p, s = beam.NewPipelineWithRoot()
	rows := icebergio.ReadChanges(s, icebergio.ChangesConfig{
		Catalog:      cfg,
		Table:        "clicks.user_clicks",
		From:         icebergio.FromTime(time.Now().Add(-time.Hour)),
		PollInterval: 100 * time.Millisecond,
		StopAt:       time.Now(),
	}, reflect.TypeFor[Click]())
	beam.ParDo0(s, printClick, rows)
	run(p)
	// Unordered output:
	// ann 3
	// bob 5
}
