package icebergio

import (
	"context"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/apache/iceberg-go/table"
	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/transforms/icebergio/internal/rowcodec"
)

// keyType is a key column type of the tests: its Arrow type, how to
// append the key numbered i to a builder, and the value's text as the
// test spells it, independently of how the sink encodes keys.
type keyType struct {
	name   string
	typ    arrow.DataType
	append func(b array.Builder, i int)
	text   func(i int) string
}

var testUUIDSpace = uuid.MustParse("6ba7b811-9dad-11d1-80b4-00c04fd430c8")

func keyUUID(i int) uuid.UUID { return uuid.NewSHA1(testUUIDSpace, fmt.Appendf(nil, "%d", i)) }

// keyDecimal spreads keys over both words of the 128-bit value, negative
// ones included.
func keyDecimal(i int) decimal128.Num {
	return decimal128.FromI64(int64(i)*7_919 - 100_000).Mul(decimal128.FromI64(1_000_000_000_000_000_007))
}

const keyScale = 9

var keyTypes = []keyType{
	{"uuid", extensions.NewUUIDType(),
		func(b array.Builder, i int) { b.(*extensions.UUIDBuilder).Append(keyUUID(i)) },
		func(i int) string { return keyUUID(i).String() }},
	{"decimal", &arrow.Decimal128Type{Precision: 38, Scale: keyScale},
		func(b array.Builder, i int) { b.(*array.Decimal128Builder).Append(keyDecimal(i)) },
		func(i int) string { return keyDecimal(i).ToString(keyScale) }},
	{"time", arrow.FixedWidthTypes.Time64us,
		func(b array.Builder, i int) {
			b.(*array.Time64Builder).Append(arrow.Time64(keyMicros(i) % 86_400_000_000))
		},
		func(i int) string { return fmt.Sprint(keyMicros(i) % 86_400_000_000) }},
	{"timestamptz", &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"},
		func(b array.Builder, i int) { b.(*array.TimestampBuilder).Append(arrow.Timestamp(keyMicros(i))) },
		func(i int) string { return fmt.Sprint(keyMicros(i)) }},
	{"fixed", &arrow.FixedSizeBinaryType{ByteWidth: 5},
		func(b array.Builder, i int) { b.(*array.FixedSizeBinaryBuilder).Append(keyFixed(i)) },
		func(i int) string { return hex.EncodeToString(keyFixed(i)) }},
}

func keyMicros(i int) int64 { return 1_700_000_000_000_000 + int64(i)*3_600_000_123 }
func keyFixed(i int) []byte { return []byte{byte(i >> 8), 0, byte(i), 0xff, byte(i * 7)} }

// keyChange is a change of the key-type tests: key i of each key column,
// the op, its LSN and the row's value.
type keyChange struct {
	key int
	op  string
	lsn int64
	val string
}

// keyTable is a table of some key columns, a value column, and the op and
// order columns.
type keyTable struct {
	keys   []keyType
	schema *arrow.Schema
}

func newKeyTable(keys ...keyType) keyTable {
	var fields []arrow.Field
	for i, k := range keys {
		fields = append(fields, arrow.Field{Name: fmt.Sprintf("k%d_%s", i, k.name), Type: k.typ})
	}
	fields = append(fields,
		arrow.Field{Name: "val", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "op", Type: arrow.BinaryTypes.String},
		arrow.Field{Name: "lsn", Type: arrow.PrimitiveTypes.Int64})
	return keyTable{keys: keys, schema: arrow.NewSchema(fields, nil)}
}

func (kt keyTable) keyNames() []string {
	var names []string
	for _, f := range kt.schema.Fields()[:len(kt.keys)] {
		names = append(names, f.Name)
	}
	return names
}

// keyText is the model's key of key i.
func (kt keyTable) keyText(i int) string {
	var parts []string
	for _, k := range kt.keys {
		parts = append(parts, k.text(i))
	}
	return strings.Join(parts, "|")
}

func (kt keyTable) batch(t testing.TB, changes []keyChange) arrow.RecordBatch {
	t.Helper()
	b := array.NewRecordBuilder(memory.DefaultAllocator, kt.schema)
	defer b.Release()
	n := len(kt.keys)
	for _, c := range changes {
		for j, k := range kt.keys {
			k.append(b.Field(j), c.key)
		}
		if c.op == "d" {
			b.Field(n).AppendNull()
		} else {
			b.Field(n).(*array.StringBuilder).Append(c.val)
		}
		b.Field(n + 1).(*array.StringBuilder).Append(c.op)
		b.Field(n + 2).(*array.Int64Builder).Append(c.lsn)
	}
	return b.NewRecordBatch()
}

// keyModel replays changes the plain way: per key the highest LSN wins, a
// delete leaves no row; "t" empties the table at its LSN.
func keyModel(kt keyTable, changes []keyChange) map[string]string {
	sorted := slices.Clone(changes)
	slices.SortStableFunc(sorted, func(a, b keyChange) int { return int(a.lsn - b.lsn) })
	out := map[string]string{}
	for _, c := range sorted {
		switch c.op {
		case "t":
			clear(out)
		case "d":
			delete(out, kt.keyText(c.key))
		default:
			out[kt.keyText(c.key)] = c.val
		}
	}
	return out
}

// readKeyTable reads tbl with iceberg-go's scan into key text -> value,
// spelling each key column as keyType.text does, from the Arrow values
// the scan returns.
func readKeyTable(t *testing.T, kt keyTable, tbl *table.Table) map[string]string {
	t.Helper()
	at, err := tbl.Scan().ToArrowTable(context.Background())
	require.NoError(t, err)
	defer at.Release()
	tr := array.NewTableReader(at, 1<<16)
	defer tr.Release()
	out := map[string]string{}
	for tr.Next() {
		rec := tr.RecordBatch()
		for r := 0; r < int(rec.NumRows()); r++ {
			var parts []string
			for j := range kt.keys {
				col := rec.Column(rec.Schema().FieldIndices(kt.schema.Field(j).Name)[0])
				parts = append(parts, keyValueText(t, col, r))
			}
			key := strings.Join(parts, "|")
			_, dup := out[key]
			require.False(t, dup, "key %s is live twice", key)
			out[key] = rec.Column(rec.Schema().FieldIndices("val")[0]).(*array.String).Value(r)
		}
	}
	return out
}

func keyValueText(t *testing.T, col arrow.Array, r int) string {
	switch a := col.(type) {
	case *extensions.UUIDArray:
		return a.Value(r).String()
	case *array.Decimal128:
		return a.Value(r).ToString(a.DataType().(*arrow.Decimal128Type).Scale)
	case *array.Time64:
		return fmt.Sprint(int64(a.Value(r)))
	case *array.Timestamp:
		return fmt.Sprint(int64(a.Value(r)))
	case *array.FixedSizeBinary:
		return hex.EncodeToString(a.Value(r))
	case *array.Int64:
		return fmt.Sprint(a.Value(r))
	}
	t.Fatalf("read back a key column of type %s", col.DataType())
	return ""
}

// keyChangeLog is n changes to keys 0..keys-1 in panes of per, LSNs
// 1..n, each pane shuffled: creates, updates and deletes (a key deleted
// comes back later).
func keyChangeLog(seed uint64, n, keys, per int) [][]keyChange {
	r := rand.New(rand.NewPCG(seed, 2))
	var panes [][]keyChange
	var cur []keyChange
	for i := range n {
		c := keyChange{key: r.IntN(keys), op: []string{"c", "u", "u", "d", "r"}[r.IntN(5)], lsn: int64(i + 1)}
		if c.op != "d" {
			c.val = fmt.Sprintf("v%d", r.IntN(1000))
		}
		cur = append(cur, c)
		if len(cur) == per {
			r.Shuffle(len(cur), func(i, j int) { cur[i], cur[j] = cur[j], cur[i] })
			panes = append(panes, cur)
			cur = nil
		}
	}
	return panes
}

// newRecordsSink is the sink WriteRecords runs for records of schema sc.
func newRecordsSink(t testing.TB, cfg Config, sc *arrow.Schema) *sink {
	t.Helper()
	rs, err := rowcodec.FromArrow(sc)
	require.NoError(t, err)
	cfg = cfg.withDefaults()
	require.NoError(t, cfg.validate(rs))
	s, err := newSink(openCat(t, cfg.Catalog), cfg, rs)
	require.NoError(t, err)
	return s
}

// commitKeyPane encodes a pane's changes as WriteRecords' encode step does,
// in batches of per, and commits it.
func commitKeyPane(t *testing.T, s *sink, kt keyTable, changes []keyChange, per int) CommitResult {
	t.Helper()
	blobs := encodeKeyPane(t, s, kt, changes, per)
	res, err := s.commitRows(context.Background(), s.cfg.Table, deliver(blobs), nil)
	require.NoError(t, err)
	return res
}

func encodeKeyPane(t *testing.T, s *sink, kt keyTable, changes []keyChange, per int) [][]byte {
	t.Helper()
	var blobs [][]byte
	for i := 0; i < len(changes); i += per {
		rec := kt.batch(t, changes[i:min(i+per, len(changes))])
		var err error
		blobs, err = s.enc.encode(context.Background(), s.cfg.Table, batchSeq(rec), time.Now(), blobs)
		require.NoError(t, err)
	}
	return blobs
}

func keyConfig(t *testing.T, kt keyTable, dest, version string) Config {
	return Config{Catalog: launch(t), Table: dest, WriterID: "w", Mode: Changes, Key: kt.keyNames(), Op: "op", Order: "lsn",
		MaxDeletedShare: -1, Properties: map[string]string{table.PropertyFormatVersion: version}}
}

// Each new key type as the only key: creates, updates and deletes across
// panes land as a plain replay of the log says, v3 (deletion vectors, and
// an index rebuilt from the table's files by a new worker, whose keys
// must equal the incoming rows') and v2 (equality deletes).
func TestChangesKeyTypes(t *testing.T) {
	for _, kt := range keyTypes {
		for _, version := range []string{"3", "2"} {
			t.Run(kt.name+"/v"+version, func(t *testing.T) {
				tab := newKeyTable(kt)
				cfg := keyConfig(t, tab, "keys.t_"+kt.name, version)
				s := newRecordsSink(t, cfg, tab.schema)
				var applied []keyChange
				for i, p := range keyChangeLog(uint64(len(kt.name)), 400, 30, 100) {
					if i == 2 {
						s = newRecordsSink(t, cfg, tab.schema)
					}
					res := commitKeyPane(t, s, tab, p, 35)
					require.False(t, res.Skipped)
					applied = append(applied, p...)
					tbl := loadTable(t, s.cat, cfg.Table)
					require.Equal(t, keyModel(tab, applied), readKeyTable(t, tab, tbl), "after pane %d", i)
				}
				tbl := loadTable(t, s.cat, cfg.Table)
				dvs, eq, _, _ := deleteFiles(t, tbl)
				if version == "3" {
					require.Positive(t, dvs)
					require.Zero(t, eq)
				} else {
					require.Positive(t, eq)
				}
			})
		}
	}
}

// A composite key of every new type and a long, through WriteRecords,
// pane after pane, each pane in two batches.
func TestWriteRecordsCompositeKeyTypes(t *testing.T) {
	long := keyType{"id", arrow.PrimitiveTypes.Int64,
		func(b array.Builder, i int) { b.(*array.Int64Builder).Append(int64(i % 3)) },
		func(i int) string { return fmt.Sprint(i % 3) }}
	tab := newKeyTable(append(slices.Clone(keyTypes), long)...)
	for _, version := range []string{"3", "2"} {
		t.Run("v"+version, func(t *testing.T) {
			cfg := keyConfig(t, tab, "keys.composite", version)
			var applied []keyChange
			for i, p := range keyChangeLog(9, 360, 25, 120) {
				half := len(p) / 2
				var elems [][]byte
				for _, part := range [][]keyChange{p[:half], p[half:]} {
					rec := tab.batch(t, part)
					b, err := EncodeRecords(rec)
					rec.Release()
					require.NoError(t, err)
					elems = append(elems, b)
				}
				pl, s := beam.NewPipelineWithRoot()
				res := collect(s, WriteRecords(s, cfg, tab.schema, beam.CreateList(s, elems)))
				require.NoError(t, ptest.Run(pl))
				require.Len(t, res(), 1)
				applied = append(applied, p...)
				tbl := loadTable(t, openCat(t, cfg.Catalog), cfg.Table)
				want := keyModel(tab, applied)
				require.Equal(t, want, readKeyTable(t, tab, tbl), "after pane %d (%d keys)", i, len(want))
			}
			tbl := loadTable(t, openCat(t, cfg.Catalog), cfg.Table)
			require.Len(t, tbl.Schema().IdentifierFieldIDs, len(tab.keys))
			dvs, eq, _, _ := deleteFiles(t, tbl)
			if version == "3" {
				require.Positive(t, dvs)
				require.Zero(t, eq)
			} else {
				require.Positive(t, eq)
			}
		})
	}
}
