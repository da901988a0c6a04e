package taxi

import (
	"math"
	"strconv"
	"strings"
)

// sparkRound is Spark SQL's round(x, scale) on a double: NaN and infinities
// pass through; anything else becomes BigDecimal(Double.toString(x)), is
// rounded HALF_UP (ties away from zero) at scale decimals and converted back
// to the nearest double. Rounding the shortest decimal string rather than the
// binary value is what makes round(2.675, 2) = 2.68 in Spark although the
// double 2.675 is slightly below 2.675. Go's shortest formatting matches Java
// 19+'s Double.toString; older JVMs occasionally print a longer string, which
// can only matter for values with 17 significant digits.
func sparkRound(x float64, scale int) float64 {
	if r, ok := roundFast(x, scale); ok {
		return r
	}
	return roundDecimal(x, scale)
}

// round2Fast is roundFast(x, 2) for the fold, which runs it per row: small
// enough to be inlined there (cost 79 of the compiler's 80; the call it
// replaces cost a sixth of the fold's time), the scale a constant, and
// without branches on the digits (a rounding up or down is a coin toss the
// branch predictor loses: hence math.Abs in the tie test, not two
// comparisons). Below 2^52, truncating the non-negative y is its floor.
// Outside the tie margin, the nearest integer to y is floor(y+0.5): y+0.5 is
// off by at most an ulp of y, far inside the margin.
func round2Fast(x float64) (r float64, ok bool) {
	y := x * 100
	if x < 0 {
		y = -y
	}
	// int64 of NaN, ±Inf or a y past 2^52 is some integer, and such a y
	// declines whatever it is.
	if d := y - float64(int64(y)) - 0.5; !(y < 1<<52) || math.Abs(d) <= y*1e-12+1e-12 {
		return 0, false
	}
	// The integer and 100 are exact, so the division is the double
	// nearest n/100.
	if r = float64(int64(y+0.5)) / 100; x < 0 {
		r = 0 - r // 0 - 0 is 0: BigDecimal has no negative zero
	}
	return r, true
}

// roundFast rounds without formatting x, which is most of roundDecimal's
// cost. Away from a tie, the shortest decimal
// string of x and x itself lie on the same side of the half unit: the string
// differs from x by at most half an ulp, far inside the margin below. Near a
// tie it declines and roundDecimal decides from the string.
func roundFast(x float64, scale int) (float64, bool) {
	if scale < 0 || scale >= len(pow10) {
		return 0, false
	}
	p := pow10[scale]
	y := math.Abs(x) * p
	if !(y < 1<<52) { // also NaN and ±Inf
		return 0, false
	}
	n := math.Floor(y)
	frac := y - n
	if math.Abs(frac-0.5) <= y*1e-12+1e-12 {
		return 0, false
	}
	if frac > 0.5 {
		n++
	}
	if n == 0 {
		return 0, true // BigDecimal has no negative zero
	}
	// n and p are exact, so the division is the double nearest n/10^scale,
	// the same double ParseFloat gives for the decimal string.
	if x < 0 {
		return -n / p, true
	}
	return n / p, true
}

var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// roundDecimal is sparkRound done the way Spark does it: on the digits of
// the shortest decimal string.
func roundDecimal(x float64, scale int) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	s := strconv.FormatFloat(x, 'e', -1, 64) // [-]d[.ddd]e±XX, shortest round-trip
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	mant, expStr, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expStr)
	digits := []byte(strings.Replace(mant, ".", "", 1))
	// The value is 0.digits × 10^(exp+1); keep the digits down to 10^-scale.
	keep := exp + 1 + scale
	if keep >= len(digits) {
		return x // already exact at this scale
	}
	if keep < 0 {
		return 0 // below half a unit of the last kept place
	}
	roundUp := digits[keep] >= '5'
	kept := digits[:keep]
	if roundUp {
		i := len(kept) - 1
		for ; i >= 0 && kept[i] == '9'; i-- {
			kept[i] = '0'
		}
		if i >= 0 {
			kept[i]++
		} else {
			kept = append([]byte{'1'}, kept...)
		}
	}
	if strings.Trim(string(kept), "0") == "" {
		return 0 // BigDecimal has no negative zero
	}
	out := string(kept) + "e" + strconv.Itoa(-scale)
	if neg {
		out = "-" + out
	}
	v, err := strconv.ParseFloat(out, 64)
	if err != nil {
		panic("taxi: sparkRound built an unparsable number " + out)
	}
	return v
}
