package debeziumtest_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/icebeam/icebeam/internal/debeziumtest"
	"github.com/icebeam/icebeam/internal/kafkatest"
	"github.com/icebeam/icebeam/internal/pgtest"
)

func TestMain(m *testing.M) { kafkatest.Main(m) }

// event is a Debezium change event as Kafka delivered it, decoded here
// independently of any decoder of the project's.
type event struct {
	rec   *kgo.Record
	key   envelope
	value *envelope // nil: a tombstone
	op    string    // payload.op; "-" for a tombstone
}

type envelope struct {
	Schema  schema                     `json:"schema"`
	Payload map[string]json.RawMessage `json:"payload"`
}

type schema struct {
	Type       string            `json:"type"`
	Name       string            `json:"name"`
	Optional   bool              `json:"optional"`
	Field      string            `json:"field"`
	Fields     []schema          `json:"fields"`
	Parameters map[string]string `json:"parameters"`
}

// field is the schema of struct field name, if s has one.
func (s schema) field(name string) (schema, bool) {
	for _, f := range s.Fields {
		if f.Field == name {
			return f, true
		}
	}
	return schema{}, false
}

func (s schema) fieldNames() []string {
	var names []string
	for _, f := range s.Fields {
		names = append(names, f.Field)
	}
	return names
}

// decode parses a record, failing t on anything that is not Debezium's
// envelope: {"schema":…,"payload":…} for the key (if any) and the value
// (unless a tombstone).
func decode(t *testing.T, r *kgo.Record) event {
	t.Helper()
	e := event{rec: r, op: "-"}
	strict := func(what string, data []byte, into *envelope) {
		t.Helper()
		var raw map[string]json.RawMessage
		if err := json.Unmarshal(data, &raw); err != nil {
			t.Fatalf("%s[%d] %s is not JSON: %v\n%s", r.Topic, r.Offset, what, err, data)
		}
		if _, ok := raw["schema"]; !ok || len(raw) != 2 {
			t.Fatalf("%s[%d] %s has fields %v, want schema and payload\n%s", r.Topic, r.Offset, what, keys(raw), data)
		}
		if _, ok := raw["payload"]; !ok {
			t.Fatalf("%s[%d] %s has no payload\n%s", r.Topic, r.Offset, what, data)
		}
		if err := json.Unmarshal(data, into); err != nil {
			t.Fatalf("%s[%d] %s: %v\n%s", r.Topic, r.Offset, what, err, data)
		}
	}
	if r.Key != nil {
		strict("key", r.Key, &e.key)
	}
	if r.Value != nil {
		e.value = &envelope{}
		strict("value", r.Value, e.value)
		if err := json.Unmarshal(e.value.Payload["op"], &e.op); err != nil {
			t.Fatalf("%s[%d]: payload.op: %v\n%s", r.Topic, r.Offset, err, r.Value)
		}
	}
	return e
}

func keys(m map[string]json.RawMessage) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// source is the part of payload.source this test checks.
type source struct {
	DB       string `json:"db"`
	Schema   string `json:"schema"`
	Table    string `json:"table"`
	LSN      int64  `json:"lsn"`
	TxID     int64  `json:"txId"`
	Snapshot string `json:"snapshot"`
}

func (e event) source(t *testing.T) source {
	t.Helper()
	var s source
	if err := json.Unmarshal(e.value.Payload["source"], &s); err != nil {
		t.Fatalf("%s[%d] payload.source: %v\n%s", e.rec.Topic, e.rec.Offset, err, e.rec.Value)
	}
	return s
}

// row is payload.after (or before) as JSON values, numbers kept as written.
func (e event) row(t *testing.T, which string) map[string]any {
	t.Helper()
	raw := e.value.Payload[which]
	if string(raw) == "null" || raw == nil {
		return nil
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		t.Fatalf("%s[%d] payload.%s: %v", e.rec.Topic, e.rec.Offset, which, err)
	}
	return m
}

// TestSmoke runs PostgreSQL, a Kafka broker and Debezium for real and
// checks what the "databases in" decoder will be given: one topic per
// table, Debezium's envelope with schemas, the operations in the order the
// database did them (snapshot reads, inserts, updates, deletes and their
// tombstones, a primary key change as a delete and an insert, a truncate),
// a column added mid-stream, increasing LSNs, and how each column type is
// encoded.
func TestSmoke(t *testing.T) {
	debeziumtest.SkipUnlessJava(t)
	t0 := time.Now()
	pg := pgtest.Start(t)
	broker := kafkatest.Shared(t)
	tStarted := time.Now()

	pg.Exec(t, `CREATE TABLE kinds (
		id int PRIMARY KEY,
		amount numeric(12,3),
		at timestamp,
		at_tz timestamptz,
		day date,
		tod time,
		uid uuid,
		doc jsonb,
		raw bytea,
		small smallint,
		name text)`,
		`CREATE TABLE pairs (region text, n int, v text, PRIMARY KEY (region, n))`,
		// Rows before the connector starts: its snapshot reads them.
		`INSERT INTO kinds VALUES (1, 123456789.123, '2024-02-29 23:59:59.123456',
			'2024-02-29 23:59:59.123456+05:30', '2024-02-29', '13:14:15.678901',
			'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '{"k": [1, 2.5, "x"], "nested": {"a": null}}',
			'\xdeadbeef00', -32768, 'Zürich ☃ 東京 🚀')`,
		`INSERT INTO kinds (id) VALUES (2)`,
		`INSERT INTO pairs VALUES ('eu', 1, 'a')`)

	dbz := debeziumtest.StartWith(t, broker.Bootstrap(), pg, debeziumtest.Options{Prefix: "smoke"})
	tStreaming := time.Now()

	// Each statement is a transaction of its own.
	pg.Exec(t,
		`INSERT INTO kinds VALUES (3, -0.001, '1970-01-01 00:00:00', '1969-12-31 23:59:59.999999+00',
			'0001-01-01', '00:00:00', '00000000-0000-0000-0000-000000000000', '[]', '', 32767, 'naïve')`,
		`UPDATE kinds SET amount = 1.5, name = 'updated' WHERE id = 1`,
		`DELETE FROM kinds WHERE id = 2`,
		`INSERT INTO pairs VALUES ('eu', 2, 'b'), ('us', 1, 'c')`,
		// A primary key change: Debezium sends a delete of the old key (and
		// its tombstone), then a create of the new.
		`UPDATE pairs SET n = 3 WHERE region = 'eu' AND n = 2`,
		`ALTER TABLE kinds ADD COLUMN note text`,
		`INSERT INTO kinds (id, note) VALUES (4, 'after alter')`,
		// A value too big to stay in its row (TOAST: over 2 kB
		// compressed), then an update that leaves it alone: pgoutput does
		// not send it, and Debezium puts a placeholder in its place.
		`INSERT INTO kinds (id, name) SELECT 5, string_agg(md5(i::text), '') FROM generate_series(1, 400) i`,
		`UPDATE kinds SET small = 5 WHERE id = 5`,
		`TRUNCATE pairs`,
		`INSERT INTO pairs VALUES ('ap', 1, 'z')`)

	tChanged := time.Now()
	kindsTopic, pairsTopic := dbz.Topic("public", "kinds"), dbz.Topic("public", "pairs")
	want := map[string][]string{
		kindsTopic: {"r", "r", "c", "u", "d", "-", "c", "c", "u"},
		pairsTopic: {"r", "c", "c", "d", "-", "c", "t", "c"},
	}
	recs := debeziumtest.Read(t, broker.Client(t, kgo.FetchMaxWait(250*time.Millisecond)), []string{kindsTopic, pairsTopic}, 30*time.Second,
		func(got map[string][]*kgo.Record) bool {
			return len(got[kindsTopic]) >= len(want[kindsTopic]) && len(got[pairsTopic]) >= len(want[pairsTopic])
		})
	tRead := time.Now()
	// Anything more than the changes made is a bug too: give it a moment
	// to show in the end offsets.
	time.Sleep(time.Second)
	ends := map[string]int64{}
	for _, tp := range []string{kindsTopic, pairsTopic} {
		ends[tp] = broker.EndOffsets(t, tp)[0]
	}

	// One topic per table, named PREFIX.SCHEMA.TABLE, and no other topic of
	// the connector's (no transaction topic: not asked for).
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	listed, err := broker.Admin(t).ListTopics(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var topics []string
	for _, name := range listed.Names() {
		if strings.HasPrefix(name, "smoke.") {
			topics = append(topics, name)
		}
	}
	slices.Sort(topics)
	if wantTopics := []string{"smoke.public.kinds", "smoke.public.pairs"}; !slices.Equal(topics, wantTopics) {
		t.Errorf("topics %v, want %v", topics, wantTopics)
	}

	events := map[string][]event{}
	for _, tp := range []string{kindsTopic, pairsTopic} {
		if ends[tp] != int64(len(want[tp])) {
			t.Errorf("%s holds %d records, want %d (ops %v)", tp, ends[tp], len(want[tp]), want[tp])
		}
		var ops []string
		for _, r := range recs[tp] {
			e := decode(t, r)
			events[tp] = append(events[tp], e)
			ops = append(ops, e.op)
		}
		if !slices.Equal(ops, want[tp]) {
			t.Errorf("%s: ops %v, want %v", tp, ops, want[tp])
		}
		checkSources(t, tp, events[tp])
	}
	if t.Failed() {
		t.Fatalf("the end of %s:\n%s", dbz.Log, dbz.LogTail(30))
	}

	kinds, pairs := events[kindsTopic], events[pairsTopic]
	// Exactly as Kafka delivered them (compact JSON; jq shows them better),
	// for whoever writes or checks a decoder.
	t.Logf("a snapshot read of kinds, key then value:\n%s\n%s", kinds[0].rec.Key, kinds[0].rec.Value)
	t.Logf("the update of kinds, key then value:\n%s\n%s", kinds[3].rec.Key, kinds[3].rec.Value)
	t.Logf("a primary key change's delete in pairs (composite key), key then value:\n%s\n%s",
		pairs[3].rec.Key, pairs[3].rec.Value)
	t.Logf("a truncate of pairs, key (none) then value:\n%s\n%s", pairs[6].rec.Key, pairs[6].rec.Value)

	checkKinds(t, kinds)
	checkPairs(t, pairs)
	lastRec := slices.MaxFunc(append(recs[kindsTopic], recs[pairsTopic]...), func(a, b *kgo.Record) int {
		return a.Timestamp.Compare(b.Timestamp)
	})
	t.Logf("wall time: PostgreSQL and the broker %v, Debezium streaming %v, the changes made %v, "+
		"the last event in Kafka %v later, read %v after the changes; total %v",
		tStarted.Sub(t0).Round(time.Millisecond), tStreaming.Sub(tStarted).Round(time.Millisecond),
		tChanged.Sub(tStreaming).Round(time.Millisecond), lastRec.Timestamp.Sub(tChanged).Round(time.Millisecond),
		tRead.Sub(tChanged).Round(time.Millisecond), time.Since(t0).Round(time.Millisecond))
}

// checkSources checks payload.source of each event: the table named, and
// LSNs that never go back, the snapshot's first, and that grow from one
// transaction to the next (the test's transactions run one after the
// other).
func checkSources(t *testing.T, topic string, events []event) {
	t.Helper()
	table := topic[strings.LastIndex(topic, ".")+1:]
	var last source
	for i, e := range events {
		if e.value == nil {
			continue
		}
		s := e.source(t)
		if s.DB != "postgres" || s.Schema != "public" || s.Table != table {
			t.Errorf("%s[%d]: source names %s.%s.%s, want postgres.public.%s", topic, i, s.DB, s.Schema, s.Table, table)
		}
		if s.LSN <= 0 {
			t.Errorf("%s[%d]: source.lsn %d", topic, i, s.LSN)
		}
		if (e.op == "r") != (s.Snapshot != "false") {
			t.Errorf("%s[%d]: op %s with source.snapshot %q", topic, i, e.op, s.Snapshot)
		}
		if i > 0 {
			if s.LSN < last.LSN || (s.TxID != last.TxID && s.LSN == last.LSN && e.op != "r") {
				t.Errorf("%s[%d]: source.lsn %d (tx %d) after %d (tx %d): want it to grow", topic, i, s.LSN, s.TxID, last.LSN, last.TxID)
			}
		}
		last = s
	}
}

// checkKinds checks how each column type came through: the schema Debezium
// gives it (with its defaults: decimal.handling.mode=precise,
// time.precision.mode=adaptive, binary.handling.mode=bytes) and the value.
func checkKinds(t *testing.T, kinds []event) {
	t.Helper()
	snap := kinds[0]
	if got := snap.key.Schema.fieldNames(); !slices.Equal(got, []string{"id"}) {
		t.Errorf("kinds' key fields %v, want [id]", got)
	}
	after, ok := snap.value.Schema.field("after")
	if !ok {
		t.Fatalf("kinds' value schema has no after: %+v", snap.value.Schema)
	}
	columns := []string{"id", "amount", "at", "at_tz", "day", "tod", "uid", "doc", "raw", "small", "name"}
	if got := after.fieldNames(); !slices.Equal(got, columns) {
		t.Errorf("kinds' after fields %v, want %v", got, columns)
	}
	micros := func(tm time.Time) string { return fmt.Sprint(tm.UnixMicro()) }
	cases := []struct {
		col, typ, name string
		want           any // the payload's value; a func checks it instead
	}{
		{"id", "int32", "", "1"},
		{"amount", "bytes", "org.apache.kafka.connect.data.Decimal", func(v any) error {
			return decimal(v, "123456789123", after)
		}},
		{"at", "int64", "io.debezium.time.MicroTimestamp", micros(time.Date(2024, 2, 29, 23, 59, 59, 123456000, time.UTC))},
		{"at_tz", "string", "io.debezium.time.ZonedTimestamp", "2024-02-29T18:29:59.123456Z"},
		{"day", "int32", "io.debezium.time.Date", fmt.Sprint(time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC).Unix() / 86400)},
		{"tod", "int64", "io.debezium.time.MicroTime", fmt.Sprint(((13*60+14)*60+15)*1000000 + 678901)},
		{"uid", "string", "io.debezium.data.Uuid", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"},
		{"doc", "string", "io.debezium.data.Json", func(v any) error {
			var got, want any
			json.Unmarshal([]byte(v.(string)), &got)
			json.Unmarshal([]byte(`{"k": [1, 2.5, "x"], "nested": {"a": null}}`), &want)
			if !reflect.DeepEqual(got, want) {
				return fmt.Errorf("%v, want the JSON %v", v, want)
			}
			return nil
		}},
		{"raw", "bytes", "", base64.StdEncoding.EncodeToString([]byte{0xde, 0xad, 0xbe, 0xef, 0})},
		{"small", "int16", "", "-32768"},
		{"name", "string", "", "Zürich ☃ 東京 🚀"},
	}
	row := snap.row(t, "after")
	for _, c := range cases {
		f, _ := after.field(c.col)
		if f.Type != c.typ || f.Name != c.name {
			t.Errorf("kinds.%s: schema type %s name %q, want %s %q", c.col, f.Type, f.Name, c.typ, c.name)
		}
		if c.col != "id" && !f.Optional {
			t.Errorf("kinds.%s: schema not optional (the column is nullable)", c.col)
		}
		v := row[c.col]
		if check, ok := c.want.(func(any) error); ok {
			if err := check(v); err != nil {
				t.Errorf("kinds.%s: %v", c.col, err)
			}
		} else if fmt.Sprint(v) != c.want {
			t.Errorf("kinds.%s = %v (%T), want %v", c.col, v, v, c.want)
		}
	}
	// Row 2: NULLs in every column but the key.
	for col, v := range kinds[1].row(t, "after") {
		if col != "id" && v != nil {
			t.Errorf("kinds row 2: %s = %v, want null", col, v)
		}
	}
	// Row 3, streamed: the edges of the types.
	row3 := kinds[2].row(t, "after")
	if err := decimal(row3["amount"], "-1", after); err != nil {
		t.Errorf("kinds row 3 amount: %v", err)
	}
	if row3["at_tz"] != "1969-12-31T23:59:59.999999Z" || row3["raw"] != "" || fmt.Sprint(row3["small"]) != "32767" ||
		row3["name"] != "naïve" || row3["doc"] != "[]" {
		t.Errorf("kinds row 3 = %v", row3)
	}
	// The update: after holds the new row; before is null (REPLICA
	// IDENTITY DEFAULT keeps only the key of the old row, and only when
	// the key changes).
	if u := kinds[3].row(t, "after"); u["name"] != "updated" {
		t.Errorf("the update's after = %v", u)
	}
	// The delete: before holds the key, after is null; its tombstone has
	// the same key.
	if d := kinds[4]; d.row(t, "after") != nil || fmt.Sprint(d.row(t, "before")["id"]) != "2" ||
		!bytes.Equal(kinds[5].rec.Key, d.rec.Key) {
		t.Errorf("the delete: before %v, after %v, tombstone key %s", d.row(t, "before"), d.row(t, "after"), kinds[5].rec.Key)
	}
	// The column added mid-stream is in the next event's schema and row,
	// and in none before.
	last := kinds[6]
	lastAfter, _ := last.value.Schema.field("after")
	if f, ok := lastAfter.field("note"); !ok || f.Type != "string" {
		t.Errorf("after ALTER TABLE ADD COLUMN note: schema fields %v", lastAfter.fieldNames())
	}
	if r := last.row(t, "after"); r["note"] != "after alter" || fmt.Sprint(r["id"]) != "4" {
		t.Errorf("after ALTER TABLE ADD COLUMN note: row %v", r)
	}
	if _, ok := after.field("note"); ok {
		t.Errorf("the snapshot's schema has note, added later")
	}
	// The TOASTed value: whole in the insert, a placeholder in the update
	// that did not change it (a sink must keep the value it has).
	if r := kinds[7].row(t, "after"); len(fmt.Sprint(r["name"])) != 400*32 {
		t.Errorf("the insert of a 12800-character text: after.name has %d characters", len(fmt.Sprint(r["name"])))
	}
	if r := kinds[8].row(t, "after"); r["name"] != "__debezium_unavailable_value" || fmt.Sprint(r["small"]) != "5" {
		t.Errorf("the update that left a TOASTed text alone: after = %.200v", r)
	}
}

// decimal checks that v, a Decimal's payload (the unscaled value's
// big-endian two's complement, base64), is unscaled, at the scale 3 that
// the schema's parameters give.
func decimal(v any, unscaled string, after schema) error {
	f, _ := after.field("amount")
	if f.Parameters["scale"] != "3" || f.Parameters["connect.decimal.precision"] != "12" {
		return fmt.Errorf("schema parameters %v, want scale 3 and precision 12", f.Parameters)
	}
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("%v (%T), want base64", v, v)
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return err
	}
	n := new(big.Int).SetBytes(b)
	if len(b) > 0 && b[0]&0x80 != 0 {
		n.Sub(n, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	if n.String() != unscaled {
		return fmt.Errorf("%s = unscaled %s, want %s", s, n, unscaled)
	}
	return nil
}

// checkPairs checks the composite key and the primary key change.
func checkPairs(t *testing.T, pairs []event) {
	t.Helper()
	if got := pairs[0].key.Schema.fieldNames(); !slices.Equal(got, []string{"region", "n"}) {
		t.Errorf("pairs' key fields %v, want [region n]", got)
	}
	key := func(e event) string { return string(e.key.Payload["region"]) + "/" + string(e.key.Payload["n"]) }
	if k := key(pairs[3]); k != `"eu"/2` {
		t.Errorf("the key change's delete has key %s, want eu/2", k)
	}
	if k := key(pairs[5]); k != `"eu"/3` {
		t.Errorf("the key change's create has key %s, want eu/3", k)
	}
	if r := pairs[5].row(t, "after"); r["v"] != "b" {
		t.Errorf("the key change's create: after %v", r)
	}
	if tr := pairs[6]; tr.rec.Key != nil || tr.row(t, "after") != nil || tr.row(t, "before") != nil {
		t.Errorf("the truncate: key %s, before %v, after %v", tr.rec.Key, tr.row(t, "before"), tr.row(t, "after"))
	}
}

// TestRestart checks the harness's stop, kill and start again: the
// connector goes on from its offsets, with no second snapshot and no
// change lost, whether it stopped cleanly or was killed; changes made while
// it was down wait in the replication slot. With transaction metadata,
// each event names its transaction and the BEGIN/END events go to
// PREFIX.transaction.
func TestRestart(t *testing.T) {
	debeziumtest.SkipUnlessJava(t)
	pg := pgtest.Start(t)
	broker := kafkatest.Shared(t)
	pg.CreateDatabase(t, "shop")
	pg.ExecIn(t, "shop", `CREATE TABLE orders (id int PRIMARY KEY, item text)`,
		`INSERT INTO orders VALUES (1, 'before the start')`)
	seen := func(recs []*kgo.Record) map[string]int {
		ids := map[string]int{}
		for _, r := range recs {
			var v struct {
				Payload struct {
					After struct {
						ID int `json:"id"`
					} `json:"after"`
					Op string `json:"op"`
				} `json:"payload"`
			}
			json.Unmarshal(r.Value, &v)
			ids[fmt.Sprintf("%d%s", v.Payload.After.ID, v.Payload.Op)]++
		}
		return ids
	}
	dbz := debeziumtest.StartWith(t, broker.Bootstrap(), pg, debeziumtest.Options{
		Prefix: "again", DB: "shop", Tables: []string{"public.orders"}, Transactions: true,
	})
	pg.ExecIn(t, "shop", `INSERT INTO orders VALUES (2, 'streamed')`)
	dbz.Stop(t)
	pg.ExecIn(t, "shop", `INSERT INTO orders VALUES (3, 'while stopped')`)
	dbz.StartAgain(t)
	row := pg.QueryIn(t, "shop", `INSERT INTO orders VALUES (4, 'after a restart') RETURNING txid_current()`)
	// Let the offsets of 4 be flushed (every second), so that the kill
	// tests the slot rather than a replay. A fixed wait was not enough on
	// a busy machine (the kill then replayed 3c too): wait for Connect's
	// offsets file, whose values are the connector's offsets as JSON, to
	// name 4's transaction.
	offsets, tx := filepath.Join(dbz.Dir, "offsets.dat"), fmt.Sprintf(`"txId":%v`, row[0][0])
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if b, err := os.ReadFile(offsets); err == nil && bytes.Contains(b, []byte(tx)) {
			break
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(offsets)
			t.Fatalf("Connect's offsets (%s) did not name 4's transaction (%s) within 30 s:\n%q", offsets, tx, b)
		}
	}
	dbz.Kill(t)
	pg.ExecIn(t, "shop", `INSERT INTO orders VALUES (5, 'while killed')`)
	dbz.StartAgain(t)
	pg.ExecIn(t, "shop", `INSERT INTO orders VALUES (6, 'after a kill')`)

	topic := dbz.Topic("public", "orders")
	recs := debeziumtest.Read(t, broker.Client(t, kgo.FetchMaxWait(250*time.Millisecond)), []string{topic, dbz.TransactionTopic()}, 30*time.Second,
		func(got map[string][]*kgo.Record) bool { return seen(got[topic])["6c"] > 0 })
	got := seen(recs[topic])
	// Debezium delivers at least once: after a kill it sends the last
	// change it had confirmed again (its offset names that change, and it
	// resumes at it: the log says "Message with LSN ... arrived, switching
	// off the filtering"), even with the offsets flushed. A clean stop
	// replays nothing, and nothing is ever lost.
	want := map[string]int{"1r": 1, "2c": 1, "3c": 1, "4c": 1, "5c": 1, "6c": 1}
	for k, n := range want {
		if got[k] < n || got[k] > n && k != "4c" || got[k] > 2 {
			t.Errorf("events %v, want %v (id then op; 4c perhaps twice)\nthe end of %s:\n%s", got, want, dbz.Log, dbz.LogTail(30))
			break
		}
	}
	if got["4c"] == 2 {
		t.Log("the kill replayed the last change confirmed (4c), as Debezium may")
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("unexpected events %s in %v", k, got)
		}
	}
	// Every streamed event names its transaction; the transaction topic has
	// a BEGIN and an END for each.
	for _, r := range recs[topic][1:] {
		var v struct {
			Payload struct {
				Transaction *struct {
					ID string `json:"id"`
				} `json:"transaction"`
			} `json:"payload"`
		}
		if json.Unmarshal(r.Value, &v); v.Payload.Transaction == nil || v.Payload.Transaction.ID == "" {
			t.Errorf("%s[%d] has no transaction block: %s", topic, r.Offset, r.Value)
		}
	}
	var status []string
	for _, r := range recs[dbz.TransactionTopic()] {
		var v struct {
			Payload struct {
				Status string `json:"status"`
			} `json:"payload"`
		}
		json.Unmarshal(r.Value, &v)
		status = append(status, v.Payload.Status)
	}
	if len(status) < 2 || status[0] != "BEGIN" || status[1] != "END" {
		t.Errorf("%s: statuses %v, want BEGIN, END, ...", dbz.TransactionTopic(), status)
	}
	if len(recs[dbz.TransactionTopic()]) > 0 {
		t.Logf("a transaction's END, as Kafka delivered it:\n%s", recs[dbz.TransactionTopic()][1].Value)
	}
	if !strings.Contains(dbz.Status(t), `"state":"RUNNING"`) {
		t.Errorf("status %s", dbz.Status(t))
	}
}

// TestStartReturnsWithSnapshot: once Start returns, every table's snapshot
// is on its topic, so that a job listing the topics right then finds them
// all. Connect sends a snapshot's records after Debezium has ended it, and
// creates the topics as it goes: many tables make the last ones seconds
// late.
func TestStartReturnsWithSnapshot(t *testing.T) {
	debeziumtest.SkipUnlessJava(t)
	pg := pgtest.Start(t)
	broker := kafkatest.Shared(t)
	const tables = 12
	want := map[string]int64{}
	for i := range tables {
		rows := 50 * (i + 1)
		pg.Exec(t, fmt.Sprintf("CREATE TABLE t%d (id int PRIMARY KEY, v text)", i),
			fmt.Sprintf("INSERT INTO t%d SELECT g, md5(g::text) FROM generate_series(1, %d) g", i, rows))
		want[fmt.Sprintf("snap.public.t%d", i)] = int64(rows)
	}
	debeziumtest.StartWith(t, broker.Bootstrap(), pg, debeziumtest.Options{Prefix: "snap"})

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	listed, err := broker.Admin(t).ListEndOffsets(ctx, slices.Sorted(maps.Keys(want))...)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for topic := range want {
		o, ok := listed.Lookup(topic, 0)
		switch {
		case !ok:
			t.Errorf("topic %s: no end offset listed", topic)
		case o.Err != nil:
			t.Errorf("topic %s: %v", topic, o.Err)
		default:
			got[topic] = o.Offset
		}
	}
	if !maps.Equal(got, want) {
		t.Fatalf("when Start returned, the topics held %v records, want %v (the tables' rows)", got, want)
	}
}
