package main

import (
	"testing"
	"time"

	"github.com/icebeam/icebeam/internal/faulttest"
	"github.com/icebeam/icebeam/internal/jobservertest"
)

const credentialEnv = "CLICKSTREAM_CREDENTIAL"

// On prism, the default runner: every row once.
func TestPrism(t *testing.T) {
	bin := faulttest.BuildExample(t)
	c := faulttest.NewCatalog(t, faulttest.Fault{})
	c.RunExample(t, nil, bin, credentialEnv, "--table=prism.clicks", "--interval=10ms", "--duration=6s", "--triggering_frequency=2s")
	faulttest.RequireEachSeqOnce(t, c.URL, c.Tokens.Credential(), "prism.clicks", 600)
}

// TestFlinkExactlyOnce is the scenario a user's pipeline once failed:
// plain beamx.Run on Beam's Flink runner, checkpointing set only in the
// cluster's flink-conf.yaml, the worker killed after a commit or the
// catalog down for 15 s. Before the runner hook of package portable,
// Flink took no checkpoint once the Impulse finished, restarted the job
// from scratch and the sink committed the replayed rows again (20,445 rows
// of 12,000, exit status 0). Now: every seq exactly once.
func TestFlinkExactlyOnce(t *testing.T) {
	const (
		interval = 5 * time.Millisecond
		duration = 60 * time.Second
	)
	bin := faulttest.BuildExample(t)
	for _, fault := range []faulttest.Fault{faulttest.CrashAfterCommit(), faulttest.CatalogDown(15 * time.Second)} {
		t.Run(fault.Name, func(t *testing.T) {
			js := jobservertest.Start(t, "flink", "execution.checkpointing.interval: 5s")
			c := faulttest.NewCatalog(t, fault)
			c.Pool = jobservertest.StartWorkerPool(t, bin, credentialEnv+"="+c.Tokens.Credential())
			start := time.Now()
			c.RunExample(t, js, bin, credentialEnv, "--runner=flink", "--endpoint="+js.Endpoint,
				"--environment_type=EXTERNAL", "--environment_config="+c.Pool.Addr,
				"--table=flink.clicks", "--interval="+interval.String(), "--duration="+duration.String(),
				"--triggering_frequency=5s")
			t.Logf("clickstream on Flink (%s): %v, %d completed checkpoints, %d job restarts", fault.Name,
				time.Since(start).Round(time.Second), js.Count("Completed checkpoint"), js.Count("Restoring job"))
			faulttest.RequireEachSeqOnce(t, c.URL, c.Tokens.Credential(), "flink.clicks", int(duration/interval))
			c.Check(t)
		})
	}
}
