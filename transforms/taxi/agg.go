package taxi

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// groupKey is one (trip_date, payment_type) group; a NULL is its own group,
// as in Spark's groupBy.
type groupKey struct {
	date        int32
	dateNull    bool
	payment     int64
	paymentNull bool
}

// encode gives the shuffle key: "<days>|<payment_type>", with "null" for a
// NULL, e.g. "19724|1" or "null|2". It is text because the runners that
// shuffle it are not all Go: Flink, Spark and Dataflow's shuffle decode a
// Go string key as UTF-8 (StringUtf8Coder), and a binary key turned bytes
// >= 0x80 into U+FFFD there, merging or corrupting groups.
func (k groupKey) encode() string {
	b := make([]byte, 0, 24)
	b = appendKeyPart(b, int64(k.date), k.dateNull)
	b = append(b, '|')
	b = appendKeyPart(b, k.payment, k.paymentNull)
	return string(b)
}

func decodeKey(s string) (groupKey, error) {
	date, payment, ok := strings.Cut(s, "|")
	if !ok {
		return groupKey{}, fmt.Errorf("taxi: bad group key %q", s)
	}
	d, dateNull, errDate := parseKeyPart(date, 32)
	p, paymentNull, errPayment := parseKeyPart(payment, 64)
	if err := cmp.Or(errDate, errPayment); err != nil {
		return groupKey{}, fmt.Errorf("taxi: bad group key %q: %w", s, err)
	}
	return groupKey{date: int32(d), dateNull: dateNull, payment: p, paymentNull: paymentNull}, nil
}

// appendKeyPart appends one part of a group key: v in decimal, or "null".
func appendKeyPart(b []byte, v int64, null bool) []byte {
	if null {
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, v, 10)
}

// parseKeyPart reads one part of a group key as appendKeyPart wrote it;
// v must fit in bitSize bits.
func parseKeyPart(s string, bitSize int) (v int64, null bool, err error) {
	if s == "null" {
		return 0, true, nil
	}
	v, err = strconv.ParseInt(s, 10, bitSize)
	return v, false, err
}

// rowGroupSums is one group's double sums over the rows of one row group.
// Spark folds sum += x in row order within an input split, from 0.0, and
// its averages are only as exact as that order (a .xx5 tie can round
// either way), so these are plain sums in row order, never compensated or
// reordered.
type rowGroupSums struct {
	File     int64   `beam:"file"`      // the file's position in path order
	Path     string  `beam:"path"`      // the data file of an Iceberg split; empty for files
	RowGroup int64   `beam:"row_group"` // the row group's index in its file; a split's byte offset
	Distance float64 `beam:"distance"`
	Fare     float64 `beam:"fare"`
	TipPct   float64 `beam:"tip_pct"`
	Revenue  float64 `beam:"revenue"`
}

// partial is what the shuffle carries: the aggregates of one group over
// some row groups. Integer aggregates are exact in any order and are added
// as they come; the double sums stay per row group until every part has
// arrived, since bundles arrive in no particular order.
type partial struct {
	Trips      int64          `beam:"trips"`
	Passengers int64          `beam:"passengers"`
	TipPctN    int64          `beam:"tip_pct_n"` // non-NULL tip_pct values
	RevenueN   int64          `beam:"revenue_n"` // non-NULL total_amount values
	Sums       []rowGroupSums `beam:"sums"`
}

func (p *partial) merge(o partial) {
	p.Trips += o.Trips
	p.Passengers += o.Passengers
	p.TipPctN += o.TipPctN
	p.RevenueN += o.RevenueN
	// A fresh slice: the runner may still hold either side's backing array.
	p.Sums = slices.Concat(p.Sums, o.Sums)
}

// totals folds the per-row-group sums in (file, row group) order from 0.0,
// as Spark merges its per-split partial sums, so that the result does not
// depend on how the runner bundled the row groups.
func (p *partial) totals() (distance, fare, tipPct, revenue float64, err error) {
	sums := slices.Clone(p.Sums)
	slices.SortFunc(sums, func(a, b rowGroupSums) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Path, b.Path), cmp.Compare(a.RowGroup, b.RowGroup))
	})
	for i, s := range sums {
		if i > 0 && s.File == sums[i-1].File && s.Path == sums[i-1].Path && s.RowGroup == sums[i-1].RowGroup {
			if s.Path != "" {
				return 0, 0, 0, 0, fmt.Errorf("taxi: the split of %s at byte %d was aggregated twice", s.Path, s.RowGroup)
			}
			return 0, 0, 0, 0, fmt.Errorf("taxi: row group %d of input file %d was aggregated twice", s.RowGroup, s.File)
		}
		distance += s.Distance
		fare += s.Fare
		tipPct += s.TipPct
		revenue += s.Revenue
	}
	return distance, fare, tipPct, revenue, nil
}

// stats finishes a group the way the seed's agg() does.
func (p *partial) stats(k groupKey) (DailyStat, error) {
	distance, fare, tipPct, revenue, err := p.totals()
	if err != nil {
		return DailyStat{}, err
	}
	out := DailyStat{
		TotalTrips:      p.Trips,
		TotalPassengers: p.Passengers,
		AvgDistance:     sparkRound(distance/float64(p.Trips), 2),
		AvgFare:         sparkRound(fare/float64(p.Trips), 2),
	}
	if !k.dateNull {
		d := k.date
		out.TripDate = &d
	}
	if !k.paymentNull {
		pt := k.payment
		out.PaymentType = &pt
	}
	if p.TipPctN > 0 { // avg skips NULLs; all NULL gives NULL
		v := sparkRound(tipPct/float64(p.TipPctN), 2)
		out.AvgTipPercentage = &v
	}
	if p.RevenueN > 0 { // sum skips NULLs; all NULL gives NULL
		v := sparkRound(revenue, 2)
		out.TotalRevenue = &v
	}
	return out, nil
}
