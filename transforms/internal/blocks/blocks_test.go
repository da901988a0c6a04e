package blocks

import (
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/rtrackers/offsetrange"
)

// A runner may split the restriction while rows are being claimed in
// blocks: a block claim is clipped to the new end, never past it, and the
// residual starts right after it, so no row is lost or claimed twice.
func TestBlockClaimsRespectSplits(t *testing.T) {
	rt := NewTracker(offsetrange.Restriction{Start: 0, End: 100})
	if from, to, done := rt.Claim(10); from != 0 || to != 10 || done {
		t.Fatalf("claim(10) = %d, %d, %v; want 0, 10, false", from, to, done)
	}
	primary, residual, err := rt.TrySplit(0.5) // [0,55) and [55,100)
	if err != nil || primary.(offsetrange.Restriction).End != 55 || residual.(offsetrange.Restriction) != (offsetrange.Restriction{Start: 55, End: 100}) {
		t.Fatalf("TrySplit(0.5) = %v, %v, %v", primary, residual, err)
	}
	if from, to, done := rt.Claim(80); from != 10 || to != 55 || !done {
		t.Fatalf("claim(80) after the split = %d, %d, %v; want 10, 55, true", from, to, done)
	}
	if !rt.IsDone() {
		t.Error("primary not done after claiming up to its end")
	}

	rt = NewTracker(offsetrange.Restriction{Start: 20, End: 30})
	rt.Claim(25)
	_, residual, _ = rt.TrySplit(0) // a checkpoint
	if residual.(offsetrange.Restriction) != (offsetrange.Restriction{Start: 25, End: 30}) || !rt.IsDone() {
		t.Errorf("checkpoint after 20..24: residual %v, primary done %v", residual, rt.IsDone())
	}
}
