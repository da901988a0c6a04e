package clicks

import (
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/rtrackers/offsetrange"
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

// A runner may split the restriction while rows are being claimed in
// blocks: a block claim is clipped to the new end, never past it, and the
// residual starts right after it, so no row is lost or claimed twice.
func TestBlockClaimsRespectSplits(t *testing.T) {
	rt := (&generateFn{}).CreateTracker(offsetrange.Restriction{Start: 0, End: 100})
	if from, to, done := rt.claim(10); from != 0 || to != 10 || done {
		t.Fatalf("claim(10) = %d, %d, %v; want 0, 10, false", from, to, done)
	}
	primary, residual, err := rt.TrySplit(0.5) // [0,55) and [55,100)
	if err != nil || primary.(offsetrange.Restriction).End != 55 || residual.(offsetrange.Restriction) != (offsetrange.Restriction{Start: 55, End: 100}) {
		t.Fatalf("TrySplit(0.5) = %v, %v, %v", primary, residual, err)
	}
	if from, to, done := rt.claim(80); from != 10 || to != 55 || !done {
		t.Fatalf("claim(80) after the split = %d, %d, %v; want 10, 55, true", from, to, done)
	}
	if !rt.IsDone() {
		t.Error("primary not done after claiming up to its end")
	}

	rt = (&generateFn{}).CreateTracker(offsetrange.Restriction{Start: 20, End: 30})
	rt.claim(25)
	_, residual, _ = rt.TrySplit(0) // a checkpoint
	if residual.(offsetrange.Restriction) != (offsetrange.Restriction{Start: 25, End: 30}) || !rt.IsDone() {
		t.Errorf("checkpoint after 20..24: residual %v, primary done %v", residual, rt.IsDone())
	}
}
