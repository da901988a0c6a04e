package kafkaio_test

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/icebeam/icebeam/internal/kafkatest"
	"github.com/icebeam/icebeam/transforms/kafkaio"
)

func TestMain(m *testing.M) {
	kafkatest.MainWith(m, func() int { return ptest.MainRetWithDefault(m, "prism") })
}

func init() {
	register.DoFn2x0[kafkaio.Record, func(string)](&collectFn{})
	register.Emitter1[string]()
	beam.RegisterType(reflect.TypeOf((*collectFn)(nil)).Elem())
}

// collected holds what collectFn saw, by key: prism runs the pipeline in
// this process.
var collected = struct {
	sync.Mutex
	m map[string][]kafkaio.Record
}{m: map[string][]kafkaio.Record{}}

type collectFn struct{ Key string }

func (f *collectFn) ProcessElement(r kafkaio.Record, _ func(string)) {
	collected.Lock()
	defer collected.Unlock()
	collected.m[f.Key] = append(collected.m[f.Key], r)
}

func collect(s beam.Scope, key string, recs beam.PCollection) {
	// An output read by nothing: a stage with no output at all spins a
	// core on prism while its bundles run (see docs/sink.md).
	beam.ParDo(s, &collectFn{Key: key}, recs)
}

func got(key string) []kafkaio.Record {
	collected.Lock()
	defer collected.Unlock()
	return slices.Clone(collected.m[key])
}

// produce sends values to topic with a franz-go producer, round robin
// over the partitions by key, and returns them.
func produce(t *testing.T, b *kafkatest.Broker, topic string, prefix string, n int, opts ...kgo.Opt) []string {
	t.Helper()
	cl := b.Client(t, append([]kgo.Opt{kgo.DefaultProduceTopic(topic)}, opts...)...)
	var vals []string
	for i := range n {
		v := fmt.Sprintf(`{"event":"%s-%d"}`, prefix, i)
		vals = append(vals, v)
		cl.Produce(context.Background(), &kgo.Record{Key: []byte(fmt.Sprint(i)), Value: []byte(v)}, nil)
	}
	if err := cl.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	return vals
}

// transaction produces values in one transaction of a transactional
// producer and commits or aborts it.
func transaction(t *testing.T, b *kafkatest.Broker, topic, prefix string, n int, commit bool) []string {
	t.Helper()
	cl := b.Client(t, kgo.DefaultProduceTopic(topic), kgo.TransactionalID("kafkaio-test-"+prefix))
	ctx := context.Background()
	if err := cl.BeginTransaction(); err != nil {
		t.Fatal(err)
	}
	var vals []string
	for i := range n {
		v := fmt.Sprintf(`{"event":"%s-%d"}`, prefix, i)
		vals = append(vals, v)
		if err := cl.ProduceSync(ctx, &kgo.Record{Key: []byte(fmt.Sprint(i)), Value: []byte(v)}).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
	if err := cl.EndTransaction(ctx, kgo.TransactionEndTry(commit)); err != nil {
		t.Fatal(err)
	}
	return vals
}

// checkOnce checks that recs are want, each once, and that no offset of
// a partition came twice.
func checkOnce(t *testing.T, recs []kafkaio.Record, want []string) {
	t.Helper()
	seen := map[string]bool{}
	var vals []string
	for _, r := range recs {
		if seen[r.Position()] {
			t.Errorf("%s read twice", r.Position())
		}
		seen[r.Position()] = true
		vals = append(vals, string(r.Value))
	}
	slices.Sort(vals)
	want = slices.Clone(want)
	slices.Sort(want)
	if !slices.Equal(vals, want) {
		t.Fatalf("read %d records, want %d; first difference: %s", len(vals), len(want), firstDiff(vals, want))
	}
}

func firstDiff(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("at %d: %q, want %q", i, a[i], b[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d", len(a), len(b))
}

// TestReadBounded reads a topic to the end it has when the job starts:
// records of Kafka's console producer and of a committed transaction,
// none of an aborted one, and nothing produced after the end was taken.
func TestReadBounded(t *testing.T) {
	b := kafkatest.Shared(t)
	topic := "bounded"
	b.CreateTopic(t, topic, 3)
	var lines []string
	for i := range 50 {
		lines = append(lines, fmt.Sprintf(`{"line":%d,"text":"grüße %d"}`, i, i))
	}
	b.ProduceLines(t, topic, lines)
	want := append(lines, produce(t, b, topic, "plain", 3000)...)
	want = append(want, transaction(t, b, topic, "committed", 500, true)...)
	transaction(t, b, topic, "aborted", 500, false)
	// The transaction markers are the partitions' last offsets.
	want = append(want, transaction(t, b, topic, "last", 7, true)...)

	p, s := beam.NewPipelineWithRoot()
	recs := kafkaio.Read(s, kafkaio.ReadConfig{BootstrapServers: []string{b.Bootstrap()}, Topics: []string{topic}, Bounded: true})
	collect(s, t.Name(), recs)
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
	checkOnce(t, got(t.Name()), want)
	for _, r := range got(t.Name()) {
		if r.Topic != topic || r.Timestamp < time.Now().Add(-time.Hour).UnixMilli() {
			t.Fatalf("record %s stamped %v", r.Position(), r.Time())
		}
	}
}

// TestReadStartOffsets starts where StartOffsets say, and at the latest
// offsets elsewhere.
func TestReadStartOffsets(t *testing.T) {
	b := kafkatest.Shared(t)
	topic := "start-offsets"
	b.CreateTopic(t, topic, 2)
	produce(t, b, topic, "old", 100)
	ends := b.EndOffsets(t, topic)
	// Everything of partition 0 from offset 10 on; nothing old of 1.
	cl := b.Client(t)
	recs, err := readAll(cl, topic, 0, 10, ends[0])
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, r := range recs {
		want = append(want, string(r.Value))
	}
	p, s := beam.NewPipelineWithRoot()
	out := kafkaio.Read(s, kafkaio.ReadConfig{
		BootstrapServers: []string{b.Bootstrap()}, Topics: []string{topic}, Bounded: true,
		Start: kafkaio.Latest, StartOffsets: map[string]int64{kafkaio.PartitionKey(topic, 0): 10},
	})
	collect(s, t.Name(), out)
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
	checkOnce(t, got(t.Name()), want)
}

// readAll reads partition p of topic from offset from to before end with
// a plain franz-go consumer: the independent account of what is there.
func readAll(cl *kgo.Client, topic string, p int32, from, end int64) ([]*kgo.Record, error) {
	cl.AddConsumePartitions(map[string]map[int32]kgo.Offset{topic: {p: kgo.NewOffset().At(from)}})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out []*kgo.Record
	for from < end {
		fs := cl.PollFetches(ctx)
		if err := fs.Err0(); err != nil {
			return nil, err
		}
		fs.EachRecord(func(r *kgo.Record) {
			out = append(out, r)
			from = r.Offset + 1
		})
	}
	return out, nil
}

// TestReadStreaming reads while records arrive, a partition is added to
// the topic and a new topic comes to match the pattern: every record
// once.
func TestReadStreaming(t *testing.T) {
	b := kafkatest.Shared(t)
	first, second := "stream.a", "stream.b"
	b.CreateTopic(t, first, 2)
	want := produce(t, b, first, "before", 1000)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p, s := beam.NewPipelineWithRoot()
	recs := kafkaio.Read(s, kafkaio.ReadConfig{
		BootstrapServers: []string{b.Bootstrap()}, TopicPattern: `stream\..*`,
		DiscoveryInterval: time.Second,
	})
	collect(s, t.Name(), recs)
	done := make(chan error, 1)
	go func() {
		_, err := beam.Run(ctx, ptest.DefaultRunner(), p)
		done <- err
	}()

	waitFor := func(what string, n int) {
		t.Helper()
		deadline := time.Now().Add(90 * time.Second)
		for len(got(t.Name())) < n {
			select {
			case err := <-done:
				t.Fatalf("the pipeline ended waiting for %s: %v", what, err)
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("waiting for %s: %d of %d records read", what, len(got(t.Name())), n)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	waitFor("the records produced before the job", len(want))
	want = append(want, produce(t, b, first, "during", 1000)...)
	want = append(want, transaction(t, b, first, "txn-committed", 100, true)...)
	transaction(t, b, first, "txn-aborted", 100, false)
	waitFor("records produced while it runs", len(want))

	b.AddPartitions(t, first, 4)
	b.CreateTopic(t, second, 1)
	time.Sleep(3 * time.Second) // two discovery rounds, then produce to the new partitions
	want = append(want, produce(t, b, first, "after-partitions", 1000)...)
	want = append(want, produce(t, b, second, "new-topic", 300)...)
	waitFor("the new partitions and topic", len(want))
	time.Sleep(2 * time.Second) // anything extra would arrive now
	cancel()
	<-done

	recs2 := got(t.Name())
	checkOnce(t, recs2, want)
	parts := map[string]bool{}
	for _, r := range recs2 {
		parts[kafkaio.PartitionKey(r.Topic, r.Partition)] = true
	}
	for _, k := range []string{"stream.a/2", "stream.a/3", "stream.b/0"} {
		if !parts[k] {
			t.Errorf("nothing read from %s, which appeared while the job ran", k)
		}
	}
	if t.Failed() {
		var keys []string
		for k := range parts {
			keys = append(keys, k)
		}
		t.Logf("partitions read: %s", strings.Join(keys, " "))
	}
}

// TestReadStopAt ends an unbounded read at StopAt: the job finishes by
// itself with the records stamped before it, none stamped after.
func TestReadStopAt(t *testing.T) {
	b := kafkatest.Shared(t)
	topic := "stop-at"
	b.CreateTopic(t, topic, 2)
	want := produce(t, b, topic, "before", 500)
	stopAt := time.Now().Add(10 * time.Second)

	p, s := beam.NewPipelineWithRoot()
	recs := kafkaio.Read(s, kafkaio.ReadConfig{
		BootstrapServers: []string{b.Bootstrap()}, Topics: []string{topic},
		DiscoveryInterval: time.Second, StopAt: stopAt,
	})
	collect(s, t.Name(), recs)
	done := make(chan error, 1)
	go func() { done <- ptest.Run(p) }()

	time.Sleep(time.Until(stopAt) - 5*time.Second)
	want = append(want, produce(t, b, topic, "during", 500)...)
	time.Sleep(time.Until(stopAt) + time.Second)
	produce(t, b, topic, "late", 100)
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the job did not end within a minute of its StopAt")
	}
	checkOnce(t, got(t.Name()), want)
}
