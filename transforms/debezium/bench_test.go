package debezium

import (
	"fmt"
	"testing"
)

// benchOrders is a realistic event: ten columns of an orders table with
// the whole envelope (4.6 KB, most of it the schema block, which repeats
// in every event) and its key.
func benchOrders() (k []byte, vals [][]byte) {
	fields := []string{
		f("int64", "id", false),
		f("int64", "customer_id", false),
		f("string", "status", false),
		f("bytes", "amount", false, named(connectDecimal), `"parameters":{"scale":"2","connect.decimal.precision":"12"}`),
		f("string", "currency", true),
		f("int64", "created_at", false, named(dbzMicroTs)),
		f("string", "updated_at", true, named(dbzZonedTs)),
		f("int32", "ship_date", true, named(dbzDate)),
		f("string", "tracking", true, named(dbzUUID)),
		f("string", "note", true),
	}
	sc := valueSchema("shop.orders", fields...)
	k = key("shop.orders", fields[:1], `{"id":1234567}`)
	for i := range 64 {
		after := fmt.Sprintf(`{"id":%d,"customer_id":%d,"status":"shipped","amount":"AeJA","currency":"EUR","created_at":%d,"updated_at":"2026-12-07T10:15:%02d.123456Z","ship_date":20429,"tracking":"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11","note":%s}`,
			1234567+i, 98765+i, 1796638500123456+int64(i), i%60, map[bool]string{true: `"leave at the door, ring twice"`, false: "null"}[i%3 == 0])
		vals = append(vals, event(sc, "null", after, pgSource("public", "orders", 3456789012+int64(i)), "c"))
	}
	return k, vals
}

func BenchmarkDecode(b *testing.B) {
	k, vals := benchOrders()
	d := NewDecoder(Options{})
	defer d.Release()
	b.SetBytes(int64(len(vals[0])))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := d.Decode(Message{Key: k, Value: vals[i%len(vals)], Offset: int64(i)}); err != nil {
			b.Fatal(err)
		}
		if i%65536 == 65535 {
			for _, bt := range d.Flush() {
				bt.Record.Release()
			}
		}
	}
	b.StopTimer()
	for _, bt := range d.Flush() {
		bt.Record.Release()
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
