package rowcodec

import (
	"reflect"
	"strings"
	"testing"

	"github.com/apache/iceberg-go"
	"github.com/stretchr/testify/require"
)

type point struct {
	X int32   `beam:"x"`
	Y *string `beam:"y"`
}

type allTypes struct {
	ID   int64   `beam:"id"`
	S    string  `beam:"s"`
	I32  int32   `beam:"i32"`
	I16  int16   `beam:"i16"`
	I    int     `beam:"i"`
	U32  uint32  `beam:"u32"`
	F32  float32 `beam:"f32"`
	F64  float64 `beam:"f64"`
	B    bool    `beam:"b"`
	Bin  []byte  `beam:"bin"`
	Day  int32   `beam:"day" iceberg:"date"`
	TS   int64   `beam:"ts" iceberg:"timestamp"`
	TSZ  int64   `beam:"tsz" iceberg:"timestamptz"`
	OptS *string `beam:"opt_s"`
	OptI *int64  `beam:"opt_i"`
	OptD *int32  `beam:"opt_d" iceberg:"date"`
	P    point   `beam:"p"`
	OptP *point  `beam:"opt_p"`
	L    []int64 `beam:"l"`
	LS   []string
	LP   []point  `beam:"lp"`
	LO   []*int32 `beam:"lo"`
	skip int
}

func TestSchemaDerivation(t *testing.T) {
	rs, err := New(reflect.TypeFor[allTypes]())
	require.NoError(t, err)
	want := []struct {
		name     string
		typ      string
		required bool
	}{
		{"id", "long", true}, {"s", "string", true}, {"i32", "int", true}, {"i16", "int", true},
		{"i", "long", true}, {"u32", "long", true}, {"f32", "float", true}, {"f64", "double", true},
		{"b", "boolean", true}, {"bin", "binary", true}, {"day", "date", true},
		{"ts", "timestamp", true}, {"tsz", "timestamptz", true},
		{"opt_s", "string", false}, {"opt_i", "long", false}, {"opt_d", "date", false},
		{"p", "struct<", true}, {"opt_p", "struct<", false},
		{"l", "list<long>", true}, {"LS", "list<string>", true}, {"lp", "list<struct<", true}, {"lo", "list<int>", true},
	}
	fields := rs.Iceberg.Fields()
	require.Len(t, fields, len(want))
	for i, w := range want {
		f := fields[i]
		require.Equal(t, w.name, f.Name)
		require.True(t, strings.HasPrefix(f.Type.String(), w.typ), "%s: type %s, want %s", f.Name, f.Type, w.typ)
		require.Equal(t, w.required, f.Required, "%s required", f.Name)
	}
	p, _ := rs.Iceberg.FindFieldByName("p.y")
	require.False(t, p.Required)
	lo := fields[len(fields)-1].Type.(*iceberg.ListType)
	require.False(t, lo.ElementRequired)
	l := fields[len(fields)-4].Type.(*iceberg.ListType)
	require.True(t, l.ElementRequired)
}

func TestSchemaErrors(t *testing.T) {
	cases := []struct {
		typ  reflect.Type
		want string
	}{
		{reflect.TypeFor[int](), "not a struct"},
		{reflect.TypeFor[struct{ M map[string]int }](), "field struct { M map[string]int }.M (map[string]int): unsupported type"},
		{reflect.TypeFor[struct {
			D int64 `iceberg:"date"`
		}](), `iceberg:"date" needs an int32`},
		{reflect.TypeFor[struct {
			D int64 `iceberg:"decimal"`
		}](), `unknown iceberg tag option "decimal"`},
		{reflect.TypeFor[struct {
			D int32 `iceberg:"date,optinal"`
		}](), `unknown iceberg tag option "optinal" in "date,optinal"`},
		{reflect.TypeFor[struct {
			D int64 `iceberg:"optional,date"`
		}](), `iceberg:"date" needs an int32`},
		{reflect.TypeFor[struct {
			D int64 `iceberg:"timestamp,timestamptz"`
		}](), `iceberg tag "timestamp,timestamptz" names two types`},
		{reflect.TypeFor[struct{ U uint64 }](), "unsupported type"},
		{reflect.TypeFor[struct{ x int }](), "no exported fields"},
	}
	for _, c := range cases {
		_, err := New(c.typ)
		require.ErrorContains(t, err, c.want, "%v", c.typ)
	}
}
