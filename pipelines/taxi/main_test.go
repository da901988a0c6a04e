package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/icebeam/icebeam/internal/launch/launchtest"
)

const testVersion = "v0.0.0-test.taxi"

// pipelineBin is this pipeline built once per test run by the Dockerfile's
// own build line.
var pipelineBin = &launchtest.Binary{Pipeline: "taxi", Version: testVersion}

func TestMain(m *testing.M) {
	code := m.Run()
	pipelineBin.Remove()
	os.Exit(code)
}

func TestMetadataMatchesFlags(t *testing.T) {
	md, err := launchtest.ReadMetadata("metadata.json")
	if err != nil {
		t.Fatal(err)
	}
	if md.Streaming {
		t.Error(`taxi is a batch pipeline, metadata.json says "streaming": true`)
	}
	own, err := launchtest.FlagsDefinedIn("main.go")
	if err != nil {
		t.Fatal(err)
	}
	if len(own) < 3 {
		t.Fatalf("found only flags %v in main.go", own)
	}
	errs := launchtest.CheckMetadata(md, launchtest.MetadataSpec{
		Flags: flag.CommandLine,
		Own:   append(own, launchtest.CatalogFlags()...),
		Excluded: launchtest.Merge(launchtest.CatalogExcluded, map[string]string{
			"sample_rows": "sizes the generated sample, which only local runs use",
		}),
		Required: remoteRequired,
		Bad: launchtest.Merge(launchtest.CatalogBad, map[string]string{
			"input":     "/home/me/yellow_tripdata_2024-01.parquet",
			"namespace": "nyc taxi",
			"table":     "yellow trips",
		}),
	})
	for _, err := range errs {
		t.Error(err)
	}
}

func TestBinaryIsStaticLinuxAMD64(t *testing.T) {
	if err := launchtest.CheckStatic(pipelineBin.Path(t)); err != nil {
		t.Fatal(err)
	}
}

func TestDataflowDryRun(t *testing.T) {
	launchtest.CheckDryRun(t, pipelineBin.Path(t), launchtest.DryRun{
		Pipeline: "taxi", Version: testVersion, JobType: "JOB_TYPE_BATCH",
		Args: []string{
			"--input=gs://b/raw/nyc_taxi/yellow_tripdata_2024-01.parquet",
			"--catalog_uri=https://example.invalid/catalog",
			"--credential=id:SUPERSECRET",
			// What a Flex Template launcher may add: Beam defines some, the
			// others must be dropped rather than fail the launch.
			"--temp_location=gs://b/tmp", "--serviceAccount=sa@p.iam.gserviceaccount.com",
			"--additional_experiments", "use_runner_v2", "--enable_streaming_engine",
		},
		Secret: "SUPERSECRET",
		Output: []string{
			"ignoring Dataflow launcher option --serviceAccount",
			"ignoring Dataflow launcher option --additional_experiments",
		},
		Options: []string{`"gs://b/raw/nyc_taxi/yellow_tripdata_2024-01.parquet"`},
	})
}

func TestDataflowBigLakeDryRun(t *testing.T) {
	args := append(launchtest.DataflowArgs, "--input=gs://b/in/*.parquet", "--catalog=biglake", "--catalog_name=lakehouse")
	out, err := launchtest.Run(t, t.TempDir(), pipelineBin.Path(t), nil, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, launchtest.Tail(out))
	}
	if _, err := launchtest.PrintedJob(out); err != nil {
		t.Fatalf("%v\n%s", err, launchtest.Tail(out))
	}
}

// TestRemoteRunMisconfigured: what workers could not do without fails before
// anything is submitted, naming the flag.
func TestRemoteRunMisconfigured(t *testing.T) {
	catalogURI := "--catalog_uri=https://example.invalid/catalog"
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no input", []string{catalogURI}, "--input required with --runner=dataflow"},
		{"local input", []string{catalogURI, "--input=/data/x.parquet"}, "--input=/data/x.parquet: Dataflow workers read gs:// paths only"},
		{"no catalog", []string{"--input=gs://b/x.parquet"}, "--catalog_uri (or --catalog=biglake) required"},
		{"loopback catalog", []string{"--input=gs://b/x.parquet", "--catalog_uri=http://127.0.0.1:8181"}, "loopback"},
		{"typo", []string{catalogURI, "--inptu=gs://b/x.parquet"}, "unknown flag --inptu (did you mean --input?)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := launchtest.Run(t, t.TempDir(), pipelineBin.Path(t), nil, append(launchtest.DataflowArgs, tc.args...)...)
			if err == nil {
				t.Fatalf("exited 0, want an error naming %q:\n%s", tc.want, launchtest.Tail(out))
			}
			if !strings.Contains(out, tc.want) {
				t.Errorf("output lacks %q:\n%s", tc.want, launchtest.Tail(out))
			}
			if _, jerr := launchtest.PrintedJob(out); jerr == nil {
				t.Error("a job was printed despite the error")
			}
		})
	}
}

// TestVetRunner: every function and type the pipeline uses is registered,
// which stripped or reflection-free workers need.
func TestVetRunner(t *testing.T) {
	dir := t.TempDir()
	out, err := launchtest.Run(t, dir, pipelineBin.Path(t), nil,
		"--runner=vet", "--sample_rows=100", "--local_dir="+filepath.Join(dir, "lakehouse"))
	if err != nil {
		t.Fatalf("vet runner: %v\n%s", err, launchtest.Tail(out))
	}
	if strings.Contains(out, "not performant") || strings.Contains(out, "Wrote Iceberg table") {
		t.Errorf("unexpected vet output:\n%s", launchtest.Tail(out))
	}
}

// --help leads with the job's own flags, then the catalog's, and only
// names the runner flags; none is marked required on every runner.
func TestHelp(t *testing.T) {
	out, err := launchtest.Run(t, t.TempDir(), pipelineBin.Path(t), nil, "--help")
	if err != nil {
		t.Fatalf("--help: %v\n%s", err, out)
	}
	flags, catalogAt, runnerAt := strings.Index(out, "\nFlags:\n"), strings.Index(out, "\nCatalog flags"), strings.Index(out, "\nRunner flags")
	if !strings.HasPrefix(out, "Usage: ") || flags < 0 || catalogAt < flags || runnerAt < catalogAt {
		t.Fatalf("--help is not usage, synopsis, flags, catalog flags, runner flags:\n%s", out)
	}
	for _, own := range []string{"--input", "--namespace", "--table", "--sample_rows"} {
		if i := strings.Index(out, "\n  "+own+" "); i < flags || i > catalogAt {
			t.Errorf("%s is not among the job's flags:\n%s", own, out)
		}
	}
	if i := strings.Index(out, "\n  --catalog_uri "); i < catalogAt || i > runnerAt {
		t.Errorf("--catalog_uri is not among the catalog flags:\n%s", out)
	}
	usageLine, _, _ := strings.Cut(out, "\n")
	for _, bad := range []string{"(required)", "--staging_location string", "--endpoint string"} {
		if strings.Contains(out, bad) {
			t.Errorf("--help shows %q:\n%s", bad, out)
		}
	}
	if strings.Contains(usageLine, "/") {
		t.Errorf("usage line names a path: %s", usageLine)
	}
	runner, err := launchtest.Run(t, t.TempDir(), pipelineBin.Path(t), nil, "--help_runner")
	if err != nil || !strings.Contains(runner, "\n  --endpoint string") || strings.Contains(runner, "(required)") {
		t.Errorf("--help_runner: %v\n%s", err, runner)
	}
}

// An input that cannot be read is refused before a job is built, in one
// line at ERROR naming the path and the cause.
func TestBadInputRefusedBeforeAnyWork(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	notParquet := filepath.Join(dir, "trips.parquet")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(notParquet, []byte("VendorID,fare_amount\n1,2.5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for input, want := range map[string]string{
		filepath.Join(dir, "missing.parquet"):    "no such file or directory",
		empty:                                    "no *.parquet files under directory " + empty,
		notParquet:                               notParquet + " is not a readable Parquet file",
		filepath.Join(dir, "*.csv"):              "no files match",
		"iceberg:nyc_taxi.no_such_trips":         "--input: table nyc_taxi.no_such_trips: NoSuchTableException",
		"iceberg:trips":                          "want namespace.table",
		"iceberg:nyc_taxi.yellow_trips_analyzed": "--input=iceberg:nyc_taxi.yellow_trips_analyzed: the job replaces nyc_taxi.yellow_trips_analyzed with its result",
	} {
		out, err := launchtest.Run(t, dir, pipelineBin.Path(t), nil, "--input="+input, "--local_dir="+filepath.Join(dir, "lakehouse"))
		if err == nil {
			t.Errorf("--input=%s: exited 0:\n%s", input, launchtest.Tail(out))
			continue
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if last := lines[len(lines)-1]; !strings.Contains(last, "level=ERROR") || !strings.Contains(last, want) {
			t.Errorf("--input=%s: last line %q is not an ERROR naming %q", input, last, want)
		}
		if strings.Contains(out, "Prepared job") {
			t.Errorf("--input=%s: a job was prepared:\n%s", input, launchtest.Tail(out))
		}
	}
}
