// Package portable is the runner a Beam Go program's main imports to run
// icebeam's transforms exactly once on Beam's portable Java runners (Flink,
// Spark, any job server behind --runner=universal) under plain beamx.Run:
//
//	import _ "github.com/icebeam/icebeam/transforms/portable"
//
// Importing it registers its flags (--checkpointing_interval,
// --runner_option, --worker_pool), a runner, and a beam.Init hook that
// routes --runner=flink, spark, universal and portable through Execute,
// which submits the job with what the Go SDK cannot say: Flink's
// checkpointing, requires_stable_input on the steps the transforms marked
// (package hint), restarts from the last checkpoint, sources kept alive so
// checkpoints go on after bounded steps finish and stopped when their
// stream ends. A runner that cannot give stable input refuses the job
// before it starts, in one line naming the fix. Without this import,
// --runner=flink runs on Beam's own portable runner, which takes no
// checkpoints: a restarted job replays its input and commits it again.
// Prism and Dataflow need no import.
package portable

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"os/signal"
	goruntime "runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/apache/beam/sdks/v2/go/container/tools"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/metrics"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/runtime"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/runtime/graphx"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/runtime/metricsx"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/runtime/xlangx"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/util/hooks"
	jobpb "github.com/apache/beam/sdks/v2/go/pkg/beam/model/jobmanagement_v1"
	pipepb "github.com/apache/beam/sdks/v2/go/pkg/beam/model/pipeline_v1"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal" // the harness hook workers start through
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal/extworker"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal/runnerlib"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/util/grpcx"
	"google.golang.org/protobuf/proto"

	"github.com/icebeam/icebeam/transforms/portable/hint"
)

// Flags of Beam's portable Java runners (Flink, Spark), which the Go SDK
// cannot pass: it sends its own flags under one key the Java side never
// reads. Run sends these as the runner's own pipeline options.
var (
	checkpointingInterval = flag.Duration("checkpointing_interval", 0,
		"Flink: how often a streaming job checkpoints (default 5s on --runner=flink and universal; negative: never). The Iceberg sink commits only panes a completed checkpoint covers, so this bounds the added commit latency")
	runnerOptions keyValues
	workerPool    = flag.String("worker_pool", "",
		"HOST:PORT: serve as an external worker pool there (for --environment_type=EXTERNAL --environment_config=HOST:PORT jobs on Flink or Spark) instead of running a pipeline")
)

// defaultFlinkCheckpointing is the checkpoint interval of streaming jobs on
// Flink when --checkpointing_interval is not given.
const defaultFlinkCheckpointing = 5 * time.Second

// defaultFlinkRetries and defaultFlinkRetryDelay are the restarts a
// checkpointed Flink job gets (--runner_option=numberOfExecutionRetries
// and executionRetryDelay change them).
const (
	defaultFlinkRetries    = 3
	defaultFlinkRetryDelay = 5 * time.Second
)

// keyValues is a repeatable NAME=VALUE flag.
type keyValues []string

func (kv *keyValues) String() string { return strings.Join(*kv, ",") }
func (kv *keyValues) Set(v string) error {
	if name, _, ok := strings.Cut(v, "="); !ok || name == "" {
		return fmt.Errorf("%q is not NAME=VALUE", v)
	}
	*kv = append(*kv, v)
	return nil
}

// serveWorkerPool runs the SDK harnesses a job server starts on
// --worker_pool until the process is stopped. A pool runs workers of the
// pipelines compiled into this binary only.
func serveWorkerPool(addr string) {
	_, port, err := net.SplitHostPort(addr)
	n, perr := strconv.Atoi(port)
	if err != nil || perr != nil {
		log.Fatalf("--worker_pool=%s: want HOST:PORT", addr)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	pool, err := extworker.StartLoopback(ctx, n)
	if err != nil {
		log.Fatalf("--worker_pool=%s: %v", addr, err)
	}
	log.Printf("portable: worker pool serving on %s", pool.EnvironmentConfig(ctx))
	<-ctx.Done()
	pool.Stop(context.Background())
	os.Exit(0)
}

// requested is the --runner value the beam.Init hook replaced.
var requested string

func init() {
	flag.Var(&runnerOptions, "runner_option",
		"NAME=VALUE: an option of the portable Java runner as its documentation names it, e.g. numberOfExecutionRetries=3 or maxBundleTimeMills=500 (repeatable)")
	beam.RegisterRunner(hint.RoutedRunner, Execute)
	// Hooks run in registration order; Beam's harness hook, registered by
	// the universal runner this package imports, runs first and never
	// returns in a worker, so this one runs only where a job is launched.
	runtime.RegisterInit(routePortableRunners)
}

// routePortableRunners serves a worker pool when asked to, and otherwise
// makes beamx.Run submit to a portable runner through Execute.
func routePortableRunners() {
	if *workerPool != "" {
		serveWorkerPool(*workerPool)
	}
	if r := *runners.Runner; hint.PortableRunners[r] {
		requested = r
		*runners.Runner = hint.RoutedRunner
	}
}

// Runner is the --runner flag as given, lower-cased and without the
// "Runner" suffix of the Java-style names (FlinkRunner, DataflowRunner)
// that Beam registers as aliases; empty means prism.
func Runner() string {
	r := *runners.Runner
	if r == hint.RoutedRunner {
		r = requested
	}
	return hint.RunnerName(r)
}

// Execute runs p on the portable runner --runner names, as Beam's
// universal runner does, and also gives the runner what the Go SDK cannot
// express:
//
//   - Flink's own options: a streaming job is checkpointed
//     (--checkpointing_interval) and the ParDos in StableInput scopes get
//     requires_stable_input, which Flink provides only with checkpointing
//     on. Without checkpointing, a restarted job replays its input from
//     the start.
//   - any other option of the Java runner, from --runner_option.
//
// It refuses a streaming pipeline on Spark, whose portable runner cannot
// run the splittable DoFns every unbounded Go source is built on, and a
// streaming pipeline with stable-input steps on a job server that cannot
// provide stable input, other than prism's (which never retries).
func Execute(ctx context.Context, p *beam.Pipeline) (beam.PipelineResult, error) {
	endpoint, err := jobopts.GetEndpoint()
	if err != nil {
		return nil, err
	}
	edges, _, err := p.Build()
	if err != nil {
		return nil, err
	}
	getEnvCfg := jobopts.GetEnvironmentConfig
	if jobopts.IsLoopback() {
		srv, err := extworker.StartLoopback(ctx, 0)
		if err != nil {
			return nil, err
		}
		defer srv.Stop(ctx)
		getEnvCfg = srv.EnvironmentConfig
	}
	xlangx.ResolveArtifacts(ctx, edges, nil)
	env, err := graphx.CreateEnvironment(ctx, jobopts.GetEnvironmentUrn(ctx), getEnvCfg)
	if err != nil {
		return nil, fmt.Errorf("generating model pipeline: %w", err)
	}
	pipeline, err := graphx.Marshal(edges, &graphx.Options{Environment: env, PipelineResourceHints: jobopts.GetPipelineResourceHints()})
	if err != nil {
		return nil, fmt.Errorf("generating model pipeline: %w", err)
	}
	plain := proto.Clone(pipeline).(*pipepb.Pipeline)
	options, err := runnerOptionsFor(pipeline)
	if err != nil {
		return nil, err
	}
	worker, cleanup, err := stagedWorker(ctx)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	for _, p := range []*pipepb.Pipeline{pipeline, plain} {
		if err := runnerlib.UpdateGoEnvironmentWorker(worker, p); err != nil {
			return nil, err
		}
	}
	res, err := submit(ctx, endpoint, pipeline, options, worker)
	if errors.Is(err, errStableInputRefused) {
		if !strings.Contains(err.Error(), "prism runner") {
			return nil, fmt.Errorf("the job server at %s cannot hold input stable until a checkpoint covers it, which exactly-once commits need on a runner that retries (%v): run on Beam's Flink runner (--runner=flink) or Dataflow, or locally on prism", endpoint, err)
		}
		// prism never retries a bundle: what it commits, it commits once.
		log.Printf("portable: prism's job server does not mark stable input; it needs none, as it never retries")
		return submit(ctx, endpoint, plain, options, worker)
	}
	return res, err
}

// errStableInputRefused is a job server refusing the stable-input
// requirement.
var errStableInputRefused = errors.New("the job server does not provide stable input")

// runnerOptionsFor checks pipeline against the runner, marks its
// stable-input steps where the runner provides stable input, and returns
// the Java runner options to send along.
func runnerOptionsFor(pipeline *pipepb.Pipeline) (map[string]any, error) {
	streaming := hasUnbounded(pipeline)
	if streaming && Runner() == "spark" {
		return nil, fmt.Errorf("--runner=spark cannot run this streaming pipeline: Beam's portable Spark runner does not support the self-checkpointing splittable DoFns that unbounded Go sources are built on (it fails with \"ActiveBundle does not have a registered bundle checkpoint handler\"); run it on Flink or Dataflow")
	}
	opts := map[string]any{}
	if streaming {
		// Beam's Flink runner picks its streaming translation from the
		// unbounded PCollections, but its operators read this option,
		// which the Go SDK never sets: without it they end bundles only
		// at checkpoints and watermarks (not after maxBundleTimeMills),
		// so a source emitted for a second and then waited for the next
		// checkpoint, and a pane sat in an open bundle until one.
		opts["streaming"] = true
	}
	interval := *checkpointingInterval
	if interval == 0 && streaming {
		// Flink, or a job server we cannot tell from Flink
		// (--runner=universal); Execute falls back if prism's refuses.
		interval = defaultFlinkCheckpointing
	}
	if interval < 0 && streaming && hasStableInputScopes(pipeline) {
		return nil, fmt.Errorf("--checkpointing_interval=%v: this streaming pipeline commits exactly once only from input a completed checkpoint covers; without checkpoints a restarted job replays its input from the start and commits it again: drop the flag (default %v) or give a positive interval", interval, defaultFlinkCheckpointing)
	}
	if interval > 0 {
		opts["checkpointingInterval"] = interval.Milliseconds()
		// Flink otherwise finishes a bundle inside the snapshot and keeps
		// its output in the checkpoint; a job restored from it lost that
		// output (about one checkpoint interval of a fused source's rows)
		// in our failover tests. Finishing the bundle before the barrier
		// sends the output downstream, where the checkpoint covers it.
		opts["finishBundleBeforeCheckpointing"] = true
		// Restart a failed job from its last checkpoint a few times (a
		// lost worker), then fail it: with checkpointing Flink would
		// otherwise restart forever, and a sink whose catalog stays down
		// would stall without a word.
		opts["numberOfExecutionRetries"] = defaultFlinkRetries
		opts["executionRetryDelay"] = defaultFlinkRetryDelay.Milliseconds()
		marked, err := markStableInput(pipeline)
		if err != nil {
			return nil, err
		}
		for _, name := range marked {
			log.Printf("portable: %s requires stable input: it sees only input a completed checkpoint (every %v) covers", name, interval)
		}
		if end, ok := streamEnd(pipeline); ok {
			// With checkpointing on, Flink keeps idle sources running
			// (a finished task stops checkpoints) and the job never
			// ends: they stop streamEndMargin after the stream's end.
			opts["shutdownSourcesAfterIdleMs"] = (max(time.Until(end), 0) + streamEndMargin(interval)).Milliseconds()
			// A stable-input step that still holds input when its
			// input ends runs it then instead of waiting for a
			// checkpoint that cannot come (see streamEndMargin).
			opts["enableStableInputDrain"] = true
		}
	}
	for _, kv := range runnerOptions {
		name, value, _ := strings.Cut(kv, "=")
		opts[name] = jsonValue(value)
	}
	return opts, nil
}

// streamEndMargin is how long Flink keeps a stream's sources alive after
// its end, checkpointing every interval. If their end of input reaches a
// stable-input step (the sink's commit) while it holds input that no
// completed checkpoint covers yet, Beam 2.70's portable Flink runner hangs
// for good: ExecutableStageDoFnOperator.flushData loops until the step's
// output watermark is final, which that input holds back until a checkpoint
// completes, and none can while the loop holds the task's thread (thread
// dumps: the thread spinning in flushData, the job's last checkpoint
// pending). The job server scripts/jobserver.sh assembles is patched to run
// that input instead (enableStableInputDrain; scripts/flink/
// stable-input-drain.patch), but then no checkpoint covers the last pane's
// commit. Sources that stop at the stream's end send their end of input
// right behind its last pane; stopping them later leaves time for the last
// pane to reach the commit, for a checkpoint taken after it (up to an
// interval away, after one in flight) to complete, and for the machine to
// be slow. A source far behind its schedule (rows due faster than the job
// carries them) can still be emitting when they stop: it then emits the
// rest at its end of input, and the last panes take the drain.
func streamEndMargin(interval time.Duration) time.Duration {
	return 2*interval + 15*time.Second
}

// streamEnd is the latest end a hint.StreamEndsAt scope of p names, if
// the pipeline has any.
func streamEnd(p *pipepb.Pipeline) (time.Time, bool) {
	var latest time.Time
	for _, t := range p.GetComponents().GetTransforms() {
		if end, ok := hint.StreamEnd(t.GetUniqueName()); ok && end.After(latest) {
			latest = end
		}
	}
	return latest, !latest.IsZero()
}

// hasUnbounded reports whether the pipeline has an unbounded PCollection.
func hasUnbounded(p *pipepb.Pipeline) bool {
	for _, pc := range p.GetComponents().GetPcollections() {
		if pc.GetIsBounded() == pipepb.IsBounded_UNBOUNDED {
			return true
		}
	}
	return false
}

// jsonValue is a --runner_option value as the Java runner reads it: a
// number or boolean when it parses as one, else a string.
func jsonValue(v string) any {
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		return n
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		return f
	}
	if b, err := strconv.ParseBool(v); err == nil {
		return b
	}
	return v
}

// optionURN is the key the Java runners read an option from: they turn
// beam:option:number_of_execution_retries:v1 into numberOfExecutionRetries.
func optionURN(name string) string {
	var b strings.Builder
	for i, r := range name {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return "beam:option:" + b.String() + ":v1"
}

// stagedWorker is the binary the runner's workers run: none is needed in
// LOOPBACK mode (the workers run in this process), else --worker_binary,
// else this executable when it can run on the runner's linux/amd64
// workers. Beam would compile one from source, which needs Go and the
// source tree wherever the job is submitted (neither is in a Flex Template
// image) and takes minutes.
func stagedWorker(ctx context.Context) (path string, cleanup func(), err error) {
	if jobopts.IsLoopback() {
		f, err := os.CreateTemp("", "icebeam-loopback-worker-*")
		if err != nil {
			return "", nil, err
		}
		f.Close()
		return f.Name(), func() { os.Remove(f.Name()) }, nil
	}
	if *jobopts.WorkerBinary != "" {
		return *jobopts.WorkerBinary, func() {}, nil
	}
	if goruntime.GOOS == "linux" && goruntime.GOARCH == "amd64" {
		if self, err := os.Executable(); err == nil {
			return self, func() {}, nil
		}
	}
	bin, err := runnerlib.BuildTempWorkerBinary(ctx, runnerlib.CompileOpts{})
	if err != nil {
		return "", nil, err
	}
	return bin, func() { os.Remove(bin) }, nil
}

// submit prepares, stages and runs the job, and waits for it unless
// --async.
func submit(ctx context.Context, endpoint string, pipeline *pipepb.Pipeline, javaOptions map[string]any, worker string) (beam.PipelineResult, error) {
	cc, err := grpcx.Dial(ctx, endpoint, 2*time.Minute)
	if err != nil {
		return nil, fmt.Errorf("connecting to the job service at %s: %w", endpoint, err)
	}
	defer cc.Close()
	client := jobpb.NewJobServiceClient(cc)

	hooks.SerializeHooksToOptions()
	beam.PipelineOptions.LoadOptionsFromFlags(nil)
	raw, err := json.Marshal(runtime.RawOptionsWrapper{
		Options:      beam.PipelineOptions.Export(),
		AppName:      jobopts.GetJobName(),
		Experiments:  append(jobopts.GetExperiments(), "beam_fn_api"),
		RetainDocker: *jobopts.RetainDockerContainers,
		Parallelism:  *jobopts.Parallelism,
	})
	if err != nil {
		return nil, err
	}
	all := map[string]any{}
	if err := json.Unmarshal(raw, &all); err != nil {
		return nil, err
	}
	for name, v := range javaOptions {
		all[optionURN(name)] = v
	}
	options, err := tools.OptionsToProto(all)
	if err != nil {
		return nil, fmt.Errorf("producing pipeline options: %w", err)
	}
	prep, err := client.Prepare(ctx, &jobpb.PrepareJobRequest{Pipeline: pipeline, PipelineOptions: options, JobName: jobopts.GetJobName()})
	if err != nil {
		if slices.Contains(pipeline.GetRequirements(), StableInputRequirement) && strings.Contains(err.Error(), "stable_input") {
			return nil, fmt.Errorf("%w (%v)", errStableInputRefused, err)
		}
		return nil, fmt.Errorf("preparing the job: %w", err)
	}
	token, err := runnerlib.Stage(ctx, prep.GetPreparationId(), prep.GetArtifactStagingEndpoint().GetUrl(), worker, prep.GetStagingSessionToken())
	if err != nil {
		return nil, err
	}
	jobID, err := runnerlib.Submit(ctx, client, prep.GetPreparationId(), token)
	if err != nil {
		return nil, err
	}
	log.Printf("portable: submitted job %s to %s", jobID, endpoint)
	if *jobopts.Async {
		return portableResult{jobID: jobID}, nil
	}
	stop := cancelOnSignal(ctx, client, jobID)
	defer stop()
	err = runnerlib.WaitForCompletion(ctx, client, jobID)
	res := portableResult{jobID: jobID}
	if m, merr := client.GetJobMetrics(ctx, &jobpb.GetJobMetricsRequest{JobId: jobID}); merr == nil {
		res.metrics = metricsx.FromMonitoringInfos(pipeline, m.GetMetrics().GetAttempted(), m.GetMetrics().GetCommitted())
	}
	return res, err
}

// cancelOnSignal cancels the job when this process is interrupted, so that
// Ctrl-C does not leave it running on the cluster.
func cancelOnSignal(ctx context.Context, client jobpb.JobServiceClient, jobID string) (stop func()) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			log.Printf("portable: %v: cancelling job %s", s, jobID)
			cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
			defer cancel()
			if _, err := client.Cancel(cctx, &jobpb.CancelJobRequest{JobId: jobID}); err != nil {
				log.Printf("portable: cancelling job %s: %v", jobID, err)
			}
		case <-done:
		}
	}()
	return func() { signal.Stop(sigs); close(done) }
}

type portableResult struct {
	jobID   string
	metrics *metrics.Results
}

func (r portableResult) JobID() string { return r.jobID }

func (r portableResult) Metrics() metrics.Results {
	if r.metrics == nil {
		return metrics.Results{}
	}
	return *r.metrics
}
