package cdc

import (
	"context"
	"fmt"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/graph/mtime"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/icebeam/icebeam/transforms/internal/blocks"
)

// generatedBase is UpdatedAt of change 0: 2026-01-01T00:00:00Z.
var generatedBase = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()

// generatedOps is the cycle each key goes through, one op per round.
var generatedOps = [7]string{"c", "u", "u", "u", "u", "u", "d"}

// Generated is change i (i >= 0) of the generated change stream over keys
// (> 0) accounts, a pure function of i so that a checker can replay the
// stream:
//
//   - key k = i % keys, round r = i / keys; ID = k;
//   - Op is the op at position r % 7 of the cycle c, u, u, u, u, u, d: every
//     key is inserted, updated five times, deleted, and comes back in the
//     next cycle (1/7 of the changes are inserts, 5/7 updates, 1/7 deletes);
//   - LSN = i + 1;
//   - Owner = fmt.Sprintf("owner-%d", (k*7+r)%50);
//   - BalanceCents = (k*1000 + r*37) % 1000000;
//   - UpdatedAt = 2026-01-01T00:00:00Z in microseconds + i*1000;
//   - a delete ("d") keeps Op, LSN and ID and has every other field zero.
func Generated(i, keys int64) Change {
	k, r := i%keys, i/keys
	c := Change{Op: generatedOps[r%7], LSN: i + 1, ID: k}
	if c.Op == "d" {
		return c
	}
	// Reduced modulo 50 and 1000000 first, so that no product overflows
	// at any i.
	c.Owner = owners[((k%50)*7+r%50)%50]
	c.BalanceCents = ((k%1000)*1000 + (r%1000000)*37) % 1000000
	c.UpdatedAt = generatedBase + i*1000
	return c
}

var owners = func() (o [50]string) {
	for i := range o {
		o[i] = fmt.Sprintf("owner-%d", i)
	}
	return o
}()

// GenerateConfig shapes the generated stream.
type GenerateConfig struct {
	// Keys is how many accounts the stream changes (default 1000).
	Keys int64
	// Interval is the time between changes (default 5s). Changes that
	// fall due while the source sleeps are emitted together at its next
	// wake-up, so a microsecond interval gives a fast stream, not a bundle
	// per change. A source that cannot keep up falls behind and still
	// emits every change, each timestamped when it fell due.
	Interval time.Duration
	// Duration bounds the stream to the changes due in [Start,
	// Start+Duration): once they are emitted the source stops and the
	// pipeline can finish. Zero runs until the job is cancelled.
	Duration time.Duration
	// Start is when change 0 is due; zero means now.
	Start time.Time
	// BundleLength is how long the generator emits, sleeping between due
	// changes, before it ends a bundle (default 100ms; 1s on portable
	// runners). Bundles must end: prism passes a bundle's output on only
	// when it ends, and Flink checkpoints between bundles. On Beam's
	// portable Flink runner they must not end often: see
	// clicks.Config.BundleLength.
	BundleLength time.Duration
}

// Generate returns the unbounded PCollection<Change> of Generated(i, Keys)
// for i = 0, 1, 2, ..., change i due at Start + i*Interval and timestamped
// then.
func Generate(s beam.Scope, cfg GenerateConfig) beam.PCollection {
	s = s.Scope("cdc.Generate")
	if cfg.Keys < 0 {
		panic(fmt.Sprintf("cdc: negative Keys %d", cfg.Keys))
	}
	if cfg.Keys == 0 {
		cfg.Keys = 1000
	}
	if cfg.Interval <= 0 {
		cfg.Interval = 5 * time.Second
	}
	s, sp, bundle := blocks.Paced(s, "cdc", cfg.Start, cfg.Interval, cfg.Duration, cfg.BundleLength)
	return beam.ParDo(s, &generateFn{Keys: cfg.Keys, BundleNanos: int64(bundle)}, beam.Create(s, sp))
}

// generateFn emits the changes of a span as they fall due. It is
// splittable so that it can sleep between wake-ups (a resumed residual) and
// emit in bundles of bounded length.
type generateFn struct {
	blocks.Restrictions[blocks.Interval]
	Keys        int64
	BundleNanos int64
}

func (f *generateFn) ProcessElement(ctx context.Context, we *sdf.ManualWatermarkEstimator, rt *blocks.Tracker, sp blocks.Interval, emit func(beam.EventTime, Change)) (sdf.ProcessContinuation, error) {
	return blocks.Pace(ctx, we, rt, sp, time.Duration(f.BundleNanos), nil, func(from, to int64, _ time.Time) error {
		for i := from; i < to; i++ {
			emit(mtime.FromTime(sp.DueAt(i)), Generated(i, f.Keys))
		}
		return nil
	})
}

func init() {
	register.DoFn5x2[context.Context, *sdf.ManualWatermarkEstimator, *blocks.Tracker, blocks.Interval,
		func(beam.EventTime, Change), sdf.ProcessContinuation, error](&generateFn{})
	register.Emitter2[beam.EventTime, Change]()
}
