package main

import (
	"context"
	"math/rand/v2"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/internal/debeziumtest"
	"github.com/icebeam/icebeam/internal/faulttest"
	"github.com/icebeam/icebeam/internal/jobservertest"
	"github.com/icebeam/icebeam/internal/kafkatest"
	"github.com/icebeam/icebeam/internal/launch"
	"github.com/icebeam/icebeam/internal/pgtest"
)

// The judgement on a runner that distributes and retries: the
// pipeline on Beam's Flink runner at parallelism 2, with checkpoints from
// the cluster's configuration (every 5 s), its harnesses in a worker pool
// of their own, events arriving in bursts, and the broker stopped for 15 s
// and started again while the job runs; with that, a worker crash after
// the first commit, and the catalog down for 15 s: every event once.
func TestFlinkExactlyOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Flink job server and a broker")
	}
	for _, fault := range []faulttest.Fault{
		{Name: "broker outage"},
		faulttest.CrashAfterCommit(),
		faulttest.CatalogDown(15 * time.Second),
	} {
		t.Run(fault.Name, func(t *testing.T) { flinkRun(t, fault) })
	}
}

func flinkRun(t *testing.T, fault faulttest.Fault) {
	b := kafkatest.Start(t)
	topic := "flink-events"
	name := "kafka.flink_events"
	b.CreateTopic(t, topic, 3)
	f := faulttest.NewCatalog(t, fault)
	f.SinkTable = name
	const credentialEnv = "ICEBEAM_TEST_CREDENTIAL"
	env := credentialEnv + "=" + f.Tokens.Credential()
	bin := pipelineBin.Path(t)
	f.Pool = jobservertest.StartWorkerPool(t, bin, env)
	js := jobservertest.Start(t, "flink", "execution.checkpointing.interval: 5s")

	produced := 0
	burst := func(n int) {
		b.ProduceLines(t, topic, events(produced, produced+n), keyed...)
		produced += n
	}
	burst(500)
	cmd := exec.Command(bin, "--runner=flink", "--endpoint="+js.Endpoint,
		"--environment_type=EXTERNAL", "--environment_config="+f.Pool.Addr,
		"--catalog_uri="+f.URL, "--auth=oauth2", "--credential=env:"+credentialEnv,
		"--bootstrap_servers="+b.Bootstrap(), "--topics="+topic,
		"--triggering_frequency_seconds=5", "--duration=100s")
	cmd.Env = append(cmd.Environ(), env)
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
	_, err := js.Run(t, 6*time.Minute, cmd)
	wg.Wait()
	if err != nil {
		t.Fatalf("kafka on Flink: %v", err)
	}
	t.Logf("kafka on Flink (%s): %v, %d completed checkpoints, %d job restarts", fault.Name, time.Since(start).Round(time.Second),
		js.Count("Completed checkpoint"), js.Count("Restoring job"))
	faulttest.RequireEachSeqOnce(t, f.URL, f.Tokens.Credential(), name, produced)
	f.Check(t)
}

// The databases-in judgement on a runner that distributes and retries:
// PostgreSQL changes captured by Debezium's connector, landed by
// --format=debezium on Beam's Flink runner at parallelism 2 with
// checkpoints every 5 s, changes arriving in bursts, and the broker
// stopped for 15 s and started again while the job runs: every table
// equals PostgreSQL's rows.
func TestFlinkDebezium(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Flink job server, a broker, PostgreSQL and Debezium")
	}
	debeziumtest.SkipUnlessJava(t)
	b := kafkatest.Start(t)
	pg := pgtest.Start(t)
	for _, tb := range pgTables {
		pg.Exec(t, tb.ddl)
	}
	pg.Exec(t, "ALTER TABLE kinds ADD COLUMN note text", "ALTER TABLE kinds ADD COLUMN extra int", "INSERT INTO marker VALUES (0)")
	pg.Exec(t, ordersDDL...)
	rng := rand.New(rand.NewPCG(11, 3))
	next := 0
	// Orders and their lines, in transactions of both tables, with the
	// connector's transaction topic (which a streaming job on Flink does
	// not read: kafka's splitTransactions).
	var live []int
	nextOrder := 0
	change := func(n int) {
		changes(t, pg, rng, n, &next)
		for range n {
			pg.Exec(t, orderTransaction(rng, &live, &nextOrder))
		}
	}
	change(40)
	debeziumtest.StartWith(t, b.Bootstrap(), pg, debeziumtest.Options{Prefix: "fl", Transactions: true})
	cfg, stop, err := launch.Catalog(context.Background(), catalog.Config{LocalDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = stop() })
	bin := pipelineBin.Path(t)
	pool := jobservertest.StartWorkerPool(t, bin)
	js := jobservertest.Start(t, "flink", "execution.checkpointing.interval: 5s")
	cmd := exec.Command(bin, "--runner=flink", "--endpoint="+js.Endpoint,
		"--environment_type=EXTERNAL", "--environment_config="+pool.Addr,
		"--catalog_uri="+cfg.URI, "--bootstrap_servers="+b.Bootstrap(), `--topic_pattern=fl\.public\..*`,
		"--format=debezium", "--triggering_frequency_seconds=5", "--duration=100s")
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(15 * time.Second)
		for range 3 {
			change(30)
			time.Sleep(3 * time.Second)
		}
		b.Stop(t)
		t.Log("broker stopped")
		// Debezium's producer holds the changes made meanwhile.
		change(30)
		time.Sleep(15 * time.Second)
		b.StartAgain(t)
		t.Log("broker started again")
		for range 4 {
			change(30)
			time.Sleep(2 * time.Second)
		}
	}()
	start := time.Now()
	_, err = js.Run(t, 6*time.Minute, cmd)
	wg.Wait()
	if err != nil {
		t.Fatalf("kafka --format=debezium on Flink: %v", err)
	}
	t.Logf("kafka --format=debezium on Flink: %v, %d completed checkpoints, %d job restarts", time.Since(start).Round(time.Second),
		js.Count("Completed checkpoint"), js.Count("Restoring job"))
	requireTablesEqualPostgres(t, pg, cfg.URI)
	requireWindowsCommittedTogether(t, cfg.URI)
	requireOrdersEqualPostgres(t, pg, cfg.URI)
}
