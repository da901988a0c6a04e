package taxi

import (
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/icebeam/icebeam/internal/launch/launchtest"
)

// TestShuffleKeysSurviveJavaRunners lists every shuffle of DailyStats and
// says why its key reaches the other side unchanged on a runner that
// decodes keys with Java coders (Flink, Spark, Dataflow). A new shuffle
// fails the test until it has a reason.
func TestShuffleKeysSurviveJavaRunners(t *testing.T) {
	p, s := beam.NewPipelineWithRoot()
	DailyStats(s, "unused.parquet")
	reasons := map[string]string{
		// Beam's Reshuffle keys by a random varint: opaque bytes to Java.
		"Reshuffle": "beam:go:coder:custom:v1",
		// The per-group combine keys by groupKey.encode(): ASCII text,
		// checked below.
		"CombinePerKey": "beam:coder:string_utf8:v1",
	}
	used := map[string]bool{}
	for _, sh := range launchtest.Shuffles(t, p) {
		matched := false
		for part, coder := range reasons {
			if strings.Contains(sh.Name, part) {
				matched, used[part] = true, true
				if sh.KeyCoder != coder {
					t.Errorf("%s: key coder %s, want %s", sh.Name, sh.KeyCoder, coder)
				}
			}
		}
		if !matched {
			t.Errorf("shuffle %s (key coder %s) has no reason to survive a Java runner's key decoding", sh.Name, sh.KeyCoder)
		}
	}
	for part := range reasons {
		if !used[part] {
			t.Errorf("no %s shuffle found", part)
		}
	}
}

// The group key is decoded as UTF-8 by Java runners, which replace invalid
// bytes with U+FFFD: it must be text, for every date and payment type,
// NULLs included.
func TestGroupKeysAreText(t *testing.T) {
	for _, k := range []groupKey{
		{date: 14245, payment: 1}, // 2009-01-01: its binary key held 0xA5
		{date: math.MaxInt32, payment: math.MaxInt64},
		{date: math.MinInt32, payment: math.MinInt64},
		{dateNull: true, payment: -1},
		{date: 19724, paymentNull: true},
		{dateNull: true, paymentNull: true},
	} {
		s := k.encode()
		for i := 0; i < len(s); i++ {
			if s[i] >= utf8.RuneSelf {
				t.Errorf("key of %+v has byte %#x at %d: %q", k, s[i], i, s)
			}
		}
		if got, err := decodeKey(strings.ToValidUTF8(s, "\uFFFD")); err != nil || got != k {
			t.Errorf("key %q of %+v decodes as %+v, %v after a UTF-8 round trip", s, k, got, err)
		}
	}
}
