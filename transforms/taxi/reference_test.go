package taxi

import (
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// The reference is a plain row-at-a-time reading of the seed's PySpark job,
// written apart from the columnar code: it loads whole row groups, turns
// each row into a trip, and sums doubles the way Spark does (see
// DailyStats): a naive running sum per group within each row group, in row
// order from 0.0, then each group's row-group sums added in (file path, row
// group) order from 0.0. It shares only sparkRound, which has its own table
// test.

type refTrip struct {
	rowGroup                   int
	pickup                     *time.Time
	passengers                 *float64
	distance, fare, tip, total *float64
	payment                    *int64
}

func refCell(col arrow.Array, i int) any {
	if col.IsNull(i) {
		return nil
	}
	switch c := col.(type) {
	case *array.Float64:
		return c.Value(i)
	case *array.Float32:
		return float64(c.Value(i))
	case *array.Int64:
		return c.Value(i)
	case *array.Int32:
		return int64(c.Value(i))
	case *array.Timestamp:
		unit := c.DataType().(*arrow.TimestampType).Unit
		v := int64(c.Value(i))
		var tm time.Time
		switch unit {
		case arrow.Second:
			tm = time.Unix(v, 0)
		case arrow.Millisecond:
			tm = time.UnixMilli(v)
		case arrow.Microsecond:
			tm = time.UnixMicro(v)
		default:
			tm = time.Unix(0, v)
		}
		return tm.UTC()
	}
	panic("reference: unexpected column type " + col.DataType().String())
}

func refFloat(v any) *float64 {
	switch v := v.(type) {
	case float64:
		return &v
	case int64:
		f := float64(v)
		return &f
	}
	return nil
}

// refRead reads every row of a Parquet file, row group by row group.
func refRead(t *testing.T, path string) []refTrip {
	t.Helper()
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	var all []int // every leaf column
	for i := range pf.MetaData().Schema.NumColumns() {
		all = append(all, i)
	}
	var trips []refTrip
	for rg := range pf.NumRowGroups() {
		tbl, err := fr.ReadRowGroups(ctx, all, []int{rg})
		if err != nil {
			t.Fatal(err)
		}
		tr := array.NewTableReader(tbl, 10000)
		for tr.Next() {
			rec := tr.RecordBatch()
			byName := map[string]arrow.Array{}
			for i, fld := range rec.Schema().Fields() {
				byName[strings.ToLower(fld.Name)] = rec.Column(i)
			}
			for i := 0; i < int(rec.NumRows()); i++ {
				tp := refTrip{rowGroup: rg}
				if v := refCell(byName["tpep_pickup_datetime"], i); v != nil {
					tm := v.(time.Time)
					tp.pickup = &tm
				}
				tp.passengers = refFloat(refCell(byName["passenger_count"], i))
				tp.distance = refFloat(refCell(byName["trip_distance"], i))
				tp.fare = refFloat(refCell(byName["fare_amount"], i))
				tp.tip = refFloat(refCell(byName["tip_amount"], i))
				tp.total = refFloat(refCell(byName["total_amount"], i))
				if v := refCell(byName["payment_type"], i); v != nil {
					p := v.(int64)
					tp.payment = &p
				}
				trips = append(trips, tp)
			}
		}
		tr.Release()
		tbl.Release()
	}
	return trips
}

// refSums are one group's double sums.
type refSums struct{ distance, fare, tipPct, revenue float64 }

type refGroup struct {
	date                        *int32
	payment                     *int64
	n, passengers, tipN, totalN int64
	total                       refSums          // over the row groups folded so far
	byRowGroup                  map[int]*refSums // of the current file
}

// reference computes the seed's aggregation over files, each given as its
// trips in file order, the files in path order.
func reference(files ...[]refTrip) map[string]DailyStat {
	groups := map[string]*refGroup{}
	var order []string // groups in order of first appearance, for determinism
	for _, trips := range files {
		for _, tp := range trips {
			if tp.distance == nil || tp.fare == nil || tp.passengers == nil {
				continue
			}
			if !(*tp.distance > 0) || !(*tp.fare > 0) || !(*tp.passengers > 0) {
				continue
			}
			var date *int32
			if tp.pickup != nil {
				y, m, d := tp.pickup.Date()
				days := int32(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
				date = &days
			}
			k := statKey(date, tp.payment)
			g := groups[k]
			if g == nil {
				g = &refGroup{date: date, payment: tp.payment}
				groups[k] = g
				order = append(order, k)
			}
			if g.byRowGroup == nil {
				g.byRowGroup = map[int]*refSums{}
			}
			rs := g.byRowGroup[tp.rowGroup]
			if rs == nil {
				rs = &refSums{}
				g.byRowGroup[tp.rowGroup] = rs
			}
			g.n++
			g.passengers += int64(*tp.passengers)
			rs.distance += *tp.distance
			rs.fare += *tp.fare
			if tp.tip != nil {
				// Spark: round((tip_amount / fare_amount) * 100, 2)
				tipPct := *tp.tip / *tp.fare
				tipPct *= 100
				rs.tipPct += sparkRound(tipPct, 2)
				g.tipN++
			}
			if tp.total != nil {
				rs.revenue += *tp.total
				g.totalN++
			}
		}
		// End of the file: add its row groups' sums in row group order.
		for _, k := range order {
			g := groups[k]
			var rgs []int
			for rg := range g.byRowGroup {
				rgs = append(rgs, rg)
			}
			sort.Ints(rgs)
			for _, rg := range rgs {
				rs := g.byRowGroup[rg]
				g.total.distance += rs.distance
				g.total.fare += rs.fare
				g.total.tipPct += rs.tipPct
				g.total.revenue += rs.revenue
			}
			g.byRowGroup = nil
		}
	}
	out := map[string]DailyStat{}
	for k, g := range groups {
		s := DailyStat{
			TripDate:        g.date,
			PaymentType:     g.payment,
			TotalTrips:      g.n,
			TotalPassengers: g.passengers,
			AvgDistance:     sparkRound(g.total.distance/float64(g.n), 2),
			AvgFare:         sparkRound(g.total.fare/float64(g.n), 2),
		}
		if g.tipN > 0 {
			v := sparkRound(g.total.tipPct/float64(g.tipN), 2)
			s.AvgTipPercentage = &v
		}
		if g.totalN > 0 {
			v := sparkRound(g.total.revenue, 2)
			s.TotalRevenue = &v
		}
		out[k] = s
	}
	return out
}

func TestReferenceMatchesSample(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/yellow.parquet"
	// Small row groups so that the work spreads over several bundles.
	writeSampleFile(t, path, 120_000, 7, SampleOptions{RowGroupSize: 25_000})
	want := reference(refRead(t, path))
	got, err := runDailyStats(t, path)
	if err != nil {
		t.Fatal(err)
	}
	compare(t, got, want)
	if len(want) < 100 {
		t.Errorf("only %d groups; the sample should span a month of days and payment types", len(want))
	}
}
