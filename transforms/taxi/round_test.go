package taxi

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Expected values are checked by hand against Java's
// new BigDecimal(Double.toString(x)).setScale(2, RoundingMode.HALF_UP).
func TestSparkRound(t *testing.T) {
	cases := []struct{ in, want float64 }{
		{2.675, 2.68},   // binary value 2.67499999..., Spark still rounds up
		{1.005, 1.01},   // binary 1.00499999...
		{1.015, 1.02},   //
		{0.125, 0.13},   // exact tie: half-up, not half-even
		{0.135, 0.14},   //
		{2.665, 2.67},   //
		{-2.675, -2.68}, // ties go away from zero
		{-0.125, -0.13}, //
		{1.2345, 1.23},  //
		{1.2355, 1.24},  //
		{9.995, 10},     // carry through the nines
		{99.999, 100},   //
		{0.995, 1},      //
		{0.005, 0.01},   // keep == 0 with the first digit 5
		{0.0049999, 0},  //
		{0.004, 0},      //
		{0.0001, 0},     // keep < 0
		{-0.001, 0},     // no negative zero
		{1e-300, 0},     //
		{5e-3, 0.01},    //
		{100, 100},      //
		{0, 0},          //
		{12.5, 12.5},    //
		{1e20, 1e20},    // already exact at two decimals
		{123456.785, 123456.79},
		{16.666666666666668, 16.67},
		{33.333333333333336, 33.33},
		{0.1 + 0.2, 0.3}, // 0.30000000000000004
		{1.0000000000000002, 1},
		{2.4999999999999996, 2.5},
		{18.015, 18.02},
		{4.445, 4.45},
		{1.1 * 3, 3.3}, // 3.3000000000000003
	}
	for _, c := range cases {
		got := sparkRound(c.in, 2)
		if got != c.want || math.Signbit(got) != math.Signbit(c.want) {
			t.Errorf("sparkRound(%v, 2) = %v, want %v", c.in, got, c.want)
		}
	}
	for _, x := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if got := sparkRound(x, 2); !(got == x || math.IsNaN(x) && math.IsNaN(got)) {
			t.Errorf("sparkRound(%v, 2) = %v", x, got)
		}
	}
	if got := sparkRound(2.5, 0); got != 3 {
		t.Errorf("sparkRound(2.5, 0) = %v, want 3", got)
	}
	if got := sparkRound(1234.5678, -2); got != 1200 {
		t.Errorf("sparkRound(1234.5678, -2) = %v, want 1200", got)
	}
}

// The fast path must agree with rounding the decimal string, including on
// values a hair either side of a tie.
func TestRoundFastAgreesWithDecimal(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	check := func(x float64) {
		t.Helper()
		if got, ok := roundFast(x, 2); ok {
			if want := roundDecimal(x, 2); got != want || math.Signbit(got) != math.Signbit(want) {
				t.Fatalf("roundFast(%v) = %v, roundDecimal = %v", x, got, want)
			}
		}
	}
	for range 300_000 {
		cents := float64(r.IntN(2_000_000)-1_000_000) / 1000 // three decimals: many exact ties
		check(cents)
		check(math.Nextafter(cents, math.Inf(1)))
		check(math.Nextafter(cents, math.Inf(-1)))
		check(r.Float64()*200 - 100)
		tip, fare := float64(r.IntN(5000))/100, float64(r.IntN(9000)+1)/100
		check(tip / fare * 100)
	}
}

// round2Fast, the fold's per-row rounding, is sparkRound(x, 2) to the bit
// wherever it answers, and answers for most of the values tips are made of.
func TestRound2Fast(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	answered, asked := 0, 0
	check := func(x float64) {
		t.Helper()
		asked++
		got, ok := round2Fast(x)
		if !ok {
			return
		}
		answered++
		if want := sparkRound(x, 2); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("round2Fast(%v) = %v, sparkRound(x, 2) = %v", x, got, want)
		}
	}
	for _, x := range []float64{0, math.Copysign(0, -1), -0.001, -0.004, 0.005, -0.005, 2.675, -2.675, 1.005,
		0.125, -0.125, 9.995, 99.999, 1e-300, -1e-300, 1e20, -1e20, 1 << 49, 1<<50 + 0.5, 1<<52 - 1,
		math.MaxFloat64, math.SmallestNonzeroFloat64, math.NaN(), math.Inf(1), math.Inf(-1)} {
		check(x)
	}
	for range 300_000 {
		cents := float64(r.IntN(2_000_000)-1_000_000) / 1000
		check(cents)
		check(math.Nextafter(cents, math.Inf(1)))
		check(math.Nextafter(cents, math.Inf(-1)))
		check(r.Float64()*200 - 100)
		check(math.Float64frombits(r.Uint64()))
		tip, fare := float64(r.IntN(5000))/100, float64(r.IntN(9000)+1)/100
		check(tip / fare * 100)
		check(-tip / fare * 100)
	}
	if answered < asked*3/4 {
		t.Errorf("round2Fast answered %d of %d values", answered, asked)
	}
}
