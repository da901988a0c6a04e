package taxi

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// Layout is a TLC yellow-taxi file layout.
type Layout int

const (
	// Layout2024 is the 2024 layout: 19 columns, int64 counts, timestamps in
	// microseconds not adjusted to UTC, Airport_fee.
	Layout2024 Layout = iota
	// Layout2025 adds cbd_congestion_fee to Layout2024.
	Layout2025
	// LayoutOld is the drift of 2022 and earlier files: int64 VendorID and
	// location ids, double passenger_count and RatecodeID, lower-case
	// airport_fee, timestamps stored as INT96.
	LayoutOld
)

// SampleOptions tune WriteSample; the zero value writes Layout2024 in row
// groups of 1,000,000 rows.
type SampleOptions struct {
	Layout       Layout
	RowGroupSize int // rows per row group; 0 means 1,000,000
	// NullRate, when positive, additionally makes each cell of every column
	// NULL with this probability, to exercise NULL handling beyond the NULLs
	// real files have.
	NullRate float64
	// Month is the month the trips are in (its first instant, UTC); zero
	// means January 2024. A year of files is twelve months.
	Month time.Time
}

// sampleMonth is the month the sample's trips are in.
var sampleMonth = time.Date(2024, time.January, 1, 0, 0, 0, 0, time.UTC)

// WriteSample writes n synthetic yellow-taxi trips to w as Parquet in the
// given layout, deterministically for seed. Trips are in opts.Month and
// include what real files have: rows with payment_type 0 and NULL
// passenger_count, RatecodeID, store_and_fwd_flag, congestion_surcharge and
// Airport_fee; a few pickups in 2002, 2009 and outside the month; zero
// passengers and distances; negative and zero fares.
func WriteSample(w io.Writer, n int, seed int64, opts SampleOptions) error {
	rgSize := opts.RowGroupSize
	if rgSize <= 0 {
		rgSize = 1_000_000
	}
	sc := sampleSchema(opts.Layout)
	props := parquet.NewWriterProperties(
		parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithMaxRowGroupLength(int64(rgSize)),
		parquet.WithCreatedBy("icebeam taxi.WriteSample"),
	)
	aprops := pqarrow.NewArrowWriterProperties(pqarrow.WithDeprecatedInt96Timestamps(opts.Layout == LayoutOld))
	// Hide w's Close, if any: the Parquet writer would close it.
	fw, err := pqarrow.NewFileWriter(sc, struct{ io.Writer }{w}, props, aprops)
	if err != nil {
		return fmt.Errorf("taxi: sample: %w", err)
	}
	// Rows are generated in small batches on another goroutine while the
	// Parquet encoder works, and buffered into row groups of rgSize rows:
	// memory stays at two batches plus one encoded row group.
	const batchRows = 64 << 10
	batches := make(chan arrow.RecordBatch, 1)
	stop := make(chan struct{})
	go func() {
		defer close(batches)
		g := &generator{r: rand.New(rand.NewPCG(uint64(seed), 0x7a3c1)), opts: opts}
		b := array.NewRecordBuilder(memory.NewGoAllocator(), sc)
		defer b.Release()
		for done := 0; done < n; {
			m := min(batchRows, n-done, rgSize-done%rgSize) // never across a row group
			g.fill(b, m)
			select {
			case batches <- b.NewRecordBatch():
			case <-stop:
				return
			}
			done += m
		}
	}()
	defer func() {
		close(stop)
		for rec := range batches {
			rec.Release()
		}
	}()
	written := 0
	for rec := range batches {
		if written > 0 && written%rgSize == 0 {
			fw.NewBufferedRowGroup()
		}
		err := fw.WriteBuffered(rec)
		written += int(rec.NumRows())
		rec.Release()
		if err != nil {
			fw.Close()
			return fmt.Errorf("taxi: sample: %w", err)
		}
	}
	if err := fw.Close(); err != nil {
		return fmt.Errorf("taxi: sample: %w", err)
	}
	return nil
}

// WriteSampleFile writes WriteSample's default sample (Layout2024) to path.
func WriteSampleFile(path string, n int, seed int64) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("taxi: sample: %w", err)
	}
	if err := WriteSample(f, n, seed, SampleOptions{}); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("taxi: sample: %w", err)
	}
	return nil
}

func sampleSchema(l Layout) *arrow.Schema {
	f := func(name string, t arrow.DataType) arrow.Field {
		return arrow.Field{Name: name, Type: t, Nullable: true}
	}
	i32, i64, f64 := arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Float64
	var ts arrow.DataType = &arrow.TimestampType{Unit: arrow.Microsecond}
	count, vendor, loc, airport := i64, i32, i32, "Airport_fee"
	if l == LayoutOld {
		ts = &arrow.TimestampType{Unit: arrow.Nanosecond}
		count, vendor, loc, airport = f64, i64, i64, "airport_fee"
	}
	fields := []arrow.Field{
		f("VendorID", vendor),
		f("tpep_pickup_datetime", ts),
		f("tpep_dropoff_datetime", ts),
		f("passenger_count", count),
		f("trip_distance", f64),
		f("RatecodeID", count),
		f("store_and_fwd_flag", arrow.BinaryTypes.String),
		f("PULocationID", loc),
		f("DOLocationID", loc),
		f("payment_type", i64),
		f("fare_amount", f64),
		f("extra", f64),
		f("mta_tax", f64),
		f("tip_amount", f64),
		f("tolls_amount", f64),
		f("improvement_surcharge", f64),
		f("total_amount", f64),
		f("congestion_surcharge", f64),
		f(airport, f64),
	}
	if l == Layout2025 {
		fields = append(fields, f("cbd_congestion_fee", f64))
	}
	return arrow.NewSchema(fields, nil)
}

type generator struct {
	r    *rand.Rand
	opts SampleOptions
}

// cents rounds to two decimals the way money is stored in the real files.
func cents(x float64) float64 { return math.Round(x*100) / 100 }

// Unusual pickup times seen in real files, relative to the month.
var oddPickups = []time.Time{
	time.Date(2002, 12, 31, 22, 59, 39, 0, time.UTC),
	time.Date(2009, 1, 1, 0, 24, 9, 0, time.UTC),
	time.Date(2023, 12, 31, 23, 56, 46, 0, time.UTC),
	time.Date(2024, 2, 1, 0, 1, 15, 0, time.UTC),
}

// fill appends m rows to b, whose schema is sampleSchema(g.opts.Layout).
func (g *generator) fill(b *array.RecordBuilder, m int) {
	r := g.r
	old := g.opts.Layout == LayoutOld
	month := sampleMonth
	if !g.opts.Month.IsZero() {
		month = g.opts.Month
	}
	monthSecs := int64(month.AddDate(0, 1, 0).Sub(month) / time.Second)
	null := func() bool { return g.opts.NullRate > 0 && r.Float64() < g.opts.NullRate }

	vendor := b.Field(0)
	pickup := b.Field(1).(*array.TimestampBuilder)
	dropoff := b.Field(2).(*array.TimestampBuilder)
	str := b.Field(6).(*array.StringBuilder)
	ints := func(bl array.Builder, v int64, valid bool) {
		if !valid || null() {
			bl.AppendNull()
			return
		}
		switch bl := bl.(type) {
		case *array.Int32Builder:
			bl.Append(int32(v))
		case *array.Int64Builder:
			bl.Append(v)
		case *array.Float64Builder:
			bl.Append(float64(v))
		}
	}
	dbl := func(i int, v float64, valid bool) {
		bl := b.Field(i).(*array.Float64Builder)
		if !valid || null() {
			bl.AppendNull()
			return
		}
		bl.Append(v)
	}
	unit := int64(time.Microsecond)
	if old {
		unit = 1
	}
	for range m {
		awkward := r.IntN(100) < 4 // payment_type 0 rows with NULLs
		ints(vendor, []int64{1, 2, 2, 2, 6}[r.IntN(5)], true)

		var pu time.Time
		if r.IntN(2000) == 0 {
			pu = oddPickups[r.IntN(len(oddPickups))]
		} else {
			pu = month.Add(time.Duration(r.Int64N(monthSecs)) * time.Second)
		}
		do := pu.Add(time.Duration(r.IntN(3600)) * time.Second)
		for _, x := range []struct {
			bl *array.TimestampBuilder
			t  time.Time
		}{{pickup, pu}, {dropoff, do}} {
			if null() {
				x.bl.AppendNull()
			} else {
				x.bl.Append(arrow.Timestamp(x.t.UnixNano() / unit))
			}
		}

		pc := int64([]int{0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 4, 5, 6}[r.IntN(20)])
		ints(b.Field(3), pc, !awkward)

		dist := 0.0
		if r.IntN(50) != 0 {
			dist = cents(r.ExpFloat64() * 3.2)
		}
		fare := cents(3 + 2.5*dist + r.Float64()*6)
		if r.IntN(10000) == 0 {
			dist = cents(1000 + r.Float64()*150000) // odometer glitches: the fare is normal
		}
		dbl(4, dist, true)
		ints(b.Field(5), []int64{1, 1, 1, 1, 1, 1, 1, 1, 2, 5, 99}[r.IntN(11)], !awkward)
		if awkward || null() {
			str.AppendNull()
		} else if r.IntN(200) == 0 {
			str.Append("Y")
		} else {
			str.Append("N")
		}
		ints(b.Field(7), 1+r.Int64N(265), true)
		ints(b.Field(8), 1+r.Int64N(265), true)

		pt := []int64{1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 4}[r.IntN(12)]
		if awkward {
			pt = 0
		}
		ints(b.Field(9), pt, true)

		sign := 1.0
		switch {
		case (pt == 3 || pt == 4) && r.IntN(2) == 0:
			sign = -1 // refunds and disputes are negative
		case r.IntN(200) == 0:
			fare = 0
		}
		fare *= sign
		extra := []float64{0, 1, 2.5, 3.5, 5, 7.75}[r.IntN(6)] * sign
		mta := 0.5 * sign
		tip := 0.0
		if pt == 1 || awkward {
			tip = cents(math.Abs(fare) * r.Float64() * 0.3)
		}
		tolls := 0.0
		if r.IntN(20) == 0 {
			tolls = 6.94 * sign
		}
		impr := 1.0 * sign
		cong := []float64{0, 2.5, 2.5, 2.5}[r.IntN(4)] * sign
		airport := []float64{0, 0, 0, 0, 0, 0, 0, 1.75}[r.IntN(8)] * sign
		cbd := []float64{0, 0.75}[r.IntN(2)]
		total := fare + extra + mta + tip + tolls + impr + cong + airport
		if g.opts.Layout == Layout2025 {
			total += cbd
		}
		dbl(10, fare, true)
		dbl(11, extra, true)
		dbl(12, mta, true)
		dbl(13, tip, true)
		dbl(14, tolls, true)
		dbl(15, impr, true)
		dbl(16, cents(total), true)
		dbl(17, cong, !awkward)
		dbl(18, airport, !awkward)
		if g.opts.Layout == Layout2025 {
			dbl(19, cbd, true)
		}
	}
}
