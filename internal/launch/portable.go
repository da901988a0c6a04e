package launch

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
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal/extworker"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal/runnerlib"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/util/grpcx"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"google.golang.org/protobuf/proto"

	"github.com/icebeam/icebeam/internal/stableinput"
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

func init() {
	flag.Var(&runnerOptions, "runner_option",
		"NAME=VALUE: an option of the portable Java runner as its documentation names it, e.g. numberOfExecutionRetries=3 or maxBundleTimeMills=500 (repeatable)")
}

// streamEnd is how long the streaming pipeline's sources run (see
// StreamEndsAfter); 0 is until cancelled.
var streamEnd time.Duration

// StreamEndsAfter tells Run that the pipeline's unbounded sources stop
// after d, as clicks --duration does, so that a runner that keeps idle
// sources alive lets the job finish.
func StreamEndsAfter(d time.Duration) { streamEnd = d }

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
	log.Printf("launch: worker pool serving on %s", pool.EnvironmentConfig(ctx))
	<-ctx.Done()
	pool.Stop(context.Background())
	os.Exit(0)
}

// Portable reports whether --runner submits to a Beam job server (Flink,
// Spark, or any other through --runner=universal).
func Portable() bool {
	switch Runner() {
	case "universal", "portable", "flink", "spark":
		return true
	}
	return false
}

// Run runs p on the runner --runner names, as beamx.RunWithMetrics does,
// except on Beam's portable runners (--runner=flink, spark, universal),
// where it submits the job itself in order to give the runner what the Go
// SDK cannot express:
//
//   - Flink's own options: a streaming job is checkpointed
//     (--checkpointing_interval) and the ParDos marked with
//     stableinput.Scope get requires_stable_input, which Flink provides
//     only with checkpointing on. Without checkpointing, a restarted job
//     replays its input from the start.
//   - any other option of the Java runner, from --runner_option.
//
// It refuses a streaming pipeline on Spark, whose portable runner cannot
// run the splittable DoFns every unbounded Go source is built on.
func Run(ctx context.Context, p *beam.Pipeline) (beam.PipelineResult, error) {
	if !Portable() {
		return beamx.RunWithMetrics(ctx, p)
	}
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
	options, err := portableOptions(pipeline)
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
		// A job server that is not Flink's, such as prism's.
		log.Printf("launch: warning: %v; submitting without it: a failover may commit rows twice (never lose them)", err)
		return submit(ctx, endpoint, plain, options, worker)
	}
	return res, err
}

// errStableInputRefused is a job server refusing the stable-input
// requirement.
var errStableInputRefused = errors.New("the job server does not provide stable input")

// portableOptions checks pipeline against the runner, marks its
// stable-input steps where the runner provides stable input, and returns
// the Java runner options to send along.
func portableOptions(pipeline *pipepb.Pipeline) (map[string]any, error) {
	streaming := hasUnbounded(pipeline)
	if streaming && Runner() == "spark" {
		return nil, fmt.Errorf("--runner=spark cannot run this streaming pipeline: Beam's portable Spark runner does not support the self-checkpointing splittable DoFns that unbounded Go sources are built on (it fails with \"ActiveBundle does not have a registered bundle checkpoint handler\"); run it on Flink or Dataflow")
	}
	opts := map[string]any{}
	interval := *checkpointingInterval
	if interval == 0 && streaming {
		// Flink, or a job server we cannot tell from Flink
		// (--runner=universal); Run falls back if it refuses.
		interval = defaultFlinkCheckpointing
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
		marked, err := stableinput.Apply(pipeline)
		if err != nil {
			return nil, err
		}
		for _, name := range marked {
			log.Printf("launch: %s requires stable input: it sees only input a completed checkpoint (every %v) covers", name, interval)
		}
		if streamEnd > 0 {
			// With checkpointing on, Flink keeps idle sources running
			// (a finished task stops checkpoints) and the job never
			// ends; stable-input steps drop what they hold at the end
			// unless told to drain it.
			opts["shutdownSourcesAfterIdleMs"] = streamEnd.Milliseconds()
			opts["enableStableInputDrain"] = true
		}
	}
	for _, kv := range runnerOptions {
		name, value, _ := strings.Cut(kv, "=")
		opts[name] = jsonValue(value)
	}
	return opts, nil
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
// LOOPBACK mode (the workers run in this process), else --worker_binary
// (ConfigureRunner defaults it to this executable).
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
	if self, ok := runnerlib.IsWorkerCompatibleBinary(); ok {
		return self, func() {}, nil
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
		if slices.Contains(pipeline.GetRequirements(), stableinput.Requirement) && strings.Contains(err.Error(), "stable_input") {
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
	log.Printf("launch: submitted job %s to %s", jobID, endpoint)
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
			log.Printf("launch: %v: cancelling job %s", s, jobID)
			cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
			defer cancel()
			if _, err := client.Cancel(cctx, &jobpb.CancelJobRequest{JobId: jobID}); err != nil {
				log.Printf("launch: cancelling job %s: %v", jobID, err)
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
