package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/icebeam/icebeam/internal/launch/launchtest"
)

const testVersion = "v0.0.0-test.clicks"

// pipelineBin is this pipeline built once per test run by the Dockerfile's
// own build line.
var pipelineBin = &launchtest.Binary{Pipeline: "clicks", Version: testVersion}

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
	if !md.Streaming {
		t.Error(`clicks is a streaming pipeline, metadata.json lacks "streaming": true`)
	}
	own, err := launchtest.FlagsDefinedIn("main.go")
	if err != nil {
		t.Fatal(err)
	}
	if len(own) < 4 {
		t.Fatalf("found only flags %v in main.go", own)
	}
	errs := launchtest.CheckMetadata(md, launchtest.MetadataSpec{
		Flags:    flag.CommandLine,
		Own:      append(own, launchtest.CatalogFlags()...),
		Excluded: launchtest.CatalogExcluded,
		Bad: launchtest.Merge(launchtest.CatalogBad, map[string]string{
			"iceberg_table":                "user_clicks",
			"triggering_frequency_seconds": "0",
			"interval":                     "5 seconds",
			"duration":                     "forever",
			"partition_by":                 "bucket(user_id)",
			"seq_column":                   "yes",
			"users":                        "0",
			"write_shards":                 "0",
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
		Pipeline: "clicks", Version: testVersion, JobType: "JOB_TYPE_STREAMING",
		Args: []string{
			"--catalog_uri=https://example.invalid/catalog",
			"--token=SUPERSECRET",
			"--iceberg_table=clicks.user_clicks_df",
			// What a Flex Template launcher may add: Beam defines some, the
			// others must be dropped rather than fail the launch.
			"--temp_location=gs://b/tmp", "--streaming", "--enable_streaming_engine=true",
			"--serviceAccount=sa@p.iam.gserviceaccount.com",
		},
		Secret: "SUPERSECRET",
		Output: []string{
			"ignoring Dataflow launcher option --streaming",
			"ignoring Dataflow launcher option --enable_streaming_engine",
			"ignoring Dataflow launcher option --serviceAccount",
		},
		Options: []string{`"clicks.user_clicks_df"`},
	})
}

// TestDataflowUpdateDryRun: the update of a running streaming job that
// docs/dataflow.md shows is accepted by the runner.
func TestDataflowUpdateDryRun(t *testing.T) {
	args := append(launchtest.DataflowArgs, "--catalog=biglake", "--catalog_name=lakehouse",
		"--update", "--job_name=icebeam-clicks",
		`--transform_name_mapping={"WriteToIceberg":"WriteToIceberg"}`)
	out, err := launchtest.Run(t, t.TempDir(), pipelineBin.Path(t), nil, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, launchtest.Tail(out))
	}
	job, err := launchtest.PrintedJob(out)
	if err != nil {
		t.Fatalf("%v\n%s", err, launchtest.Tail(out))
	}
	if job.Name != "icebeam-clicks" {
		t.Errorf("job name %q, want icebeam-clicks", job.Name)
	}
}

// TestRemoteRunMisconfigured: what workers could not do without fails before
// anything is submitted, naming the flag.
func TestRemoteRunMisconfigured(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no catalog", nil, "--catalog_uri (or --catalog=biglake) required"},
		{"loopback catalog", []string{"--catalog_uri=http://localhost:8181"}, "loopback"},
		{"typo", []string{"--catalog=biglake", "--iceberg_tabel=a.b"}, "unknown flag --iceberg_tabel (did you mean --iceberg_table?)"},
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
		"--runner=vet", "--duration=10s", "--local_dir="+filepath.Join(dir, "lakehouse"))
	if err != nil {
		t.Fatalf("vet runner: %v\n%s", err, launchtest.Tail(out))
	}
	if strings.Contains(out, "not performant") {
		t.Errorf("unexpected vet output:\n%s", launchtest.Tail(out))
	}
}

// Flags the job cannot run with, and a catalog that does not answer, are
// refused before any work, in one line at ERROR.
func TestRefusedBeforeAnyWork(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--interval=0s"}, "--interval=0s: want a positive duration"},
		{[]string{"--duration=-1s"}, "--duration=-1s: want 0 (until stopped) or a positive duration"},
		{[]string{"--duration=1s", "--interval=5s"}, "--duration=1s is shorter than --interval=5s"},
		{[]string{"--triggering_frequency_seconds=0"}, "--triggering_frequency_seconds=0: want at least 1"},
		{[]string{"--write_shards=0"}, "--write_shards=0: want at least 1"},
		{[]string{"--iceberg_table=user_clicks"}, "user_clicks\\\": want namespace.table"},
		{[]string{"--iceberg_table=clicks.{nope}"}, "nope\\\" is not a top-level field of clicks.Click"},
		{[]string{"--partition_by=bucket(user_id)"}, "bucket needs (column, width)"},
		{[]string{"--catalog_uri=http://127.0.0.1:1"}, "connecting to http://127.0.0.1:1"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out, err := launchtest.Run(t, t.TempDir(), pipelineBin.Path(t), nil, tc.args...)
			if err == nil {
				t.Fatalf("exited 0:\n%s", launchtest.Tail(out))
			}
			lines := strings.Split(strings.TrimSpace(out), "\n")
			last := lines[len(lines)-1]
			if !strings.Contains(last, "level=ERROR") || !strings.Contains(last, tc.want) {
				t.Errorf("last line %q is not an ERROR naming %q:\n%s", last, tc.want, launchtest.Tail(out))
			}
			if strings.Contains(out, "Prepared job") {
				t.Errorf("a job was prepared despite the error:\n%s", launchtest.Tail(out))
			}
		})
	}
}
