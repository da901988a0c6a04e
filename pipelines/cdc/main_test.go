package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/internal/cdctest"
	"github.com/icebeam/icebeam/internal/launch"
	"github.com/icebeam/icebeam/internal/launch/launchtest"
	"github.com/icebeam/icebeam/transforms/cdc"
)

var pipelineBin = &launchtest.Binary{Pipeline: "cdc", Version: "v0.0.0-test.cdc"}

func TestMain(m *testing.M) {
	code := m.Run()
	pipelineBin.Remove()
	os.Exit(code)
}

func TestVetRunner(t *testing.T) {
	out, err := launchtest.Run(t, t.TempDir(), pipelineBin.Path(t), nil, "--runner=vet")
	if err != nil {
		t.Fatalf("--runner=vet: %v\n%s", err, out)
	}
}

// readTable reads the table in dir's local catalog with iceberg-go's scan,
// deletes applied, sorted by id.
func readTable(t *testing.T, dir, name string) (rows []cdc.Account, version int, deleteKinds map[string]int) {
	t.Helper()
	ctx := context.Background()
	cfg, stop, err := launch.Catalog(ctx, catalog.Config{LocalDir: filepath.Join(dir, "lakehouse")})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	cat, err := catalog.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ident, _ := catalog.ParseTable(name)
	tbl, err := cat.LoadTable(ctx, ident)
	if err != nil {
		t.Fatal(err)
	}
	return cdctest.ReadRows(t, tbl)
}

// The generated stream: the table ends as the documented change log,
// replayed by cdc.Replay, says.
func TestGeneratedStream(t *testing.T) {
	dir := t.TempDir()
	out, err := launchtest.Run(t, dir, pipelineBin.Path(t), nil,
		"--interval=5ms", "--duration=8s", "--keys=40", "--triggering_frequency_seconds=2")
	if err != nil {
		t.Fatalf("cdc: %v\n%s", err, launchtest.Tail(out))
	}
	// 8 s of changes 5 ms apart.
	if !strings.Contains(out, "Applied 1600 changes to cdc.accounts") || !strings.Contains(out, "deletion vectors") {
		t.Errorf("no summary:\n%s", launchtest.Tail(out))
	}
	// The command it prints to look at the table works as printed, and
	// shows the table's rows.
	if look := launchtest.CheckLookCommand(t, out, dir); !strings.Contains(look, "owner-") {
		t.Errorf("the printed command shows no rows:\n%s", launchtest.Tail(look))
	}
	got, version, deletes := readTable(t, dir, "cdc.accounts")
	cdctest.RequireRows(t, got, cdctest.Generated(8000/5, 40, cdc.Generated))
	if version != 3 || deletes["equality"]+deletes["position"] > 0 {
		t.Errorf("format v%d, delete files %v: want v3 with deletion vectors only", version, deletes)
	}
	t.Logf("%d live rows; delete files %v\n%s", len(got), deletes, summaryOf(out))
}

// The benchmark's mixed stream: the table ends as cdc.Replay of the
// documented changes says.
func TestMixedStream(t *testing.T) {
	dir := t.TempDir()
	out, err := launchtest.Run(t, dir, pipelineBin.Path(t), nil,
		"--changes=mixed", "--interval=5ms", "--duration=6s", "--keys=60", "--triggering_frequency_seconds=2")
	if err != nil {
		t.Fatalf("cdc: %v\n%s", err, launchtest.Tail(out))
	}
	got, _, _ := readTable(t, dir, "cdc.accounts")
	cdctest.RequireRows(t, got, cdctest.Generated(6000/5, 60, cdc.Mixed))
	t.Logf("%d live rows\n%s", len(got), summaryOf(out))
}

func summaryOf(out string) string {
	i := strings.Index(out, "Applied ")
	if i < 0 {
		return ""
	}
	return out[i:]
}

// A Debezium change log replayed through --input into a v3 and a v2 table:
// each ends as the log's final state.
func TestDebeziumInput(t *testing.T) {
	in, want := cdctest.DebeziumLog(t, 3000, 120)
	for _, version := range []string{"3", "2"} {
		t.Run("v"+version, func(t *testing.T) {
			dir := t.TempDir()
			out, err := launchtest.Run(t, dir, pipelineBin.Path(t), nil,
				"--input="+in, "--rate=2000", "--format_version="+version, "--triggering_frequency_seconds=1")
			if err != nil {
				t.Fatalf("cdc: %v\n%s", err, launchtest.Tail(out))
			}
			got, v, deletes := readTable(t, dir, "cdc.accounts")
			cdctest.RequireRows(t, got, want)
			commits := regexp.MustCompile(`in (\d+) commits`).FindStringSubmatch(out)
			if fmt.Sprint(v) != version || commits == nil || commits[1] == "1" {
				t.Errorf("format v%d, commits %v: want v%s and several commits", v, commits, version)
			}
			// What the job wrote, from its summary: the sink may have
			// compacted the table's deletion vectors away since.
			wrote := regexp.MustCompile(`wrote \d+ data files, (\d+) deletion vectors, (\d+) equality delete files`).FindStringSubmatch(out)
			switch {
			case wrote == nil:
				t.Errorf("no summary of what the job wrote:\n%s", launchtest.Tail(out))
			case version == "3" && (wrote[1] == "0" || wrote[2] != "0" || deletes["equality"]+deletes["position"] > 0):
				t.Errorf("v3 table: wrote %s DVs and %s equality delete files; live delete files %v: want DVs only", wrote[1], wrote[2], deletes)
			case version == "2" && (wrote[1] != "0" || wrote[2] == "0" || deletes["dv"] > 0):
				t.Errorf("v2 table: wrote %s DVs and %s equality delete files; live delete files %v: want equality deletes only", wrote[1], wrote[2], deletes)
			}
			t.Logf("v%s: %d live rows; delete files %v\n%s", version, len(got), deletes, summaryOf(out))
		})
	}
}

// Flags the job cannot run with fail in one line before any work.
func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{{"--format_version=1"}, {"--write_shards=4"}, {"--input=x", "--duration=1m"}, {"--rate=-1"}, {"--changes=random"}, {"--key=id"}} {
		out, err := launchtest.Run(t, t.TempDir(), pipelineBin.Path(t), nil, args...)
		if err == nil || !strings.Contains(out, "level=ERROR") {
			t.Errorf("%v: err %v\n%s", args, err, launchtest.Tail(out))
		}
	}
}

func TestMetadataMatchesFlags(t *testing.T) {
	md, err := launchtest.ReadMetadata("metadata.json")
	if err != nil {
		t.Fatal(err)
	}
	if !md.Streaming {
		t.Error(`cdc is a streaming pipeline, metadata.json lacks "streaming": true`)
	}
	own, err := launchtest.FlagsDefinedIn("main.go")
	if err != nil {
		t.Fatal(err)
	}
	errs := launchtest.CheckMetadata(md, launchtest.MetadataSpec{
		Flags:    flag.CommandLine,
		Own:      append(own, launchtest.CatalogFlags()...),
		Excluded: launchtest.CatalogExcluded,
		Bad: launchtest.Merge(launchtest.CatalogBad, map[string]string{
			"iceberg_table":                "accounts",
			"triggering_frequency_seconds": "0",
			"input":                        "/local/file.json",
			"rate":                         "fast",
			"changes":                      "random",
			"format_version":               "1",
			"write_shards":                 "2",
			"interval":                     "5 seconds",
			"keys":                         "0",
			"duration":                     "forever",
			"staging_threshold":            "64KiB",
			"key":                          "id, owner",
		}),
	})
	for _, err := range errs {
		t.Error(err)
	}
}
