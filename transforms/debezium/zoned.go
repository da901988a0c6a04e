package debezium

import (
	"errors"
	"time"
)

// parseZoned reads an ISO-8601 timestamp with an offset (Debezium's
// ZonedTimestamp: 2018-06-20T13:37:03.123456Z, 0 to 9 fraction digits,
// Z or ±hh:mm) as microseconds since the epoch, UTC. Digits past the
// microsecond are dropped toward the past, as for NanoTimestamp. The
// common form is read by hand (time.Parse cost a fifth of an event);
// others, and years outside 0000-9999, go through time.Parse.
func parseZoned(s []byte) (int64, error) {
	if us, ok := parseZonedFast(s); ok {
		return us, nil
	}
	t, err := time.Parse(time.RFC3339Nano, string(s))
	if err != nil {
		return 0, errors.New("not an ISO-8601 timestamp with an offset: " + string(s))
	}
	sec := t.Unix()
	return sec*1_000_000 + int64(t.Nanosecond()/1000), nil
}

func parseZonedFast(s []byte) (int64, bool) {
	if len(s) < 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' {
		return 0, false
	}
	num := func(i, n int) (int64, bool) {
		var v int64
		for _, c := range s[i : i+n] {
			if c < '0' || c > '9' {
				return 0, false
			}
			v = v*10 + int64(c-'0')
		}
		return v, true
	}
	y, ok1 := num(0, 4)
	mo, ok2 := num(5, 2)
	d, ok3 := num(8, 2)
	h, ok4 := num(11, 2)
	mi, ok5 := num(14, 2)
	se, ok6 := num(17, 2)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || h > 23 || mi > 59 || se > 59 {
		return 0, false
	}
	i := 19
	var frac int64 // nanoseconds
	if s[i] == '.' {
		i++
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			if n == 9 {
				return 0, false
			}
			frac = frac*10 + int64(s[i]-'0')
			n++
			i++
		}
		if n == 0 {
			return 0, false
		}
		for ; n < 9; n++ {
			frac *= 10
		}
	}
	var off int64 // seconds east of UTC
	switch {
	case i == len(s)-1 && s[i] == 'Z':
	case i == len(s)-6 && (s[i] == '+' || s[i] == '-') && s[i+3] == ':':
		oh, ok1 := num(i+1, 2)
		om, ok2 := num(i+4, 2)
		if !ok1 || !ok2 || oh > 23 || om > 59 {
			return 0, false
		}
		off = oh*3600 + om*60
		if s[i] == '-' {
			off = -off
		}
	default:
		return 0, false
	}
	secs := daysFromCivil(y, mo, d)*86400 + h*3600 + mi*60 + se - off
	return secs*1_000_000 + frac/1000, true
}

// daysFromCivil is the days from 1970-01-01 to y-m-d in the proleptic
// Gregorian calendar (Howard Hinnant's days_from_civil).
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := y
	if era < 0 {
		era -= 399
	}
	era /= 400
	yoe := y - era*400
	mp := m - 3
	if m <= 2 {
		mp = m + 9
	}
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

func daysIn(y, m int64) int64 {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}
