package taxi

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/iceberg-go"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/transforms/icebergio"
)

func init() {
	register.DoFn3x1[context.Context, []byte, func(string, partial), error](&aggregateRecordsFn{})
}

// DailyStatsFromIceberg is DailyStats over the trips in an Iceberg table
// (cfg.Table, at the snapshot cfg picks), read with icebergio.ReadRecords:
// deletes applied, evolved schemas read as the current one. The table needs
// the columns DailyStats needs, matched by name case-insensitively
// (IcebergColumns says which; cfg.Columns is set from them).
//
// Double sums run in row order within each split of a data file (a row
// group, when the file has no deletes) and the splits are folded in (data
// file path, offset) order: the result does not depend on the runner's
// bundling, and a table whose data files are the Parquet files DailyStats
// would read gives DailyStats' numbers.
func DailyStatsFromIceberg(s beam.Scope, cfg icebergio.ReadConfig, columns []string) beam.PCollection {
	s = s.Scope("taxi.DailyStatsFromIceberg")
	cfg.Columns = columns
	records := icebergio.ReadRecords(s, cfg)
	partials := beam.ParDo(s, &aggregateRecordsFn{Columns: columns}, records)
	merged := beam.CombinePerKey(s, &mergeFn{}, partials)
	return beam.ParDo(s, finish, merged)
}

// IcebergColumns loads table (namespace.table) from the catalog and returns
// the names, as the table spells them, of the columns DailyStatsFromIceberg
// reads, in neededColumns order; an error names the table and the column
// that is missing, ambiguous or of an unusable type.
func IcebergColumns(ctx context.Context, cfg catalog.Config, table string) ([]string, error) {
	ident, err := catalog.ParseTable(table)
	if err != nil {
		return nil, fmt.Errorf("taxi: %w", err)
	}
	cat, err := catalog.Open(ctx, cfg)
	if err != nil {
		return nil, err
	}
	tbl, err := cat.LoadTable(ctx, ident)
	if err != nil {
		return nil, fmt.Errorf("taxi: table %s: %w", table, err)
	}
	sc := tbl.Schema()
	var names []string
	for _, need := range neededColumns {
		var found *iceberg.NestedField
		for _, f := range sc.Fields() {
			if !strings.EqualFold(f.Name, need.name) {
				continue
			}
			if found != nil {
				return nil, fmt.Errorf("taxi: table %s: column %q is ambiguous: %q and %q", table, need.name, found.Name, f.Name)
			}
			found = &f
		}
		if found == nil {
			return nil, fmt.Errorf("taxi: table %s: missing column %q", table, need.name)
		}
		if !usableIceberg(found.Type, need.kind) {
			return nil, fmt.Errorf("taxi: table %s: column %q has type %s, want %s", table, found.Name, found.Type, kindName(need.kind))
		}
		names = append(names, found.Name)
	}
	return names, nil
}

// usableIceberg is usable for the Iceberg types whose Arrow forms usable
// accepts.
func usableIceberg(t iceberg.Type, k colKind) bool {
	switch t.(type) {
	case iceberg.TimestampType, iceberg.TimestampTzType, iceberg.TimestampNsType, iceberg.TimestampTzNsType, iceberg.DateType:
		return k == kindTime
	case iceberg.Int32Type, iceberg.Int64Type, iceberg.Float32Type, iceberg.Float64Type:
		return k != kindTime
	}
	return false
}

// aggregateRecordsFn is aggregateFn for record batches: it folds each
// split's batches, in order, into one accumulator per group, and emits the
// bundle's partials when it ends.
type aggregateRecordsFn struct {
	Columns []string `json:"columns"` // in neededColumns order

	groups map[groupKey]*partial
	split  *groupIndex // the split being folded
	origin icebergio.Origin
	b      batch
}

func (fn *aggregateRecordsFn) StartBundle(_ context.Context, _ func(string, partial)) {
	fn.groups = map[groupKey]*partial{}
	fn.split = nil
}

func (fn *aggregateRecordsFn) ProcessElement(ctx context.Context, elem []byte, _ func(string, partial)) error {
	rec, err := icebergio.DecodeRecords(elem)
	if err != nil {
		return fmt.Errorf("taxi: %w", err)
	}
	defer rec.Release()
	o, ok := icebergio.OriginOf(rec)
	if !ok {
		return fmt.Errorf("taxi: a record batch that does not say where it was read (not from icebergio.ReadRecords)")
	}
	switch {
	case o.Batch == 0:
		fn.endSplit()
		fn.split = newGroupIndex()
	case fn.split == nil || o.File != fn.origin.File || o.Offset != fn.origin.Offset || o.Batch != fn.origin.Batch+1:
		// The sums' order would depend on the runner's delivery.
		return fmt.Errorf("taxi: %s: batch %d of the split at byte %d arrived out of order", o.File, o.Batch, o.Offset)
	}
	fn.origin = o
	if err := fn.b.fromRecord(rec, fn.Columns); err != nil {
		return fmt.Errorf("taxi: %s: %w", o.File, err)
	}
	fn.b.fold(fn.split)
	return nil
}

// endSplit adds the split's accumulators to the bundle's partials.
func (fn *aggregateRecordsFn) endSplit() {
	if fn.split == nil {
		return
	}
	for _, a := range fn.split.m {
		a.sums.Path, a.sums.RowGroup = fn.origin.File, fn.origin.Offset
	}
	addRowGroup(fn.groups, fn.split.m)
	fn.split = nil
}

func (fn *aggregateRecordsFn) FinishBundle(_ context.Context, emit func(string, partial)) {
	fn.endSplit()
	for k, p := range fn.groups {
		emit(k.encode(), *p)
	}
	fn.groups = nil
}

// fromRecord fills b with rec's rows of the needed columns (names, in
// neededColumns order) in the forms the fold takes.
func (b *batch) fromRecord(rec arrow.RecordBatch, names []string) error {
	b.n, b.start = int(rec.NumRows()), 0
	for j, need := range neededColumns {
		idx := rec.Schema().FieldIndices(names[j])
		if len(idx) != 1 {
			return fmt.Errorf("column %q is not in the batch", names[j])
		}
		if b.cols[j] == nil {
			b.cols[j] = new(colBuf)
		}
		col := rec.Column(idx[0])
		if !usable(col.DataType(), need.kind) {
			return fmt.Errorf("column %q has type %s, want %s", names[j], col.DataType(), kindName(need.kind))
		}
		if err := b.cols[j].fromArrow(col, need.kind); err != nil {
			return fmt.Errorf("column %q: %w", names[j], err)
		}
	}
	return nil
}

// fromArrow sets c to arr in kind's form, as the Parquet reader converts a
// column (colReader.convert): days for times, float64 for numbers, int64
// for counts, NULLs marked and zero.
func (c *colBuf) fromArrow(arr arrow.Array, kind colKind) error {
	n := arr.Len()
	switch a := arr.(type) {
	case *array.Timestamp:
		setInts(c, a.TimestampValues())
		c.days = grow(c.days, n)
		toDays(c.days, c.i64[:n], a.DataType().(*arrow.TimestampType).Unit)
	case *array.Date32:
		c.days = grow(c.days, n)
		for i, d := range a.Date32Values() {
			c.days[i] = int32(d)
		}
	case *array.Int8:
		setNumbers(c, kind, a.Int8Values())
	case *array.Int16:
		setNumbers(c, kind, a.Int16Values())
	case *array.Int32:
		setNumbers(c, kind, a.Int32Values())
	case *array.Int64:
		setNumbers(c, kind, a.Int64Values())
	case *array.Uint8:
		setNumbers(c, kind, a.Uint8Values())
	case *array.Uint16:
		setNumbers(c, kind, a.Uint16Values())
	case *array.Uint32:
		setNumbers(c, kind, a.Uint32Values())
	case *array.Uint64:
		setNumbers(c, kind, a.Uint64Values())
	case *array.Float32:
		setFloats(c, a.Float32Values())
	case *array.Float64:
		setFloats(c, a.Float64Values())
	default:
		return fmt.Errorf("cannot read %s", arr.DataType())
	}
	floating := kind == kindNumber || arr.DataType().ID() == arrow.FLOAT32 || arr.DataType().ID() == arrow.FLOAT64
	c.null = nil
	if arr.NullN() > 0 {
		c.null = grow(c.null, n)
		for i := range n {
			null := arr.IsNull(i)
			c.null[i] = null
			switch {
			case !null || kind == kindTime:
			case floating:
				c.f64[i] = 0
			default:
				c.i64[i] = 0
			}
		}
	}
	if kind == kindCount && floating {
		// Floating counts must be whole numbers.
		c.i64 = grow(c.i64, n)
		for i, f := range c.f64[:n] {
			if f != math.Trunc(f) || math.Abs(f) > 1<<53 { // a NULL is 0
				return fmt.Errorf("holds %v, not a whole number", f)
			}
			c.i64[i] = int64(f)
		}
	}
	return nil
}

type integer interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// setNumbers sets c's integers: as float64 for an amount, int64 (a uint64
// as its bits, as the Parquet path reads it) for a count.
func setNumbers[T integer](c *colBuf, kind colKind, v []T) {
	if kind == kindNumber {
		c.f64 = grow(c.f64, len(v))
		for i, x := range v {
			c.f64[i] = float64(x)
		}
		return
	}
	setInts(c, v)
}

func setInts[T integer](c *colBuf, v []T) {
	c.i64 = grow(c.i64, len(v))
	for i, x := range v {
		c.i64[i] = int64(x)
	}
}

func setFloats[T float32 | float64](c *colBuf, v []T) {
	c.f64 = grow(c.f64, len(v))
	for i, x := range v {
		c.f64[i] = float64(x)
	}
}
