package icebergio

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/transforms/icebergio/internal/rowcodec"
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

// single is pointer-shaped: an interface stores it inline, not by pointer.
type single struct {
	V *int64 `beam:"v"`
}

// optionalTagged has Go fields that are never NULL stored as optional
// columns, as Spark declares the columns of an aggregate.
type optionalTagged struct {
	Day  int32       `beam:"day" iceberg:"date,optional"`
	N    int64       `beam:"n" iceberg:"optional"`
	TS   int64       `beam:"ts" iceberg:"optional,timestamptz"`
	P    *float64    `beam:"p" iceberg:"optional"` // optional anyway
	L    []int64     `beam:"l" iceberg:"optional"`
	Bin  []byte      `beam:"bin" iceberg:"optional"`
	In   innerTagged `beam:"in" iceberg:"optional"`
	Req  string      `beam:"req"`
	Req2 int32       `beam:"req2" iceberg:"date"`
}

type innerTagged struct {
	X int32  `beam:"x" iceberg:"optional"`
	Y string `beam:"y"`
}

func TestSchemaOptionalTag(t *testing.T) {
	rs, err := rowcodec.New(reflect.TypeFor[optionalTagged]())
	require.NoError(t, err)
	want := []struct {
		name     string
		typ      string
		required bool
	}{
		{"day", "date", false}, {"n", "long", false}, {"ts", "timestamptz", false}, {"p", "double", false},
		{"l", "list<long>", false}, {"bin", "binary", false}, {"in", "struct<", false},
		{"req", "string", true}, {"req2", "date", true},
	}
	check := func(sc *iceberg.Schema) {
		t.Helper()
		fields := sc.Fields()
		require.Len(t, fields, len(want))
		for i, w := range want {
			f := fields[i]
			require.Equal(t, w.name, f.Name)
			require.True(t, strings.HasPrefix(f.Type.String(), w.typ), "%s: type %s, want %s", f.Name, f.Type, w.typ)
			require.Equal(t, w.required, f.Required, "%s required", f.Name)
		}
		x, _ := sc.FindFieldByName("in.x")
		require.False(t, x.Required, "in.x required")
		y, _ := sc.FindFieldByName("in.y")
		require.True(t, y.Required, "in.y required")
		l := fields[4].Type.(*iceberg.ListType)
		require.True(t, l.ElementRequired, "list element required")
	}
	check(rs.Iceberg)
	for _, f := range rs.Arrow.Fields() {
		require.Equal(t, f.Name != "req" && f.Name != "req2", f.Nullable, "arrow field %s nullable", f.Name)
	}

	// The values, never NULL, go through the writer into the optional
	// columns and come back; the table in the catalog has the same schema.
	cfg := Config{Catalog: launch(t), Table: "types.optional"}
	s := newTestSink[optionalTagged](t, cfg)
	var rows []optionalTagged
	for i := range 10 {
		r := optionalTagged{Day: int32(19000 + i), N: int64(i * i), TS: int64(i) * 1e6, L: []int64{int64(i)},
			Bin: []byte{byte(i)}, In: innerTagged{X: int32(-i), Y: "y"}, Req: "r", Req2: int32(i)}
		if i%2 == 0 {
			r.P = ptr(float64(i) / 2)
		}
		rows = append(rows, r)
	}
	_, err = s.commit(context.Background(), "types.optional", chunksOf(t, s, rows, 4), nil)
	require.NoError(t, err)
	tbl := loadTable(t, s.cat, "types.optional")
	check(tbl.Schema())
	got := readRows[optionalTagged](t, tbl)
	slices.SortFunc(got, func(a, b optionalTagged) int { return int(a.Day - b.Day) })
	require.Equal(t, rows, got)
}

func allTypesRows(n int) []allTypes {
	rows := make([]allTypes, n)
	for i := range rows {
		r := allTypes{
			ID: int64(i), S: "s" + strings.Repeat("x", i%5), I32: int32(-i), I16: int16(i % 300), I: i * 7,
			U32: uint32(4000000000 + i), F32: float32(i) / 4, F64: float64(i) / 3, B: i%2 == 0,
			Bin: []byte{byte(i), 0, byte(i >> 8)}, Day: int32(19000 + i), TS: 1_700_000_000_000_000 + int64(i),
			TSZ: -int64(i) * 1000, P: point{X: int32(i)},
			L: []int64{int64(i), int64(i * 2)}, LS: []string{"a", strings.Repeat("b", i%3)},
		}
		if i%3 != 0 {
			r.OptS, r.OptI, r.OptD = ptr("o"+string(rune('a'+i%26))), ptr(int64(i*i)), ptr(int32(i))
			r.P.Y = ptr("y")
			r.OptP = &point{X: 7, Y: nil}
			r.LP = []point{{X: 1, Y: ptr("p")}, {X: 2}}
			r.LO = []*int32{nil, ptr(int32(i))}
		} else {
			r.Bin = []byte{}
			r.L = []int64{}
		}
		rows[i] = r
	}
	return rows
}

// normalize maps nil slices to empty ones: Iceberg has no separate "nil"
// for required lists and binary.
func normalize(rows []allTypes) []allTypes {
	out := slices.Clone(rows)
	for i := range out {
		r := &out[i]
		if r.Bin == nil {
			r.Bin = []byte{}
		}
		for _, s := range []*[]int64{&r.L} {
			if *s == nil {
				*s = []int64{}
			}
		}
		if r.LS == nil {
			r.LS = []string{}
		}
		if r.LP == nil {
			r.LP = []point{}
		}
		if r.LO == nil {
			r.LO = []*int32{}
		}
	}
	return out
}

func TestRoundTripAllTypes(t *testing.T) {
	cfg := Config{Catalog: launch(t), Table: "types.all"}
	s := newTestSink[allTypes](t, cfg)
	rows := allTypesRows(1000)
	res, err := s.commit(context.Background(), "types.all", chunksOf(t, s, rows, 300), nil)
	require.NoError(t, err)
	require.EqualValues(t, 1000, res.Rows)
	require.EqualValues(t, 1, res.Files)

	got := readRows[allTypes](t, loadTable(t, s.cat, "types.all"))
	slices.SortFunc(got, func(a, b allTypes) int { return int(a.ID - b.ID) })
	require.Equal(t, normalize(rows), normalize(got))
}

// The same rows through the re-encoding path: a table partitioned otherwise
// than the sink's config.
func TestRoundTripAllTypesRewritten(t *testing.T) {
	ctx := context.Background()
	s := newTestSink[allTypes](t, Config{Catalog: launch(t), Table: "types.rewritten"})
	ident, err := parseIdent("types.rewritten")
	require.NoError(t, err)
	require.NoError(t, s.cat.CreateNamespace(ctx, icecatalog.NamespaceFromIdent(ident), nil))
	id, ok := s.rows.Iceberg.FindFieldByName("id")
	require.True(t, ok)
	spec := iceberg.NewPartitionSpec(iceberg.PartitionField{SourceIDs: []int{id.ID}, FieldID: 1000, Name: "id_bucket", Transform: iceberg.BucketTransform{NumBuckets: 2}})
	_, err = s.cat.CreateTable(ctx, ident, s.rows.Iceberg, icecatalog.WithPartitionSpec(&spec))
	require.NoError(t, err)

	rows := allTypesRows(1000)
	res, err := s.commit(ctx, "types.rewritten", chunksOf(t, s, rows, 300), nil)
	require.NoError(t, err)
	require.EqualValues(t, 1000, res.Rows)
	require.EqualValues(t, 2, res.Files, "one file per bucket")
	got := readRows[allTypes](t, loadTable(t, s.cat, "types.rewritten"))
	slices.SortFunc(got, func(a, b allTypes) int { return int(a.ID - b.ID) })
	require.Equal(t, normalize(rows), normalize(got))
}

func TestRoundTripPointerShaped(t *testing.T) {
	cfg := Config{Catalog: launch(t), Table: "types.single"}
	s := newTestSink[single](t, cfg)
	rows := []single{{V: ptr(int64(5))}, {}, {V: ptr(int64(-1))}}
	_, err := s.commit(context.Background(), "types.single", chunksOf(t, s, rows, 2), nil)
	require.NoError(t, err)
	got := readRows[single](t, loadTable(t, s.cat, "types.single"))
	var vals []string
	for _, g := range got {
		if g.V == nil {
			vals = append(vals, "nil")
		} else {
			vals = append(vals, string(rune('0'+*g.V+1)))
		}
	}
	slices.Sort(vals)
	require.Equal(t, []string{"0", "6", "nil"}, vals)
}
