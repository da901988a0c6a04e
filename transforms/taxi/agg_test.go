package taxi

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
)

// Fares whose average rounds differently depending on the order they are
// summed in (hand-checked in Python: repr of each float sum, then
// Decimal(repr).quantize(Decimal("0.01"), ROUND_HALF_UP), as Spark rounds).
var (
	// One row group, row order: 4.7+27.69+3.91+19.52 = 55.81999999999999,
	// /4 = 13.954999999999998 -> 13.95 (Spark's answer). The exact sum 55.82
	// gives 13.955 -> 13.96.
	tieInOneRowGroup = []float64{4.7, 27.69, 3.91, 19.52}
	// Two row groups of two rows: 47.14+12.07 = 59.21, 28.77+36.16 =
	// 64.92999999999999, 59.21+64.92999999999999 = 124.13999999999999, /4 =
	// 31.034999999999997 -> 31.03. Row order over both (and the exact sum)
	// gives 124.14 -> 31.035 -> 31.04.
	tieOverRowGroups = [][]float64{{47.14, 12.07}, {28.77, 36.16}}
	// One row each in four files, folded in path order: 102.53999999999999,
	// /4 = 25.634999999999998 -> 25.63. The reverse order (and the exact sum)
	// gives 102.54 -> 25.635 -> 25.64.
	tieOverFiles = []float64{7.54, 28.58, 18.86, 47.56}
)

func TestPartialFoldsInFileAndRowGroupOrder(t *testing.T) {
	// tieOverFiles as one row group in each of files 0 and 1, row groups 0
	// and 1.
	parts := []partial{
		{Trips: 1, Sums: []rowGroupSums{{File: 0, RowGroup: 0, Fare: tieOverFiles[0]}}},
		{Trips: 1, Sums: []rowGroupSums{{File: 0, RowGroup: 1, Fare: tieOverFiles[1]}}},
		{Trips: 1, Sums: []rowGroupSums{{File: 1, RowGroup: 0, Fare: tieOverFiles[2]}}},
		{Trips: 1, Sums: []rowGroupSums{{File: 1, RowGroup: 1, Fare: tieOverFiles[3]}}},
	}
	// Whatever order the runner merges them in.
	for _, order := range [][]int{{0, 1, 2, 3}, {3, 2, 1, 0}, {2, 0, 3, 1}, {1, 3, 0, 2}} {
		var left, right partial
		for i, j := range order {
			if i%2 == 0 {
				left.merge(parts[j])
			} else {
				right.merge(parts[j])
			}
		}
		left.merge(right)
		s, err := left.stats(groupKey{date: 19725, payment: 1})
		if err != nil {
			t.Fatal(err)
		}
		if s.TotalTrips != 4 || s.AvgFare != 25.63 {
			t.Errorf("merge order %v: %s, want 4 trips, avg_fare 25.63", order, show(s))
		}
	}
	var dup partial
	dup.merge(parts[1])
	dup.merge(parts[0])
	dup.merge(parts[1])
	if _, err := dup.stats(groupKey{}); err == nil || !strings.Contains(err.Error(), "row group 1 of input file 0") {
		t.Errorf("a row group merged twice: err = %v", err)
	}
}

// TestSparkSummationOrder runs the pipeline over groups whose averages
// depend on the summation order: one in one row group, one over two row
// groups (with another group's rows between), one over four files.
func TestSparkSummationOrder(t *testing.T) {
	dir := t.TempDir()
	day := func(y int, m time.Month, d int) int64 {
		return time.Date(y, m, d, 12, 0, 0, 0, time.UTC).UnixMicro()
	}
	us := &arrow.TimestampType{Unit: arrow.Microsecond}
	i64, f64 := arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Float64
	// Each trip has distance = fare = total_amount, one passenger, no tip.
	write := func(path string, rowGroupLen int64, trips []struct {
		pickup  int64
		payment int
		fare    float64
	}) {
		cols := []column{
			{name: "tpep_pickup_datetime", typ: us}, {name: "passenger_count", typ: i64},
			{name: "trip_distance", typ: f64}, {name: "payment_type", typ: i64},
			{name: "fare_amount", typ: f64}, {name: "tip_amount", typ: f64}, {name: "total_amount", typ: f64},
		}
		for _, tr := range trips {
			for i, v := range []any{tr.pickup, 1, tr.fare, tr.payment, tr.fare, nil, tr.fare} {
				cols[i].vals = append(cols[i].vals, v)
			}
		}
		writeRowGroups(t, path, false, rowGroupLen, cols...)
	}
	type trip = struct {
		pickup  int64
		payment int
		fare    float64
	}
	dec31, jan2, jan3 := day(2023, 12, 31), day(2024, 1, 2), day(2024, 1, 3)
	one, two := tieInOneRowGroup, tieOverRowGroups
	// Row groups of four rows: [B B B B] [A D A D] [A A].
	write(filepath.Join(dir, "a.parquet"), 4, []trip{
		{dec31, 3, one[0]}, {dec31, 3, one[1]}, {dec31, 3, one[2]}, {dec31, 3, one[3]},
		{jan2, 1, two[0][0]}, {jan2, 2, 10}, {jan2, 1, two[0][1]}, {jan2, 2, 20},
		{jan2, 1, two[1][0]}, {jan2, 1, two[1][1]},
	})
	// Written last to first, so that creation order is not path order.
	var paths []string
	for i := len(tieOverFiles) - 1; i >= 0; i-- {
		p := filepath.Join(dir, fmt.Sprintf("b%d.parquet", i))
		write(p, 0, []trip{{jan3, 1, tieOverFiles[i]}})
		paths = append(paths, p)
	}
	paths = append(paths, filepath.Join(dir, "a.parquet"))
	// 2023-12-31 is day 19722. total_revenue is the sum rounded: 55.82,
	// 124.14, 30, 102.54.
	want := map[string]DailyStat{
		"19722|3": {TotalTrips: 4, TotalPassengers: 4, AvgDistance: 13.95, AvgFare: 13.95, TotalRevenue: ptr(55.82)},
		"19724|1": {TotalTrips: 4, TotalPassengers: 4, AvgDistance: 31.03, AvgFare: 31.03, TotalRevenue: ptr(124.14)},
		"19724|2": {TotalTrips: 2, TotalPassengers: 2, AvgDistance: 15, AvgFare: 15, TotalRevenue: ptr(30.0)},
		"19725|1": {TotalTrips: 4, TotalPassengers: 4, AvgDistance: 25.63, AvgFare: 25.63, TotalRevenue: ptr(102.54)},
	}
	got, err := runDailyStats(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	compare(t, got, want)
	compare(t, referenceOf(t, paths...), want)
}

func TestGroupKeyRoundTrip(t *testing.T) {
	for _, k := range []groupKey{
		{date: 19737, payment: 1},
		{date: -1, payment: math.MinInt64},
		{dateNull: true, payment: 0},
		{date: 12052, paymentNull: true},
		{dateNull: true, paymentNull: true},
	} {
		got, err := decodeKey(k.encode())
		if err != nil || got != k {
			t.Errorf("decodeKey(encode(%+v)) = %+v, %v", k, got, err)
		}
	}
	if (groupKey{dateNull: true}).encode() == (groupKey{}).encode() {
		t.Error("a NULL date encodes like day 0")
	}
}
