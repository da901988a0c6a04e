package cdc

import (
	"context"
	"fmt"
	"reflect"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/graph/mtime"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/rtrackers/offsetrange"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/icebeam/icebeam/internal/portable"
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
	if cfg.Duration < 0 {
		panic(fmt.Sprintf("cdc: negative Duration %v", cfg.Duration))
	}
	if cfg.Start.IsZero() {
		cfg.Start = time.Now()
	}
	if cfg.BundleLength <= 0 {
		cfg.BundleLength = defaultBundleLength()
	}
	length := cfg.Duration
	if length == 0 {
		length = unbounded
	} else {
		s = portable.StreamEndsAt(s, cfg.Start.Add(length))
	}
	sp := span{StartNanos: cfg.Start.UnixNano(), IntervalNanos: int64(cfg.Interval), Rows: int64(length / cfg.Interval), Keys: cfg.Keys}
	return beam.ParDo(s, &generateFn{BundleNanos: int64(cfg.BundleLength)}, beam.Create(s, sp))
}

// unbounded is how far "until cancelled" reaches: far enough for any job,
// near enough that the change count stays in an int64 at a 1ns interval.
const unbounded = 100 * 365 * 24 * time.Hour

// defaultBundleLength is short enough that a pane's changes reach the
// shuffle soon after they fall due, and on portable runners long enough
// for Flink (see clicks.Config.BundleLength).
func defaultBundleLength() time.Duration {
	if portable.Portable() {
		return time.Second
	}
	return 100 * time.Millisecond
}

// span is the generator's one input element: Rows changes over Keys keys,
// change i due at StartNanos + i*IntervalNanos.
type span struct {
	StartNanos    int64
	IntervalNanos int64
	Rows          int64
	Keys          int64
}

// DueAt is when change i falls due.
func (sp span) DueAt(i int64) time.Time {
	return time.Unix(0, sp.StartNanos+i*sp.IntervalNanos)
}

// DueBy is how many changes are due at t: changes 0..DueBy(t)-1.
func (sp span) DueBy(t time.Time) int64 {
	d := t.UnixNano() - sp.StartNanos
	if d < 0 {
		return 0
	}
	return d/sp.IntervalNanos + 1
}

// generateFn emits the changes of a span as they fall due. It is
// splittable so that it can sleep between wake-ups (a resumed residual) and
// emit in bundles of bounded length.
type generateFn struct {
	BundleNanos int64
}

func (*generateFn) CreateInitialRestriction(sp span) offsetrange.Restriction {
	return offsetrange.Restriction{Start: 0, End: sp.Rows}
}

func (*generateFn) SplitRestriction(_ span, r offsetrange.Restriction) []offsetrange.Restriction {
	return []offsetrange.Restriction{r}
}

// RestrictionSize is the number of changes already due and not yet
// emitted.
func (*generateFn) RestrictionSize(sp span, r offsetrange.Restriction) float64 {
	return float64(max(0, min(r.End, sp.DueBy(time.Now()))-r.Start))
}

func (*generateFn) CreateTracker(r offsetrange.Restriction) *blocks.Tracker {
	return blocks.NewTracker(r)
}

// TruncateRestriction drops the rest of the stream when a job drains.
func (*generateFn) TruncateRestriction(*blocks.Tracker, span) offsetrange.Restriction {
	return offsetrange.Restriction{}
}

func (*generateFn) CreateWatermarkEstimator() *sdf.ManualWatermarkEstimator {
	return &sdf.ManualWatermarkEstimator{}
}

func (f *generateFn) ProcessElement(ctx context.Context, we *sdf.ManualWatermarkEstimator, rt *blocks.Tracker, sp span, emit func(beam.EventTime, Change)) (sdf.ProcessContinuation, error) {
	return blocks.Pace(ctx, we, rt, sp, time.Duration(f.BundleNanos), nil, func(from, to int64, _ time.Time) error {
		for i := from; i < to; i++ {
			emit(mtime.FromTime(sp.DueAt(i)), Generated(i, sp.Keys))
		}
		return nil
	})
}

// Watermark is when the next change falls due.
func (sp span) Watermark(next int64, _ time.Time) time.Time { return sp.DueAt(next) }

func init() {
	register.DoFn5x2[context.Context, *sdf.ManualWatermarkEstimator, *blocks.Tracker, span,
		func(beam.EventTime, Change), sdf.ProcessContinuation, error](&generateFn{})
	register.Emitter2[beam.EventTime, Change]()
	beam.RegisterType(reflect.TypeOf((*span)(nil)).Elem())
}
