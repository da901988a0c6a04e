package clicks

import (
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
)

func TestMain(m *testing.M) { ptest.MainWithDefault(m, "prism") }

func TestForIndexMatchesTheJavaExample(t *testing.T) {
	// Hand-checked against the Java lambda: "user-" + (i % 10), i % 100.
	cases := map[int64]Click{
		0:   {"user-0", 0},
		7:   {"user-7", 7},
		10:  {"user-0", 10},
		99:  {"user-9", 99},
		100: {"user-0", 0},
		123: {"user-3", 23},
	}
	for i, want := range cases {
		if got := ForIndex(i); got != want {
			t.Errorf("ForIndex(%d) = %+v, want %+v", i, got, want)
		}
	}
}

// A stream that started in the past has all its rows due at once, so the
// exact row count is known: every row 0..n-1 exactly once.
func TestGenerateEmitsEveryDueRowOnce(t *testing.T) {
	const n = 1500
	interval := 4 * time.Millisecond
	p, s := beam.NewPipelineWithRoot()
	got := Generate(s, Config{
		Interval: interval,
		Duration: n * interval,
		Start:    time.Now().Add(-time.Minute),
	})
	want := make([]any, n)
	for i := range want {
		want[i] = Click{UserID: "user-" + string(rune('0'+i%10)), ClickCount: int64(i % 100)}
	}
	passert.Equals(s, got, want...)
	ptest.RunAndValidate(t, p)
}

func TestGenerateSequenced(t *testing.T) {
	const n = 300
	interval := time.Millisecond
	p, s := beam.NewPipelineWithRoot()
	got := Generate(s, Config{Interval: interval, Duration: n * interval, Start: time.Now().Add(-time.Minute), Sequenced: true})
	want := make([]any, n)
	for i := range want {
		want[i] = SequencedClick{Seq: int64(i), UserID: "user-" + string(rune('0'+i%10)), ClickCount: int64(i % 100)}
	}
	passert.Equals(s, got, want...)
	ptest.RunAndValidate(t, p)
}
