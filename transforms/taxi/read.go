package taxi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/icebeam/icebeam/catalog/fileio"
)

// The input columns the seed uses, and what each may be stored as. Older TLC
// files store counts as doubles; other writers use other timestamp units or
// INT96, which the Arrow reader turns into timestamp[ns].
const (
	colPickup     = "tpep_pickup_datetime"
	colPassengers = "passenger_count"
	colDistance   = "trip_distance"
	colPayment    = "payment_type"
	colFare       = "fare_amount"
	colTip        = "tip_amount"
	colTotal      = "total_amount"
)

type colKind int

const (
	kindTime   colKind = iota // timestamp (any unit) or date
	kindNumber                // any integer or floating type, read as float64
	kindCount                 // integer, or floating with whole values, read as int64
)

var neededColumns = []struct {
	name string
	kind colKind
}{
	{colPickup, kindTime},
	{colPassengers, kindCount},
	{colDistance, kindNumber},
	{colPayment, kindCount},
	{colFare, kindNumber},
	{colTip, kindNumber},
	{colTotal, kindNumber},
}

func usable(t arrow.DataType, k colKind) bool {
	switch k {
	case kindTime:
		return t.ID() == arrow.TIMESTAMP || t.ID() == arrow.DATE32
	default:
		switch t.ID() {
		case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64,
			arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64,
			arrow.FLOAT32, arrow.FLOAT64:
			return true
		}
	}
	return false
}

func kindName(k colKind) string {
	switch k {
	case kindTime:
		return "a timestamp or date"
	case kindCount:
		return "an integer or whole-valued floating type"
	}
	return "an integer or floating type"
}

// taxiFile is an open input file whose needed columns have been found and
// checked.
type taxiFile struct {
	path   string
	f      fileio.File
	pf     *file.Reader
	fr     *pqarrow.FileReader
	leaves []int    // Parquet leaf index of each needed column
	names  []string // the column names as the file spells them
}

// openTaxiFile opens path and checks that it has every needed column with a
// usable type. Column names match case-insensitively, as in Spark.
func openTaxiFile(ctx context.Context, path string) (*taxiFile, error) {
	f, err := fileio.Open(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("taxi: %w", err)
	}
	tf, err := checkTaxiFile(path, f)
	if err != nil {
		f.Close()
		return nil, err
	}
	return tf, nil
}

func checkTaxiFile(path string, f fileio.File) (_ *taxiFile, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("taxi: %s is not a readable Parquet file: %v", path, r)
		}
	}()
	pf, err := file.NewParquetReader(io.NewSectionReader(f, 0, f.Size()))
	if err != nil {
		return nil, fmt.Errorf("taxi: %s is not a readable Parquet file: %w", path, err)
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 64 << 10, Parallel: true}, memory.NewGoAllocator())
	if err != nil {
		return nil, fmt.Errorf("taxi: %s: reading the schema: %w", path, err)
	}
	asc, err := fr.Schema()
	if err != nil {
		return nil, fmt.Errorf("taxi: %s: reading the schema: %w", path, err)
	}
	psc := pf.MetaData().Schema
	tf := &taxiFile{path: path, f: f, pf: pf, fr: fr}
	for _, need := range neededColumns {
		idx := -1
		for i, fld := range asc.Fields() {
			if !strings.EqualFold(fld.Name, need.name) {
				continue
			}
			if idx >= 0 {
				return nil, fmt.Errorf("taxi: %s: column %q is ambiguous: %q and %q", path, need.name, asc.Field(idx).Name, fld.Name)
			}
			idx = i
		}
		if idx < 0 {
			return nil, fmt.Errorf("taxi: %s: missing column %q", path, need.name)
		}
		fld := asc.Field(idx)
		node := psc.Root().Field(idx)
		if _, ok := node.(*schema.PrimitiveNode); !ok || !usable(fld.Type, need.kind) {
			return nil, fmt.Errorf("taxi: %s: column %q has type %s, want %s", path, fld.Name, fld.Type, kindName(need.kind))
		}
		tf.leaves = append(tf.leaves, psc.ColumnIndexByNode(node))
		tf.names = append(tf.names, fld.Name)
	}
	return tf, nil
}

func (tf *taxiFile) Close() error { return tf.f.Close() }

// rowGroupAcc is one group's aggregates over the rows of the row group
// being read.
type rowGroupAcc struct {
	trips, passengers, tipPctN, revenueN int64
	sums                                 rowGroupSums
}

// aggregateRowGroup reads the needed columns of row group rg in batches and
// folds its rows, in order, into one accumulator per group. file is the
// file's position in path order, recorded with the sums.
func (tf *taxiFile) aggregateRowGroup(ctx context.Context, file int64, rg int) (_ map[groupKey]*rowGroupAcc, err error) {
	defer func() {
		// Corrupt pages can make the decoders panic; name the file.
		if r := recover(); r != nil {
			err = fmt.Errorf("taxi: %s: row group %d is corrupt: %v", tf.path, rg, r)
		}
	}()
	rr, err := tf.fr.GetRecordReader(ctx, tf.leaves, []int{rg})
	if err != nil {
		return nil, fmt.Errorf("taxi: %s: row group %d: %w", tf.path, rg, err)
	}
	defer rr.Release()
	// Decoding runs one batch ahead of folding, on another goroutine, so a
	// worker's cores decode and fold at once even when the runner hands it
	// all row groups in one bundle (prism does). The fold itself stays
	// sequential: row order is what makes the sums equal Spark's.
	recs := make(chan arrow.RecordBatch, 1)
	decodeErr := make(chan error, 1)
	stop := make(chan struct{})
	go func() {
		defer close(recs)
		defer func() {
			if r := recover(); r != nil {
				decodeErr <- fmt.Errorf("row group is corrupt: %v", r)
			}
		}()
		for rr.Next() {
			rec := rr.RecordBatch()
			rec.Retain()
			select {
			case recs <- rec:
			case <-stop:
				rec.Release()
				return
			}
		}
		if err := rr.Err(); err != nil && !errors.Is(err, io.EOF) {
			decodeErr <- err
		}
	}()
	defer func() {
		close(stop)
		for rec := range recs {
			rec.Release()
		}
	}()
	groups := newGroupIndex()
	var b batch
	var start int64 // row number within the row group of the batch's first row
	for rec := range recs {
		err := b.load(rec, tf.names, start)
		if err == nil {
			b.fold(groups)
		}
		start += rec.NumRows()
		rec.Release()
		if err != nil {
			return nil, fmt.Errorf("taxi: %s: row group %d: %w", tf.path, rg, err)
		}
	}
	select {
	case err := <-decodeErr:
		return nil, fmt.Errorf("taxi: %s: row group %d: %w", tf.path, rg, err)
	default:
	}
	for _, a := range groups.m {
		a.sums.File, a.sums.RowGroup = file, int64(rg)
	}
	return groups.m, nil
}

// validity is a column's null bitmap, read without going through the
// arrow.Array interface on every row: the fold asks it five times a row.
type validity struct {
	bits   []byte // nil when the column has no NULLs
	offset int
}

func (v *validity) load(a arrow.Array) {
	v.bits, v.offset = nil, a.Data().Offset()
	if a.NullN() > 0 {
		v.bits = a.NullBitmapBytes()
	}
}

func (v *validity) null(i int) bool {
	if v.bits == nil {
		return false
	}
	j := i + v.offset
	return v.bits[j>>3]&(1<<(j&7)) == 0
}

// numCol is a numeric column as float64 values plus validity; the float64
// case uses the Arrow buffer as is.
type numCol struct {
	validity
	vals []float64
	buf  []float64
}

func (c *numCol) load(a arrow.Array) {
	c.validity.load(a)
	if f, ok := a.(*array.Float64); ok {
		c.vals = f.Float64Values()
		return
	}
	n := a.Len()
	if cap(c.buf) < n {
		c.buf = make([]float64, n)
	}
	c.vals = c.buf[:n]
	switch a := a.(type) {
	case *array.Float32:
		for i, v := range a.Float32Values() {
			c.vals[i] = float64(v)
		}
	default:
		for i := range n {
			c.vals[i], _ = intAt(a, i)
		}
	}
}

// intAt reads an integer array element as float64 and int64 (null slots
// read as zero).
func intAt(a arrow.Array, i int) (float64, int64) {
	switch a := a.(type) {
	case *array.Int8:
		return float64(a.Value(i)), int64(a.Value(i))
	case *array.Int16:
		return float64(a.Value(i)), int64(a.Value(i))
	case *array.Int32:
		return float64(a.Value(i)), int64(a.Value(i))
	case *array.Int64:
		return float64(a.Value(i)), a.Value(i)
	case *array.Uint8:
		return float64(a.Value(i)), int64(a.Value(i))
	case *array.Uint16:
		return float64(a.Value(i)), int64(a.Value(i))
	case *array.Uint32:
		return float64(a.Value(i)), int64(a.Value(i))
	case *array.Uint64:
		return float64(a.Value(i)), int64(a.Value(i))
	}
	return 0, 0
}

// countCol is an integer column as int64 values plus validity. Floating
// columns must hold whole numbers.
type countCol struct {
	validity
	name string
	vals []int64
	buf  []int64
}

func (c *countCol) load(a arrow.Array, start int64) error {
	c.validity.load(a)
	if v, ok := a.(*array.Int64); ok {
		c.vals = v.Int64Values()
		return nil
	}
	n := a.Len()
	if cap(c.buf) < n {
		c.buf = make([]int64, n)
	}
	c.vals = c.buf[:n]
	whole := func(i int, f float64) error {
		if a.IsNull(i) {
			c.vals[i] = 0
			return nil
		}
		if f != math.Trunc(f) || math.Abs(f) > 1<<53 {
			return fmt.Errorf("row %d: column %q holds %v, not a whole number", start+int64(i), c.name, f)
		}
		c.vals[i] = int64(f)
		return nil
	}
	switch a := a.(type) {
	case *array.Float64:
		for i, f := range a.Float64Values() {
			if err := whole(i, f); err != nil {
				return err
			}
		}
	case *array.Float32:
		for i, f := range a.Float32Values() {
			if err := whole(i, float64(f)); err != nil {
				return err
			}
		}
	default:
		for i := range n {
			_, c.vals[i] = intAt(a, i)
		}
	}
	return nil
}

// dateCol is the pickup column as days since 1970-01-01 of the time as
// written: no time-zone shift.
type dateCol struct {
	validity
	vals []int32
	buf  []int32
}

func (c *dateCol) load(a arrow.Array) {
	c.validity.load(a)
	n := a.Len()
	if cap(c.buf) < n {
		c.buf = make([]int32, n)
	}
	c.vals = c.buf[:n]
	if d, ok := a.(*array.Date32); ok {
		for i, v := range d.Date32Values() {
			c.vals[i] = int32(v)
		}
		return
	}
	ts := a.(*array.Timestamp)
	// One loop per unit, so that each divides by a constant (a multiply
	// and a shift, where a division by a variable costs tens of cycles).
	vals := ts.TimestampValues()
	switch ts.DataType().(*arrow.TimestampType).Unit {
	case arrow.Second:
		for i, v := range vals {
			c.vals[i] = floorDays(int64(v), 86400)
		}
	case arrow.Millisecond:
		for i, v := range vals {
			c.vals[i] = floorDays(int64(v), 86400e3)
		}
	case arrow.Microsecond:
		for i, v := range vals {
			c.vals[i] = floorDays(int64(v), 86400e6)
		}
	default:
		for i, v := range vals {
			c.vals[i] = floorDays(int64(v), 86400e9)
		}
	}
}

// floorDays is v / perDay rounded down (times before 1970 too).
func floorDays(v, perDay int64) int32 {
	d := v / perDay
	if v%perDay < 0 {
		d--
	}
	return int32(d)
}

// batch holds the needed columns of one record batch.
type batch struct {
	pickup                   dateCol
	passengers, payment      countCol
	distance, fare, tip, tot numCol
	n                        int
}

func (b *batch) load(rec arrow.RecordBatch, names []string, start int64) error {
	col := func(name string) arrow.Array {
		for i, f := range rec.Schema().Fields() {
			if f.Name == name {
				return rec.Column(i)
			}
		}
		return nil
	}
	b.n = int(rec.NumRows())
	b.pickup.load(col(names[0]))
	b.passengers.name, b.payment.name = names[1], names[3]
	b.distance.load(col(names[2]))
	b.fare.load(col(names[4]))
	b.tip.load(col(names[5]))
	b.tot.load(col(names[6]))
	if err := b.passengers.load(col(names[1]), start); err != nil {
		return err
	}
	return b.payment.load(col(names[3]), start)
}

// gtZero is Spark's x > 0 on doubles, where NaN is larger than any number.
func gtZero(x float64) bool { return x > 0 || math.IsNaN(x) }

// groupIndex finds a row's accumulator. The common keys (a date near the
// first one seen, a payment type 0..7: a month of trips) sit in a table
// indexed by position, which costs a few nanoseconds where hashing the key
// costs tens, at 30 million rows a year; the map holds every group.
type groupIndex struct {
	m     map[groupKey]*rowGroupAcc
	base  int32 // date of dense[0:densePayments]
	dense []*rowGroupAcc
}

const (
	denseDays     = 64
	densePayments = 8
)

func newGroupIndex() *groupIndex { return &groupIndex{m: map[groupKey]*rowGroupAcc{}} }

func (x *groupIndex) get(k groupKey) *rowGroupAcc {
	if k.dateNull || k.paymentNull || uint64(k.payment) >= densePayments {
		return x.lookup(k)
	}
	if x.dense == nil {
		x.dense = make([]*rowGroupAcc, denseDays*densePayments)
		x.base = k.date - 8 // a month's trips start near the first one read
	}
	d := k.date - x.base
	if d < 0 || d >= denseDays {
		return x.lookup(k)
	}
	slot := &x.dense[int(d)*densePayments+int(k.payment)]
	if *slot == nil {
		*slot = x.lookup(k)
	}
	return *slot
}

func (x *groupIndex) lookup(k groupKey) *rowGroupAcc {
	p := x.m[k]
	if p == nil {
		p = new(rowGroupAcc)
		x.m[k] = p
	}
	return p
}

// fold applies the seed's filter and derivations to every row and adds the
// survivors, in row order, to their groups.
func (b *batch) fold(groups *groupIndex) {
	for i := range b.n {
		// A NULL in any filtered column fails the filter.
		if b.distance.null(i) || b.fare.null(i) || b.passengers.null(i) {
			continue
		}
		dist, fare, pc := b.distance.vals[i], b.fare.vals[i], b.passengers.vals[i]
		if !gtZero(dist) || !gtZero(fare) || pc <= 0 {
			continue
		}
		var k groupKey
		if b.pickup.null(i) {
			k.dateNull = true
		} else {
			k.date = b.pickup.vals[i]
		}
		if b.payment.null(i) {
			k.paymentNull = true
		} else {
			k.payment = b.payment.vals[i]
		}
		p := groups.get(k)
		p.trips++
		p.passengers += pc
		p.sums.Distance += dist
		p.sums.Fare += fare
		if !b.tip.null(i) {
			// Spark: round((tip_amount / fare_amount) * 100, 2), in that order.
			p.sums.TipPct += sparkRound((b.tip.vals[i]/fare)*100, 2)
			p.tipPctN++
		}
		if !b.tot.null(i) {
			p.sums.Revenue += b.tot.vals[i]
			p.revenueN++
		}
	}
}
