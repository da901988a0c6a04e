package debezium

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

var customers = []string{
	f("int32", "id", false), f("string", "first_name", false), f("string", "last_name", false), f("string", "email", false),
}

var customersKey = []string{f("int32", "id", false)}

// The create and delete events of Debezium's PostgreSQL documentation
// ("create events", "delete events"): customers (id, first_name,
// last_name, email), REPLICA IDENTITY DEFAULT, so the delete's before
// image holds only the key.
func TestDocumentedCreateAndDelete(t *testing.T) {
	d := NewDecoder(Options{})
	defer d.Release()
	sc := valueSchema("inventory.customers", customers...)
	create := event(sc, "null", `{"id":1,"first_name":"Anne","last_name":"Kretchmar","email":"annek@noanswer.org"}`, pgSource("public", "customers", 24023128), "c")
	del := event(sc, `{"id":1}`, "null", pgSource("public", "customers", 46523128), "d")
	ev := decode(t, d, key("inventory.customers", customersKey, `{"id":1}`), create, 7)
	want := Table{Connector: "postgresql", Server: "dbserver1", DB: "inventory", Schema: "public", Table: "customers"}
	if ev.Table != want || ev.Op != OpCreate || ev.Order != 24023128 || ev.Source.LSN != 24023128 || ev.TsMs != 1559033904900 || ev.Snapshot {
		t.Errorf("event %+v", ev)
	}
	ev = decode(t, d, key("inventory.customers", customersKey, `{"id":1}`), del, 8)
	if ev.Op != OpDelete || ev.Order != 46523128 {
		t.Errorf("delete event %+v", ev)
	}
	b := oneBatch(t, d)
	if b.Table != want || strings.Join(b.Keys, ",") != "id" {
		t.Errorf("batch of %v keys %v", b.Table, b.Keys)
	}
	wantSchema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int32},
		{Name: "first_name", Type: arrow.BinaryTypes.String},
		{Name: "last_name", Type: arrow.BinaryTypes.String},
		{Name: "email", Type: arrow.BinaryTypes.String},
		{Name: "__op", Type: arrow.BinaryTypes.String},
		{Name: "__order", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	if !b.Record.Schema().Equal(wantSchema) {
		t.Fatalf("schema\n%s\nwant\n%s", b.Record.Schema(), wantSchema)
	}
	r := b.Record
	if r.NumRows() != 2 {
		t.Fatalf("%d rows", r.NumRows())
	}
	ids := col(t, r, "id").(*array.Int32)
	if ids.Value(0) != 1 || ids.Value(1) != 1 || str(col(t, r, "email"), 0) != "annek@noanswer.org" ||
		str(col(t, r, "__op"), 0) != "c" || str(col(t, r, "__op"), 1) != "d" ||
		col(t, r, "__order").(*array.Int64).Value(1) != 46523128 {
		t.Errorf("rows %v", r)
	}
	// The delete's columns the image lacks are required: not null, but
	// empty (the sink deletes by key).
	if col(t, r, "email").IsNull(1) || str(col(t, r, "email"), 1) != "" {
		t.Errorf("delete's email %v", col(t, r, "email"))
	}
}

func TestTombstoneAndTruncate(t *testing.T) {
	d := NewDecoder(Options{})
	defer d.Release()
	sc := valueSchema("inventory.customers", customers...)
	k := key("inventory.customers", customersKey, `{"id":1}`)
	ev := decode(t, d, k, nil, 1)
	if !ev.Tombstone {
		t.Errorf("nil value: %+v", ev)
	}
	if ev := decode(t, d, k, []byte("null"), 2); !ev.Tombstone {
		t.Errorf("null value: %+v", ev)
	}
	if ev := decode(t, d, k, []byte(`{"schema":null,"payload":null}`), 2); !ev.Tombstone {
		t.Errorf("null value in an envelope: %+v", ev)
	}
	// The payload before the schema, and spaces around: read all the same.
	sp := []byte(` { "payload" : {"before":null,"after":{"id":9,"first_name":"a","last_name":"b","email":"c"},"source":` + pgSource("public", "customers", 50) + `,"op":"c"} , "schema" : ` + sc + " } ")
	if ev := decode(t, d, k, sp, 2); ev.Op != OpCreate || ev.Order != 50 {
		t.Errorf("payload first: %+v", ev)
	}
	for _, b := range d.Flush() {
		b.Record.Release()
	}
	decode(t, d, k, event(sc, "null", `{"id":1,"first_name":"a","last_name":"b","email":"c"}`, pgSource("public", "customers", 100), "c"), 3)
	// Debezium's truncate: no before or after, no key.
	ev = decode(t, d, nil, []byte(`{"schema":`+sc+`,"payload":{"before":null,"after":null,"source":`+pgSource("public", "customers", 200)+`,"op":"t","ts_ms":1}}`), 4)
	if ev.Op != OpTruncate || ev.Table.Table != "customers" {
		t.Errorf("truncate %+v", ev)
	}
	decode(t, d, k, event(sc, "null", `{"id":2,"first_name":"a","last_name":"b","email":"c"}`, pgSource("public", "customers", 300), "c"), 5)
	bs := d.Flush()
	if len(bs) != 3 || bs[0].Record == nil || !bs[1].Truncate || bs[1].Record != nil || bs[2].Record == nil {
		t.Fatalf("batches %+v", bs)
	}
	if bs[0].Record.Column(0).(*array.Int32).Value(0) != 1 || bs[2].Record.Column(0).(*array.Int32).Value(0) != 2 {
		t.Errorf("rows around the truncate: %v, %v", bs[0].Record, bs[2].Record)
	}
	for _, b := range bs {
		if b.Record != nil {
			b.Record.Release()
		}
	}
	if bs := d.Flush(); len(bs) != 0 {
		t.Errorf("second Flush gave %d batches", len(bs))
	}
}

func TestCompositeKey(t *testing.T) {
	d := NewDecoder(Options{})
	defer d.Release()
	fields := []string{f("int32", "order_id", false), f("int16", "line", false), f("string", "sku", true)}
	sc := valueSchema("inventory.lines", fields...)
	k := key("inventory.lines", fields[:2], `{"order_id":10,"line":2}`)
	decode(t, d, k, event(sc, "null", `{"order_id":10,"line":2,"sku":"X-1"}`, pgSource("public", "lines", 5), "c"), 0)
	decode(t, d, k, event(sc, `{"order_id":10,"line":2,"sku":null}`, "null", pgSource("public", "lines", 6), "d"), 1)
	b := oneBatch(t, d)
	if strings.Join(b.Keys, ",") != "order_id,line" {
		t.Errorf("keys %v", b.Keys)
	}
	sc2 := b.Record.Schema()
	if sc2.Field(0).Nullable || sc2.Field(1).Nullable || !sc2.Field(2).Nullable || sc2.Field(1).Type.ID() != arrow.INT32 {
		t.Errorf("schema %s", sc2)
	}
	// A key without its schema names the key columns by its fields.
	d2 := NewDecoder(Options{})
	defer d2.Release()
	decode(t, d2, []byte(`{"order_id":10,"line":2}`), event(sc, "null", `{"order_id":10,"line":2,"sku":"X-1"}`, pgSource("public", "lines", 5), "c"), 0)
	if b := oneBatch(t, d2); strings.Join(b.Keys, ",") != "order_id,line" {
		t.Errorf("keys without schema %v", b.Keys)
	}
	// A null in a key column is refused.
	_, err := d.Decode(Message{Key: k, Value: event(sc, "null", `{"order_id":10,"line":null,"sku":"X-1"}`, pgSource("public", "lines", 7), "c"), Where: "lines/0/2"})
	var e *Error
	if !errors.As(err, &e) || e.Column != "line" || e.Table != "inventory.public.lines" || e.Where != "lines/0/2" {
		t.Errorf("null key: %v", err)
	}
}

// A column added mid-stream starts a new batch with the new schema; a
// widened type does too; a narrowed one is an error naming the column
// and both types, and the table's earlier schema goes on.
func TestSchemaChange(t *testing.T) {
	d := NewDecoder(Options{})
	defer d.Release()
	v1 := valueSchema("inventory.items", f("int32", "id", false), f("int32", "qty", true))
	v2 := valueSchema("inventory.items", f("int32", "id", false), f("int32", "qty", true), f("string", "note", true))
	v3 := valueSchema("inventory.items", f("int32", "id", false), f("int64", "qty", true), f("string", "note", true))
	narrow := valueSchema("inventory.items", f("int32", "id", false), f("int16", "qty", true), f("string", "note", true))
	k := key("inventory.items", []string{f("int32", "id", false)}, `{"id":1}`)
	src := pgSource("public", "items", 10)
	decode(t, d, k, event(v1, "null", `{"id":1,"qty":5}`, src, "c"), 0)
	decode(t, d, k, event(v1, "null", `{"id":2,"qty":6}`, src, "c"), 1)
	decode(t, d, k, event(v2, "null", `{"id":3,"qty":7,"note":"new"}`, src, "c"), 2)
	decode(t, d, k, event(v3, "null", `{"id":4,"qty":8589934592,"note":null}`, src, "c"), 3)
	_, err := d.Decode(Message{Key: k, Value: event(narrow, "null", `{"id":5,"qty":1,"note":null}`, src, "c"), Where: "items/0/4"})
	var e *Error
	if !errors.As(err, &e) || e.Column != "qty" || !strings.Contains(e.Reason, "int64") || !strings.Contains(e.Reason, "int16") || e.Table != "inventory.public.items" {
		t.Errorf("narrowed: %v", err)
	}
	decode(t, d, k, event(v3, "null", `{"id":6,"qty":9,"note":"x"}`, src, "c"), 5)
	bs := d.Flush()
	if len(bs) != 3 {
		t.Fatalf("%d batches, want 3", len(bs))
	}
	for _, b := range bs {
		defer b.Record.Release()
	}
	if bs[0].Record.NumRows() != 2 || bs[0].Record.NumCols() != 4 {
		t.Errorf("first batch %v", bs[0].Record)
	}
	if bs[1].Record.NumRows() != 1 || str(col(t, bs[1].Record, "note"), 0) != "new" {
		t.Errorf("second batch %v", bs[1].Record)
	}
	q := col(t, bs[2].Record, "qty").(*array.Int64)
	if bs[2].Record.NumRows() != 2 || q.Value(0) != 8589934592 || q.Value(1) != 9 {
		t.Errorf("third batch %v", bs[2].Record)
	}
}

// An event that does not fit leaves the batch as it was, and the error
// names where, the table and the column.
func TestBadValueLeavesBatch(t *testing.T) {
	d := NewDecoder(Options{})
	defer d.Release()
	sc := valueSchema("inventory.p", f("int32", "id", false),
		f("bytes", "price", true, named(connectDecimal), `"parameters":{"scale":"2","connect.decimal.precision":"6"}`),
		f("array", "tags", true, `"items":{"type":"string","optional":false}`))
	k := key("inventory.p", []string{f("int32", "id", false)}, `{"id":1}`)
	src := pgSource("public", "p", 1)
	decode(t, d, k, event(sc, "null", `{"id":1,"price":"AeJA","tags":["a"]}`, src, "c"), 0)
	for _, c := range []struct{ after, column, reason string }{
		// EtaH is 0x12d687 = 1234567, seven digits: not decimal(6, 2).
		{`{"id":2,"price":"EtaH","tags":null}`, "price", "at most 6 digits"},
		{`{"id":2,"price":"%%%","tags":null}`, "price", "base64"},
		{`{"id":2,"price":null,"tags":["a",null]}`, "tags[1]", "null in a required field"},
		{`{"id":2,"price":null,"tags":[1]}`, "tags[0]", "UTF-8 text"},
		{`{"id":2,"price":null,"tags":null,"extra":1}`, "extra", "not a column"},
		{`{"id":"two","price":null,"tags":null}`, "id", "not an integer"},
	} {
		_, err := d.Decode(Message{Key: k, Value: event(sc, "null", c.after, src, "c"), Where: "p/3/99"})
		var e *Error
		if !errors.As(err, &e) || e.Column != c.column || !strings.Contains(e.Reason, c.reason) || e.Where != "p/3/99" || e.Table != "inventory.public.p" {
			t.Errorf("%s: %v", c.after, err)
		}
	}
	b := oneBatch(t, d)
	if b.Record.NumRows() != 1 {
		t.Errorf("%d rows after bad events, want 1", b.Record.NumRows())
	}
	for i, c := range b.Record.Columns() {
		if c.Len() != 1 {
			t.Errorf("column %d has %d values", i, c.Len())
		}
	}
}

// MySQL's position is its binlog file, position and row; the order packs
// them so that it sorts as the binlog does.
func TestMySQLOrder(t *testing.T) {
	d := NewDecoder(Options{})
	defer d.Release()
	sc := valueSchema("inventory.customers", customers...)
	src := func(file string, pos, row int) string {
		return `{"version":"3.6.1.Final","connector":"mysql","name":"mysql-server-1","ts_ms":1465581029100,"snapshot":false,"db":"inventory","table":"customers","server_id":223344,"gtid":null,"file":"` + file + `","pos":` + strconv.Itoa(pos) + `,"row":` + strconv.Itoa(row) + `,"thread":7,"query":null}`
	}
	k := key("inventory.customers", customersKey, `{"id":1}`)
	row := `{"id":1,"first_name":"a","last_name":"b","email":"c"}`
	var orders []int64
	for i, p := range []struct {
		file     string
		pos, row int
	}{{"mysql-bin.000003", 154, 0}, {"mysql-bin.000003", 154, 1}, {"mysql-bin.000003", 484, 0}, {"mysql-bin.000004", 4, 0}} {
		ev := decode(t, d, k, event(sc, "null", row, src(p.file, p.pos, p.row), "u"), int64(i))
		if ev.Source.File != p.file || ev.Source.Pos != int64(p.pos) || ev.Source.Row != int64(p.row) || ev.Table.Schema != "" || ev.Table.String() != "inventory.customers" {
			t.Errorf("event %+v", ev)
		}
		orders = append(orders, ev.Order)
	}
	// 3<<43 | 154<<11 | 0 = 26388279066624 + 315392 = 26388279382016.
	if orders[0] != 26388279382016 {
		t.Errorf("order of 000003/154/0 = %d", orders[0])
	}
	for i := 1; i < len(orders); i++ {
		if orders[i] <= orders[i-1] {
			t.Errorf("orders %v do not increase", orders)
		}
	}
	// A connector without a position the decoder reads: the offset.
	ev := decode(t, d, k, event(sc, "null", row, `{"connector":"sqlserver","name":"s","db":"d","schema":"dbo","table":"customers"}`, "c"), 4242)
	if ev.Order != 4242 {
		t.Errorf("order %d, want the offset", ev.Order)
	}
	for _, b := range d.Flush() {
		b.Record.Release()
	}
}

// Records without a key (files of values) take their table's key columns
// from Options.Keys, asked once a table; its refusal refuses the events.
func TestKeysOption(t *testing.T) {
	fields := []string{f("int32", "id", false), f("string", "email", true)}
	sc := valueSchema("inventory.customers", fields...)
	asked := 0
	d := NewDecoder(Options{Keys: func(tb Table) ([]string, error) {
		asked++
		if tb.Table == "customers" {
			return []string{"id"}, nil
		}
		return nil, fmt.Errorf("no key for %s", tb)
	}})
	defer d.Release()
	decode(t, d, nil, event(sc, "null", `{"id":1,"email":"a@x"}`, pgSource("inventory", "customers", 5), "c"), 0)
	decode(t, d, nil, event(sc, "null", `{"id":2,"email":"b@x"}`, pgSource("inventory", "customers", 6), "c"), 1)
	b := oneBatch(t, d)
	if strings.Join(b.Keys, ",") != "id" || b.Record.Schema().Field(0).Nullable {
		t.Errorf("keys %v, schema %s", b.Keys, b.Record.Schema())
	}
	other := valueSchema("inventory.orders", fields...)
	for i := range 2 {
		_, err := d.Decode(Message{Value: event(other, "null", `{"id":1,"email":"a@x"}`, pgSource("inventory", "orders", 7), "c"), Where: "f:3"})
		if err == nil || !strings.Contains(err.Error(), "no key for inventory.inventory.orders") {
			t.Errorf("event %d of a table without a key: %v", i, err)
		}
	}
	if asked != 2 {
		t.Errorf("Options.Keys asked %d times, want once a table", asked)
	}
}

// A refused event leaves no row and no truncate in the batches; the
// table's other events go on.
func TestRefuseOption(t *testing.T) {
	fields := []string{f("int32", "n", true), f("string", "note", true)}
	sc := valueSchema("public.log", fields...)
	asked := 0
	d := NewDecoder(Options{Refuse: func(tb Table, op Op) error {
		asked++
		if op != OpCreate && op != OpRead {
			return fmt.Errorf("op %c of %s refused", op, tb.Table)
		}
		return nil
	}})
	defer d.Release()
	decode(t, d, nil, event(sc, "null", `{"n":1,"note":"a"}`, pgSource("public", "log", 5), "r"), 0)
	for i, e := range []struct{ op, before, after string }{
		{"u", `{"n":1,"note":"a"}`, `{"n":1,"note":"b"}`},
		{"d", `{"n":1,"note":"a"}`, "null"},
		{"t", "null", "null"},
		{"u", `{"n":1,"note":"b"}`, `{"n":1,"note":"c"}`},
	} {
		_, err := d.Decode(Message{Value: event(sc, e.before, e.after, pgSource("public", "log", int64(6+i)), e.op), Where: "log/0/1"})
		if err == nil || !strings.Contains(err.Error(), "op "+e.op+" of log refused") {
			t.Errorf("op %s: %v, want Refuse's error", e.op, err)
		}
	}
	decode(t, d, nil, event(sc, "null", `{"n":2,"note":"c"}`, pgSource("public", "log", 10), "c"), 5)
	if asked != 5 {
		t.Errorf("Options.Refuse asked %d times, want once per table and op (r, u, d, t, c)", asked)
	}
	b := oneBatch(t, d)
	if b.Record.NumRows() != 2 || str(col(t, b.Record, "__op"), 0) != "r" || str(col(t, b.Record, "__op"), 1) != "c" {
		t.Errorf("batch %v, want the snapshot row and the insert only", b.Record)
	}
}
