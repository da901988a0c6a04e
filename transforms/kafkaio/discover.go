package kafkaio

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
)

func init() {
	register.DoFn3x1[context.Context, []byte, func(partition), error](&listFn{})
	register.DoFn4x2[context.Context, *sdf.LockRTracker, []byte, func(beam.EventTime, partition), sdf.ProcessContinuation, error](&watchFn{})
	register.Emitter1[partition]()
	register.Emitter2[beam.EventTime, partition]()
	beam.RegisterType(reflect.TypeOf((*watchRestriction)(nil)).Elem())
	beam.RegisterCoder(reflect.TypeOf((*watchRestriction)(nil)).Elem(),
		func(r watchRestriction) ([]byte, error) { return json.Marshal(r) },
		func(b []byte) (watchRestriction, error) {
			var r watchRestriction
			err := json.Unmarshal(b, &r)
			return r, err
		})
}

// lister finds the partitions a ReadConfig reads and where each starts.
type lister struct {
	cfg   ReadConfig
	cl    *kgo.Client
	adm   *kadm.Client
	match func(string) bool
}

func newLister(cfg ReadConfig) (*lister, error) {
	opts, err := cfg.ClientOptions()
	if err != nil {
		return nil, err
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return nil, fmt.Errorf("kafkaio: %w", err)
	}
	return &lister{cfg: cfg, cl: cl, adm: kadm.NewClient(cl), match: cfg.TopicMatcher()}, nil
}

func (l *lister) close() { l.cl.Close() }

// partitions lists the partitions of the topics the config reads that
// exist now, by topic.
func (l *lister) partitions(ctx context.Context) (map[string][]int32, error) {
	var names []string
	if l.cfg.TopicPattern == "" {
		names = l.cfg.Topics
	}
	tds, err := l.adm.ListTopics(ctx, names...)
	if err != nil {
		return nil, fmt.Errorf("kafkaio: listing topics at %v: %w", l.cfg.BootstrapServers, err)
	}
	out := map[string][]int32{}
	for _, td := range tds {
		if !l.match(td.Topic) {
			continue
		}
		if td.Err != nil {
			if errors.Is(td.Err, kerr.UnknownTopicOrPartition) {
				continue // not created yet: found once it is
			}
			return nil, fmt.Errorf("kafkaio: topic %s: %w", td.Topic, td.Err)
		}
		for p := range td.Partitions {
			out[td.Topic] = append(out[td.Topic], p)
		}
	}
	return out, nil
}

// resolve turns parts into partitions with concrete start offsets (and,
// for a bounded read, end offsets). configured says whether ReadConfig's
// Start and StartTime apply: they do to what exists when the job starts,
// while partitions found later start at their beginning.
func (l *lister) resolve(ctx context.Context, parts map[string][]int32, configured bool) ([]partition, error) {
	if len(parts) == 0 {
		return nil, nil
	}
	topics := make([]string, 0, len(parts))
	for t := range parts {
		topics = append(topics, t)
	}
	sort.Strings(topics)
	earliest, err := l.adm.ListStartOffsets(ctx, topics...)
	if err != nil {
		return nil, fmt.Errorf("kafkaio: start offsets of %v: %w", topics, err)
	}
	var from kadm.ListedOffsets
	switch {
	case !configured:
	case !l.cfg.StartTime.IsZero():
		from, err = l.adm.ListOffsetsAfterMilli(ctx, l.cfg.StartTime.UnixMilli(), topics...)
	case l.cfg.Start == Latest:
		from, err = l.adm.ListCommittedOffsets(ctx, topics...)
	}
	if err != nil {
		return nil, fmt.Errorf("kafkaio: offsets to start from in %v: %w", topics, err)
	}
	var ends kadm.ListedOffsets
	if l.cfg.Bounded {
		// The last stable offset: what read_committed can read now.
		if ends, err = l.adm.ListCommittedOffsets(ctx, topics...); err != nil {
			return nil, fmt.Errorf("kafkaio: end offsets of %v: %w", topics, err)
		}
	}
	var out []partition
	for _, t := range topics {
		ps := slices.Clone(parts[t])
		slices.Sort(ps)
		for _, p := range ps {
			part := partition{Topic: t, Partition: p, End: math.MaxInt64}
			first, err := offsetOf(earliest, t, p)
			if err != nil {
				return nil, err
			}
			if o, ok := l.cfg.StartOffsets[part.key()]; ok {
				part.Start = o
				if o < first {
					log.Warnf(ctx, "kafkaio: %s: offsets %d to %d were removed by retention before they were read; reading from %d", part.key(), o, first-1, first)
					part.Start = first
				}
			} else if from != nil {
				if part.Start, err = offsetOf(from, t, p); err != nil {
					return nil, err
				}
			} else {
				part.Start = first
			}
			if ends != nil {
				if part.End, err = offsetOf(ends, t, p); err != nil {
					return nil, err
				}
				part.End = max(part.End, part.Start)
			}
			out = append(out, part)
		}
	}
	return out, nil
}

func offsetOf(l kadm.ListedOffsets, topic string, p int32) (int64, error) {
	o, ok := l.Lookup(topic, p)
	if !ok {
		return 0, fmt.Errorf("kafkaio: %s: the broker listed no offset", PartitionKey(topic, p))
	}
	if o.Err != nil {
		return 0, fmt.Errorf("kafkaio: %s: %w", PartitionKey(topic, p), o.Err)
	}
	return max(o.Offset, 0), nil
}

// listFn emits the partitions of a bounded read, each with the end offset
// it has when the job starts.
type listFn struct {
	Cfg ReadConfig
}

func (f *listFn) ProcessElement(ctx context.Context, _ []byte, emit func(partition)) error {
	l, err := newLister(f.Cfg)
	if err != nil {
		return err
	}
	defer l.close()
	parts, err := l.partitions(ctx)
	if err != nil {
		return f.Cfg.explain(err)
	}
	if len(parts) == 0 {
		log.Warnf(ctx, "kafkaio: no topic to read: none of %v matching %q exists at %v", f.Cfg.Topics, f.Cfg.TopicPattern, f.Cfg.BootstrapServers)
	}
	ps, err := l.resolve(ctx, parts, true)
	if err != nil {
		return f.Cfg.explain(err)
	}
	for _, p := range ps {
		emit(p)
	}
	return nil
}

// watchFn emits each partition of an unbounded read once: those that
// exist when the job starts, and every DiscoveryInterval those that have
// appeared since. What it has emitted is its restriction, so a restored
// job does not read a partition twice.
type watchFn struct {
	Cfg ReadConfig
}

// watchRestriction is the partitions emitted so far, by PartitionKey,
// sorted. Done marks the part of the watch a checkpoint split off.
type watchRestriction struct {
	Known   []string
	Started bool
	Done    bool
}

func (f *watchFn) CreateInitialRestriction(_ []byte) watchRestriction { return watchRestriction{} }

func (f *watchFn) SplitRestriction(_ []byte, r watchRestriction) []watchRestriction {
	return []watchRestriction{r}
}

func (f *watchFn) RestrictionSize(_ []byte, _ watchRestriction) float64 { return 1 }

func (f *watchFn) CreateTracker(r watchRestriction) *sdf.LockRTracker {
	return sdf.NewLockRTracker(&watchTracker{rest: r})
}

// TruncateRestriction stops the watch when the job drains.
func (f *watchFn) TruncateRestriction(rt *sdf.LockRTracker, _ []byte) watchRestriction {
	r := rt.GetRestriction().(watchRestriction)
	r.Done = true
	return r
}

func (f *watchFn) CreateWatermarkEstimator() *sdf.WallTimeWatermarkEstimator {
	return &sdf.WallTimeWatermarkEstimator{}
}

func (f *watchFn) ProcessElement(ctx context.Context, rt *sdf.LockRTracker, _ []byte, emit func(beam.EventTime, partition)) (sdf.ProcessContinuation, error) {
	if stopping.Load() || f.Cfg.stopsBy(time.Now()) {
		return endRead(rt)
	}
	rest := rt.GetRestriction().(watchRestriction)
	l, err := newLister(f.Cfg)
	if err != nil {
		return sdf.StopProcessing(), err
	}
	defer l.close()
	parts, err := l.partitions(ctx)
	if saslRefused(err) {
		return sdf.StopProcessing(), f.Cfg.explain(err)
	}
	if err != nil {
		// A cluster that cannot be reached now is looked for again later.
		log.Warnf(ctx, "%v (trying again in %v)", err, f.Cfg.DiscoveryInterval)
		return sdf.ResumeProcessingIn(f.Cfg.DiscoveryInterval), nil
	}
	known := map[string]bool{}
	for _, k := range rest.Known {
		known[k] = true
	}
	fresh := map[string][]int32{}
	var keys []string
	for t, ps := range parts {
		for _, p := range ps {
			if k := PartitionKey(t, p); !known[k] {
				fresh[t] = append(fresh[t], p)
				keys = append(keys, k)
			}
		}
	}
	if len(keys) > 0 || !rest.Started {
		found, err := l.resolve(ctx, fresh, !rest.Started)
		if saslRefused(err) {
			return sdf.StopProcessing(), f.Cfg.explain(err)
		}
		if err != nil {
			log.Warnf(ctx, "%v (trying again in %v)", err, f.Cfg.DiscoveryInterval)
			return sdf.ResumeProcessingIn(f.Cfg.DiscoveryInterval), nil
		}
		if !rt.TryClaim(keys) {
			return sdf.StopProcessing(), nil
		}
		now := beam.EventTime(time.Now().UnixMilli())
		for _, p := range found {
			if rest.Started {
				log.Infof(ctx, "kafkaio: reading %s, new since the job started, from offset %d", p.key(), p.Start)
			}
			emit(now, p)
		}
	}
	return sdf.ResumeProcessingIn(f.Cfg.DiscoveryInterval), nil
}

// watchTracker tracks a watch: a claim is the keys of the partitions about
// to be emitted; a split (the runner's checkpoint) ends this part of the
// watch and hands what it has emitted to the next.
type watchTracker struct {
	rest watchRestriction
}

func (t *watchTracker) TryClaim(pos any) bool {
	if t.rest.Done {
		return false
	}
	t.rest.Known = append(t.rest.Known, pos.([]string)...)
	sort.Strings(t.rest.Known)
	t.rest.Started = true
	return true
}

func (t *watchTracker) GetError() error { return nil }

func (t *watchTracker) TrySplit(_ float64) (primary, residual any, err error) {
	if t.rest.Done {
		return t.rest, nil, nil
	}
	rest := watchRestriction{Known: slices.Clone(t.rest.Known), Started: t.rest.Started}
	t.rest.Done = true
	return t.rest, rest, nil
}

func (t *watchTracker) GetProgress() (done, remaining float64) { return 0, 1 }

func (t *watchTracker) IsDone() bool { return t.rest.Done }

func (t *watchTracker) GetRestriction() any { return t.rest }

func (t *watchTracker) IsBounded() bool { return false }
