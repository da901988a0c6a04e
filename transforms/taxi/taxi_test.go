package taxi

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/vet"
)

func ptr[T any](v T) *T { return &v }

// handTrips are rows whose aggregates are worked out by hand below.
var handTrips = []struct {
	pickup                 *time.Time
	pc, pt                 any // int or nil
	dist, fare, tip, total any // float64 or nil
}{
	// 2024-01-15, payment 1: three kept rows.
	{ptr(time.Date(2024, 1, 15, 8, 0, 0, 0, time.UTC)), 1, 1, 1.1, 10.0, 2.0, 15.5},
	{ptr(time.Date(2024, 1, 15, 9, 0, 0, 0, time.UTC)), 2, 1, 2.205, 12.5, nil, 14.0},
	{ptr(time.Date(2024, 1, 15, 10, 0, 0, 0, time.UTC)), 3, 1, 3.0, 7.0, 1.0, nil},
	// Same group, all filtered out: zero passengers, zero distance, negative
	// fare, NULL passengers, NULL fare, NULL distance.
	{ptr(time.Date(2024, 1, 15, 11, 0, 0, 0, time.UTC)), 0, 1, 1.0, 5.0, 1.0, 7.0},
	{ptr(time.Date(2024, 1, 15, 11, 1, 0, 0, time.UTC)), 1, 1, 0.0, 5.0, 1.0, 7.0},
	{ptr(time.Date(2024, 1, 15, 11, 2, 0, 0, time.UTC)), 1, 1, 1.0, -5.0, 1.0, 7.0},
	{ptr(time.Date(2024, 1, 15, 11, 3, 0, 0, time.UTC)), nil, 1, 1.0, 5.0, 1.0, 7.0},
	{ptr(time.Date(2024, 1, 15, 11, 4, 0, 0, time.UTC)), 1, 1, 1.0, nil, 1.0, 7.0},
	{ptr(time.Date(2024, 1, 15, 11, 5, 0, 0, time.UTC)), 1, 1, nil, 5.0, 1.0, 7.0},
	// 2024-01-15, NULL payment_type: a group of its own.
	{ptr(time.Date(2024, 1, 15, 12, 0, 0, 0, time.UTC)), 1, nil, 0.5, 4.0, 0.0, 5.0},
	// Midnight belongs to the new day; the last microsecond to the old one.
	{ptr(time.Date(2024, 1, 16, 0, 0, 0, 0, time.UTC)), 1, 2, 1.0, 2.675, nil, nil},
	{ptr(time.Date(2024, 1, 15, 23, 59, 59, 999999000, time.UTC)), 4, 2, 1.005, 1.005, 0.5, 3.0},
	// NULL pickup time: NULL trip_date.
	{nil, 2, 1, 1.0, 10.0, 1.0, 12.0},
	// Pickups far outside the month, one before 1970 (days floor to -1).
	{ptr(time.Date(2002, 12, 31, 23, 30, 0, 0, time.UTC)), 1, 1, 2.0, 8.0, 0.0, 9.5},
	{ptr(time.Date(1969, 12, 31, 23, 59, 59, 0, time.UTC)), 1, 4, 1.0, 3.0, 0.0, 3.0},
}

// handWant is worked out by hand (and checked with Python's
// Decimal(repr(x)).quantize(Decimal("0.01"), ROUND_HALF_UP)).
var handWant = map[string]DailyStat{
	// 2024-01-15 is day 19737. distance (1.1+2.205+3.0)/3 = 2.10166 -> 2.1;
	// fare 29.5/3 = 9.8333 -> 9.83; tip_pct 20.0 and round(100/7, 2) = 14.29
	// (the NULL tip is skipped), avg 17.145 -> 17.15 (half-up on the decimal
	// string; binary rounding would give 17.14); revenue 15.5+14.0, the NULL
	// total skipped.
	"19737|1":    {TotalTrips: 3, TotalPassengers: 6, AvgDistance: 2.1, AvgFare: 9.83, AvgTipPercentage: ptr(17.15), TotalRevenue: ptr(29.5)},
	"19737|NULL": {TotalTrips: 1, TotalPassengers: 1, AvgDistance: 0.5, AvgFare: 4, AvgTipPercentage: ptr(0.0), TotalRevenue: ptr(5.0)},
	// round(2.675, 2) = 2.68; all tips and totals NULL give NULLs.
	"19738|2": {TotalTrips: 1, TotalPassengers: 1, AvgDistance: 1, AvgFare: 2.68},
	// 1.005 -> 1.01 (binary rounding, math.Round(x*100)/100, gives 1.0),
	// 0.5/1.005*100 = 49.7512 -> 49.75.
	"19737|2": {TotalTrips: 1, TotalPassengers: 4, AvgDistance: 1.01, AvgFare: 1.01, AvgTipPercentage: ptr(49.75), TotalRevenue: ptr(3.0)},
	"NULL|1":  {TotalTrips: 1, TotalPassengers: 2, AvgDistance: 1, AvgFare: 10, AvgTipPercentage: ptr(10.0), TotalRevenue: ptr(12.0)},
	"12052|1": {TotalTrips: 1, TotalPassengers: 1, AvgDistance: 2, AvgFare: 8, AvgTipPercentage: ptr(0.0), TotalRevenue: ptr(9.5)},
	"-1|4":    {TotalTrips: 1, TotalPassengers: 1, AvgDistance: 1, AvgFare: 3, AvgTipPercentage: ptr(0.0), TotalRevenue: ptr(3.0)},
}

// handLayout says how to store handTrips: column names and types.
type handLayout struct {
	names          map[string]string // renames of needed columns
	ts             arrow.DataType
	int96          bool
	count, payment arrow.DataType
	extra          []column // columns we do not need
}

func (l handLayout) name(n string) string {
	if r, ok := l.names[n]; ok {
		return r
	}
	return n
}

func writeHand(t *testing.T, path string, l handLayout) {
	t.Helper()
	unit := map[arrow.TimeUnit]int64{arrow.Second: 1e9, arrow.Millisecond: 1e6, arrow.Microsecond: 1e3, arrow.Nanosecond: 1}[l.ts.(*arrow.TimestampType).Unit]
	cols := []column{
		{name: l.name("tpep_pickup_datetime"), typ: l.ts},
		{name: l.name("passenger_count"), typ: l.count},
		{name: l.name("trip_distance"), typ: arrow.PrimitiveTypes.Float64},
		{name: l.name("payment_type"), typ: l.payment},
		{name: l.name("fare_amount"), typ: arrow.PrimitiveTypes.Float64},
		{name: l.name("tip_amount"), typ: arrow.PrimitiveTypes.Float64},
		{name: l.name("total_amount"), typ: arrow.PrimitiveTypes.Float64},
	}
	for _, r := range handTrips {
		var ts any
		if r.pickup != nil {
			// Floor division, so that pre-1970 times stay on their day.
			ns := r.pickup.UnixNano()
			q := ns / unit
			if ns%unit < 0 {
				q--
			}
			ts = q
		}
		for i, v := range []any{ts, r.pc, r.dist, r.pt, r.fare, r.tip, r.total} {
			cols[i].vals = append(cols[i].vals, v)
		}
	}
	for _, e := range l.extra {
		for range handTrips {
			e.vals = append(e.vals, 1.25)
		}
		cols = append(cols, e)
	}
	writeColumns(t, path, l.int96, cols...)
}

func TestHandChecked(t *testing.T) {
	f64 := arrow.PrimitiveTypes.Float64
	i64, i32 := arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Int32
	us := &arrow.TimestampType{Unit: arrow.Microsecond}
	layouts := map[string]handLayout{
		"2024": {ts: us, count: i64, payment: i64,
			extra: []column{{name: "Airport_fee", typ: f64}, {name: "congestion_surcharge", typ: f64}}},
		"2025": {ts: us, count: i64, payment: i64,
			extra: []column{{name: "Airport_fee", typ: f64}, {name: "cbd_congestion_fee", typ: f64}}},
		"old, INT96 and double counts": {ts: &arrow.TimestampType{Unit: arrow.Nanosecond}, int96: true, count: f64, payment: f64,
			extra: []column{{name: "airport_fee", typ: f64}, {name: "RatecodeID", typ: f64}}},
		"milliseconds, int32, other case": {ts: &arrow.TimestampType{Unit: arrow.Millisecond}, count: i32, payment: i32,
			names: map[string]string{"passenger_count": "Passenger_Count", "fare_amount": "FARE_AMOUNT"}},
		"seconds, UTC-adjusted": {ts: &arrow.TimestampType{Unit: arrow.Second, TimeZone: "UTC"}, count: arrow.PrimitiveTypes.Uint8, payment: i64},
	}
	for name, l := range layouts {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "hand.parquet")
			writeHand(t, path, l)
			got, err := runDailyStats(t, path)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]DailyStat{}
			for k, s := range handWant {
				want[k] = s
			}
			compare(t, got, want)
			// The reference implementation agrees with the hand-worked
			// numbers, so that the larger comparisons below mean something.
			if name == "2024" {
				compare(t, reference(refRead(t, path)), want)
			}
		})
	}
}

// Every DoFn, combiner and type is registered: unregistered ones work
// through reflection locally but break stripped worker binaries.
func TestRegistered(t *testing.T) {
	p, s := beam.NewPipelineWithRoot()
	DailyStats(s, "unused.parquet")
	if _, err := vet.Execute(ctx, p); err != nil {
		t.Fatal(err)
	}
}

// Every column is optional, as in the table Spark writes: pointers, or
// fields tagged iceberg:"optional" (icebergio tests what the tag does).
func TestDailyStatColumnsOptional(t *testing.T) {
	for f := range reflect.TypeFor[DailyStat]().Fields() {
		if f.Type.Kind() == reflect.Pointer {
			continue
		}
		if !slices.Contains(strings.Split(f.Tag.Get("iceberg"), ","), "optional") {
			t.Errorf("DailyStat.%s is neither a pointer nor tagged iceberg:\"optional\"", f.Name)
		}
	}
}
