package kafkaio

import (
	"context"
	"fmt"
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
	b := kafkatest.Shared(t)
	topic := "slices"
	b.CreateTopic(t, topic, 1)
	cl := b.Client(t, kgo.DefaultProduceTopic(topic))
	const n = 30000
	for i := range n {
		cl.Produce(context.Background(), &kgo.Record{Value: fmt.Appendf(nil, "%d", i)}, nil)
	}
	if err := cl.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
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
