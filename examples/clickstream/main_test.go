package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/icebeam/icebeam/internal/faulttest"
	"github.com/icebeam/icebeam/internal/jobservertest"
)

// build compiles this example as a user would, with go build, into a
// temporary directory.
func build(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "clickstream")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

const credentialEnv = "CLICKSTREAM_CREDENTIAL"

// run runs the example against c with args, submitting to js (nil: on
// prism); the job must exit 0.
func run(t *testing.T, js *jobservertest.Server, bin string, c *faulttest.Catalog, args ...string) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{
		"--catalog_uri=" + c.URL, "--auth=oauth2", "--credential=env:" + credentialEnv,
	}, args...)...)
	cmd.Env = append(os.Environ(), credentialEnv+"="+c.Tokens.Credential())
	if _, err := js.Run(t, 6*time.Minute, cmd); err != nil {
		t.Fatalf("clickstream %v: %v", args, err)
	}
}

// On prism, the default runner: every row once.
func TestPrism(t *testing.T) {
	bin := build(t)
	c := faulttest.NewCatalog(t, faulttest.Fault{})
	run(t, nil, bin, c, "--table=prism.clicks", "--interval=10ms", "--duration=6s", "--triggering_frequency=2s")
	faulttest.RequireEachSeqOnce(t, c.URL, c.Tokens.Credential(), "prism.clicks", 600)
}

// TestFlinkExactlyOnce is the scenario a user's pipeline once failed:
// plain beamx.Run on Beam's Flink runner, checkpointing set only in the
// cluster's flink-conf.yaml, the worker killed after a commit or the
// catalog down for 15 s. Before the runner hook in internal/portable,
// Flink took no checkpoint once the Impulse finished, restarted the job
// from scratch and the sink committed the replayed rows again (20,445 rows
// of 12,000, exit status 0). Now: every seq exactly once.
func TestFlinkExactlyOnce(t *testing.T) {
	const (
		interval = 5 * time.Millisecond
		duration = 60 * time.Second
	)
	bin := build(t)
	for _, fault := range []faulttest.Fault{faulttest.CrashAfterCommit(), faulttest.CatalogDown(15 * time.Second)} {
		t.Run(fault.Name, func(t *testing.T) {
			js := jobservertest.Start(t, "flink", "execution.checkpointing.interval: 5s")
			c := faulttest.NewCatalog(t, fault)
			c.Pool = jobservertest.StartWorkerPool(t, bin, credentialEnv+"="+c.Tokens.Credential())
			start := time.Now()
			run(t, js, bin, c, "--runner=flink", "--endpoint="+js.Endpoint,
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
