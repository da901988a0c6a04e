package icebergio

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/transforms/icebergio/internal/rowcodec"
)

func TestConfigErrors(t *testing.T) {
	rs, err := rowcodec.New(reflect.TypeFor[click]())
	require.NoError(t, err)
	cat := catalog.Config{URI: "http://127.0.0.1:1"}
	cases := []struct {
		cfg  Config
		want string
	}{
		{Config{Catalog: cat, Table: "nonamespace"}, `table name "nonamespace": want namespace.table`},
		{Config{Catalog: cat, Table: "a..b"}, `table name "a..b": want namespace.table, without empty name parts`},
		{Config{Catalog: cat, Table: "a.b", Mode: "merge"}, `mode "merge"`},
		{Config{Table: "a.b"}, "table a.b: no catalog URI"},
		{Config{Catalog: cat, Table: "a.b", WriterID: "job/1"}, `writer id "job/1" must match`},
		{Config{Catalog: cat, Table: "a.u_{nope}"}, `table template "a.u_{nope}": icebergio: table template field "nope" is not a top-level field`},
		{Config{Catalog: cat, Table: "a.u_{user_id"}, `unclosed '{'`},
		{Config{Catalog: cat, Table: "a.b", PartitionBy: []string{"day(nope)"}}, `partition term "day(nope)": no column "nope"`},
		{Config{Catalog: cat, Table: "a.b", PartitionBy: []string{"week(ts)"}}, `unknown transform "week"`},
		{Config{Catalog: cat, Table: "a.b", PartitionBy: []string{"bucket(user_id)"}}, `bucket needs (column, width)`},
		{Config{Catalog: cat, Table: "a.b", PartitionBy: []string{"truncate(user_id, x)"}}, `width "x" is not a positive integer`},
		{Config{Catalog: cat, Table: "a.b", PartitionBy: []string{"day(user_id)"}}, `cannot apply day to column "user_id" of type string`},
		{Config{Catalog: cat, Table: "a.b", Mode: Changes, Key: []string{"seq"}, Op: "user_id"}, `needs Order`},
		{Config{Catalog: cat, Table: "a.b", Mode: Upsert, Key: []string{"seq"}, Order: "user_id"}, `Order "user_id" is not a required (non-pointer) integer or timestamp field`},
	}
	for _, c := range cases {
		err := c.cfg.withDefaults().validate(rs)
		require.ErrorContains(t, err, c.want, "%+v", c.cfg)
	}
	// A timestamp orders changes as well as a sequence number does.
	for _, order := range []string{"seq", "ts"} {
		cfg := Config{Catalog: cat, Table: "a.b", Mode: Upsert, Key: []string{"user_id"}, Order: order}
		require.NoError(t, cfg.withDefaults().validate(rs), "Order %q", order)
	}
}

// A setting of some modes set for another is refused, naming the mode and
// the setting, by Check as by Write.
func TestModeSettings(t *testing.T) {
	cat := catalog.Config{URI: "http://127.0.0.1:1"}
	for _, c := range []struct {
		mode    Mode
		set     func(*Config)
		setting string
	}{
		{Append, func(c *Config) { c.Key = []string{"user_id"} }, "Key"},
		{Append, func(c *Config) { c.Op = "user_id" }, "Op"},
		{Append, func(c *Config) { c.Order = "seq" }, "Order"},
		{Append, func(c *Config) { c.MaxDeletedShare = 0.5 }, "MaxDeletedShare"},
		{Append, func(c *Config) { c.StagingThreshold = -1 }, "StagingThreshold"},
		{CreateOrReplace, func(c *Config) { c.Key = []string{"user_id"} }, "Key"},
		{CreateOrReplace, func(c *Config) { c.MaxDeletedShare = -1 }, "MaxDeletedShare"},
		{CreateOrReplace, func(c *Config) { c.StagingThreshold = 1 << 20 }, "StagingThreshold"},
		{CreateOrReplace, func(c *Config) { c.SchemaEvolution = EvolveNever }, "SchemaEvolution"},
		{Upsert, func(c *Config) { c.Key = []string{"user_id"}; c.Op = "user_id" }, "Op"},
		{Upsert, func(c *Config) { c.Key = []string{"user_id"}; c.Shards = 2 }, "Shards"},
		{Changes, func(c *Config) { c.Key = []string{"seq"}; c.Op = "user_id"; c.Order = "ts"; c.Shards = 2 }, "Shards"},
	} {
		cfg := Config{Catalog: cat, Table: "a.b", Mode: c.mode}
		c.set(&cfg)
		err := Check(cfg, reflect.TypeFor[click]())
		require.ErrorContains(t, err, string(c.mode), "%s set for mode %s", c.setting, c.mode)
		require.ErrorContains(t, err, c.setting, "%s set for mode %s", c.setting, c.mode)
	}
	// Each mode takes its own settings.
	for _, cfg := range []Config{
		{Mode: Append, Shards: 2, SchemaEvolution: EvolveAlways},
		{Mode: CreateOrReplace, Shards: 2},
		{Mode: Upsert, Key: []string{"user_id"}, Order: "seq", MaxDeletedShare: 0.5, StagingThreshold: -1},
		{Mode: Changes, Key: []string{"seq"}, Op: "user_id", Order: "ts", MaxDeletedShare: -1, StagingThreshold: 1 << 20},
	} {
		cfg.Catalog, cfg.Table = cat, "a.b"
		require.NoError(t, Check(cfg, reflect.TypeFor[click]()), "mode %s", cfg.Mode)
	}
}

// After beam.Init, a portable runner still named as given is Beam's own,
// which package portable's hook would have replaced: Write refuses it,
// naming the package to import.
func TestPortableRunnerNeedsPackagePortable(t *testing.T) {
	if !beam.Initialized() {
		t.Skip("beam.Init has not run")
	}
	old := *runners.Runner
	*runners.Runner = "flink"
	t.Cleanup(func() { *runners.Runner = old })
	rs, err := rowcodec.New(reflect.TypeFor[click]())
	require.NoError(t, err)
	err = Config{Catalog: catalog.Config{URI: "http://127.0.0.1:1"}, Table: "a.b"}.withDefaults().validate(rs)
	require.ErrorContains(t, err, `import _ "github.com/icebeam/icebeam/transforms/portable"`)
}

func TestTemplate(t *testing.T) {
	rs, err := rowcodec.New(reflect.TypeFor[click]())
	require.NoError(t, err)
	d, err := newDestination("clicks.{user_id}_s{seq}", rs)
	require.NoError(t, err)
	for _, c := range []struct {
		row  click
		want string
	}{
		{click{UserID: "u1", Seq: 7}, "clicks.u1_s7"},
		{click{UserID: "user-3.x", Seq: -2}, "clicks.user_3_x_s_2"},
		{click{UserID: "", Seq: 0}, "clicks._s0"},
	} {
		v := any(c.row)
		require.Equal(t, c.want, d.of(rs.RowPointer(&v)))
	}
}

func TestPartitionedTable(t *testing.T) {
	ctx := context.Background()
	cfg := Config{Catalog: launch(t), Table: "part.clicks",
		PartitionBy: []string{"day(ts)", "bucket(user_id, 4)", "truncate(user_id, 2)", "seq"}}
	s := newTestSink[click](t, cfg)
	var rows []click
	for i := 0; i < 40; i++ {
		rows = append(rows, click{UserID: []string{"alice", "bob", "carol"}[i%3], Seq: int64(i % 5), TS: int64(i) * 86_400_000_000 / 8})
	}
	res, err := s.commit(ctx, "part.clicks", chunksOf(t, s, rows, 16), nil)
	require.NoError(t, err)
	require.Greater(t, res.Files, int64(1), "one file per partition")
	tbl := loadTable(t, s.cat, "part.clicks")
	spec := tbl.Spec()
	var names []string
	for _, f := range spec.Fields() {
		names = append(names, f.Name+":"+f.Transform.String())
	}
	require.Equal(t, []string{"ts_day:day", "user_id_bucket:bucket[4]", "user_id_trunc:truncate[2]", "seq:identity"}, names)
	got := readRows[click](t, tbl)
	key := func(a, b click) int {
		if a.TS != b.TS {
			return int(a.TS - b.TS)
		}
		return int(a.Seq - b.Seq)
	}
	slices.SortFunc(got, key)
	slices.SortFunc(rows, key)
	require.Equal(t, rows, got)

	// Scans prune files by their partition values: wrong values would lose
	// rows here.
	for _, user := range []string{"alice", "bob", "carol"} {
		var want []click
		for _, r := range rows {
			if r.UserID == user && r.TS >= 86_400_000_000 {
				want = append(want, r)
			}
		}
		filter := iceberg.NewAnd(iceberg.EqualTo(iceberg.Reference("user_id"), user),
			iceberg.GreaterThanEqual(iceberg.Reference("ts"), int64(86_400_000_000)))
		got := readRows[click](t, tbl, table.WithRowFilter(filter))
		slices.SortFunc(got, key)
		require.Equal(t, want, got, "user %s from day 1", user)
	}
}
