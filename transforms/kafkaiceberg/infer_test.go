package kafkaiceberg

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

func TestInferSchema(t *testing.T) {
	sc, err := InferSchema([][]byte{
		[]byte(`{"id": 1, "name": "a", "price": 2, "tags": ["x"], "geo": {"lat": 1.5, "lon": 2}, "gone": null}`),
		[]byte(`{"id": 2, "price": 2.5, "ok": true, "tags": [], "geo": {"lat": 1, "alt": "high"}}`),
		[]byte(`{"id": "three", "name": "c"}`), // outvoted: refused later, not a string column
		[]byte(`not json`),
		[]byte(`[1, 2]`),
		[]byte(`{"id": 4, "name": null, "weird\"key": 1}`),
	})
	if err != nil {
		t.Fatal(err)
	}
	f := func(name string, typ arrow.DataType) arrow.Field {
		return arrow.Field{Name: name, Type: typ, Nullable: true}
	}
	want := arrow.NewSchema([]arrow.Field{
		f("id", arrow.PrimitiveTypes.Int64),
		f("name", arrow.BinaryTypes.String),
		f("price", arrow.PrimitiveTypes.Float64),
		f("tags", arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.BinaryTypes.String, Nullable: true})),
		f("geo", arrow.StructOf(
			f("lat", arrow.PrimitiveTypes.Float64),
			f("lon", arrow.PrimitiveTypes.Int64),
			f("alt", arrow.BinaryTypes.String))),
		f("ok", arrow.FixedWidthTypes.Boolean),
		f(`weird"key`, arrow.PrimitiveTypes.Int64),
	}, nil)
	if !sc.Equal(want) {
		t.Fatalf("inferred\n%s\nwant\n%s", sc, want)
	}
	if _, err := InferSchema([][]byte{[]byte(`1`), []byte(`{"a": null}`)}); err == nil {
		t.Fatal("a schema from records without a field that has a value")
	}
}

func TestTopLevelKeys(t *testing.T) {
	var got []string
	topLevelKeys([]byte(` { "a" : [1, {"x": "]"}], "b\"c": "}", "d": {"e": [ ]}, "f": -1.5e3 } `), func(k string, v []byte) {
		got = append(got, k+"="+string(v))
	})
	want := []string{`a=[1, {"x": "]"}]`, `b"c="}"`, `d={"e": [ ]}`, `f=-1.5e3`}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("got %q, want %q", got, want)
		}
	}
}
