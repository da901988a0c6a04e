package launch

import (
	"errors"
	"flag"
	"io"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	// The runners' flags (--dry_run, --template_location ...), as a main
	// that calls beamx.Run has them.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/icebeam/icebeam/catalog"
)

// setFlags sets Beam's flags that launch reads for one test and restores
// them after it.
func setFlags(t *testing.T, runner string, dry, asyn bool, template string) {
	t.Helper()
	set := func(runner, dry, asyn, worker, template string) {
		for name, v := range map[string]string{"runner": runner, "dry_run": dry, "async": asyn, "worker_binary": worker, "template_location": template} {
			if err := flag.Set(name, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	set(runner, strconv.FormatBool(dry), strconv.FormatBool(asyn), "", template)
	t.Cleanup(func() { set("", "false", "false", "", "") })
}

// beamFlag is the value of a flag Beam defines.
func beamFlag(name string) string { return flag.Lookup(name).Value.String() }

// pipelineFlags is a flag set like a pipeline main's.
func pipelineFlags() (*flag.FlagSet, map[string]any) {
	fs := flag.NewFlagSet("pipeline", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	v := map[string]any{
		"input":         fs.String("input", "", ""),
		"iceberg_table": fs.String("iceberg_table", "clicks.user_clicks", ""),
		"num_workers":   fs.Int("num_workers", 0, ""), // Beam's Dataflow option
		"interval":      fs.Duration("interval", time.Second, ""),
		"update":        fs.Bool("update", false, ""),
	}
	return fs, v
}

func TestParseArgsDropsLauncherOptions(t *testing.T) {
	fs, v := pipelineFlags()
	err := ParseArgs(fs, []string{
		"--serviceAccount=sa@p.iam.gserviceaccount.com", // camelCase, with =
		"--input", "gs://b/in.parquet", // defined, separate value
		"--additional_experiments", "use_runner_v2", // unknown, separate value
		"--enable_streaming_engine", // unknown, no value, then a flag
		"--update",                  // defined bool: takes no separate value
		"-num_workers=3",            // single dash
		"--streaming", "--interval=2s",
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := *v["input"].(*string); got != "gs://b/in.parquet" {
		t.Errorf("--input = %q", got)
	}
	if !*v["update"].(*bool) || *v["num_workers"].(*int) != 3 || *v["interval"].(*time.Duration) != 2*time.Second {
		t.Errorf("update %v, num_workers %d, interval %v", *v["update"].(*bool), *v["num_workers"].(*int), *v["interval"].(*time.Duration))
	}
	if len(fs.Args()) != 0 {
		t.Errorf("args left over: %q", fs.Args())
	}
}

// TestParseArgsInsideFlexTemplate: there, Dataflow has validated the user's
// parameters already, so an unknown flag is the launcher's and is dropped.
func TestParseArgsInsideFlexTemplate(t *testing.T) {
	fs, v := pipelineFlags()
	if err := parseArgs(fs, []string{"--input=gs://b/x", "--some_future_option", "v", "--update"}, true); err != nil {
		t.Fatal(err)
	}
	if *v["input"].(*string) != "gs://b/x" || !*v["update"].(*bool) {
		t.Errorf("input %q, update %v", *v["input"].(*string), *v["update"].(*bool))
	}
	fs, _ = pipelineFlags()
	if err := parseArgs(fs, []string{"--some_future_option=v"}, false); err == nil {
		t.Error("outside the launcher an unknown flag must fail")
	}
}

func TestParseArgsSuggestsTypos(t *testing.T) {
	for _, tc := range []struct{ arg, want string }{
		{"--iceberg_tabel=a.b", "unknown flag --iceberg_tabel (did you mean --iceberg_table?)"},
		{"--inptu=gs://b/x", "unknown flag --inptu (did you mean --input?)"},
		{"--Input=gs://b/x", "unknown flag --Input (did you mean --input?)"},
		{"--completely_unrelated=1", "unknown flag --completely_unrelated"},
	} {
		fs, _ := pipelineFlags()
		err := ParseArgs(fs, []string{"--input=gs://b/x", tc.arg})
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: error %v, want %q", tc.arg, err, tc.want)
		}
	}
}

func TestParseArgsStopsAtDoubleDashAndPositionals(t *testing.T) {
	fs, v := pipelineFlags()
	if err := ParseArgs(fs, []string{"--input=a", "--", "--not_a_flag", "x"}); err != nil {
		t.Fatal(err)
	}
	if *v["input"].(*string) != "a" || !reflect.DeepEqual(fs.Args(), []string{"--not_a_flag", "x"}) {
		t.Errorf("input %q, args %q", *v["input"].(*string), fs.Args())
	}

	fs, _ = pipelineFlags()
	if err := ParseArgs(fs, []string{"--update", "pos", "--unknown_after_positional"}); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fs.Args(), []string{"pos", "--unknown_after_positional"}) {
		t.Errorf("args %q", fs.Args())
	}

	fs, _ = pipelineFlags()
	if err := ParseArgs(fs, []string{"-help"}); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("-help: %v, want flag.ErrHelp", err)
	}
	fs, _ = pipelineFlags()
	if err := ParseArgs(fs, []string{"--interval=soon"}); err == nil || !strings.Contains(err.Error(), "interval") {
		t.Errorf("bad value: %v, want an error naming -interval", err)
	}
}

func TestRunner(t *testing.T) {
	for in, want := range map[string]string{
		"": "prism", "DataflowRunner": "dataflow", "dataflow": "dataflow", "FlinkRunner": "flink",
		"spark": "spark", "PortableRunner": "portable", "vet": "vet",
	} {
		setFlags(t, in, false, false, "")
		if got := Runner(); got != want {
			t.Errorf("Runner() with --runner=%q = %q, want %q", in, got, want)
		}
	}
}

func TestConfigureRunner(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Run("prism", func(t *testing.T) {
		setFlags(t, "", false, false, "")
		ConfigureRunner()
		if beamFlag("worker_binary") != "" || beamFlag("async") == "true" {
			t.Errorf("worker_binary %q, async %v on prism", beamFlag("worker_binary"), beamFlag("async"))
		}
	})
	t.Run("dataflow", func(t *testing.T) {
		t.Setenv("FLEX_TEMPLATE_GO_BINARY", "")
		setFlags(t, "DataflowRunner", false, false, "")
		ConfigureRunner()
		if beamFlag("worker_binary") != self || beamFlag("async") == "true" {
			t.Errorf("worker_binary %q (want %q), async %v (want false)", beamFlag("worker_binary"), self, beamFlag("async"))
		}
	})
	t.Run("flink keeps a given worker", func(t *testing.T) {
		setFlags(t, "flink", false, false, "")
		_ = flag.Set("worker_binary", "/opt/worker")
		ConfigureRunner()
		if beamFlag("worker_binary") != "/opt/worker" {
			t.Errorf("worker_binary %q, want the given /opt/worker", beamFlag("worker_binary"))
		}
	})
	t.Run("flex template", func(t *testing.T) {
		t.Setenv("FLEX_TEMPLATE_GO_BINARY", self)
		setFlags(t, "dataflow", false, false, "")
		ConfigureRunner()
		if beamFlag("async") != "true" {
			t.Error("async not set inside the Flex Template launcher")
		}
	})
	t.Run("flex template writing a job file", func(t *testing.T) {
		t.Setenv("FLEX_TEMPLATE_GO_BINARY", self)
		setFlags(t, "dataflow", false, false, "gs://b/job.json")
		ConfigureRunner()
		if beamFlag("async") == "true" {
			t.Error("async set although --template_location only writes the job")
		}
	})
}

func TestWaits(t *testing.T) {
	for _, tc := range []struct {
		runner     string
		dry, async bool
		template   string
		want       bool
		what       string
	}{
		{"", false, false, "", true, "prism"},
		{"dataflow", false, false, "", true, "blocking Dataflow run"},
		{"dataflow", true, false, "", false, "dry run"},
		{"dataflow", false, true, "", false, "async"},
		{"dataflow", false, false, "gs://b/t", false, "template"},
		{"vet", false, false, "", false, "vet"},
		{"dot", false, false, "", false, "dot"},
	} {
		setFlags(t, tc.runner, tc.dry, tc.async, tc.template)
		if got := Waits(); got != tc.want {
			t.Errorf("%s: Waits() = %v, want %v", tc.what, got, tc.want)
		}
	}
}

func TestRequire(t *testing.T) {
	setFlags(t, "dataflow", false, false, "")
	_ = flag.Set("worker_binary", "/w")
	if err := Require("worker_binary"); err != nil {
		t.Errorf("set flag: %v", err)
	}
	err := Require("worker_binary", "template_location", "no_such_flag")
	if err == nil || err.Error() != "--template_location, --no_such_flag required with --runner=dataflow" {
		t.Errorf("got %v", err)
	}
}

func TestCheckCatalog(t *testing.T) {
	remote := catalog.Config{URI: "https://catalog.example.com/api"}
	for _, tc := range []struct {
		runner string
		cfg    catalog.Config
		want   string // "" for no error
	}{
		{"", catalog.Config{}, ""},
		{"vet", catalog.Config{}, ""},
		{"dataflow", remote, ""},
		{"dataflow", catalog.Config{Preset: catalog.PresetBigLake}, ""},
		{"dataflow", catalog.Config{}, "--catalog_uri (or --catalog=biglake) required with --runner=dataflow"},
		{"dataflow", catalog.Config{Preset: catalog.PresetREST}, "--catalog_uri (or --catalog=biglake) required"},
		{"flink", catalog.Config{}, "required with --runner=flink"},
		{"dataflow", catalog.Config{URI: "http://127.0.0.1:8181"}, "loopback"},
		{"dataflow", catalog.Config{URI: "http://localhost:8181"}, "loopback"},
		{"dataflow", catalog.Config{URI: "http://[::1]:8181"}, "loopback"},
		// A local Flink or Spark cluster may well reach a loopback catalog.
		{"flink", catalog.Config{URI: "http://127.0.0.1:8181"}, ""},
	} {
		setFlags(t, tc.runner, false, false, "")
		err := CheckCatalog(tc.cfg)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("runner %q, %+v: %v", tc.runner, tc.cfg, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("runner %q, %+v: error %v, want %q", tc.runner, tc.cfg, err, tc.want)
		}
	}
}
