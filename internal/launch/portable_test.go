package launch

import (
	"context"
	"flag"
	"fmt"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/periodic"

	"github.com/icebeam/icebeam/internal/launch/launchtest"
	"github.com/icebeam/icebeam/internal/stableinput"
)

func double(x int64) int64 { return 2 * x }
func keep(b []byte) []byte { return b }

func init() {
	register.Function1x1(double)
	register.Function1x1(keep)
}

// streamingPipeline has an unbounded source, a plain ParDo and one in a
// stable-input scope.
func streamingPipeline() *beam.Pipeline {
	p, s := beam.NewPipelineWithRoot()
	now := time.Now()
	ticks := periodic.Impulse(s, now, now.Add(time.Second), 200*time.Millisecond, false)
	plain := beam.ParDo(s.Scope("Plain"), keep, ticks)
	beam.ParDo(stableinput.Scope(s, "Commit"), keep, plain)
	return p
}

func setFlag(t *testing.T, name, value string) {
	t.Helper()
	old := flag.Lookup(name).Value.String()
	if err := flag.Set(name, value); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = flag.Set(name, old) })
}

func TestFlinkStreamingOptions(t *testing.T) {
	setFlag(t, "runner", "flink")
	mp := launchtest.Model(t, streamingPipeline())
	opts, err := portableOptions(mp)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"checkpointingInterval":           int64(5000),
		"finishBundleBeforeCheckpointing": true,
		"numberOfExecutionRetries":        3,
		"executionRetryDelay":             int64(5000),
	}
	for k, v := range want {
		if fmt.Sprint(opts[k]) != fmt.Sprint(v) {
			t.Errorf("option %s = %v, want %v", k, opts[k], v)
		}
	}
	marked := stableinput.Marked(mp)
	if len(marked) != 1 || !strings.Contains(marked[0], "Commit (stable input)/") {
		t.Errorf("stable-input ParDos %v, want the one in the Commit scope", marked)
	}
	if !slices.Contains(mp.GetRequirements(), stableinput.Requirement) {
		t.Errorf("requirements %v lack %s", mp.GetRequirements(), stableinput.Requirement)
	}
	if got := optionURN("numberOfExecutionRetries"); got != "beam:option:number_of_execution_retries:v1" {
		t.Errorf("optionURN = %s", got)
	}
}

func TestRunnerOptionsOverrideDefaults(t *testing.T) {
	setFlag(t, "runner", "flink")
	setFlag(t, "runner_option", "numberOfExecutionRetries=0")
	t.Cleanup(func() { runnerOptions = nil })
	opts, err := portableOptions(launchtest.Model(t, streamingPipeline()))
	if err != nil {
		t.Fatal(err)
	}
	if opts["numberOfExecutionRetries"] != int64(0) {
		t.Errorf("numberOfExecutionRetries = %v, want the flag's 0", opts["numberOfExecutionRetries"])
	}
}

func TestSparkStreamingIsRefused(t *testing.T) {
	setFlag(t, "runner", "spark")
	_, err := portableOptions(launchtest.Model(t, streamingPipeline()))
	if err == nil || !strings.Contains(err.Error(), "splittable DoFns") {
		t.Errorf("err = %v, want a refusal naming the missing feature", err)
	}
}

func TestBatchGetsNoCheckpointing(t *testing.T) {
	setFlag(t, "runner", "flink")
	p, s := beam.NewPipelineWithRoot()
	beam.ParDo(stableinput.Scope(s, "Commit"), double, beam.Create(s, int64(1)))
	mp := launchtest.Model(t, p)
	opts, err := portableOptions(mp)
	if err != nil {
		t.Fatal(err)
	}
	if len(opts) != 0 || len(stableinput.Marked(mp)) != 0 {
		t.Errorf("a batch job got options %v and stable input on %v", opts, stableinput.Marked(mp))
	}
}

// A job server that refuses the stable-input requirement (prism's) still
// runs the job, without it.
func TestJobServerWithoutStableInput(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	l, err := net.Listen("tcp", "localhost:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	if _, err := prism.CreateJobServer(ctx, prism.Options{Port: port}); err != nil {
		t.Fatal(err)
	}
	setFlag(t, "runner", "universal")
	setFlag(t, "endpoint", fmt.Sprintf("localhost:%d", port))
	setFlag(t, "environment_type", "LOOPBACK")
	if _, err := Run(ctx, streamingPipeline()); err != nil {
		t.Fatalf("Run on prism's job server: %v", err)
	}
}
