package taxi

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/icebeam/icebeam/catalog/fileio"
)

// The input columns the seed uses, and what each may be stored as. Older TLC
// files store counts as doubles; other writers use other timestamp units or
// INT96. Types are checked as the Arrow schema of the file names them (the
// types a reader of the file sees, and what errors name), and the values
// read with Parquet's own column readers (column.go), converted as Arrow's
// reader would convert them.
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
	path  string
	f     fileio.File
	pf    *file.Reader
	cols  []colSpec // the needed columns, in neededColumns order
	names []string  // the column names as the file spells them
}

// readProps are the Parquet reader properties for path. Local column chunks
// are read through a small buffer rather than whole (a row group's needed
// chunks are about 15 MB in the 2024 files; page bodies are read straight
// into the page buffers). Objects in GCS are read whole, one ranged request
// per chunk, as before.
func readProps(path string) *parquet.ReaderProperties {
	props := parquet.NewReaderProperties(pageAllocator{})
	if !strings.HasPrefix(path, "gs://") {
		props.BufferedStreamEnabled = true
		props.BufferSize = 64 << 10
	}
	return props
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
	pf, err := file.NewParquetReader(io.NewSectionReader(f, 0, f.Size()), file.WithReadProps(readProps(path)))
	if err != nil {
		return nil, fmt.Errorf("taxi: %s is not a readable Parquet file: %w", path, err)
	}
	psc := pf.MetaData().Schema
	asc, err := pqarrow.FromParquet(psc, &pqarrow.ArrowReadProperties{}, pf.MetaData().KeyValueMetadata())
	if err != nil {
		return nil, fmt.Errorf("taxi: %s: reading the schema: %w", path, err)
	}
	tf := &taxiFile{path: path, f: f, pf: pf}
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
		leaf := psc.ColumnIndexByNode(node)
		spec, err := newColSpec(fld.Name, need.kind, fld.Type, psc.Column(leaf), leaf)
		if err != nil {
			return nil, fmt.Errorf("taxi: %s: %w", path, err)
		}
		tf.cols = append(tf.cols, spec)
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
func (tf *taxiFile) aggregateRowGroup(ctx context.Context, file int64, rg int) (map[groupKey]*rowGroupAcc, error) {
	groups := newGroupIndex()
	err := tf.readRowGroup(ctx, rg, func(b *batch) error {
		b.fold(groups)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, a := range groups.m {
		a.sums.File, a.sums.RowGroup = file, int64(rg)
	}
	return groups.m, nil
}

// gtZero is Spark's x > 0 on doubles, where NaN is larger than any number.
func gtZero(x float64) bool { return x > 0 || math.IsNaN(x) }

// groupIndex finds a row's accumulator. The common keys (a date within a
// month of the first one seen, a payment type 0..7: a month of trips, in
// whatever order) sit in a table indexed by position, which costs a few
// nanoseconds where hashing the key costs tens, at 30 million rows a year;
// the map holds every group.
type groupIndex struct {
	m     map[groupKey]*rowGroupAcc
	base  int64 // date of dense[0:densePayments]
	dense []*rowGroupAcc
}

const (
	denseDays     = 64
	densePayments = 8
)

func newGroupIndex() *groupIndex { return &groupIndex{m: map[groupKey]*rowGroupAcc{}} }

// slot is the dense table's entry for a non-NULL key, or nil.
func (x *groupIndex) slot(date int32, payment int64) **rowGroupAcc {
	if x.dense == nil {
		x.dense = make([]*rowGroupAcc, denseDays*densePayments)
		x.base = int64(date) - 31 // the whole month, wherever the first trip falls
	}
	d := uint64(int64(date) - x.base)
	if d >= denseDays || uint64(payment) >= densePayments {
		return nil
	}
	return &x.dense[d*densePayments+uint64(payment)]
}

func (x *groupIndex) get(k groupKey) *rowGroupAcc {
	if k.dateNull || k.paymentNull {
		return x.lookup(k)
	}
	s := x.slot(k.date, k.payment)
	if s == nil {
		return x.lookup(k)
	}
	if *s == nil {
		*s = x.lookup(k)
	}
	return *s
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
	n := b.n
	pickup, pickupNull := b.cols[0].days[:n], b.cols[0].null
	passengers := b.cols[1].i64[:n]
	distance := b.cols[2].f64[:n]
	payment, paymentNull := b.cols[3].i64[:n], b.cols[3].null
	fare := b.cols[4].f64[:n]
	tip, tipNull := b.cols[5].f64[:n], b.cols[5].null
	total, totalNull := b.cols[6].f64[:n], b.cols[6].null
	for i := range n {
		// A NULL in a filtered column is 0, which fails the filter as
		// the NULL does.
		dist, fr, pc := distance[i], fare[i], passengers[i]
		if !gtZero(dist) || !gtZero(fr) || pc <= 0 {
			continue
		}
		var p *rowGroupAcc
		dateNull := pickupNull != nil && pickupNull[i]
		payNull := paymentNull != nil && paymentNull[i]
		if s := (**rowGroupAcc)(nil); !dateNull && !payNull {
			if s = groups.slot(pickup[i], payment[i]); s != nil && *s != nil {
				p = *s
			}
		}
		if p == nil {
			k := groupKey{dateNull: dateNull, paymentNull: payNull}
			if !dateNull {
				k.date = pickup[i]
			}
			if !payNull {
				k.payment = payment[i]
			}
			p = groups.get(k)
		}
		p.trips++
		p.passengers += pc
		p.sums.Distance += dist
		p.sums.Fare += fr
		if tipNull == nil || !tipNull[i] {
			// Spark: round((tip_amount / fare_amount) * 100, 2), in that order.
			v := (tip[i] / fr) * 100
			r, ok := round2Fast(v)
			if !ok {
				r = roundDecimal(v, 2)
			}
			p.sums.TipPct += r
			p.tipPctN++
		}
		if totalNull == nil || !totalNull[i] {
			p.sums.Revenue += total[i]
			p.revenueN++
		}
	}
}
