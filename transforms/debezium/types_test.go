package debezium

import (
	"encoding/base64"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/extensions"
)

// Every type of the mapping, in one table. Types and encodings as
// Debezium's PostgreSQL connector documentation lists them ("Data type
// mappings"); expected values worked out by hand in the comments.
var allTypes = []string{
	f("int32", "id", false),
	f("int16", "small", true),
	f("int8", "tiny", true),
	f("int64", "big", true),
	f("float32", "f32", true),
	f("float64", "f64", true),
	f("boolean", "flag", true),
	f("string", "text", true),
	f("bytes", "raw", true),
	f("bytes", "price", true, named(connectDecimal), `"parameters":{"scale":"2","connect.decimal.precision":"10"}`),
	f("bytes", "wide", true, named(connectDecimal), `"parameters":{"scale":"0"}`),
	f("bytes", "huge", true, named(connectDecimal), `"parameters":{"scale":"2","connect.decimal.precision":"50"}`),
	`{"type":"struct","fields":[{"type":"int32","optional":false,"field":"scale"},{"type":"bytes","optional":false,"field":"value"}],"optional":true,"name":"io.debezium.data.VariableScaleDecimal","version":1,"doc":"Variable scaled decimal","field":"num"}`,
	f("int32", "day", true, named(dbzDate)),
	f("int64", "ts_micro", true, named(dbzMicroTs)),
	f("int64", "ts_milli", true, named(dbzTimestamp)),
	f("int64", "ts_nano", true, named(dbzNanoTs)),
	f("string", "ts_zoned", true, named(dbzZonedTs)),
	f("int64", "t_micro", true, named(dbzMicroTime)),
	f("int32", "t_milli", true, named(dbzTime)),
	f("string", "uid", true, named(dbzUUID)),
	f("string", "doc", true, named("io.debezium.data.Json")),
	f("array", "ints", true, `"items":{"type":"int32","optional":true}`),
	f("array", "days", true, `"items":{"type":"int32","optional":false,"name":"io.debezium.time.Date","version":1}`),
	`{"type":"struct","fields":[{"type":"float64","optional":false,"field":"x"},{"type":"float64","optional":false,"field":"y"},{"type":"bytes","optional":true,"field":"wkb"}],"optional":true,"name":"io.debezium.data.geometry.Point","version":1,"field":"point"}`,
}

const allValues = `{
	"id": 1,
	"small": -32768,
	"tiny": 127,
	"big": 9007199254740993,
	"f32": 1.5,
	"f64": 0.1,
	"flag": true,
	"text": "Zoë \u00e9 日本語 🚀 \"quoted\"",
	"raw": "3q2+7w==",
	"price": "/h3A",
	"wide": "CUmw9vACMxPESZBQ3jjzTg==",
	"huge": "/7TEs1eleTuF9nXdwAAAAAE=",
	"num": {"scale": 3, "value": "AeJA"},
	"day": 19782,
	"ts_micro": 1709210096789012,
	"ts_milli": -1,
	"ts_nano": -1500,
	"ts_zoned": "1969-07-20T20:17:40.000001Z",
	"t_micro": 45296789012,
	"t_milli": 45296789,
	"uid": "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
	"doc": "{\"a\": [1, \"é\"]}",
	"ints": [1, null, -3],
	"days": [-1, 0],
	"point": {"x": 1.5, "y": -2.25, "wkb": null}
}`

func TestEveryType(t *testing.T) {
	d := NewDecoder(Options{})
	defer d.Release()
	sc := valueSchema("inventory.all_types", allTypes...)
	k := key("inventory.all_types", []string{f("int32", "id", false)}, `{"id":1}`)
	decode(t, d, k, event(sc, "null", allValues, pgSource("public", "all_types", 1), "r"), 0)
	// Every column but the key null.
	var nulls []string
	for _, c := range allTypes[1:] {
		name := c[strings.LastIndex(c, `"field":"`)+9:]
		name = name[:strings.IndexByte(name, '"')]
		nulls = append(nulls, `"`+name+`":null`)
	}
	decode(t, d, k, event(sc, "null", `{"id":2,`+strings.Join(nulls, ",")+`}`, pgSource("public", "all_types", 2), "u"), 1)
	r := oneBatch(t, d).Record

	ts := func(unit arrow.TimeUnit, tz string) arrow.DataType {
		return &arrow.TimestampType{Unit: unit, TimeZone: tz}
	}
	wantTypes := map[string]arrow.DataType{
		"id": arrow.PrimitiveTypes.Int32, "small": arrow.PrimitiveTypes.Int32, "tiny": arrow.PrimitiveTypes.Int32,
		"big": arrow.PrimitiveTypes.Int64, "f32": arrow.PrimitiveTypes.Float32, "f64": arrow.PrimitiveTypes.Float64,
		"flag": arrow.FixedWidthTypes.Boolean, "text": arrow.BinaryTypes.String, "raw": arrow.BinaryTypes.Binary,
		"price": &arrow.Decimal128Type{Precision: 10, Scale: 2},
		// No connect.decimal.precision: 38.
		"wide": &arrow.Decimal128Type{Precision: 38, Scale: 0},
		// Precision 50 is past Iceberg's 38: exact text.
		"huge": arrow.BinaryTypes.String,
		"num":  arrow.BinaryTypes.String,
		"day":  arrow.FixedWidthTypes.Date32, "ts_micro": ts(arrow.Microsecond, ""), "ts_milli": ts(arrow.Microsecond, ""),
		"ts_nano": ts(arrow.Microsecond, ""), "ts_zoned": ts(arrow.Microsecond, "UTC"),
		"t_micro": arrow.FixedWidthTypes.Time64us, "t_milli": arrow.FixedWidthTypes.Time64us,
		"uid": extensions.NewUUIDType(), "doc": arrow.BinaryTypes.String,
		"ints": arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.PrimitiveTypes.Int32, Nullable: true}),
		"days": arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.FixedWidthTypes.Date32}),
		"point": arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Float64}, arrow.Field{Name: "y", Type: arrow.PrimitiveTypes.Float64},
			arrow.Field{Name: "wkb", Type: arrow.BinaryTypes.Binary, Nullable: true}),
	}
	for name, want := range wantTypes {
		got := col(t, r, name)
		if !arrow.TypeEqual(got.DataType(), want) {
			t.Errorf("%s is %s, want %s", name, got.DataType(), want)
		}
		if name != "id" && !got.IsNull(1) {
			t.Errorf("%s of the second row is %s, want null", name, got.ValueStr(1))
		}
	}

	check := func(name string, got, want any) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	check("small", col(t, r, "small").(*array.Int32).Value(0), int32(-32768))
	check("tiny", col(t, r, "tiny").(*array.Int32).Value(0), int32(127))
	// 2^53 + 1: a float64 on the way would make it ...992.
	check("big", col(t, r, "big").(*array.Int64).Value(0), int64(9007199254740993))
	check("f32", col(t, r, "f32").(*array.Float32).Value(0), float32(1.5))
	check("f64", col(t, r, "f64").(*array.Float64).Value(0), 0.1)
	check("flag", col(t, r, "flag").(*array.Boolean).Value(0), true)
	check("text", str(col(t, r, "text"), 0), "Zoë é 日本語 🚀 \"quoted\"")
	// 3q2+7w==: 110111 101010 110110 111110 111011 11 -> de ad be ef.
	check("raw", string(col(t, r, "raw").(*array.Binary).Value(0)), "\xde\xad\xbe\xef")
	// /h3A: 111111 100001 110111 000000 -> fe 1d c0, two's complement
	// 0xfe1dc0 - 2^24 = 16653760 - 16777216 = -123456; scale 2: -1234.56.
	check("price", col(t, r, "price").(*array.Decimal128).Value(0), decimal128.FromI64(-123456))
	// 16 bytes: the 38-digit 12345678901234567890123456789012345678.
	want38, _ := new(big.Int).SetString("12345678901234567890123456789012345678", 10)
	check("wide", col(t, r, "wide").(*array.Decimal128).Value(0), decimal128.FromBigInt(want38))
	// 17 bytes of -99999999999999999999999999999999999999 (38 nines):
	// scale 2 puts the point before the last two nines.
	check("huge", str(col(t, r, "huge"), 0), "-999999999999999999999999999999999999.99")
	// AeJA: 000000 011110 001001 000000 -> 01 e2 40 = 65536 + 57856 + 64
	// = 123456; scale 3: 123.456.
	check("num", str(col(t, r, "num"), 0), "123.456")
	// 2024-02-29: 54 years of 365 days and 13 leap days (1972..2020) to
	// 2024-01-01 = 19723, then 31 + 28 days = 19782.
	check("day", col(t, r, "day").(*array.Date32).Value(0), arrow.Date32(19782))
	// 2024-02-29T12:34:56.789012: 19782*86400 + 45296 s, then µs.
	check("ts_micro", col(t, r, "ts_micro").(*array.Timestamp).Value(0), arrow.Timestamp(1709210096789012))
	// -1 ms: 1969-12-31T23:59:59.999, -1000 µs.
	check("ts_milli", col(t, r, "ts_milli").(*array.Timestamp).Value(0), arrow.Timestamp(-1000))
	// -1500 ns is within the microsecond that starts at -2 µs.
	check("ts_nano", col(t, r, "ts_nano").(*array.Timestamp).Value(0), arrow.Timestamp(-2))
	// 1969-07-20T20:17:40Z: 164 whole days (21 Jul to 31 Dec) and 3h42m20s
	// = 13340 s before 1970: -(164*86400 + 13340) = -14182940 s; + 1 µs.
	check("ts_zoned", col(t, r, "ts_zoned").(*array.Timestamp).Value(0), arrow.Timestamp(-14182940*1_000_000+1))
	// 12:34:56.789012 = 45296 s + 0.789012.
	check("t_micro", col(t, r, "t_micro").(*array.Time64).Value(0), arrow.Time64(45296789012))
	check("t_milli", col(t, r, "t_milli").(*array.Time64).Value(0), arrow.Time64(45296789000))
	check("uid", col(t, r, "uid").ValueStr(0), "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")
	check("doc", str(col(t, r, "doc"), 0), `{"a": [1, "é"]}`)
	ints := col(t, r, "ints").(*array.List)
	check("ints", ints.ValueStr(0), "[1,null,-3]")
	check("days", col(t, r, "days").(*array.List).ValueStr(0), `["1969-12-31","1970-01-01"]`)
	pt := col(t, r, "point").(*array.Struct)
	check("point.x", pt.Field(0).(*array.Float64).Value(0), 1.5)
	check("point.y", pt.Field(1).(*array.Float64).Value(0), -2.25)
	check("point.wkb", pt.Field(2).IsNull(0), true)
}

// The decimal path against math/big, on values at the edges of
// decimal128's range and of byte lengths.
func TestDecimalBytes(t *testing.T) {
	for _, s := range []string{"0", "1", "-1", "127", "128", "-128", "-129", "255", "256", "32767", "-32768",
		"99999999999999999999999999999999999999", "-99999999999999999999999999999999999999",
		"170141183460469231731687303715884105727", "-170141183460469231731687303715884105728"} {
		v, _ := new(big.Int).SetString(s, 10)
		b := twos(v)
		got, ok := unscaled128(b)
		if !ok || got.BigInt().Cmp(v) != 0 {
			t.Errorf("%s (% x): %v, %v", s, b, got.BigInt(), ok)
		}
		if bigFromTwos(b).Cmp(v) != 0 {
			t.Errorf("bigFromTwos(%s) = %v", s, bigFromTwos(b))
		}
	}
	// 2^127 needs 17 bytes and more than 128 bits.
	if _, ok := unscaled128(twos(new(big.Int).Lsh(big.NewInt(1), 127))); ok {
		t.Error("2^127 fit decimal128")
	}
	for _, c := range []struct {
		u     int64
		scale int32
		want  string
	}{{123456, 2, "1234.56"}, {-123456, 2, "-1234.56"}, {5, 3, "0.005"}, {-5, 3, "-0.005"}, {12, -2, "1200"}, {0, 2, "0.00"}, {7, 0, "7"}} {
		if got := decimalText(big.NewInt(c.u), c.scale); got != c.want {
			t.Errorf("decimalText(%d, %d) = %s, want %s", c.u, c.scale, got, c.want)
		}
	}
}

// twos is v as Java's BigInteger.toByteArray writes it: the shortest
// big-endian two's complement.
func twos(v *big.Int) []byte {
	n := v.BitLen()/8 + 1
	m := new(big.Int).Set(v)
	if v.Sign() < 0 {
		m.Add(m, new(big.Int).Lsh(big.NewInt(1), uint(8*n)))
	}
	b := m.FillBytes(make([]byte, n))
	// Drop a redundant sign byte.
	for len(b) > 1 && (b[0] == 0 && b[1]&0x80 == 0 || b[0] == 0xff && b[1]&0x80 != 0) {
		b = b[1:]
	}
	return b
}

// VariableScaleDecimal into a fixed decimal when the caller says so:
// exact values go in, others are errors.
func TestVariableScaleAsDecimal(t *testing.T) {
	d := NewDecoder(Options{VariableScaleDecimal: &arrow.Decimal128Type{Precision: 10, Scale: 4}})
	defer d.Release()
	sc := valueSchema("inventory.n", f("int32", "id", false), allTypes[12])
	k := key("inventory.n", []string{f("int32", "id", false)}, `{"id":1}`)
	b64 := func(v int64) string { return base64.StdEncoding.EncodeToString(twos(big.NewInt(v))) }
	// 123456 at scale 3 = 123.456 = 1234560 at scale 4.
	decode(t, d, k, event(sc, "null", `{"id":1,"num":{"scale":3,"value":"`+b64(123456)+`"}}`, pgSource("public", "n", 1), "c"), 0)
	// -5 at scale 0 = -50000 at scale 4.
	decode(t, d, k, event(sc, "null", `{"id":2,"num":{"scale":0,"value":"`+b64(-5)+`"}}`, pgSource("public", "n", 2), "c"), 1)
	for _, bad := range []string{
		`{"scale":5,"value":"` + b64(123456) + `"}`,  // 1.23456: five places
		`{"scale":0,"value":"` + b64(1234567) + `"}`, // 1234567.0000: eleven digits
	} {
		if _, err := d.Decode(Message{Key: k, Value: event(sc, "null", `{"id":3,"num":`+bad+`}`, pgSource("public", "n", 3), "c")}); err == nil || !strings.Contains(err.Error(), "column num") {
			t.Errorf("%s: %v", bad, err)
		}
	}
	r := oneBatch(t, d).Record
	n := col(t, r, "num").(*array.Decimal128)
	if n.Value(0) != decimal128.FromI64(1234560) || n.Value(1) != decimal128.FromI64(-50000) || r.NumRows() != 2 {
		t.Errorf("num %v", n)
	}
}

// ZonedTimestamp's own parser against time.Parse.
func TestZonedAgainstTime(t *testing.T) {
	for _, s := range []string{
		"1970-01-01T00:00:00Z", "2024-02-29T12:34:56.789012Z", "2024-02-29T14:34:56.789012+02:00",
		"1969-12-31T23:59:59.999999Z", "1900-02-28T23:59:59-05:30", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z",
		"2000-02-29T00:00:00.1Z", "1600-03-01T00:00:00.123456789+14:00",
	} {
		tm, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		want := tm.Unix()*1_000_000 + int64(tm.Nanosecond()/1000)
		got, err := parseZoned([]byte(s))
		if err != nil || got != want {
			t.Errorf("%s: %d, %v; want %d", s, got, err, want)
		}
		if _, ok := parseZonedFast([]byte(s)); !ok {
			t.Errorf("%s took the slow path", s)
		}
	}
	for _, bad := range []string{"2023-02-29T00:00:00Z", "2024-13-01T00:00:00Z", "2024-01-01 00:00:00", "infinity", "2024-01-01T00:00:00"} {
		if _, err := parseZoned([]byte(bad)); err == nil {
			t.Errorf("%s parsed", bad)
		}
	}
}

// Without the schema envelope the types come from the table's Arrow
// schema (the existing Iceberg table's, with its order column).
func TestWithoutEnvelope(t *testing.T) {
	tableSchema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "price", Type: &arrow.Decimal128Type{Precision: 10, Scale: 2}, Nullable: true},
		{Name: "at", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, Nullable: true},
		{Name: "seen", Type: &arrow.TimestampType{Unit: arrow.Microsecond}, Nullable: true},
		{Name: "day", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
		{Name: "uid", Type: extensions.NewUUIDType(), Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "__order", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	var asked []Table
	d := NewDecoder(Options{Schema: func(tb Table) (*arrow.Schema, error) {
		asked = append(asked, tb)
		return tableSchema, nil
	}})
	defer d.Release()
	payload := func(after string, lsn int64) []byte {
		return []byte(`{"before":null,"after":` + after + `,"source":` + pgSource("public", "orders", lsn) + `,"op":"c","ts_ms":5}`)
	}
	decode(t, d, []byte(`{"id":7}`), payload(`{"id":7,"price":"AeJA","at":"2024-02-29T12:34:56.789012Z","seen":-1,"day":-1,"uid":"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11","name":"ß"}`, 10), 0)
	// A VariableScaleDecimal value rescaled to the column's scale: 1.5.
	decode(t, d, []byte(`{"id":8}`), payload(`{"id":8,"price":{"scale":1,"value":"Dw=="},"at":null,"seen":null,"day":null,"uid":null,"name":null}`, 11), 1)
	if len(asked) != 1 || asked[0].Table != "orders" {
		t.Errorf("Schema asked for %v", asked)
	}
	r := oneBatch(t, d).Record
	if r.NumCols() != 9 || !arrow.TypeEqual(col(t, r, "price").DataType(), tableSchema.Field(1).Type) {
		t.Fatalf("schema %s", r.Schema())
	}
	p := col(t, r, "price").(*array.Decimal128)
	if p.Value(0) != decimal128.FromI64(123456) || p.Value(1) != decimal128.FromI64(150) {
		t.Errorf("price %v", p)
	}
	if col(t, r, "at").(*array.Timestamp).Value(0) != 1709210096789012 || col(t, r, "seen").(*array.Timestamp).Value(0) != -1 ||
		col(t, r, "day").(*array.Date32).Value(0) != -1 || str(col(t, r, "name"), 0) != "ß" || !col(t, r, "at").IsNull(1) {
		t.Errorf("rows %v", r)
	}
	if col(t, r, "__order").(*array.Int64).Value(1) != 11 {
		t.Errorf("order %v", col(t, r, "__order"))
	}
	// A field the table does not have is refused by name.
	_, err := d.Decode(Message{Value: payload(`{"id":9,"color":"red"}`, 12), Where: "orders/0/2"})
	if err == nil || !strings.Contains(err.Error(), "column color") || !strings.Contains(err.Error(), "orders/0/2") {
		t.Errorf("unknown field: %v", err)
	}
	// Without Options.Schema a bare payload is refused.
	d2 := NewDecoder(Options{})
	defer d2.Release()
	if _, err := d2.Decode(Message{Value: payload(`{"id":1}`, 1)}); err == nil || !strings.Contains(err.Error(), "Options.Schema") {
		t.Errorf("no schema: %v", err)
	}
}
