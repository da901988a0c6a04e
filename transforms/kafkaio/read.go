package kafkaio

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/graph/mtime"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/rtrackers/offsetrange"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
)

func init() {
	register.DoFn5x2[context.Context, *watermarkEstimator, *sdf.LockRTracker, partition, func(beam.EventTime, Record), sdf.ProcessContinuation, error](&readFn{})
	register.DoFn4x1[context.Context, *sdf.LockRTracker, partition, func(beam.EventTime, Record), error](&boundedReadFn{})
	register.Emitter2[beam.EventTime, Record]()
}

// partitionRestrictions are the restriction methods the unbounded and the
// bounded read share: one partition's offsets, never split up front (a
// partition is read in order by one worker at a time).
type partitionRestrictions struct {
	Cfg ReadConfig
}

func (f *partitionRestrictions) CreateInitialRestriction(p partition) offsetrange.Restriction {
	return offsetrange.Restriction{Start: p.Start, End: p.End}
}

func (f *partitionRestrictions) SplitRestriction(_ partition, r offsetrange.Restriction) []offsetrange.Restriction {
	return []offsetrange.Restriction{r}
}

func (f *partitionRestrictions) RestrictionSize(p partition, r offsetrange.Restriction) float64 {
	end := r.End
	if end == math.MaxInt64 {
		end = knownEnd(p.key(), r.Start)
	}
	return float64(max(end-r.Start, 0))
}

func (f *partitionRestrictions) CreateTracker(r offsetrange.Restriction) (*sdf.LockRTracker, error) {
	if r.End != math.MaxInt64 {
		return sdf.NewLockRTracker(offsetrange.NewTracker(r)), nil
	}
	rt, err := offsetrange.NewGrowableTracker(r, endEstimator{})
	if err != nil {
		return nil, err
	}
	return sdf.NewLockRTracker(rt), nil
}

// TruncateRestriction reads nothing more of a partition when the job
// drains.
func (f *readFn) TruncateRestriction(rt *sdf.LockRTracker, _ partition) offsetrange.Restriction {
	start := rt.GetRestriction().(offsetrange.Restriction).Start
	return offsetrange.Restriction{Start: start, End: start}
}

// readFn reads a partition for as long as the job runs, ReadTime at a
// time: then it checkpoints, handing the runner its records and its
// position.
type readFn struct {
	partitionRestrictions
	// handOver is when a read in this bundle that has caught up with its
	// partition stops: a runner reads a bundle's partitions one after the
	// other (prism puts them all in one bundle), and each reading ReadTime
	// after it has caught up would delay the records of the last by
	// ReadTime times the partitions.
	handOver time.Time
}

func (f *readFn) StartBundle(_ func(beam.EventTime, Record)) {
	f.handOver = time.Now().Add(f.Cfg.ReadTime)
}

func (f *readFn) InitialWatermarkEstimatorState(_ beam.EventTime, _ offsetrange.Restriction, _ partition) int64 {
	return int64(mtime.MinTimestamp)
}

func (f *readFn) CreateWatermarkEstimator(ms int64) *watermarkEstimator {
	return &watermarkEstimator{ms: ms}
}

func (f *readFn) WatermarkEstimatorState(e *watermarkEstimator) int64 { return e.ms }

func (f *readFn) ProcessElement(ctx context.Context, we *watermarkEstimator, rt *sdf.LockRTracker, p partition, emit func(beam.EventTime, Record)) (sdf.ProcessContinuation, error) {
	if stopping.Load() {
		return endRead(rt)
	}
	res, err := read(ctx, f.Cfg, rt, p, 0, time.Now().Add(f.Cfg.ReadTime), f.handOver, emit)
	switch {
	case err != nil && retriable(err):
		log.Warnf(ctx, "kafkaio: %s: %v (trying again)", p.key(), err)
		return sdf.ResumeProcessingIn(time.Second), nil
	case err != nil:
		return sdf.StopProcessing(), f.Cfg.explain(err)
	case res.stopped:
		return sdf.StopProcessing(), nil
	case res.caughtUp && f.Cfg.stopsBy(time.Now()):
		return endRead(rt)
	case res.caughtUp:
		// Nothing to read: later records are stamped about now, so the
		// partition holds the watermark back no further than that.
		we.advance(time.Now().Add(-f.Cfg.ReadTime))
	}
	return sdf.ResumeProcessingIn(0), nil
}

// stopping is set by Stop.
var stopping atomic.Bool

// Stop ends every unbounded Read running in this process after the
// records it has emitted, as a drain would: their output ends, so a
// pipeline commits its open windows and finishes. A runner's remote
// workers are not reached; on Dataflow, drain the job instead. On
// Flink with checkpointing the job still runs until its sources stop,
// which ReadConfig.StopAt arranges.
func Stop() { stopping.Store(true) }

// endRead gives up the rest of an unbounded read's restriction: split
// off by the read itself, it is not handed back to the runner.
func endRead(rt *sdf.LockRTracker) (sdf.ProcessContinuation, error) {
	if _, _, err := rt.TrySplit(0); err != nil {
		return sdf.StopProcessing(), err
	}
	return sdf.StopProcessing(), nil
}

// boundedReadFn reads a partition up to the end it had when the job
// started, in one go.
type boundedReadFn struct {
	partitionRestrictions
}

func (f *boundedReadFn) ProcessElement(ctx context.Context, rt *sdf.LockRTracker, p partition, emit func(beam.EventTime, Record)) error {
	return readToEnd(ctx, f.Cfg, rt, p, time.Minute, emit)
}

// readToEnd reads p's restriction to its end, a read of at most slice at
// a time, each going on after the last offset claimed: after an error
// (the broker away) too.
func readToEnd(ctx context.Context, cfg ReadConfig, rt *sdf.LockRTracker, p partition, slice time.Duration, emit func(beam.EventTime, Record)) error {
	from := rt.GetRestriction().(offsetrange.Restriction).Start
	for {
		res, err := read(ctx, cfg, rt, p, from, time.Now().Add(slice), time.Time{}, emit)
		from = max(from, res.next)
		switch {
		case err != nil && retriable(err):
			log.Warnf(ctx, "kafkaio: %s: %v (trying again)", p.key(), err)
			time.Sleep(time.Second)
		case err != nil:
			return cfg.explain(err)
		case res.stopped || res.done:
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
}

type readResult struct {
	stopped  bool  // the runner took the rest of the restriction
	done     bool  // a bounded restriction is read to its end
	caughtUp bool  // no record arrived: the partition has nothing newer
	next     int64 // the offset after the last one claimed (0: none)
}

// read emits p's records from from (at least the restriction's start: a
// read of this restriction before claimed up to there) until deadline,
// the end of a bounded restriction or the runner's split; or, after
// handOver (unless zero), once it has emitted records and reached the
// end of what the partition held at its last fetch.
func read(ctx context.Context, cfg ReadConfig, rt *sdf.LockRTracker, p partition, from int64, deadline, handOver time.Time, emit func(beam.EventTime, Record)) (res readResult, err error) {
	r := rt.GetRestriction().(offsetrange.Restriction)
	start := max(r.Start, from)
	if start >= r.End {
		return readResult{done: true}, nil
	}
	c, err := consumers.take(cfg, p, start)
	if err != nil {
		return res, err
	}
	defer func() {
		res.next = c.next
		consumers.put(c, err == nil && !res.stopped)
	}()
	got := false
	for time.Now().Before(deadline) {
		if c.next >= r.End {
			return readResult{done: true}, nil
		}
		pctx, cancel := context.WithDeadline(ctx, deadline)
		fs := c.cl.PollRecords(pctx, 1<<14)
		cancel()
		atHead := false
		for _, f := range fs {
			for _, t := range f.Topics {
				for _, fp := range t.Partitions {
					if fp.Err != nil {
						if errors.Is(fp.Err, context.DeadlineExceeded) || errors.Is(fp.Err, context.Canceled) {
							continue
						}
						return res, fmt.Errorf("reading from offset %d: %w", c.next, fp.Err)
					}
					if fp.LastStableOffset > 0 {
						noteEnd(p.key(), fp.LastStableOffset)
					}
					if len(fp.Records) > 0 && fp.Records[0].Offset > c.next && fp.LogStartOffset > c.next {
						log.Warnf(ctx, "kafkaio: %s: offsets %d to %d were removed by retention before they were read", p.key(), c.next, fp.LogStartOffset-1)
					}
					for _, kr := range fp.Records {
						if cfg.stopsBy(kr.Timestamp) {
							_, err := endRead(rt)
							return readResult{stopped: true}, err
						}
						if !rt.TryClaim(kr.Offset) {
							return readResult{stopped: true}, nil
						}
						c.next = kr.Offset + 1
						if kr.Attrs.IsControl() {
							continue // a transaction marker: claimed, so the position moves past it
						}
						got = true
						emit(mtime.FromMilliseconds(kr.Timestamp.UnixMilli()), record(kr))
					}
					atHead = fp.LastStableOffset > 0 && c.next >= fp.LastStableOffset
				}
			}
		}
		if err := ctx.Err(); err != nil {
			return res, err
		}
		if got && atHead && !handOver.IsZero() && time.Now().After(handOver) {
			break
		}
	}
	return readResult{caughtUp: !got}, nil
}

func record(kr *kgo.Record) Record {
	r := Record{
		Topic:     kr.Topic,
		Partition: kr.Partition,
		Offset:    kr.Offset,
		Key:       kr.Key,
		Value:     kr.Value,
		Timestamp: kr.Timestamp.UnixMilli(),
	}
	if len(kr.Headers) > 0 {
		r.Headers = make([]Header, len(kr.Headers))
		for i, h := range kr.Headers {
			r.Headers[i] = Header{Key: h.Key, Value: h.Value}
		}
	}
	return r
}

// retriable reports whether a read error is one a later read may not meet:
// a broker that is down or moving leadership.
func retriable(err error) bool {
	if saslRefused(err) {
		return false
	}
	var ke *kerr.Error
	if errors.As(err, &ke) {
		return ke.Retriable
	}
	return !errors.Is(err, context.Canceled)
}

// consumer is a client reading one partition, kept between the bundles
// of its read so that what it has fetched ahead is not fetched again.
type consumer struct {
	cl   *kgo.Client
	key  string
	next int64 // the offset it returns next
	used time.Time
}

// consumerPool holds the idle consumers of this process, one per
// partition and cluster.
type consumerPool struct {
	mu   sync.Mutex
	idle map[string]*consumer
}

var consumers = &consumerPool{idle: map[string]*consumer{}}

// idleFor is how long an idle consumer is kept: longer than a
// checkpoint's round trip through the runner.
const idleFor = time.Minute

func (pool *consumerPool) take(cfg ReadConfig, p partition, start int64) (*consumer, error) {
	key := strings.Join(cfg.BootstrapServers, ",") + "|" + cfg.Security.SASLMechanism + "|" + cfg.Security.Username + "|" + p.key()
	pool.mu.Lock()
	c := pool.idle[key]
	delete(pool.idle, key)
	pool.mu.Unlock()
	if c != nil && c.next == start {
		return c, nil
	}
	if c != nil {
		c.cl.Close()
	}
	opts, err := cfg.ClientOptions()
	if err != nil {
		return nil, err
	}
	opts = append(opts,
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{p.Topic: {p.Partition: kgo.NewOffset().At(start)}}),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()),
		// Markers are claimed like records: a bounded read knows it has
		// reached an end that is a marker, and a checkpoint resumes past it.
		kgo.KeepControlRecords(),
		kgo.FetchMaxBytes(cfg.FetchMaxBytes),
		kgo.FetchMaxPartitionBytes(cfg.FetchMaxBytes),
		kgo.FetchMaxWait(500*time.Millisecond),
	)
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return nil, fmt.Errorf("kafkaio: %s: %w", p.key(), err)
	}
	return &consumer{cl: cl, key: key, next: start}, nil
}

// put returns c to the pool, or closes it when its position is not what
// it has returned (the runner split the read mid-fetch, or it failed).
func (pool *consumerPool) put(c *consumer, reusable bool) {
	now := time.Now()
	pool.mu.Lock()
	defer pool.mu.Unlock()
	for k, old := range pool.idle {
		if now.Sub(old.used) > idleFor {
			old.cl.Close()
			delete(pool.idle, k)
		}
	}
	if !reusable {
		c.cl.Close()
		return
	}
	c.used = now
	if old := pool.idle[c.key]; old != nil {
		old.cl.Close()
	}
	pool.idle[c.key] = c
}

// ends holds the last stable offset each partition's fetches reported,
// for the runner's estimate of the work left.
var ends sync.Map // PartitionKey -> *atomic.Int64

func noteEnd(key string, end int64) {
	v, _ := ends.LoadOrStore(key, new(atomic.Int64))
	v.(*atomic.Int64).Store(end)
}

func knownEnd(key string, otherwise int64) int64 {
	if v, ok := ends.Load(key); ok {
		return max(v.(*atomic.Int64).Load(), otherwise)
	}
	return otherwise
}

// endEstimator estimates where a growing partition ends now. It does not
// know which partition, so it says nothing: progress of an unbounded read
// is reported by RestrictionSize.
type endEstimator struct{}

func (endEstimator) Estimate() int64 { return math.MinInt64 }

// watermarkEstimator holds a partition's watermark in milliseconds: the
// newest record timestamp read, or the present when it had nothing to
// read.
type watermarkEstimator struct {
	ms int64
}

func (e *watermarkEstimator) CurrentWatermark() time.Time { return mtime.Time(e.ms).ToTime() }

func (e *watermarkEstimator) ObserveTimestamp(t time.Time) { e.advance(t) }

func (e *watermarkEstimator) advance(t time.Time) {
	if ms := t.UnixMilli(); ms > e.ms {
		e.ms = ms
	}
}
