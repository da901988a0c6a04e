// Package blocks is the restriction tracker of icebeam's streaming sources
// (the clicks generator, the change-stream generator and replayer): an
// offset range claimed a block of due positions at a time, which a runner
// may split or checkpoint at any moment, and the pacing of their bundles,
// row by row or in Arrow batches.
package blocks

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/graph/mtime"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/rtrackers/offsetrange"
	"github.com/icebeam/icebeam/transforms/internal/arrowipc"
	"github.com/icebeam/icebeam/transforms/portable/hint"
)

// NewTracker tracks r from its start.
func NewTracker(r offsetrange.Restriction) *Tracker { return &Tracker{rest: r, next: r.Start} }

// Tracker tracks an offset range claimed in blocks: one claim covers the
// rows due (at most blockRows), clipped atomically to the restriction's
// end, which the runner may move at any time by splitting. (offsetrange's
// tracker claims one position at a time: claiming a block's last position
// past a split point would silently drop the rows before it.)
type Tracker struct {
	mu      sync.Mutex
	rest    offsetrange.Restriction
	next    int64 // first unclaimed position
	stopped bool
	err     error
}

// Claim claims positions [from, to) with to <= upTo, at most blockRows of
// them; done reports that the restriction is finished and nothing more may
// be claimed.
func (t *Tracker) Claim(upTo int64) (from, to int64, done bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	from = t.next
	if t.stopped {
		return from, from, true
	}
	to = max(from, min(upTo, from+blockRows, t.rest.End))
	t.next = to
	if to >= t.rest.End {
		t.stopped = true
	}
	return from, to, t.stopped
}

// End finishes the restriction at the first unclaimed position.
func (t *Tracker) End() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.rest.End = min(t.rest.End, t.next)
	t.stopped = true
}

// TryClaim claims every position up to and including pos.
func (t *Tracker) TryClaim(p any) bool {
	pos := p.(int64)
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case t.stopped:
		t.err = fmt.Errorf("claim of %d after the restriction %v stopped", pos, t.rest)
		return false
	case pos < t.next:
		t.stopped = true
		t.err = fmt.Errorf("claim of %d at or before the last claimed position %d", pos, t.next-1)
		return false
	case pos >= t.rest.End:
		t.next, t.stopped = t.rest.End, true
		return false
	}
	t.next = pos + 1
	return true
}

func (t *Tracker) GetError() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.err
}

// TrySplit keeps the claimed rows (and the given fraction of the rest) in
// the primary; fraction 0 is a checkpoint.
func (t *Tracker) TrySplit(fraction float64) (primary, residual any, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped || t.next >= t.rest.End {
		return t.rest, nil, nil
	}
	fraction = math.Min(math.Max(fraction, 0), 1)
	at := t.next + int64(math.Ceil(fraction*float64(t.rest.End-t.next)))
	if at >= t.rest.End {
		return t.rest, nil, nil
	}
	res := offsetrange.Restriction{Start: at, End: t.rest.End}
	t.rest.End = at
	return t.rest, res, nil
}

func (t *Tracker) GetProgress() (done, remaining float64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return float64(t.next - t.rest.Start), float64(t.rest.End - t.next)
}

func (t *Tracker) IsDone() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.err == nil && t.next >= t.rest.End
}

func (t *Tracker) GetRestriction() any {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.rest
}

func (t *Tracker) IsBounded() bool { return true }

// Schedule says when a paced source's positions fall due.
type Schedule interface {
	// DueBy is how many positions are due at now: positions
	// [0, DueBy(now)).
	DueBy(now time.Time) int64
	// DueAt is when position i falls due.
	DueAt(i int64) time.Time
	// Watermark is the source's watermark once every position before
	// next has been emitted, at now.
	Watermark(next int64, now time.Time) time.Time
}

const (
	// blockRows bounds one claim, so that a bundle catching up on many
	// due positions still checks the clock and its length.
	blockRows = 4096
	// maxSleep bounds a wait inside a bundle, so that a stop request
	// or a cancelled bundle is noticed soon.
	maxSleep = 50 * time.Millisecond
	// minWake is the shortest resume delay asked of the runner.
	minWake = 10 * time.Millisecond
	// minSleep is the shortest wait inside a bundle: a fast schedule (a
	// position every few hundred nanoseconds) then claims what fell due
	// meanwhile in one go, where waking for each few positions spent a
	// tenth of a flat-out cdc run's CPU on the clock and the timers.
	minSleep = time.Millisecond
)

// Pace runs one bundle of a paced source: it claims the positions due,
// hands each block to emit (positions [from, to), claimed at now), moves
// the watermark, and sleeps until the next position is due, ending the
// bundle after about bundle and resuming when the next position is due.
// stopped, when set, ends the whole restriction where it stands (a
// drain).
func Pace(ctx context.Context, we *sdf.ManualWatermarkEstimator, rt *Tracker, sched Schedule, bundle time.Duration,
	stopped func() bool, emit func(from, to int64, now time.Time) error) (sdf.ProcessContinuation, error) {
	began := time.Now()
	now := began
	for {
		if stopped != nil && stopped() {
			rt.End()
			return sdf.StopProcessing(), nil
		}
		from, to, done := rt.Claim(sched.DueBy(now))
		if to > from {
			if err := emit(from, to, now); err != nil {
				return sdf.StopProcessing(), err
			}
		}
		if done {
			return sdf.StopProcessing(), nil
		}
		now = time.Now()
		we.UpdateWatermark(sched.Watermark(to, now))
		if ctx.Err() != nil {
			return sdf.ResumeProcessingIn(0), nil
		}
		if to > from {
			if now.Sub(began) >= bundle {
				return sdf.ResumeProcessingIn(0), nil
			}
			continue
		}
		// Caught up: wait for the next position in this bundle if it falls
		// due before the bundle should end, else in a new one.
		wait := sched.DueAt(to).Sub(now)
		if now.Add(wait).Sub(began) >= bundle {
			return sdf.ResumeProcessingIn(max(wait, minWake)), nil
		}
		time.Sleep(min(max(wait, minSleep), maxSleep))
		now = time.Now()
	}
}

// BatchRows bounds the rows of a batch PaceBatches emits.
const BatchRows = 1 << 16

// PaceBatches is Pace for a source that emits Arrow record batches: the due
// positions are gathered into batches of at most BatchRows, each built by
// build ([from, to)) once full and at the end of the bundle, and emitted as
// an Arrow IPC stream timestamped when its first position fell due. A
// batch is one element for the runner, however many rows it holds. It may
// be emitted after Pace moved the watermark past its timestamp within the
// bundle: the runner takes a bundle's outputs together with the watermark
// of its residual, so the batch is not late.
func PaceBatches(ctx context.Context, we *sdf.ManualWatermarkEstimator, rt *Tracker, sched Schedule, bundle time.Duration,
	stopped func() bool, build func(from, to int64) arrow.RecordBatch, emit func(beam.EventTime, beam.X)) (sdf.ProcessContinuation, error) {
	first, next := int64(-1), int64(0)
	flush := func() error {
		if first < 0 {
			return nil
		}
		rec := build(first, next)
		b, err := arrowipc.Encode(rec)
		rec.Release()
		if err != nil {
			return err
		}
		emit(mtime.FromTime(sched.DueAt(first)), b)
		first = -1
		return nil
	}
	pc, err := Pace(ctx, we, rt, sched, bundle, stopped, func(from, to int64, _ time.Time) error {
		for from < to {
			if first < 0 {
				first = from
			}
			next = min(to, first+BatchRows)
			from = next
			if next-first == BatchRows {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return pc, err
	}
	return pc, flush()
}

// An Element is a paced source's input element: its schedule and its
// number of positions.
type Element interface {
	Schedule
	Positions() int64
}

// Restrictions gives a splittable DoFn over elements E the restriction
// methods of a paced source (embed it): one offset range over the
// element's positions, tracked by a Tracker, never split up front, sized
// by the positions already due, dropped on a drain, with a watermark the
// DoFn sets.
type Restrictions[E Element] struct{}

func (Restrictions[E]) CreateInitialRestriction(e E) offsetrange.Restriction {
	return offsetrange.Restriction{Start: 0, End: e.Positions()}
}

func (Restrictions[E]) SplitRestriction(_ E, r offsetrange.Restriction) []offsetrange.Restriction {
	return []offsetrange.Restriction{r}
}

// RestrictionSize is the number of positions already due and not yet
// emitted.
func (Restrictions[E]) RestrictionSize(e E, r offsetrange.Restriction) float64 {
	return float64(max(0, min(r.End, e.DueBy(time.Now()))-r.Start))
}

func (Restrictions[E]) CreateTracker(r offsetrange.Restriction) *Tracker { return NewTracker(r) }

// TruncateRestriction drops the rest of the stream when a job drains.
func (Restrictions[E]) TruncateRestriction(*Tracker, E) offsetrange.Restriction {
	return offsetrange.Restriction{}
}

func (Restrictions[E]) CreateWatermarkEstimator() *sdf.ManualWatermarkEstimator {
	return &sdf.ManualWatermarkEstimator{}
}

// Interval is the element of a source whose positions fall due at a fixed
// interval: Rows positions, position i due at StartNanos + i*IntervalNanos.
type Interval struct {
	StartNanos    int64
	IntervalNanos int64
	Rows          int64
}

// DueAt is when position i falls due.
func (iv Interval) DueAt(i int64) time.Time {
	return time.Unix(0, iv.StartNanos+i*iv.IntervalNanos)
}

// DueBy is how many positions are due at t: 0..DueBy(t)-1.
func (iv Interval) DueBy(t time.Time) int64 {
	d := t.UnixNano() - iv.StartNanos
	if d < 0 {
		return 0
	}
	return d/iv.IntervalNanos + 1
}

// Positions is how many positions the interval holds.
func (iv Interval) Positions() int64 { return iv.Rows }

// Watermark is when the next position falls due.
func (iv Interval) Watermark(next int64, _ time.Time) time.Time { return iv.DueAt(next) }

func init() { beam.RegisterType(reflect.TypeOf(Interval{})) }

// unbounded is how far "until cancelled" reaches: far enough for any job,
// near enough that the position count stays in an int64 at a 1ns interval.
const unbounded = 100 * 365 * 24 * time.Hour

// BundleLength is how long a paced source's bundles last: 100 ms, so
// that rows reach the shuffle soon after they fall due, and 1 s on portable
// runners, whose Flink runner keeps state for every self-checkpoint (see
// clicks.Config.BundleLength).
func BundleLength() time.Duration {
	if hint.Portable() {
		return time.Second
	}
	return 100 * time.Millisecond
}

// Paced is the Interval of a source with one position every interval from
// start (zero: now) for duration (0: until cancelled), and the scope to
// build it in: one that tells the portable runner when the stream ends
// (hint.StreamEndsAt), and bundle, or BundleLength() when it is 0.
// what names the source in a panic on a
// negative duration.
func Paced(s beam.Scope, what string, start time.Time, interval, duration, bundle time.Duration) (beam.Scope, Interval, time.Duration) {
	if duration < 0 {
		panic(fmt.Sprintf("%s: negative Duration %v", what, duration))
	}
	if start.IsZero() {
		start = time.Now()
	}
	if bundle <= 0 {
		bundle = BundleLength()
	}
	length := duration
	if length == 0 {
		length = unbounded
	} else {
		s = hint.StreamEndsAt(s, start.Add(length))
	}
	return s, Interval{StartNanos: start.UnixNano(), IntervalNanos: int64(interval), Rows: int64(length / interval)}, bundle
}

// StringColumn builds a string column of a batch straight into its offsets
// and data, for PaceBatches' build functions.
type StringColumn struct {
	offsets []int32
	data    []byte
}

// NewStringColumn returns a StringColumn sized for n strings of about
// avgLen bytes.
func NewStringColumn(n, avgLen int) *StringColumn {
	return &StringColumn{offsets: make([]int32, 1, n+1), data: make([]byte, 0, n*avgLen)}
}

// Append adds s as the column's next value.
func (c *StringColumn) Append(s string) {
	c.data = append(c.data, s...)
	c.offsets = append(c.offsets, int32(len(c.data)))
}

// Array is the column built so far, sharing its buffers.
func (c *StringColumn) Array() arrow.Array {
	return array.MakeFromData(array.NewData(arrow.BinaryTypes.String, len(c.offsets)-1,
		[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(c.offsets)), memory.NewBufferBytes(c.data)}, nil, 0, 0))
}

// Int64Column is v as a column of t, a type of 64-bit values (int64, a
// timestamp), sharing v's memory.
func Int64Column(t arrow.DataType, v []int64) arrow.Array {
	return array.MakeFromData(array.NewData(t, len(v),
		[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(v))}, nil, 0, 0))
}
