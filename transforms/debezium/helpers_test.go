package debezium

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// The events here are written the way Kafka Connect's JSON converter
// writes Debezium's (schemas enabled): the shapes of the schema and source
// blocks follow Debezium's PostgreSQL connector documentation
// (documentation/modules/ROOT/pages/connectors/postgresql.adoc, "create
// events" and "Data type mappings").

// f is a Connect field schema.
func f(typ, field string, optional bool, extra ...string) string {
	s := fmt.Sprintf(`{"type":%q,"optional":%t,"field":%q`, typ, optional, field)
	for _, e := range extra {
		s += "," + e
	}
	return s + "}"
}

// named is a semantic type's name (and parameters) for f.
func named(name string) string { return fmt.Sprintf(`"name":%q,"version":1`, name) }

const pgSourceSchema = `{"type":"struct","fields":[{"type":"string","optional":false,"field":"version"},{"type":"string","optional":false,"field":"connector"},{"type":"string","optional":false,"field":"name"},{"type":"int64","optional":false,"field":"ts_ms"},{"type":"string","optional":true,"name":"io.debezium.data.Enum","version":1,"parameters":{"allowed":"true,last,false,incremental"},"default":"false","field":"snapshot"},{"type":"string","optional":false,"field":"db"},{"type":"string","optional":true,"field":"sequence"},{"type":"string","optional":false,"field":"schema"},{"type":"string","optional":false,"field":"table"},{"type":"int64","optional":true,"field":"txId"},{"type":"int64","optional":true,"field":"lsn"},{"type":"int64","optional":true,"field":"xmin"}],"optional":false,"name":"io.debezium.connector.postgresql.Source","field":"source"}`

// valueSchema is the envelope's schema block for a table of fields.
func valueSchema(table string, fields ...string) string {
	row := fmt.Sprintf(`{"type":"struct","fields":[%s],"optional":true,"name":"dbserver1.%s.Value","field":"%%s"}`, strings.Join(fields, ","), table)
	return fmt.Sprintf(`{"type":"struct","fields":[%s,%s,%s,{"type":"string","optional":false,"field":"op"},{"type":"int64","optional":true,"field":"ts_ms"},{"type":"struct","fields":[{"type":"string","optional":false,"field":"id"},{"type":"int64","optional":false,"field":"total_order"},{"type":"int64","optional":false,"field":"data_collection_order"}],"optional":true,"name":"event.block","version":1,"field":"transaction"}],"optional":false,"name":"dbserver1.%s.Envelope","version":2}`,
		fmt.Sprintf(row, "before"), fmt.Sprintf(row, "after"), pgSourceSchema, table)
}

// pgSource is a PostgreSQL source block.
func pgSource(schema, table string, lsn int64) string {
	return fmt.Sprintf(`{"version":"3.6.1.Final","connector":"postgresql","name":"dbserver1","ts_ms":1559033904863,"snapshot":"false","db":"inventory","sequence":"[\"%d\",\"%d\"]","schema":%q,"table":%q,"txId":555,"lsn":%d,"xmin":null}`, lsn-9, lsn, schema, table, lsn)
}

// event is a value with the schema envelope.
func event(schema, before, after, source, op string) []byte {
	return []byte(fmt.Sprintf(`{"schema":%s,"payload":{"before":%s,"after":%s,"source":%s,"op":%q,"ts_ms":1559033904900,"transaction":null}}`, schema, before, after, source, op))
}

// key is a record key with its schema.
func key(table string, fields []string, payload string) []byte {
	return []byte(fmt.Sprintf(`{"schema":{"type":"struct","fields":[%s],"optional":false,"name":"dbserver1.%s.Key"},"payload":%s}`, strings.Join(fields, ","), table, payload))
}

func decode(t *testing.T, d *Decoder, k, v []byte, offset int64) Event {
	t.Helper()
	ev, err := d.Decode(Message{Key: k, Value: v, Where: fmt.Sprintf("dbserver1.t/0/%d", offset), Offset: offset})
	if err != nil {
		t.Fatalf("offset %d: %v", offset, err)
	}
	return ev
}

// oneBatch flushes d and wants exactly one batch of rows.
func oneBatch(t *testing.T, d *Decoder) Batch {
	t.Helper()
	bs := d.Flush()
	if len(bs) != 1 || bs[0].Record == nil {
		t.Fatalf("Flush gave %d batches, want one of rows: %+v", len(bs), bs)
	}
	t.Cleanup(bs[0].Record.Release)
	return bs[0]
}

// col returns rec's column name.
func col(t *testing.T, rec arrow.RecordBatch, name string) arrow.Array {
	t.Helper()
	idx := rec.Schema().FieldIndices(name)
	if len(idx) != 1 {
		t.Fatalf("no column %s in %s", name, rec.Schema())
	}
	return rec.Column(idx[0])
}

func str(a arrow.Array, i int) string { return a.(*array.String).Value(i) }
