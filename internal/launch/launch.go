// Package launch is what every pipeline main does before it builds its
// pipeline: parse flags the way both a person and the Dataflow Flex Template
// launcher pass them, make the running binary the worker of remote runners,
// and check what a remote runner's workers need before anything is
// submitted. It keeps the mains in pipelines/ to flags -> transforms -> run.
package launch

import (
	"errors"
	"flag"
	"fmt"
	"log"
	"log/slog"
	"net"
	"net/url"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/transforms/portable"
)

// launcherOptions are Dataflow pipeline options that the Flex Template
// launcher or `gcloud dataflow flex-template run` may pass on the command
// line. Those Beam Go defines (--num_workers, --temp_location ...) are parsed
// as usual; the others configure the Dataflow service, not our code, so they
// are dropped with a log line rather than failing the launch. Which ones the
// Go launcher passes is not documented: the list is the Dataflow options
// gcloud exposes, in the snake_case and camelCase spellings the services use.
var launcherOptions = set(
	"additional_experiments", "additional_pipeline_options", "additional_user_labels",
	"autoscaling_algorithm", "dataflow_kms_key", "dataflow_service_options", "disable_public_ips",
	"enable_streaming_engine", "flexrs_goal", "launcher_machine_type", "max_num_workers", "max_workers",
	"network", "num_workers", "service_account_email", "subnetwork", "temp_location", "template_location",
	"use_public_ips", "worker_machine_type", "worker_region", "worker_zone", "zone", "labels", "streaming",
	"sdk_location", "save_main_session", "setup_file", "requirements_file",
	"additionalExperiments", "additionalPipelineOptions", "additionalUserLabels", "autoscalingAlgorithm",
	"dataflowKmsKey", "dataflowServiceOptions", "disablePublicIps", "enableStreamingEngine",
	"launcherMachineType", "maxNumWorkers", "maxWorkers", "numWorkers", "serviceAccount",
	"serviceAccountEmail", "stagingLocation", "tempLocation", "templateLocation", "usePublicIps",
	"workerMachineType", "workerRegion", "workerZone", "jobName", "project", "region",
)

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// Start is the preamble every pipeline main runs first: it parses the
// flags (Parse; synopsis heads --help), initializes Beam, configures the
// runner (ConfigureRunner) and logs the binary's name, version and runner.
func Start(name, version, synopsis string) {
	Synopsis = synopsis
	Parse()
	beam.Init()
	ConfigureRunner()
	log.Printf("%s %s, runner %s", name, version, Runner())
	startCPUProfile()
	releaseStartupPages()
}

// startCPUProfile profiles the launching process's CPU into the file
// ICEBEAM_CPUPROFILE names, if any, until Begin's stop: a local run's
// pipeline and, on prism, its workers, for `go tool pprof`. An environment
// variable, not a flag: flags travel to remote workers as pipeline options.
func startCPUProfile() {
	path := os.Getenv("ICEBEAM_CPUPROFILE")
	if path == "" {
		return
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		Fatalf("ICEBEAM_CPUPROFILE: %v", err)
	}
	stopCPUProfile = func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

// stopCPUProfile ends startCPUProfile's profile.
var stopCPUProfile = func() {}

// Parse parses the process's arguments into flag.CommandLine, exiting with
// status 2 and a message naming the flag on a mistake. Inside the Flex
// Template launcher every unknown flag is dropped, not only the known
// launcher options: Dataflow has already checked the user's parameters
// against metadata.json, so an unknown flag there can only be one the
// launcher added, and which ones it adds is not documented.
func Parse() {
	if slices.Contains(os.Args[1:], "--help_runner") || slices.Contains(os.Args[1:], "-help_runner") {
		usageRunner(os.Stdout, flag.CommandLine)
		os.Exit(0)
	}
	if err := parseArgs(flag.CommandLine, os.Args[1:], InFlexTemplate()); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\nRun with -help for the list of flags.\n", os.Args[0], err)
		os.Exit(2)
	}
}

// ParseArgs parses args into fs. Dataflow launcher options that fs does not
// define are dropped; any other unknown flag is an error that suggests the
// closest defined flag, because a mistyped --iceberg_tabel must not silently
// write somewhere else. Parsing stops at "--" or the first argument that is
// not a flag, as with flag.Parse; the rest is left to fs.Args.
func ParseArgs(fs *flag.FlagSet, args []string) error {
	return parseArgs(fs, args, false)
}

// parseArgs is ParseArgs; dropUnknown drops every flag fs does not define.
func parseArgs(fs *flag.FlagSet, args []string, dropUnknown bool) error {
	var kept []string
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" || arg == "-" || !strings.HasPrefix(arg, "-") {
			kept = append(kept, args[i:]...)
			break
		}
		name, hasValue := strings.TrimLeft(arg, "-"), false
		if k := strings.IndexByte(name, '='); k >= 0 {
			name, hasValue = name[:k], true
		}
		// A separate value ("--input x") belongs to its flag: keep it too,
		// so the filtering goes on after it.
		takesNext := !hasValue && i+1 < len(args)
		if name == "help" || name == "h" {
			kept = append(kept, arg)
			continue
		}
		if f := fs.Lookup(name); f != nil {
			kept = append(kept, arg)
			if takesNext && !isBool(f) {
				i++
				kept = append(kept, args[i])
			}
			continue
		}
		if launcherOptions[name] || dropUnknown {
			log.Printf("launch: ignoring Dataflow launcher option --%s (it configures the service, not this pipeline)", name)
			if takesNext && !strings.HasPrefix(args[i+1], "-") {
				i++
			}
			continue
		}
		if s := closest(fs, name); s != "" {
			return fmt.Errorf("unknown flag --%s (did you mean --%s?)", name, s)
		}
		return fmt.Errorf("unknown flag --%s", name)
	}
	return fs.Parse(kept)
}

// isBool reports whether f takes no separate value, as flag.Parse decides.
func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// closest is the defined flag nearest to name by edit distance, if near
// enough to be a typo.
func closest(fs *flag.FlagSet, name string) string {
	best, bestD := "", len(name)/3+2
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	sort.Strings(names)
	for _, n := range names {
		if d := editDistance(strings.ToLower(name), strings.ToLower(n)); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Runner is the --runner flag as given, lower-cased and without the
// "Runner" suffix of the Java-style names (DataflowRunner, FlinkRunner)
// that Beam registers as aliases; empty means prism.
func Runner() string { return portable.Runner() }

// Fatalf logs a job's fatal error at ERROR, as its last line, and exits 1.
// (log.Fatalf would log it at INFO: Beam routes the log package through
// slog.)
func Fatalf(format string, args ...any) {
	if h := slog.Default().Handler(); !builtinHandler(h) {
		// What a runner still logs while the process ends must not follow,
		// and so bury, the cause.
		slog.SetDefault(slog.New(errorsOnly{h}))
	}
	slog.Error(fmt.Sprintf(format, args...))
	os.Exit(1)
}

// Windows are the flags of a main that counts a change stream in windows
// of commit time and commits what it counts.
type Windows struct {
	Window       time.Duration // --window
	PollInterval time.Duration // --poll_interval
	TriggerSecs  int           // --triggering_frequency_seconds
	Duration     time.Duration // --duration
}

// RegisterFlags defines the flags on fs; windowUsage is --window's usage.
func (w *Windows) RegisterFlags(fs *flag.FlagSet, windowUsage string) {
	fs.DurationVar(&w.Window, "window", time.Minute, windowUsage)
	fs.DurationVar(&w.PollInterval, "poll_interval", 5*time.Second, "how often the source table is checked for new snapshots")
	fs.IntVar(&w.TriggerSecs, "triggering_frequency_seconds", 20, "seconds between commits")
	fs.DurationVar(&w.Duration, "duration", 0, "stop reading the source after this long and finish; 0 runs until cancelled")
}

// Check refuses, naming the flag, what the job cannot run with: a window
// under 1s or not lining up with minutes (dividing or divided by one), a
// poll interval that is not positive, a trigger under 1s, a negative
// duration.
func (w Windows) Check() error {
	switch {
	case w.Window < time.Second || time.Minute%w.Window != 0 && w.Window%time.Minute != 0:
		return fmt.Errorf("--window=%v: want at least 1s, dividing or divided by a minute", w.Window)
	case w.PollInterval <= 0:
		return fmt.Errorf("--poll_interval=%v: want a positive duration", w.PollInterval)
	case w.TriggerSecs < 1:
		return fmt.Errorf("--triggering_frequency_seconds=%d: want at least 1", w.TriggerSecs)
	case w.Duration < 0:
		return fmt.Errorf("--duration=%v: want 0 (until stopped) or a positive duration", w.Duration)
	}
	return nil
}

// Trigger is --triggering_frequency_seconds.
func (w Windows) Trigger() time.Duration { return time.Duration(w.TriggerSecs) * time.Second }

// Local reports whether the runner runs workers in this process, where a
// loopback catalog and local files are reachable. vet and dot only build the
// pipeline, so nothing remote is involved either.
func Local() bool {
	switch Runner() {
	case "prism", "direct", "vet", "dot":
		return true
	}
	return false
}

// flagValue is the string form of a defined flag, "" when it is undefined.
func flagValue(name string) string {
	if f := flag.Lookup(name); f != nil {
		return f.Value.String()
	}
	return ""
}

// InFlexTemplate reports whether this process was started by the Dataflow
// Flex Template launcher: the image (see the Dockerfile) sets
// FLEX_TEMPLATE_GO_BINARY for the launcher to find the binary.
func InFlexTemplate() bool { return os.Getenv("FLEX_TEMPLATE_GO_BINARY") != "" }

// ConfigureRunner sets the runner flags that neither a person nor the Flex
// Template launcher should have to get right. Mains call it after beam.Init.
//
//   - --worker_binary is this executable on runners that stage a worker
//     binary (Dataflow, Flink, Spark, portable), when not given and when this
//     binary can run on their linux/amd64 workers. Otherwise Beam compiles a
//     worker from source, which needs Go and the source tree at submit time:
//     neither is in the template image.
//   - --async inside the Flex Template launcher (unless --template_location
//     asks only for the job file): the launcher waits for the program to
//     exit, and Dataflow's runner would otherwise wait for the job to finish,
//     which a streaming job never does.
//
// (--worker_pool, which makes the process an external worker pool, is
// served by beam.Init: see package portable.)
func ConfigureRunner() {
	if Local() {
		quietRunnerFailures()
		return
	}
	if f := flag.Lookup("worker_binary"); f != nil && f.Value.String() == "" &&
		runtime.GOOS == "linux" && runtime.GOARCH == "amd64" {
		if self, err := os.Executable(); err == nil && f.Value.Set(self) == nil {
			log.Printf("launch: --worker_binary=%s (this binary)", self)
		}
	}
	if Runner() == "dataflow" && InFlexTemplate() && flagValue("template_location") == "" && flagValue("async") != "true" {
		if f := flag.Lookup("async"); f != nil && f.Value.Set("true") == nil {
			log.Printf("launch: --async (the Flex Template launcher waits for this process, not for the job)")
		}
	}
}

// Waits reports whether Run returns only once the pipeline has
// finished, so that its output can be read back: not for the vet and dot
// runners (they only build the pipeline), --dry_run, --template_location
// (they submit nothing), or --async / --execute_async (they return once the
// job is submitted).
func Waits() bool {
	switch Runner() {
	case "vet", "dot":
		return false
	}
	for _, name := range []string{"dry_run", "async", "execute_async"} {
		if flagValue(name) == "true" {
			return false
		}
	}
	return flagValue("template_location") == ""
}

// Require returns an error naming every flag in names that is empty. Mains
// call it for what a remote runner cannot default (an input on GCS, a catalog
// URI its workers can reach).
func Require(names ...string) error {
	var missing []string
	for _, n := range names {
		if flagValue(n) == "" {
			missing = append(missing, "--"+n)
		}
	}
	if len(missing) > 0 {
		return errors.New(strings.Join(missing, ", ") + " required with --runner=" + Runner())
	}
	return nil
}

// CheckCatalog returns an error when cfg cannot serve a remote runner's
// workers: with neither --catalog_uri nor --catalog=biglake the pipeline
// would start the embedded catalog on this machine's loopback interface, and
// on Dataflow a loopback --catalog_uri is the worker VM itself. It logs a
// warning for a literal --credential or --token: redacted in the job's
// options, it still travels inside the serialized job graph (see
// catalog.Secret). On local runners everything is reachable and it returns
// nil.
func CheckCatalog(cfg catalog.Config) error {
	if Local() {
		return nil
	}
	if cfg.URI == "" && cfg.Preset != catalog.PresetBigLake {
		return fmt.Errorf("--catalog_uri (or --catalog=biglake) required with --runner=%s: without it the embedded catalog would start on this machine, out of the workers' reach", Runner())
	}
	if Runner() == "dataflow" && cfg.URI != "" {
		u, err := url.Parse(cfg.URI)
		if err != nil {
			return fmt.Errorf("--catalog_uri=%s: %w", cfg.URI, err)
		}
		if isLoopback(u.Hostname()) {
			return fmt.Errorf("--catalog_uri=%s is a loopback address: Dataflow workers would look for the catalog on their own VM", cfg.URI)
		}
	}
	secrets := []struct {
		flag string
		s    catalog.Secret
	}{{"credential", cfg.Credential}, {"token", cfg.Token}}
	for _, sec := range secrets {
		if sec.s != "" && !sec.s.IsReference() {
			log.Printf("launch: warning: a literal --%s is embedded in the job graph staged for --runner=%s; prefer --auth=google on Google Cloud, or env:VAR / file:PATH set on the workers", sec.flag, Runner())
		}
	}
	return nil
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
