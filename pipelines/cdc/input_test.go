package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	icecatalog "github.com/apache/iceberg-go/catalog"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/internal/launch"
	"github.com/icebeam/icebeam/internal/launch/launchtest"
)

// The events below are written by hand in the shape Debezium's PostgreSQL
// connector documentation shows (connectors/postgresql.adoc, "create
// events", "update events", "delete events"), as Kafka Connect's JSON
// converter writes a record's value with schemas enabled, for the
// tutorial's inventory database: server "dbserver1", database
// "postgres", schema "inventory".

const sourceSchema = `{"type":"struct","fields":[{"type":"string","optional":false,"field":"version"},{"type":"string","optional":false,"field":"connector"},{"type":"string","optional":false,"field":"name"},{"type":"int64","optional":false,"field":"ts_ms"},{"type":"string","optional":true,"name":"io.debezium.data.Enum","version":1,"parameters":{"allowed":"true,last,false,incremental"},"default":"false","field":"snapshot"},{"type":"string","optional":false,"field":"db"},{"type":"string","optional":true,"field":"sequence"},{"type":"string","optional":false,"field":"schema"},{"type":"string","optional":false,"field":"table"},{"type":"int64","optional":true,"field":"txId"},{"type":"int64","optional":true,"field":"lsn"},{"type":"int64","optional":true,"field":"xmin"}],"optional":false,"name":"io.debezium.connector.postgresql.Source","field":"source"}`

// envelope is the schema block of a table of the given Connect fields.
func envelope(table string, fields string) string {
	row := func(which string) string {
		return fmt.Sprintf(`{"type":"struct","fields":[%s],"optional":true,"name":"dbserver1.inventory.%s.Value","field":%q}`, fields, table, which)
	}
	return fmt.Sprintf(`{"type":"struct","fields":[%s,%s,%s,{"type":"string","optional":false,"field":"op"},{"type":"int64","optional":true,"field":"ts_ms"}],"optional":false,"name":"dbserver1.inventory.%s.Envelope","version":1}`,
		row("before"), row("after"), sourceSchema, table)
}

const (
	customersFields = `{"type":"int32","optional":false,"field":"id"},{"type":"string","optional":false,"field":"first_name"},{"type":"string","optional":false,"field":"last_name"},{"type":"string","optional":false,"field":"email"}`
	productsFields  = `{"type":"int32","optional":false,"field":"id"},{"type":"string","optional":false,"field":"name"},{"type":"string","optional":true,"field":"description"},{"type":"float64","optional":true,"field":"weight"}`
)

// payload is a change event's payload; snapshot reads say so in source.
func payload(table, op, before, after string, lsn int64) string {
	snapshot := "false"
	if op == "r" {
		snapshot = "true"
	}
	return fmt.Sprintf(`{"before":%s,"after":%s,"source":{"version":"3.6.1.Final","connector":"postgresql","name":"dbserver1","ts_ms":1559033904863,"snapshot":%q,"db":"postgres","sequence":"[null,\"%d\"]","schema":"inventory","table":%q,"txId":555,"lsn":%d,"xmin":null},"op":%q,"ts_ms":1559033904900}`,
		before, after, snapshot, lsn, table, lsn, op)
}

func withSchema(schema, payload string) string {
	return fmt.Sprintf(`{"schema":%s,"payload":%s}`, schema, payload)
}

// customersLog is the tutorial's customers as a snapshot, then an insert,
// updates and deletes (a delete's before image holds only the key, as
// with REPLICA IDENTITY DEFAULT), with products' changes in between: lines
// out of LSN order where two changes of one key are apart in the file.
func customersLog(wrapped bool) string {
	cs, ps := envelope("customers", customersFields), envelope("products", productsFields)
	if !wrapped {
		cs, ps = "", ""
	}
	line := func(schema, p string) string {
		if schema == "" {
			return p
		}
		return withSchema(schema, p)
	}
	c := func(op, before, after string, lsn int64) string {
		return line(cs, payload("customers", op, before, after, lsn))
	}
	p := func(op, before, after string, lsn int64) string {
		return line(ps, payload("products", op, before, after, lsn))
	}
	return strings.Join([]string{
		c("r", "null", `{"id":1001,"first_name":"Sally","last_name":"Thomas","email":"sally.thomas@acme.com"}`, 24023000),
		c("r", "null", `{"id":1002,"first_name":"George","last_name":"Bailey","email":"gbailey@foobar.com"}`, 24023000),
		c("r", "null", `{"id":1003,"first_name":"Edward","last_name":"Walker","email":"ed@walker.com"}`, 24023000),
		p("r", "null", `{"id":101,"name":"scooter","description":"Small 2-wheel scooter","weight":3.14}`, 24023000),
		p("r", "null", `{"id":102,"name":"car battery","description":null,"weight":8.1}`, 24023000),
		c("c", "null", `{"id":1004,"first_name":"Anne","last_name":"Kretchmar","email":"annek@noanswer.org"}`, 24023128),
		// The update's line comes before its key's later delete and
		// after the create it follows; the next update's LSN is lower
		// than the one before it in the file.
		c("u", "null", `{"id":1004,"first_name":"Anne Marie","last_name":"Kretchmar","email":"annek@noanswer.org"}`, 24023300),
		c("u", "null", `{"id":1001,"first_name":"Sally","last_name":"Thomas","email":"sally@acme.com"}`, 24023200),
		p("d", `{"id":101,"name":"","description":null,"weight":null}`, "null", 24023400),
		c("d", `{"id":1002}`, "null", 24023500),
		c("c", "null", `{"id":1005,"first_name":"Jane","last_name":"Doe","email":"jane@doe.org"}`, 24023600),
		"null", // the tombstone after the delete
		"",
	}, "\n")
}

// readAll reads table name of dir's local catalog: its columns, and its
// rows as their values' text joined by |, sorted.
func readAll(t *testing.T, dir, name string) (cols, rows []string) {
	t.Helper()
	ctx := context.Background()
	cfg, stop, err := launch.Catalog(ctx, catalog.Config{LocalDir: filepath.Join(dir, "lakehouse")})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	cat, err := catalog.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := cat.LoadTable(ctx, icecatalog.ToIdentifier(name))
	if err != nil {
		t.Fatalf("table %s: %v", name, err)
	}
	for _, f := range tbl.Schema().Fields() {
		cols = append(cols, f.Name+" "+f.Type.String())
	}
	at, err := tbl.Scan().ToArrowTable(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer at.Release()
	tr := array.NewTableReader(at, 1<<16)
	defer tr.Release()
	for tr.Next() {
		rec := tr.RecordBatch()
		for i := range int(rec.NumRows()) {
			var vals []string
			for _, c := range rec.Columns() {
				vals = append(vals, c.ValueStr(i))
			}
			rows = append(rows, strings.Join(vals, "|"))
		}
	}
	slices.Sort(rows)
	return cols, rows
}

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func wantTable(t *testing.T, dir, name string, wantCols, wantRows []string) {
	t.Helper()
	cols, rows := readAll(t, dir, name)
	if !slices.Equal(cols, wantCols) {
		t.Errorf("table %s has columns %q, want %q", name, cols, wantCols)
	}
	if !slices.Equal(rows, wantRows) {
		t.Errorf("table %s holds\n%s\nwant\n%s", name, strings.Join(rows, "\n"), strings.Join(wantRows, "\n"))
	}
}

var (
	// The source's columns, then the order column the sink keeps to
	// order later changes against the rows (as pipelines/kafka's tables).
	customersCols = []string{"id int", "first_name string", "last_name string", "email string", "__order long"}
	productsCols  = []string{"id int", "name string", "description string", "weight double", "__order long"}
	// The log's final rows, by hand: 1002 deleted, 1001's email and
	// 1004's first name updated, 1005 created; product 101 deleted; each
	// with the LSN of its last change.
	customersRows = []string{
		"1001|Sally|Thomas|sally@acme.com|24023200",
		"1003|Edward|Walker|ed@walker.com|24023000",
		"1004|Anne Marie|Kretchmar|annek@noanswer.org|24023300",
		"1005|Jane|Doe|jane@doe.org|24023600",
	}
	productsRows = []string{"102|car battery|(null)|8.1|24023000"}
)

// Debezium's tutorial tables through --input, with the schema envelope:
// each source table lands in its own table ({schema}.{table}) with its own
// columns and the log's final rows. Then the same log without the envelope
// and without --key lands again in the tables that now exist, typed and
// keyed by them.
func TestDebeziumTablesInput(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, t.TempDir(), "inventory.json", customersLog(true))
	out, err := launchtest.Run(t, dir, pipelineBin.Path(t), nil, "--input="+in, "--key=id", "--triggering_frequency_seconds=1")
	if err != nil {
		t.Fatalf("cdc: %v\n%s", err, launchtest.Tail(out))
	}
	wantTable(t, dir, "inventory.customers", customersCols, customersRows)
	wantTable(t, dir, "inventory.products", productsCols, productsRows)
	t.Log(summaryOf(out))
	if !strings.Contains(out, "to inventory.customers") || !strings.Contains(out, "to inventory.products") {
		t.Errorf("no summary of each table:\n%s", launchtest.Tail(out))
	}

	// Bare payloads, and a change more: 1003 deleted.
	bare := customersLog(false) + payload("customers", "d", `{"id":1003}`, "null", 24023700) + "\n"
	in = writeFile(t, t.TempDir(), "bare.json", bare)
	out, err = launchtest.Run(t, dir, pipelineBin.Path(t), nil, "--input="+in, "--triggering_frequency_seconds=1")
	if err != nil {
		t.Fatalf("cdc, bare payloads into the existing tables: %v\n%s", err, launchtest.Tail(out))
	}
	wantTable(t, dir, "inventory.customers", customersCols, slices.DeleteFunc(slices.Clone(customersRows), func(r string) bool { return strings.HasPrefix(r, "1003|") }))
	wantTable(t, dir, "inventory.products", productsCols, productsRows)
}

// --iceberg_table naming one table lands a one-table log there; a column
// the source adds midway is a column of the table, null in the rows
// before it.
func TestDebeziumInputNamedTable(t *testing.T) {
	dir := t.TempDir()
	var lines []string
	for _, l := range strings.Split(customersLog(true), "\n") {
		if !strings.Contains(l, `"table":"products"`) {
			lines = append(lines, l)
		}
	}
	phone := envelope("customers", customersFields+`,{"type":"string","optional":true,"field":"phone"}`)
	lines = append(lines, withSchema(phone, payload("customers", "u", "null", `{"id":1005,"first_name":"Jane","last_name":"Doe","email":"jane@doe.org","phone":"+1 555 0100"}`, 24023700)))
	in := writeFile(t, t.TempDir(), "customers.json", strings.Join(lines, "\n"))
	out, err := launchtest.Run(t, dir, pipelineBin.Path(t), nil, "--input="+in, "--key=id", "--iceberg_table=crm.people", "--triggering_frequency_seconds=1")
	if err != nil {
		t.Fatalf("cdc: %v\n%s", err, launchtest.Tail(out))
	}
	wantTable(t, dir, "crm.people",
		[]string{"id int", "first_name string", "last_name string", "email string", "phone string", "__order long"},
		[]string{
			"1001|Sally|Thomas|sally@acme.com|(null)|24023200",
			"1003|Edward|Walker|ed@walker.com|(null)|24023000",
			"1004|Anne Marie|Kretchmar|annek@noanswer.org|(null)|24023300",
			"1005|Jane|Doe|jane@doe.org|+1 555 0100|24023700",
		})
}

// Files that lack what the job needs refuse in one line naming it, and
// land nothing: no exit 0 with data lost.
func TestDebeziumInputRefuses(t *testing.T) {
	dir := t.TempDir()
	files := t.TempDir()
	bare := writeFile(t, files, "bare.json", customersLog(false))
	wrapped := writeFile(t, files, "wrapped.json", customersLog(true))
	bad := writeFile(t, files, "bad.json", strings.Replace(customersLog(true), `"op":"u"`, `"op":"x"`, 1))
	for _, c := range []struct {
		args []string
		want []string
	}{
		// No envelope, no table to type the columns.
		{[]string{"--input=" + bare, "--key=id"}, []string{"bare.json line 1", "inventory.customers", "schema"}},
		// No record key in a file, no table, no --key.
		{[]string{"--input=" + wrapped}, []string{"inventory.customers", "--key"}},
		// --key naming a column the table lacks.
		{[]string{"--input=" + wrapped, "--key=customer_id"}, []string{"wrapped.json line 1", "customer_id"}},
		// A line that is not a change event it knows.
		{[]string{"--input=" + bad, "--key=id"}, []string{"bad.json line 7", "unknown op"}},
	} {
		out, err := launchtest.Run(t, dir, pipelineBin.Path(t), nil, c.args...)
		var errLines []string
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "level=ERROR") {
				errLines = append(errLines, l)
			}
		}
		if err == nil || len(errLines) != 1 {
			t.Errorf("%v: err %v, want a refusal in one line:\n%s", c.args, err, launchtest.Tail(out))
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(errLines[0], w) {
				t.Errorf("%v: %s\ndoes not say %q", c.args, errLines[0], w)
			}
		}
		t.Logf("%v: %s", c.args, errLines[0])
	}
	if _, err := os.Stat(filepath.Join(dir, "lakehouse")); err == nil {
		ctx := context.Background()
		cfg, stop, err := launch.Catalog(ctx, catalog.Config{LocalDir: filepath.Join(dir, "lakehouse")})
		if err != nil {
			t.Fatal(err)
		}
		defer stop()
		cat, err := catalog.Open(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if ok, _ := cat.CheckTableExists(ctx, icecatalog.ToIdentifier("inventory.customers")); ok {
			t.Error("a refused job created inventory.customers")
		}
	}
}

// A truncate empties its table where it stands among the changes: the
// rows before it go, a row created after it stays; the other table keeps
// its rows.
func TestDebeziumInputTruncate(t *testing.T) {
	dir := t.TempDir()
	cs := envelope("customers", customersFields)
	log := customersLog(true) + withSchema(cs, payload("customers", "t", "null", "null", 24023800)) + "\n" +
		withSchema(cs, payload("customers", "c", "null", `{"id":1006,"first_name":"Ann","last_name":"Lee","email":"ann@lee.org"}`, 24023900)) + "\n"
	in := writeFile(t, t.TempDir(), "truncate.json", log)
	if out, err := launchtest.Run(t, dir, pipelineBin.Path(t), nil, "--input="+in, "--key=id"); err != nil {
		t.Fatalf("%v\n%s", err, launchtest.Tail(out))
	}
	wantTable(t, dir, "inventory.customers", customersCols, []string{"1006|Ann|Lee|ann@lee.org|24023900"})
	wantTable(t, dir, "inventory.products", productsCols, productsRows)
}
