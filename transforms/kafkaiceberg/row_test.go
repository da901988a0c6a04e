package kafkaiceberg

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

var rowSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "n", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "x", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "ok", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
	{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
	{Name: "geo", Type: arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		arrow.Field{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true}), Nullable: true},
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, Nullable: true},
}, nil)

// Records the decoder lands are decoded as Arrow's own JSON decoding
// decodes them, the independent account; records it refuses leave the
// batch as it was.
func TestRowDecoderIsArrowsJSON(t *testing.T) {
	good := []string{
		`{"id": 1, "n": 2, "x": 1.5, "ok": true, "s": "plain", "tags": ["a", "b"], "geo": {"a": 7, "b": "x"}, "ts": "2026-12-07T10:00:00.123456Z"}`,
		`{"s": "grüße \"quoted\" \u00e9\n", "id": -9223372036854775807}`,
		`{"id":0,"x":-0.0,"ok":false,"tags":[],"geo":{},"n":-2147483648}`,
		` { "id" : 5 , "x" : 1e300 , "s" : null , "geo" : null } `,
		`{"id": 9, "x": 3}`,
	}
	bad := map[string]string{
		`{"id": "1"}`:                      "not an integer",
		`{"id": 1.5}`:                      "not an integer",
		`{"id": 1, "n": 2147483648}`:       "out of range",
		`{"id": 1, "x": "1"}`:              "not a number",
		`{"id": 1, "x": 0x10}`:             "not a number",
		`{"id": 1, "x": NaN}`:              "not a number",
		`{"id": 1, "ok": 1}`:               "not a boolean",
		`{"id": 1, "s": 5}`:                "not a string",
		`{"id": 1, "tags": "a"}`:           `field "tags"`,
		`{"id": 1, "geo": {"a": "x"}}`:     `field "geo"`,
		`{"n": 1}`:                         "missing or null",
		`{"id": null}`:                     "missing or null",
		`{"id": 1, "extra": 2}`:            `"extra" is not a column`,
		`{"id": 1, "id": 2}`:               "appears twice",
		`{"id": 1} trailing`:               "not valid JSON",
		`{"id": 1,}`:                       "not valid JSON",
		`[1]`:                              "not a JSON object",
		`not json`:                         "not a JSON object",
		`{"id": 1, "s": "` + "\xff" + `"}`: "not UTF-8",
	}
	d := newRowDecoder("t", rowSchema, false)
	want := array.NewRecordBuilder(memory.DefaultAllocator, rowSchema)
	for _, v := range good {
		if why := d.add([]byte(v)); why != "" {
			t.Fatalf("%s: refused: %s", v, why)
		}
		for b := range bad {
			if why := d.add([]byte(b)); !strings.Contains(why, bad[b]) {
				t.Fatalf("%s: reason %q, want one with %q", b, why, bad[b])
			}
		}
		if err := want.UnmarshalJSON([]byte(v)); err != nil {
			t.Fatalf("Arrow's decoding refuses %s: %v", v, err)
		}
	}
	got := d.rb.NewRecordBatch()
	defer got.Release()
	exp := want.NewRecordBatch()
	defer exp.Release()
	if got.NumRows() != int64(len(good)) {
		t.Fatalf("%d rows, want %d", got.NumRows(), len(good))
	}
	if !array.RecordEqual(got, exp) {
		t.Fatalf("decoded\n%v\nArrow decodes\n%v", got, exp)
	}
}
