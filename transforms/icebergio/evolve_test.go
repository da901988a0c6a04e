package icebergio

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/periodic"
	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"
)

// eventV1 and eventV2 are one stream's row type before and after a release:
// v2 widens two columns, adds top-level, nested and list-element fields, and
// makes a required column optional.
type eventV1 struct {
	Seq    int64   `beam:"seq"`
	User   string  `beam:"user"`
	Clicks int32   `beam:"clicks"`
	Score  float32 `beam:"score"`
	Device device1 `beam:"device"`
	Tags   []tag1  `beam:"tags"`
}

type device1 struct {
	OS string `beam:"os"`
}

type tag1 struct {
	Key string `beam:"key"`
}

type eventV2 struct {
	Seq     int64    `beam:"seq"`
	User    *string  `beam:"user"`
	Clicks  int64    `beam:"clicks"`
	Score   float64  `beam:"score"`
	Device  device2  `beam:"device"`
	Tags    []tag2   `beam:"tags"`
	Session *string  `beam:"session"`
	Region  *region2 `beam:"region"`
}

type device2 struct {
	OS      string  `beam:"os"`
	Version *string `beam:"version"`
}

type tag2 struct {
	Key    string `beam:"key"`
	Weight *int64 `beam:"weight"`
}

type region2 struct {
	Code string `beam:"code"`
}

func eventsV1(from, to int) []eventV1 {
	var rows []eventV1
	for i := from; i < to; i++ {
		rows = append(rows, eventV1{Seq: int64(i), User: "u" + string(rune('a'+i%3)), Clicks: int32(i % 7), Score: float32(i) / 4,
			Device: device1{OS: "os" + string(rune('a'+i%2))}, Tags: []tag1{{Key: "k"}}})
	}
	return rows
}

func eventsV2(from, to int) []eventV2 {
	var rows []eventV2
	for i := from; i < to; i++ {
		r := eventV2{Seq: int64(i), Clicks: int64(i) << 33, Score: float64(i) / 3, Device: device2{OS: "os", Version: ptr("v2")},
			Tags: []tag2{{Key: "k2", Weight: ptr(int64(i))}}, Session: ptr("s")}
		if i%2 == 0 {
			r.User = ptr("u2")
			r.Region = &region2{Code: "eu"}
		}
		rows = append(rows, r)
	}
	return rows
}

// asV2 is what a v2 reader must see of a v1 row: widened values, nulls for
// the fields v1 lacks. It is written out by hand, not derived from the
// table.
func asV2(rows []eventV1) []eventV2 {
	var out []eventV2
	for _, r := range rows {
		out = append(out, eventV2{Seq: r.Seq, User: ptr(r.User), Clicks: int64(r.Clicks), Score: float64(r.Score),
			Device: device2{OS: r.Device.OS}, Tags: []tag2{{Key: r.Tags[0].Key}}})
	}
	return out
}

func bySeq(rows []eventV2) []eventV2 {
	slices.SortFunc(rows, func(a, b eventV2) int { return int(a.Seq - b.Seq) })
	return rows
}

func dataFileCount(t *testing.T, tbl *table.Table) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(strings.TrimPrefix(tbl.Location(), "file://"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".parquet") {
			n++
		}
		return err
	})
	require.NoError(t, err)
	return n
}

// mappedID is the field id a name mapping gives path, or -1.
func mappedID(fields []iceberg.MappedField, path []string) int {
	for _, f := range fields {
		if slices.Contains(f.Names, path[0]) {
			if len(path) > 1 {
				return mappedID(f.Fields, path[1:])
			}
			if f.FieldID != nil {
				return *f.FieldID
			}
		}
	}
	return -1
}

func TestSchemaEvolvesOnAppend(t *testing.T) {
	cat := launch(t)
	ctx := context.Background()
	const name = "ev.events"
	v1 := newTestSink[eventV1](t, Config{Catalog: cat, Table: name})
	_, err := v1.commit(ctx, name, chunksOf(t, v1, eventsV1(0, 100), 40), nil)
	require.NoError(t, err)
	before := loadTable(t, openCat(t, cat), name).Schema()

	v2 := newTestSink[eventV2](t, Config{Catalog: cat, Table: name})
	_, err = v2.commit(ctx, name, chunksOf(t, v2, eventsV2(100, 200), 40), nil)
	require.NoError(t, err)

	tbl := loadTable(t, openCat(t, cat), name)
	want := bySeq(append(asV2(eventsV1(0, 100)), eventsV2(100, 200)...))
	require.Equal(t, want, bySeq(readRows[eventV2](t, tbl)))

	// One schema update, committed before the data; old columns keep their
	// ids, new ones are optional with fresh ids.
	require.Len(t, tbl.Metadata().Schemas(), 2)
	after := tbl.Schema()
	for _, col := range []string{"seq", "user", "clicks", "score", "device.os", "tags.element.key"} {
		old, _ := before.FindFieldByName(col)
		now, ok := after.FindFieldByName(col)
		require.True(t, ok, col)
		require.Equal(t, old.ID, now.ID, col)
	}
	for col, typ := range map[string]iceberg.Type{
		"clicks": iceberg.PrimitiveTypes.Int64, "score": iceberg.PrimitiveTypes.Float64,
		"session": iceberg.PrimitiveTypes.String, "device.version": iceberg.PrimitiveTypes.String,
		"tags.element.weight": iceberg.PrimitiveTypes.Int64, "region.code": iceberg.PrimitiveTypes.String,
	} {
		f, ok := after.FindFieldByName(col)
		require.True(t, ok, col)
		require.True(t, f.Type.Equals(typ), "%s is %s", col, f.Type)
	}
	for _, col := range []string{"user", "session", "device.version", "tags.element.weight", "region"} {
		f, _ := after.FindFieldByName(col)
		require.False(t, f.Required, "%s is optional", col)
	}
	for _, col := range []string{"session", "device.version", "region.code"} {
		f, _ := after.FindFieldByName(col)
		require.Equal(t, f.ID, mappedID(tbl.NameMapping(), strings.Split(col, ".")), "name mapping of %s", col)
	}
	snaps := tbl.Metadata().Snapshots()
	require.Len(t, snaps, 2)
	require.Equal(t, after.ID, *snaps[1].SchemaID, "the second append is written with the evolved schema")

	// A v1 writer still running after the change keeps landing rows: they
	// fit the wider table as they are.
	_, err = v1.commit(ctx, name, chunksOf(t, v1, eventsV1(200, 250), 40), nil)
	require.NoError(t, err)
	tbl = loadTable(t, openCat(t, cat), name)
	require.Len(t, tbl.Metadata().Schemas(), 2, "narrower rows change nothing")
	want = bySeq(append(want, asV2(eventsV1(200, 250))...))
	require.Equal(t, want, bySeq(readRows[eventV2](t, tbl)))
}

func TestSchemaEvolutionRace(t *testing.T) {
	cat := launch(t)
	ctx := context.Background()
	const name = "ev.race"
	v1 := newTestSink[eventV1](t, Config{Catalog: cat, Table: name})
	_, err := v1.commit(ctx, name, chunksOf(t, v1, eventsV1(0, 10), 10), nil)
	require.NoError(t, err)

	// Two writers that loaded the table before either evolved it: the
	// second's update is refused, and on the reloaded table nothing is
	// left to do.
	stale := []*table.Table{loadTable(t, openCat(t, cat), name), loadTable(t, openCat(t, cat), name)}
	deadline := time.Now().Add(10 * time.Second)
	for i := range 2 {
		s := newTestSink[eventV2](t, Config{Catalog: cat, Table: name})
		t.Logf("stale %d schema %d", i, stale[i].Schema().ID)
		tbl, err := s.fitSchema(ctx, deadline, name, stale[i])
		require.NoError(t, err)
		require.Equal(t, 1, tbl.Schema().ID)
	}

	const writers = 4
	var wg sync.WaitGroup
	errs := make([]error, writers)
	for w := range writers {
		s := newTestSink[eventV2](t, Config{Catalog: cat, Table: name})
		blobs := encodeRows(t, s, eventsV2(100*(w+1), 100*(w+1)+50), 50)
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[w] = s.commit(ctx, name, deliver(blobs), nil)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	tbl := loadTable(t, openCat(t, cat), name)
	require.Len(t, tbl.Metadata().Schemas(), 2, "the racing writers add the columns once")
	want := asV2(eventsV1(0, 10))
	for w := range writers {
		want = append(want, eventsV2(100*(w+1), 100*(w+1)+50)...)
	}
	require.Equal(t, bySeq(want), bySeq(readRows[eventV2](t, tbl)))
}

// foreignTable creates name as another engine would: from schema, without
// the sink's CreatedByKey.
func foreignTable(t *testing.T, cat icecatalog.Catalog, name string, schema *iceberg.Schema, opts ...icecatalog.CreateTableOpt) *table.Table {
	t.Helper()
	ident, err := parseIdent(name)
	require.NoError(t, err)
	ctx := context.Background()
	require.NoError(t, cat.CreateNamespace(ctx, icecatalog.NamespaceFromIdent(ident), nil))
	tbl, err := cat.CreateTable(ctx, ident, schema, opts...)
	require.NoError(t, err)
	return tbl
}

func TestSchemaEvolutionOfOtherTablesIsOptIn(t *testing.T) {
	cat := launch(t)
	ctx := context.Background()
	c := openCat(t, cat)
	const name = "ev.foreign"
	rows := newTestSink[eventV1](t, Config{Catalog: cat, Table: name}).rows.Iceberg
	foreignTable(t, c, name, rows)

	s := newTestSink[eventV2](t, Config{Catalog: cat, Table: name})
	_, err := s.commit(ctx, name, chunksOf(t, s, eventsV2(0, 10), 10), nil)
	require.ErrorContains(t, err, "table ev.foreign")
	require.ErrorContains(t, err, "add optional column session string")
	require.ErrorContains(t, err, "widen column clicks to long")
	require.ErrorContains(t, err, "EvolveAlways")
	tbl := loadTable(t, c, name)
	require.Len(t, tbl.Metadata().Schemas(), 1)
	require.Zero(t, dataFileCount(t, tbl), "nothing is written before the schema fits")

	never := newTestSink[eventV2](t, Config{Catalog: cat, Table: "ev.mine", SchemaEvolution: EvolveNever})
	v1 := newTestSink[eventV1](t, Config{Catalog: cat, Table: "ev.mine"})
	_, err = v1.commit(ctx, "ev.mine", chunksOf(t, v1, eventsV1(0, 10), 10), nil)
	require.NoError(t, err)
	_, err = never.commit(ctx, "ev.mine", chunksOf(t, never, eventsV2(0, 10), 10), nil)
	require.ErrorContains(t, err, "EvolveNever")

	always := newTestSink[eventV2](t, Config{Catalog: cat, Table: name, SchemaEvolution: EvolveAlways})
	_, err = always.commit(ctx, name, chunksOf(t, always, eventsV2(0, 10), 10), nil)
	require.NoError(t, err)
	require.Equal(t, eventsV2(0, 10), bySeq(readRows[eventV2](t, loadTable(t, c, name))))
}

func TestSchemaThatCannotEvolveFailsFirst(t *testing.T) {
	type stringClicks struct {
		Seq    int64  `beam:"seq"`
		Clicks string `beam:"clicks"`
	}
	type noSeq struct {
		User string `beam:"user"`
	}
	type doubleIntoFloat struct {
		Seq   int64   `beam:"seq"`
		Score float64 `beam:"score"`
		Extra int64   `beam:"extra"`
	}
	cat := launch(t)
	ctx := context.Background()
	c := openCat(t, cat)
	const name = "ev.strict"
	schema := iceberg.NewSchema(0,
		iceberg.NestedField{ID: 1, Name: "seq", Type: iceberg.PrimitiveTypes.Int64, Required: true},
		iceberg.NestedField{ID: 2, Name: "clicks", Type: iceberg.PrimitiveTypes.Int64},
		iceberg.NestedField{ID: 3, Name: "user", Type: iceberg.PrimitiveTypes.String},
		iceberg.NestedField{ID: 4, Name: "score", Type: iceberg.PrimitiveTypes.Int32},
	)
	foreignTable(t, c, name, schema)
	cases := []struct {
		commit func() error
		want   []string
	}{
		{func() error {
			s := newTestSink[stringClicks](t, Config{Catalog: cat, Table: name, SchemaEvolution: EvolveAlways})
			_, err := s.commit(ctx, name, chunksOf(t, s, []stringClicks{{1, "x"}}, 1), nil)
			return err
		}, []string{"table ev.strict", "column clicks is string in the row type and long in the table"}},
		{func() error {
			s := newTestSink[noSeq](t, Config{Catalog: cat, Table: name, SchemaEvolution: EvolveAlways})
			_, err := s.commit(ctx, name, chunksOf(t, s, []noSeq{{"u"}}, 1), nil)
			return err
		}, []string{"table ev.strict", "required column seq (long) is not in the row type"}},
		{func() error {
			s := newTestSink[doubleIntoFloat](t, Config{Catalog: cat, Table: name, SchemaEvolution: EvolveAlways})
			_, err := s.commit(ctx, name, chunksOf(t, s, []doubleIntoFloat{{1, 2, 3}}, 1), nil)
			return err
		}, []string{"table ev.strict", "column score is double in the row type and int in the table"}},
	}
	for _, tc := range cases {
		err := tc.commit()
		for _, w := range tc.want {
			require.ErrorContains(t, err, w)
		}
	}
	tbl := loadTable(t, c, name)
	require.Len(t, tbl.Metadata().Schemas(), 1, "a refused evolution changes nothing, not even its valid parts")
	require.Zero(t, dataFileCount(t, tbl))
}

func TestRenamedColumnIsNotReAdded(t *testing.T) {
	cat := launch(t)
	ctx := context.Background()
	c := openCat(t, cat)
	const name = "ev.renamed"
	v1 := newTestSink[eventV1](t, Config{Catalog: cat, Table: name})
	_, err := v1.commit(ctx, name, chunksOf(t, v1, eventsV1(0, 10), 10), nil)
	require.NoError(t, err)

	tx := loadTable(t, c, name).NewTransaction()
	require.NoError(t, tx.UpdateSchema(true, false).RenameColumn([]string{"clicks"}, "click_count").Commit())
	_, err = tx.Commit(ctx)
	require.NoError(t, err)

	_, err = v1.commit(ctx, name, chunksOf(t, v1, eventsV1(10, 20), 10), nil)
	require.ErrorContains(t, err, "column clicks of the row type was renamed to click_count")
	tbl := loadTable(t, c, name)
	require.Len(t, tbl.Metadata().Schemas(), 2)
	require.Len(t, tbl.Metadata().Snapshots(), 1)
}

func TestSchemaChangesPlan(t *testing.T) {
	// The plan for v1 -> v2, by hand.
	cat := launch(t)
	ctx := context.Background()
	const name = "ev.plan"
	v1 := newTestSink[eventV1](t, Config{Catalog: cat, Table: name})
	_, err := v1.commit(ctx, name, chunksOf(t, v1, eventsV1(0, 1), 1), nil)
	require.NoError(t, err)
	v2 := newTestSink[eventV2](t, Config{Catalog: cat, Table: name})
	changes, err := schemaChanges(loadTable(t, openCat(t, cat), name).Metadata(), v2.rows.Iceberg)
	require.NoError(t, err)
	require.Equal(t, "make column user optional; widen column clicks to long; widen column score to double; "+
		"add optional column device.version string; add optional column tags.element.weight long; "+
		"add optional column session string; add optional column region struct<14: code: required string>",
		joinChanges(changes))
}

// eventFn turns periodic index i into the row of seq Offset+i, as v1 or v2.
type eventFn struct {
	Offset int64
	V2     bool
}

func (f *eventFn) ProcessElement(i int64, v1 func(eventV1), v2 func(eventV2)) {
	seq := int(f.Offset + i)
	if f.V2 {
		v2(eventsV2(seq, seq+1)[0])
	} else {
		v1(eventsV1(seq, seq+1)[0])
	}
}

func init() {
	register.DoFn3x0[int64, func(eventV1), func(eventV2)](&eventFn{})
	register.Emitter1[eventV1]()
	register.Emitter1[eventV2]()
	beam.RegisterType(reflect.TypeOf(eventV1{}))
	beam.RegisterType(reflect.TypeOf(eventV2{}))
}

// runEvents streams rows seq offset.. for span on prism, as v1 or v2.
func runEvents(t *testing.T, cfg Config, offset int64, v2 bool, span, interval time.Duration) int {
	t.Helper()
	p, s := beam.NewPipelineWithRoot()
	start := time.Now()
	idx := periodic.Sequence(s, beam.Create(s, periodic.NewSequenceDefinition(start, start.Add(span), interval)))
	rows1, rows2 := beam.ParDo2(s, &eventFn{Offset: offset, V2: v2}, idx)
	rows := rows1
	if v2 {
		rows = rows2
	}
	Write(s, cfg, rows)
	require.NoError(t, ptest.Run(p))
	return int(span / interval)
}

// TestStreamingSchemaChangeAcrossRestart is a stream whose row type gains
// and widens fields between two runs into the same table: every row of both
// runs reads back once, the v1 rows with nulls and widened values.
func TestStreamingSchemaChangeAcrossRestart(t *testing.T) {
	cat := launch(t)
	cfg := Config{Catalog: cat, Table: "ev.stream", TriggeringFrequency: time.Second, WriterID: "events"}
	n1 := runEvents(t, cfg, 0, false, 3*time.Second, 50*time.Millisecond)
	n2 := runEvents(t, cfg, int64(n1), true, 3*time.Second, 50*time.Millisecond)

	tbl := loadTable(t, openCat(t, cat), "ev.stream")
	want := bySeq(append(asV2(eventsV1(0, n1)), eventsV2(n1, n1+n2)...))
	require.Equal(t, want, bySeq(readRows[eventV2](t, tbl)))
	require.Len(t, tbl.Metadata().Schemas(), 2)
	var bySchema [2]int
	for _, sn := range tbl.Metadata().Snapshots() {
		bySchema[*sn.SchemaID]++
	}
	require.Positive(t, bySchema[0], "v1 commits")
	require.Positive(t, bySchema[1], "v2 commits")
}
