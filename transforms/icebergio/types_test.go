package icebergio

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/icebeam/icebeam/transforms/icebergio/internal/rowcodec"
)

// The table of Go and Iceberg types in the package documentation is what
// rowcodec derives: each Go type of a row, with its tag, as a field of a
// row struct.
func TestTypeTableInDoc(t *testing.T) {
	src, err := os.ReadFile("icebergio.go")
	if err != nil {
		t.Fatal(err)
	}
	doc, _, _ := strings.Cut(string(src), "\npackage icebergio")
	_, table, ok := strings.Cut(doc, "//\tGo field")
	if !ok {
		t.Fatal("no type table in the package documentation")
	}
	table, _, _ = strings.Cut(table, "\n//\n")
	goTypes := map[string]reflect.Type{
		"bool": reflect.TypeFor[bool](), "int8": reflect.TypeFor[int8](), "int16": reflect.TypeFor[int16](),
		"int32": reflect.TypeFor[int32](), "uint8": reflect.TypeFor[uint8](), "uint16": reflect.TypeFor[uint16](),
		"int": reflect.TypeFor[int](), "int64": reflect.TypeFor[int64](), "uint32": reflect.TypeFor[uint32](),
		"float32": reflect.TypeFor[float32](), "float64": reflect.TypeFor[float64](), "string": reflect.TypeFor[string](),
		"[]byte": reflect.TypeFor[[]byte](), "[]int32": reflect.TypeFor[[]int32](), "[]string": reflect.TypeFor[[]string](),
		"struct": reflect.TypeFor[struct{ A int32 }](),
	}
	want := map[string]string{"[]int32": "list<int>", "[]string": "list<string>", "struct": "struct<2: A: required int>"}
	row := regexp.MustCompile("^//\t(.+?)(?: `(.+)`)?  +(\\S+?):?(?: .*)?$")
	checked := 0
	for _, line := range strings.Split(table, "\n")[1:] {
		m := row.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("type table line %q", line)
		}
		for _, name := range strings.Split(m[1], ", ") {
			if name == "[]T" {
				continue
			}
			gt, ok := goTypes[name]
			if !ok {
				t.Fatalf("type table line %q: Go type %s", line, name)
			}
			rt := reflect.StructOf([]reflect.StructField{{Name: "F", Type: gt, Tag: reflect.StructTag(m[2])}})
			rs, err := rowcodec.New(rt)
			if err != nil {
				t.Fatalf("%s %s: %v", name, m[2], err)
			}
			got := rs.Iceberg.Field(0).Type.String()
			w := m[3]
			if v, ok := want[name]; ok {
				w = v
			}
			if got != w {
				t.Errorf("%s %s: Iceberg type %s, the documentation says %s", name, m[2], got, w)
			}
			checked++
		}
	}
	if checked < 16 {
		t.Errorf("checked %d Go types of the table", checked)
	}
	for tag, f := range map[string]reflect.StructField{
		"a pointer":                 {Name: "F", Type: reflect.TypeFor[*int32]()},
		"iceberg:\"date,optional\"": {Name: "F", Type: reflect.TypeFor[int32](), Tag: `iceberg:"date,optional"`},
	} {
		rs, err := rowcodec.New(reflect.StructOf([]reflect.StructField{f}))
		if err != nil || rs.Iceberg.Field(0).Required {
			t.Errorf("%s: not an optional column (%v)", tag, err)
		}
	}
	for _, bad := range []reflect.Type{reflect.TypeFor[uint](), reflect.TypeFor[uint64](), reflect.TypeFor[map[string]int](),
		reflect.TypeFor[[2]int32](), reflect.TypeFor[complex64](), reflect.TypeFor[any](), reflect.TypeFor[*[]int32]()} {
		if _, err := rowcodec.New(reflect.StructOf([]reflect.StructField{{Name: "F", Type: bad}})); err == nil {
			t.Errorf("a %v field is accepted; the documentation says it is refused", bad)
		}
	}
}
