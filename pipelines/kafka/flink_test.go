package main

import (
	"context"
	"os/exec"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/internal/faulttest"
	"github.com/icebeam/icebeam/internal/jobservertest"
	"github.com/icebeam/icebeam/internal/kafkatest"
	"github.com/icebeam/icebeam/internal/launch"
)

// The judgement on a runner that distributes and retries: the
// pipeline on Beam's Flink runner at parallelism 2, with checkpoints from
// the cluster's configuration (every 5 s), events arriving in bursts, and
// the broker stopped for 15 s and started again while the job runs: every
// event once.
func TestFlinkBrokerOutage(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Flink job server and a broker")
	}
	b := kafkatest.Start(t)
	topic := "flink-events"
	b.CreateTopic(t, topic, 3)
	cfg, stop, err := launch.Catalog(context.Background(), catalog.Config{LocalDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = stop() })
	js := jobservertest.Start(t, "flink", "execution.checkpointing.interval: 5s")

	produced := 0
	burst := func(n int) {
		b.ProduceLines(t, topic, events(produced, produced+n), keyed...)
		produced += n
	}
	burst(500)
	cmd := exec.Command(pipelineBin.Path(t), "--runner=flink", "--endpoint="+js.Endpoint, "--environment_type=LOOPBACK",
		"--catalog_uri="+cfg.URI, "--bootstrap_servers="+b.Bootstrap(), "--topics="+topic,
		"--triggering_frequency_seconds=5", "--duration=100s")
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(15 * time.Second)
		for range 3 {
			burst(300)
			time.Sleep(3 * time.Second)
		}
		b.Stop(t)
		t.Logf("broker stopped at %d events", produced)
		time.Sleep(15 * time.Second)
		b.StartAgain(t)
		t.Log("broker started again")
		for range 4 {
			burst(400)
			time.Sleep(2 * time.Second)
		}
	}()
	start := time.Now()
	out, err := js.Run(t, 6*time.Minute, cmd)
	wg.Wait()
	if err != nil {
		t.Fatalf("kafka on Flink: %v", err)
	}
	t.Logf("kafka on Flink: %v, %d completed checkpoints, %d failed, %d job restarts", time.Since(start).Round(time.Second),
		js.Count("Completed checkpoint"), js.Count("Failed to trigger checkpoint")+js.Count("checkpoint failed"), js.Count("Restoring job"))
	_ = out
	seqs := faulttest.ReadSeqs(t, loadTable(t, cfg.URI, "kafka.flink_events").Scan())
	slices.Sort(seqs)
	for i, s := range seqs {
		if s != int64(i) {
			t.Fatalf("row %d of the table has seq %d: not 0..%d once each (%d rows)", i, s, produced-1, len(seqs))
		}
	}
	if len(seqs) != produced {
		t.Fatalf("the table holds %d events, %d were produced", len(seqs), produced)
	}
}
