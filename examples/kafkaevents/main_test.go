package main

import (
	"fmt"
	"testing"
	"time"

	"github.com/icebeam/icebeam/internal/faulttest"
	"github.com/icebeam/icebeam/internal/jobservertest"
	"github.com/icebeam/icebeam/internal/kafkatest"
)

const credentialEnv = "KAFKAEVENTS_CREDENTIAL"

func TestMain(m *testing.M) { kafkatest.Main(m) }

// events are JSON events seq from to to-1, keyed by seq, as lines for
// Kafka's console producer.
func events(from, to int) []string {
	var lines []string
	for i := from; i < to; i++ {
		lines = append(lines, fmt.Sprintf("k%d\t{\"seq\":%d,\"page\":\"/p/%d\"}", i, i, i%17))
	}
	return lines
}

var keyed = []string{"--reader-property", "parse.key=true"}

// A user's program on Beam's Flink runner with plain beamx.Run,
// checkpointing set only in the cluster's flink-conf.yaml, the worker
// killed after the first commit while events arrive: every event once.
func TestFlinkExactlyOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Flink job server and a broker")
	}
	bin := faulttest.BuildExample(t)
	b := kafkatest.Shared(t)
	b.CreateTopic(t, "events", 2)
	b.ProduceLines(t, "events", events(0, 1000), keyed...)
	fault := faulttest.CrashAfterCommit()
	js := jobservertest.Start(t, "flink", "execution.checkpointing.interval: 5s")
	c := faulttest.NewCatalog(t, fault)
	c.SinkTable = "flink.events"
	c.Pool = jobservertest.StartWorkerPool(t, bin, credentialEnv+"="+c.Tokens.Credential())
	done := make(chan int)
	go func() {
		n := 1000
		for range 5 {
			time.Sleep(5 * time.Second)
			b.ProduceLines(t, "events", events(n, n+500), keyed...)
			n += 500
		}
		done <- n
	}()
	start := time.Now()
	c.RunExample(t, js, bin, credentialEnv, "--runner=flink", "--endpoint="+js.Endpoint,
		"--environment_type=EXTERNAL", "--environment_config="+c.Pool.Addr,
		"--bootstrap_servers="+b.Bootstrap(), "--topic=events", "--table=flink.events",
		"--duration=60s", "--triggering_frequency=5s")
	n := <-done
	t.Logf("kafkaevents on Flink (%s): %v, %d completed checkpoints, %d job restarts", fault.Name,
		time.Since(start).Round(time.Second), js.Count("Completed checkpoint"), js.Count("Restoring job"))
	faulttest.RequireEachSeqOnce(t, c.URL, c.Tokens.Credential(), "flink.events", n)
	c.Check(t)
}
