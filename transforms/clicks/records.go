package clicks

import (
	"context"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"

	"github.com/icebeam/icebeam/transforms/internal/blocks"
)

// Schema is the Arrow schema of the batches Generate emits with Records:
// Click's columns, after seq when sequenced.
func Schema(sequenced bool) *arrow.Schema {
	fields := []arrow.Field{
		{Name: "user_id", Type: arrow.BinaryTypes.String},
		{Name: "click_count", Type: arrow.PrimitiveTypes.Int64},
	}
	if sequenced {
		fields = append([]arrow.Field{{Name: "seq", Type: arrow.PrimitiveTypes.Int64}}, fields...)
	}
	return arrow.NewSchema(fields, nil)
}

// emitRecords is ProcessElement for Records: the due rows go out in
// batches (blocks.PaceBatches).
func (f *generateFn) emitRecords(ctx context.Context, we *sdf.ManualWatermarkEstimator, rt *blocks.Tracker, sp blocks.Interval, emit func(beam.EventTime, beam.X)) (sdf.ProcessContinuation, error) {
	return blocks.PaceBatches(ctx, we, rt, sp, time.Duration(f.BundleNanos), stopping.Load, f.batch, emit)
}

// batch is rows [from, to) as columns, built from their buffers: the user
// ids are f.users in turn.
func (f *generateFn) batch(from, to int64) arrow.RecordBatch {
	n := int(to - from)
	users := blocks.NewStringColumn(n, len(f.users[len(f.users)-1]))
	counts := make([]int64, n)
	for j := range n {
		i := from + int64(j)
		users.Append(f.users[i%int64(len(f.users))])
		counts[j] = i % 100
	}
	int64s := func(v []int64) arrow.Array { return blocks.Int64Column(arrow.PrimitiveTypes.Int64, v) }
	cols := []arrow.Array{users.Array(), int64s(counts)}
	if f.Sequenced {
		seqs := make([]int64, n)
		for j := range seqs {
			seqs[j] = from + int64(j)
		}
		cols = append([]arrow.Array{int64s(seqs)}, cols...)
	}
	return array.NewRecordBatch(Schema(f.Sequenced), cols, int64(n))
}
