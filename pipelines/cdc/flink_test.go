package main

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/icebeam/icebeam/internal/cdctest"
	"github.com/icebeam/icebeam/internal/faulttest"
	"github.com/icebeam/icebeam/internal/jobservertest"
	"github.com/icebeam/icebeam/transforms/cdc"
)

// TestFlinkExactlyOnce applies the generated change stream on Beam's
// portable Flink runner with checkpointing, its harnesses in a worker pool
// of their own, through a worker crash after a commit, a crash before one,
// and the catalog down for 15 s: the table ends as the change log says,
// every key once with its last value, and the job exits 0. Every chunk is
// staged (--staging_threshold=1), as a fast stream's are: a pane replayed
// after its commit finds its files gone and is skipped, one replayed
// before its commit reads them. (TestFlinkDebeziumInput's chunks cross the
// shuffle as bytes.)
func TestFlinkExactlyOnce(t *testing.T) {
	const (
		interval = 5 * time.Millisecond
		duration = 60 * time.Second
		keys     = 300
	)
	want := cdctest.Generated(int64(duration/interval), keys, cdc.Generated)
	for _, fault := range []faulttest.Fault{faulttest.CrashAfterCommit(), faulttest.CrashBeforeCommit(), faulttest.CatalogDown(15 * time.Second)} {
		t.Run(fault.Name, func(t *testing.T) {
			runOnFlink(t, fault, want, "--interval="+interval.String(), "--duration="+duration.String(), fmt.Sprintf("--keys=%d", keys), "--staging_threshold=1")
		})
	}
}

// TestFlinkFastStream applies a fast generated stream on Flink (the
// benchmark's mixed changes, 100,000 a second for 20 s) through a worker
// crash before a commit: a bundle then holds several Arrow batches, which
// the encode step encodes at once, and the table still ends as the change
// log says.
func TestFlinkFastStream(t *testing.T) {
	const (
		interval = 10 * time.Microsecond
		duration = 20 * time.Second
		keys     = 100_000
	)
	want := cdctest.Generated(int64(duration/interval), keys, cdc.Mixed)
	runOnFlink(t, faulttest.CrashBeforeCommit(), want, "--changes=mixed", "--interval="+interval.String(), "--duration="+duration.String(), fmt.Sprintf("--keys=%d", keys))
}

// TestFlinkDebeziumInput replays a Debezium change log written here
// through --input on Flink, at 200 events a second for a minute, through a
// worker crash after a commit and the catalog down for 15 s: the table
// ends as the log's final state.
func TestFlinkDebeziumInput(t *testing.T) {
	in, want := cdctest.DebeziumLog(t, 12000, 300)
	for _, fault := range []faulttest.Fault{faulttest.CrashAfterCommit(), faulttest.CatalogDown(15 * time.Second)} {
		t.Run(fault.Name, func(t *testing.T) {
			runOnFlink(t, fault, want, "--input="+in, "--rate=200")
		})
	}
}

// runOnFlink runs the cdc job on Flink against a catalog with fault, and
// checks that the table ends holding want and the job exits 0.
func runOnFlink(t *testing.T, fault faulttest.Fault, want []cdc.Account, args ...string) {
	bin := pipelineBin.Path(t)
	js := jobservertest.Start(t, "flink")
	c := faulttest.NewCatalog(t, fault)
	const credentialEnv = "ICEBEAM_TEST_CREDENTIAL"
	env := credentialEnv + "=" + c.Tokens.Credential()
	c.Pool = jobservertest.StartWorkerPool(t, bin, env)
	cmd := exec.Command(bin, append([]string{
		"--runner=flink", "--endpoint=" + js.Endpoint,
		"--environment_type=EXTERNAL", "--environment_config=" + c.Pool.Addr,
		"--catalog_uri=" + c.URL, "--auth=oauth2", "--credential=env:" + credentialEnv,
		"--triggering_frequency_seconds=5"}, args...)...)
	cmd.Env = append(cmd.Environ(), env)
	start := time.Now()
	out, err := js.Run(t, 6*time.Minute, cmd)
	if err != nil {
		t.Fatalf("cdc on Flink: %v", err)
	}
	t.Logf("cdc on Flink (%s): %v, %d completed checkpoints, %d job restarts\n%s", fault.Name, time.Since(start).Round(time.Second),
		js.Count("Completed checkpoint"), js.Count("Restoring job"), summaryOf(out))
	tbl := faulttest.LoadChecked(t, c.URL, c.Tokens.Credential(), "cdc.accounts")
	got, _, deletes := cdctest.ReadRows(t, tbl)
	cdctest.RequireRows(t, got, want)
	t.Logf("delete files %v", deletes)
	if slices.Contains(args, "--staging_threshold=1") {
		// Chunks were staged; those left are of encode bundles the fault
		// interrupted, which no pane holds.
		left, err := os.ReadDir(strings.TrimPrefix(tbl.Location(), "file://") + "/staging")
		if err != nil {
			t.Fatalf("no chunk was staged: %v", err)
		}
		t.Logf("staged chunks left under the table's location: %d", len(left))
	}
	c.Check(t)
}
