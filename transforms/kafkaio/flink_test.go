package kafkaio_test

import (
	"context"
	"flag"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/icebeam/icebeam/internal/jobservertest"
	"github.com/icebeam/icebeam/internal/kafkatest"
	"github.com/icebeam/icebeam/transforms/kafkaio"
	"github.com/icebeam/icebeam/transforms/portable"
)

// runOnFlink runs p on js's Flink with the SDK harness in this process
// (LOOPBACK), so that collectFn's records land in this test binary.
// portable.Execute checkpoints a streaming job every 5 s.
func runOnFlink(ctx context.Context, js *jobservertest.Server, p *beam.Pipeline) error {
	for name, v := range map[string]string{"runner": "flink", "endpoint": js.Endpoint, "environment_type": "LOOPBACK"} {
		old := flag.Lookup(name).Value.String()
		if err := flag.Set(name, v); err != nil {
			return err
		}
		defer flag.Set(name, old)
	}
	_, err := portable.Execute(ctx, p)
	return err
}

// TestReadFlink reads on Beam's portable Flink runner at parallelism 2:
// a bounded read, then an unbounded one (checkpointed every 5 s) while
// records arrive in bursts, a partition is added and the broker is down for
// 15 s. Every record must arrive once, and the unbounded job must end by
// itself after its StopAt, without the records stamped after it. Then a
// bundle fails: the job restores from its last checkpoint and reads on
// from the positions it holds, every record still once.
func TestReadFlink(t *testing.T) {
	b := kafkatest.Start(t)
	js := jobservertest.Start(t, "flink")
	failed := func(what string, err error) {
		t.Helper()
		t.Fatalf("%s: %v\nthe job server's log:\n%s", what, err, js.LogTail(60))
	}

	t.Run("bounded", func(t *testing.T) {
		topic := "flink-bounded"
		b.CreateTopic(t, topic, 3)
		want := produce(t, b, topic, "plain", 3000)
		want = append(want, transaction(t, b, topic, "committed", 200, true)...)
		transaction(t, b, topic, "aborted", 200, false)

		p, s := beam.NewPipelineWithRoot()
		recs := kafkaio.Read(s, kafkaio.ReadConfig{BootstrapServers: []string{b.Bootstrap()}, Topics: []string{topic}, Bounded: true})
		collect(s, t.Name(), recs)
		start := time.Now()
		if err := runOnFlink(context.Background(), js, p); err != nil {
			failed("the bounded job", err)
		}
		t.Logf("the bounded job read %d records in %v", len(want), time.Since(start).Round(time.Millisecond))
		checkOnce(t, got(t.Name()), want)
	})

	t.Run("streaming", func(t *testing.T) {
		topic := "flink.a"
		b.CreateTopic(t, topic, 3)
		want := produce(t, b, topic, "before", 1000)

		// Long enough for what follows (about 45 s here) and a slower
		// machine; Flink stops the sources about 25 s after it.
		stopAt := time.Now().Add(80 * time.Second)
		p, s := beam.NewPipelineWithRoot()
		recs := kafkaio.Read(s, kafkaio.ReadConfig{
			BootstrapServers: []string{b.Bootstrap()}, TopicPattern: `flink\..*`,
			DiscoveryInterval: time.Second, StopAt: stopAt,
		})
		collect(s, t.Name(), recs)
		start := time.Now()
		done := make(chan error, 1)
		go func() { done <- runOnFlink(context.Background(), js, p) }()

		waitFor := func(what string, n int) {
			t.Helper()
			t0 := time.Now()
			deadline := t0.Add(3 * time.Minute)
			for len(got(t.Name())) < n {
				select {
				case err := <-done:
					failed("the job ended waiting for "+what, err)
				default:
				}
				if time.Now().After(deadline) {
					t.Fatalf("waiting for %s: %d of %d records read\n%s", what, len(got(t.Name())), n, js.Hung(t))
				}
				time.Sleep(200 * time.Millisecond)
			}
			t.Logf("%v: %s: %d records after %v", time.Since(start).Round(time.Millisecond), what, n, time.Since(t0).Round(time.Millisecond))
		}
		waitFor("the records produced before the job", len(want))
		for i := range 5 {
			want = append(want, produce(t, b, topic, fmt.Sprintf("burst%d", i), 400)...)
			time.Sleep(time.Duration(i) * 700 * time.Millisecond)
		}
		waitFor("the bursts", len(want))

		b.AddPartitions(t, topic, 4)
		time.Sleep(3 * time.Second) // discovery rounds, then produce to the new partition
		want = append(want, produce(t, b, topic, "after-partition", 1000)...)
		waitFor("the added partition's records", len(want))

		b.Stop(t)
		t.Logf("%v: the broker is down", time.Since(start).Round(time.Millisecond))
		time.Sleep(15 * time.Second)
		b.StartAgain(t)
		t.Logf("%v: the broker is back", time.Since(start).Round(time.Millisecond))
		want = append(want, produce(t, b, topic, "after-outage", 1000)...)
		waitFor("the records produced after the outage", len(want))
		if time.Now().After(stopAt) {
			t.Fatalf("the records came after StopAt: make it later")
		}

		time.Sleep(time.Until(stopAt) + time.Second)
		produce(t, b, topic, "late", 100)
		select {
		case err := <-done:
			if err != nil {
				failed("the streaming job", err)
			}
		case <-time.After(2 * time.Minute):
			t.Fatalf("the job did not end within 2 minutes of its StopAt\n%s", js.Hung(t))
		}
		t.Logf("%v: the job ended", time.Since(start).Round(time.Millisecond))

		recs2 := got(t.Name())
		checkOnce(t, recs2, want)
		parts := map[int32]bool{}
		for _, r := range recs2 {
			parts[r.Partition] = true
		}
		if !parts[3] {
			t.Errorf("nothing read from partition 3, added while the job ran")
		}
		t.Logf("checkpoints completed: %d, sizes %v", len(js.CheckpointSizes()), js.CheckpointSizes())
	})

	t.Run("restore", func(t *testing.T) {
		topic := "restore.a"
		b.CreateTopic(t, topic, 3)
		want := produce(t, b, topic, "before", 2000)
		stopAt := time.Now().Add(75 * time.Second)
		p, s := beam.NewPipelineWithRoot()
		recs := kafkaio.Read(s, kafkaio.ReadConfig{
			BootstrapServers: []string{b.Bootstrap()}, TopicPattern: `restore\..*`,
			DiscoveryInterval: time.Second, StopAt: stopAt,
		})
		beam.ParDo(s, &failOnceFn{Key: t.Name(), On: `{"event":"boom-0"}`}, recs)
		start := time.Now()
		restarts := js.Count("to RESTARTING")
		done := make(chan error, 1)
		go func() { done <- runOnFlink(context.Background(), js, p) }()
		waitFor := func(what string, n int) {
			t.Helper()
			deadline := time.Now().Add(3 * time.Minute)
			for len(got(t.Name())) < n {
				select {
				case err := <-done:
					failed("the job ended waiting for "+what, err)
				default:
				}
				if time.Now().After(deadline) {
					t.Fatalf("waiting for %s: %d of %d records read\n%s", what, len(got(t.Name())), n, js.Hung(t))
				}
				time.Sleep(200 * time.Millisecond)
			}
			t.Logf("%v: %s: %d records", time.Since(start).Round(time.Millisecond), what, n)
		}
		waitFor("the records produced before the job", len(want))
		// A checkpoint that covers them: the job restores from it.
		for n := len(js.CheckpointSizes()); len(js.CheckpointSizes()) < n+2; {
			time.Sleep(200 * time.Millisecond)
		}
		want = append(want, produce(t, b, topic, "boom", 1)...)
		waitFor("the record that fails its bundle, after the restore", len(want))
		if js.Count("to RESTARTING") == restarts {
			t.Fatal("the job did not restart")
		}
		want = append(want, produce(t, b, topic, "after", 1000)...)
		waitFor("the records produced after the restore", len(want))
		select {
		case err := <-done:
			if err != nil {
				failed("the job", err)
			}
		case <-time.After(time.Until(stopAt) + 2*time.Minute):
			t.Fatalf("the job did not end within 2 minutes of its StopAt\n%s", js.Hung(t))
		}
		t.Logf("%v: the job ended", time.Since(start).Round(time.Millisecond))
		checkOnce(t, got(t.Name()), want)
	})
}

func init() {
	register.DoFn2x1[kafkaio.Record, func(string), error](&failOnceFn{})
}

// failOnce holds the keys of the failOnceFns that have failed.
var failOnce sync.Map

// failOnceFn collects records as collectFn does, but fails its bundle at
// the first record whose value is On, once: Flink restarts the job from
// its last checkpoint. Records collected after that checkpoint would be
// collected again (they are kept in this process, not in the job), so the
// test lets none arrive but On.
type failOnceFn struct{ Key, On string }

func (f *failOnceFn) ProcessElement(r kafkaio.Record, _ func(string)) error {
	if string(r.Value) == f.On {
		if _, failed := failOnce.LoadOrStore(f.Key, true); !failed {
			return fmt.Errorf("failing the bundle at %s, once", r.Position())
		}
	}
	collected.Lock()
	defer collected.Unlock()
	collected.m[f.Key] = append(collected.m[f.Key], r)
	return nil
}
