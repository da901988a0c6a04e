package kafkaio

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/rtrackers/offsetrange"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/icebeam/icebeam/internal/kafkatest"
)

// A bounded read that takes more than one slice (a partition read for
// longer than a minute on a busy machine, or a broker error mid-read)
// goes on after the last offset it claimed: every record once, and the
// tracker never asked to claim an offset again (which fails the job).
func TestReadToEndInSlices(t *testing.T) {
	const topic, n = "slices", 30000
	b := fill(t, topic, n)
	// Small fetches: many of them, over many slices.
	cfg := ReadConfig{BootstrapServers: []string{b.Bootstrap()}, Topics: []string{topic}, FetchMaxBytes: 16 << 10}.withDefaults()
	rt := sdf.NewLockRTracker(offsetrange.NewTracker(offsetrange.Restriction{Start: 0, End: n}))
	seen := make([]int, n)
	emit := func(_ beam.EventTime, r Record) { seen[r.Offset]++ }
	if err := readToEnd(context.Background(), cfg, rt, partition{Topic: topic, End: n}, 5*time.Millisecond, emit); err != nil {
		t.Fatal(err)
	}
	if err := rt.GetError(); err != nil {
		t.Fatalf("the tracker: %v", err)
	}
	for off, k := range seen {
		if k != 1 {
			t.Fatalf("offset %d emitted %d times", off, k)
		}
	}
}

// An unbounded read that has caught up with its partition hands its
// records over once its bundle's hand-over time has passed, rather than
// waiting out its own read time: a runner reads a bundle's partitions one
// after the other, so a record of the last one would otherwise wait for
// every partition's full read time.
func TestCaughtUpReadHandsOver(t *testing.T) {
	const topic, n = "handover", 100
	b := fill(t, topic, n)
	cfg := ReadConfig{BootstrapServers: []string{b.Bootstrap()}, Topics: []string{topic}}.withDefaults()
	p := partition{Topic: topic, End: math.MaxInt64}
	read1 := func(deadline, handOver time.Time) (readResult, int, time.Duration) {
		t.Helper()
		rt, err := offsetrange.NewGrowableTracker(offsetrange.Restriction{Start: 0, End: math.MaxInt64}, endEstimator{})
		if err != nil {
			t.Fatal(err)
		}
		emitted := 0
		start := time.Now()
		res, err := read(context.Background(), cfg, sdf.NewLockRTracker(rt), p, 0, deadline, handOver, func(beam.EventTime, Record) { emitted++ })
		if err != nil {
			t.Fatal(err)
		}
		return res, emitted, time.Since(start)
	}

	// The deadline is far: only the hand-over ends this read.
	res, emitted, took := read1(time.Now().Add(time.Minute), time.Now())
	if emitted != n || res.caughtUp || res.next != n {
		t.Fatalf("read emitted %d of %d records, result %+v", emitted, n, res)
	}
	if took > 30*time.Second {
		t.Fatalf("a caught-up read past its hand-over ran %v, to its deadline", took)
	}

	// Before its hand-over a read goes on to its deadline, taking
	// whatever else arrives.
	res, emitted, took = read1(time.Now().Add(time.Second), time.Now().Add(time.Second))
	if emitted != n || res.next != n || took < time.Second {
		t.Fatalf("read emitted %d of %d records in %v, result %+v", emitted, n, took, res)
	}
}

// fill makes topic, of one partition, on the shared broker and writes n
// records to it, their values their offsets.
func fill(t *testing.T, topic string, n int) *kafkatest.Broker {
	t.Helper()
	b := kafkatest.Shared(t)
	b.CreateTopic(t, topic, 1)
	cl := b.Client(t, kgo.DefaultProduceTopic(topic))
	for i := range n {
		cl.Produce(context.Background(), &kgo.Record{Value: fmt.Appendf(nil, "%d", i)}, nil)
	}
	if err := cl.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	return b
}
