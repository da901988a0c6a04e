package blocks

import (
	"context"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/graph/mtime"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/rtrackers/offsetrange"

	"github.com/icebeam/icebeam/transforms/internal/arrowipc"
)

// positions builds a batch of one int64 column holding its positions.
func positions(from, to int64) arrow.RecordBatch {
	b := array.NewInt64Builder(memory.DefaultAllocator)
	defer b.Release()
	for i := from; i < to; i++ {
		b.Append(i)
	}
	col := b.NewArray()
	defer col.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "i", Type: arrow.PrimitiveTypes.Int64}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{col}, to-from)
}

// emitted is one batch PaceBatches emitted: its timestamp and positions.
type emitted struct {
	at        beam.EventTime
	positions []int64
}

// paceBatches runs PaceBatches over rt and returns what it emitted.
func paceBatches(t *testing.T, rt *Tracker, sched Interval, bundle time.Duration) (sdf.ProcessContinuation, []emitted) {
	t.Helper()
	var out []emitted
	emit := func(at beam.EventTime, x beam.X) {
		rec, err := arrowipc.Decode(x.([]byte))
		if err != nil {
			t.Fatalf("an emitted batch does not decode: %v", err)
		}
		defer rec.Release()
		out = append(out, emitted{at, append([]int64(nil), rec.Column(0).(*array.Int64).Int64Values()...)})
	}
	pc, err := PaceBatches(context.Background(), &sdf.ManualWatermarkEstimator{}, rt, sched, bundle, nil, positions, emit)
	if err != nil {
		t.Fatal(err)
	}
	return pc, out
}

// PaceBatches gathers due positions into batches of at most BatchRows, each
// timestamped when its first position fell due, and flushes what it holds
// when a bundle ends: over a checkpoint and the resumed residual, every
// position is emitted once, in order.
func TestPaceBatches(t *testing.T) {
	const rows = 3*BatchRows + 1000
	// Every position is already due: a source far behind its schedule.
	sched := Interval{StartNanos: time.Now().Add(-time.Hour).UnixNano(), IntervalNanos: 1000, Rows: rows}

	check := func(t *testing.T, batches []emitted, from, to int64) {
		t.Helper()
		next := from
		for i, b := range batches {
			if len(b.positions) == 0 || len(b.positions) > BatchRows {
				t.Fatalf("batch %d holds %d rows; want 1 to %d", i, len(b.positions), BatchRows)
			}
			if want := mtime.FromTime(sched.DueAt(next)); b.at != want {
				t.Errorf("batch %d timestamped %v; want %v, when position %d fell due", i, b.at, want, next)
			}
			for _, p := range b.positions {
				if p != next {
					t.Fatalf("batch %d: position %d where %d was due next", i, p, next)
				}
				next++
			}
		}
		if next != to {
			t.Fatalf("positions %d to %d emitted; want up to %d", from, next, to)
		}
	}

	t.Run("one bundle", func(t *testing.T) {
		pc, batches := paceBatches(t, NewTracker(offsetrange.Restriction{Start: 0, End: rows}), sched, time.Hour)
		if pc.ShouldResume() {
			t.Error("the source asks to resume after emitting its whole restriction")
		}
		check(t, batches, 0, rows)
		if len(batches) != 4 {
			t.Errorf("%d batches; want 4 (three full, one of the 1,000 left)", len(batches))
		}
	})

	t.Run("a bundle ends, the residual resumes", func(t *testing.T) {
		rt := NewTracker(offsetrange.Restriction{Start: 0, End: rows})
		pc, first := paceBatches(t, rt, sched, 0) // the bundle ends after one claim
		if !pc.ShouldResume() {
			t.Fatal("a bundle that ended early does not ask to resume")
		}
		_, residual, err := rt.TrySplit(0) // the runner's checkpoint
		if err != nil {
			t.Fatal(err)
		}
		check(t, first, 0, residual.(offsetrange.Restriction).Start)
		at := residual.(offsetrange.Restriction).Start
		_, rest := paceBatches(t, NewTracker(residual.(offsetrange.Restriction)), sched, time.Hour)
		check(t, rest, at, rows)
	})
}
