// Package kafkaiceberg lands Kafka topics in Iceberg tables, exactly once:
// each topic's JSON records become rows of its table (the table's own
// columns, or columns inferred from the records for a table that does not
// exist yet), records that do not fit become rows of a dead-letter table,
// and every commit records the offsets it covers in the table
// (icebergio.SourceOffsets), so that a job started again, with or without
// the runner's state, resumes right after what has landed.
//
// Plan, at pipeline construction, finds the topics and their tables, and
// where to start reading; Land builds the pipeline from records to
// commits. pipelines/kafka is the command around them.
package kafkaiceberg

import (
	"fmt"
	"reflect"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/transforms/icebergio"
	"github.com/icebeam/icebeam/transforms/kafkaio"
)

// Table is where records land: a topic's table, or the rejected table.
type Table struct {
	Topic string // "" for the rejected table
	Name  string // namespace.table
	// Schema is the Arrow IPC form of the columns records are decoded
	// into: the table's own, or those inferred for a table to create.
	Schema []byte
	// Offsets are the table's icebergio.SourceOffsets for the job's writer
	// when the job was planned: records below them have landed there.
	Offsets map[string]int64
	// Exists says the table existed when the job was planned.
	Exists bool
	// Evolve says the job adds a column to the table for each field its
	// records have and the table lacks, typed as InferSchema types, with
	// the rows that bring it: an appending job's own tables (created by
	// it, or by an icebeam sink before: icebergio.CreatedByKey). Other
	// tables' records with such fields are rejected.
	Evolve bool
	// Source is the database table a Debezium topic's changes are of
	// (debezium.Table's text), and Key its key columns, the table's
	// identifier fields. A source table without a primary key (no Key)
	// lands append-only: its inserts and snapshot rows, without the op
	// column; its other changes are rejected, with the reason.
	Source string
	Key    []string
	// Collection is the source table as the connector's transaction
	// topic names it, and TransactionTopic that topic's name: where
	// Debezium writes the BEGIN and END of each source transaction when
	// its provide.transaction.metadata is on.
	Collection       string
	TransactionTopic string
}

// The formats of records Land decodes.
const (
	// JSON is one JSON object per record: a row of its topic's table.
	JSON = "json"
	// Debezium is Debezium's change events, as Kafka Connect's JSON
	// converter writes them (with the schema envelope): each topic the
	// changes of one database table, applied to its table in the order of
	// the source's log (icebergio.Changes).
	Debezium = "debezium"
)

// Config is what Land builds: Plan makes it.
type Config struct {
	// Format is JSON (default) or Debezium.
	Format   string
	Catalog  catalog.Config
	Read     kafkaio.ReadConfig
	Tables   []Table
	Rejected Table
	// Unplanned says, by topic, why a topic of Read.Topics has no table
	// (a bounded job skips a missing or empty one): its records, if it
	// has some by the time the job reads it, go to the rejected table
	// with the reason.
	Unplanned map[string]string
	// Mode is icebergio.Append or icebergio.Upsert (by Key).
	Mode                icebergio.Mode
	Key                 []string
	TriggeringFrequency time.Duration
	WriterID            string
	// FormatVersion is the Iceberg format version of the tables of
	// Debezium topics the job creates (default 3: deletes as deletion
	// vectors; 2: equality deletes).
	FormatVersion int
	// TransactionTopic, for Debezium, is the connector's transaction
	// topic, read with the tables' topics: each source transaction then
	// lands whole in one commit of the keyed tables it changed
	// (txgate.go). Plan sets it when the topic exists.
	TransactionTopic string
}

func init() {
	register.DoFn3x0[string, []byte, func([]byte)](&selectFn{})
	register.Emitter1[[]byte]()
	beam.RegisterType(reflect.TypeOf((*selectFn)(nil)).Elem())
}

// Land reads cfg's topics and lands them, returning each table's
// icebergio.CommitResults (the rejected table's too).
func Land(s beam.Scope, cfg Config) beam.PCollection {
	s = s.Scope("kafkaiceberg.Land")
	records := kafkaio.Read(s, cfg.Read)
	var batches beam.PCollection
	if cfg.Format == Debezium {
		batches = beam.ParDo(s, &debeziumFn{Tables: cfg.Tables, Rejected: cfg.Rejected, Unplanned: cfg.Unplanned, TransactionTopic: cfg.TransactionTopic}, records)
	} else {
		batches = beam.ParDo(s, &decodeFn{Tables: cfg.Tables, Rejected: cfg.Rejected, Unplanned: cfg.Unplanned}, records)
	}
	var results []beam.PCollection
	var together []icebergio.TableRecords
	for _, t := range append(cfg.Tables, cfg.Rejected) {
		w := icebergio.Config{
			Catalog:             cfg.Catalog,
			Table:               t.Name,
			TriggeringFrequency: cfg.TriggeringFrequency,
			WriterID:            cfg.WriterID,
			Mode:                icebergio.Append,
		}
		switch {
		case t.Topic != "" && cfg.Format == Debezium:
			// A source transaction that spans tables lands in one
			// commit of them all where the catalog can; a table
			// without a key appends, on its own (the sink commits
			// row-level writes together only).
			if !t.appendOnly() {
				w.Mode, w.Key, w.Op, w.Order = icebergio.Changes, t.Key, OpColumn, OrderColumn
				w.CommitTogether = true
			}
			v := cfg.FormatVersion
			if v == 0 {
				v = 3
			}
			w.Properties = map[string]string{"format-version": fmt.Sprint(v)}
		case t.Topic != "":
			w.Mode, w.Key = cfg.Mode, cfg.Key
		}
		sc, err := icebergio.DecodeSchema(t.Schema)
		if err != nil {
			panic(err)
		}
		if t.appendOnly() {
			sc = withoutField(sc, OpColumn)
		}
		if w.CommitTogether {
			together = append(together, icebergio.TableRecords{Config: w, Schema: sc})
			continue
		}
		rows := beam.ParDo(s.Scope("Select "+t.Name), &selectFn{Table: t.Name}, batches)
		results = append(results, icebergio.WriteRecords(s.Scope("Write "+t.Name), w, sc, rows))
	}
	if len(together) > 0 {
		in := batches
		if cfg.TransactionTopic != "" {
			in = gate(s, cfg, batches)
		}
		results = append(results, icebergio.WriteTables(s.Scope("Write tables"), together, in))
	}
	return beam.Flatten(s, results...)
}

// selectFn passes on the batches of one table.
type selectFn struct {
	Table string
}

func (f *selectFn) ProcessElement(table string, b []byte, emit func([]byte)) {
	if table == f.Table {
		emit(b)
	}
}
