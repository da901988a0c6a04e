package icebergio_test

import (
	"context"
	"log"
	"reflect"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/icebeam/icebeam/catalog"
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

// The catalog a pipeline writes to: any Iceberg REST catalog.
var cat = catalog.Config{URI: "http://localhost:8181"}

// Appending a stream of rows, one commit per table every 20 seconds,
// exactly once on prism, Flink and Dataflow.
func ExampleWrite() {
	beam.Init()
	p, s := beam.NewPipelineWithRoot()
	var clicks beam.PCollection // PCollection<Click>, from your source
	icebergio.Write(s, icebergio.Config{
		Catalog:             cat,
		Table:               "clicks.user_clicks",
		TriggeringFrequency: 20 * time.Second,
	}, clicks)
	if err := beamx.Run(context.Background(), p); err != nil {
		log.Fatal(err)
	}
}

// One table per user, from a template over row fields, partitioned by day
// of the click's time for the tables the sink creates.
func ExampleWrite_templateAndPartitions() {
	p, s := beam.NewPipelineWithRoot()
	var clicks beam.PCollection // PCollection<Click>
	icebergio.Write(s, icebergio.Config{
		Catalog:     cat,
		Table:       "clicks.user_{user_id}",
		PartitionBy: []string{"day(at)"},
	}, clicks)
	_ = p
}

// A database's change log kept as a live table: each row's Op (c, r, u, d)
// applied to the row with the same id, the highest LSN winning; deletes
// are deletion vectors on the format v3 table the sink creates.
func ExampleWrite_changes() {
	p, s := beam.NewPipelineWithRoot()
	var changes beam.PCollection // PCollection<Account>
	icebergio.Write(s, icebergio.Config{
		Catalog: cat,
		Table:   "cdc.accounts",
		Mode:    icebergio.Changes,
		Key:     []string{"id"},
		Op:      "op",
		Order:   "lsn",
	}, changes)
	_ = p
}

// The same with a dead-letter output: rows whose Op the sink does not know
// land, with the reason, in a table of their own instead of failing the
// Iceberg to Iceberg without leaving Arrow: a table's batches, filtered
// where they are read, appended to another table under the source's own
// Arrow schema.
func ExampleWriteRecords() {
	p, s := beam.NewPipelineWithRoot()
	src := icebergio.ReadConfig{Catalog: cat, Table: "taxi.trips", Filter: "fare_amount > 0"}
	var schema *arrow.Schema // the source's columns, e.g. from table.SchemaToArrowSchema
	batches := icebergio.ReadRecords(s, src)
	icebergio.WriteRecords(s, icebergio.Config{Catalog: cat, Table: "taxi.paid_trips"}, schema, batches)
	_ = p
}

// job.
func ExampleWriteWithRejects() {
	p, s := beam.NewPipelineWithRoot()
	var changes beam.PCollection // PCollection<Account>
	_, rejected := icebergio.WriteWithRejects(s, icebergio.Config{
		Catalog: cat,
		Table:   "cdc.accounts",
		Mode:    icebergio.Changes,
		Key:     []string{"id"},
		Op:      "op",
		Order:   "lsn",
	}, changes)
	icebergio.Write(s, icebergio.Config{Catalog: cat, Table: "cdc.accounts_rejected"}, rejected)
	_ = p
}

// Reading a table (deletes applied, an evolved schema read as the current
// one), only the rows a filter keeps.
func ExampleRead() {
	p, s := beam.NewPipelineWithRoot()
	rows := icebergio.Read(s, icebergio.ReadConfig{
		Catalog: cat,
		Table:   "clicks.user_clicks",
		Filter:  "click_count >= 50",
	}, reflect.TypeFor[Click]())
	_, _ = p, rows
}

// Reading what is appended to a table, as a stream: each append snapshot
// once, in commit order, from the first one committed in the last hour.
func ExampleReadChanges() {
	p, s := beam.NewPipelineWithRoot()
	rows := icebergio.ReadChanges(s, icebergio.ChangesConfig{
		Catalog:      cat,
		Table:        "clicks.user_clicks",
		From:         icebergio.FromTime(time.Now().Add(-time.Hour)),
		PollInterval: 5 * time.Second,
	}, reflect.TypeFor[Click]())
	_, _ = p, rows
}
