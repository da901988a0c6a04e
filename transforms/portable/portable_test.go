package portable

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
	"github.com/icebeam/icebeam/transforms/portable/hint"
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
	beam.ParDo(hint.StableInput(s, "Commit"), keep, plain)
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
	opts, err := runnerOptionsFor(mp)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"streaming":                       true,
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
	marked := StableInputSteps(mp)
	if len(marked) != 1 || !strings.Contains(marked[0], "Commit (stable input)/") {
		t.Errorf("stable-input ParDos %v, want the one in the Commit scope", marked)
	}
	if !slices.Contains(mp.GetRequirements(), StableInputRequirement) {
		t.Errorf("requirements %v lack %s", mp.GetRequirements(), StableInputRequirement)
	}
	if got := optionURN("numberOfExecutionRetries"); got != "beam:option:number_of_execution_retries:v1" {
		t.Errorf("optionURN = %s", got)
	}
}

func TestRunnerOptionsOverrideDefaults(t *testing.T) {
	setFlag(t, "runner", "flink")
	setFlag(t, "runner_option", "numberOfExecutionRetries=0")
	t.Cleanup(func() { runnerOptions = nil })
	opts, err := runnerOptionsFor(launchtest.Model(t, streamingPipeline()))
	if err != nil {
		t.Fatal(err)
	}
	if opts["numberOfExecutionRetries"] != int64(0) {
		t.Errorf("numberOfExecutionRetries = %v, want the flag's 0", opts["numberOfExecutionRetries"])
	}
}

func TestSparkStreamingIsRefused(t *testing.T) {
	setFlag(t, "runner", "spark")
	_, err := runnerOptionsFor(launchtest.Model(t, streamingPipeline()))
	if err == nil || !strings.Contains(err.Error(), "splittable DoFns") {
		t.Errorf("err = %v, want a refusal naming the missing feature", err)
	}
}

func TestBatchGetsNoCheckpointing(t *testing.T) {
	setFlag(t, "runner", "flink")
	p, s := beam.NewPipelineWithRoot()
	beam.ParDo(hint.StableInput(s, "Commit"), double, beam.Create(s, int64(1)))
	mp := launchtest.Model(t, p)
	opts, err := runnerOptionsFor(mp)
	if err != nil {
		t.Fatal(err)
	}
	if len(opts) != 0 || len(StableInputSteps(mp)) != 0 {
		t.Errorf("a batch job got options %v and stable input on %v", opts, StableInputSteps(mp))
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
	if _, err := Execute(ctx, streamingPipeline()); err != nil {
		t.Fatalf("Run on prism's job server: %v", err)
	}
}

// beam.Init's hook routes the portable runners' names through Execute, and
// Runner still names what was asked for.
func TestInitRoutesPortableRunners(t *testing.T) {
	for in, want := range map[string]string{"flink": "flink", "FlinkRunner": "flink", "universal": "universal", "spark": "spark", "prism": "prism", "dataflow": "dataflow", "": "prism"} {
		setFlag(t, "runner", in)
		routePortableRunners()
		got := flag.Lookup("runner").Value.String()
		if hint.PortableRunners[in] && got != hint.RoutedRunner {
			t.Errorf("--runner=%s is submitted by %q, want %q", in, got, hint.RoutedRunner)
		}
		if !hint.PortableRunners[in] && got != in {
			t.Errorf("--runner=%s became %q", in, got)
		}
		if r := Runner(); r != want {
			t.Errorf("--runner=%s: Runner() = %q, want %q", in, r, want)
		}
	}
}

// A streaming pipeline whose commits need checkpoints is refused with
// checkpointing off, naming the flag.
func TestStreamingWithoutCheckpointsIsRefused(t *testing.T) {
	setFlag(t, "runner", "flink")
	setFlag(t, "checkpointing_interval", "-1s")
	_, err := runnerOptionsFor(launchtest.Model(t, streamingPipeline()))
	if err == nil || !strings.Contains(err.Error(), "--checkpointing_interval") {
		t.Errorf("err = %v, want a refusal naming --checkpointing_interval", err)
	}
}

// A stream that ends lets Flink stop its sources once the latest end has
// passed by streamEndMargin, and drains what the stable-input steps hold.
func TestStreamEnd(t *testing.T) {
	setFlag(t, "runner", "flink")
	p, s := beam.NewPipelineWithRoot()
	now := time.Now()
	ticks := periodic.Impulse(hint.StreamEndsAt(s, now.Add(time.Minute)), now, now.Add(time.Minute), time.Second, false)
	beam.ParDo(hint.StableInput(hint.StreamEndsAt(s, now.Add(2*time.Minute)), "Commit"), keep, ticks)
	opts, err := runnerOptionsFor(launchtest.Model(t, p))
	if err != nil {
		t.Fatal(err)
	}
	ms, ok := opts["shutdownSourcesAfterIdleMs"].(int64)
	want := 2*time.Minute + streamEndMargin(defaultFlinkCheckpointing)
	if !ok || ms < (want-5*time.Second).Milliseconds() || ms > want.Milliseconds() {
		t.Errorf("shutdownSourcesAfterIdleMs = %v, want about %v (the latest end and the margin)", opts["shutdownSourcesAfterIdleMs"], want)
	}
	if opts["enableStableInputDrain"] != true {
		t.Errorf("enableStableInputDrain = %v", opts["enableStableInputDrain"])
	}
	// Without an end, sources stay alive for checkpoints.
	opts, err = runnerOptionsFor(launchtest.Model(t, streamingPipeline()))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := opts["shutdownSourcesAfterIdleMs"]; ok {
		t.Errorf("a stream without an end gets shutdownSourcesAfterIdleMs = %v", opts["shutdownSourcesAfterIdleMs"])
	}
}
