package main

import (
	"context"
	"maps"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/apache/iceberg-go"

	"github.com/icebeam/icebeam/catalog/authtest"
	"github.com/icebeam/icebeam/internal/faulttest"
	"github.com/icebeam/icebeam/internal/jobservertest"
)

// The Flink runs stream at 200 rows/s for flinkDuration with a 5 s trigger
// and a checkpoint every 5 s, as the runner issue asks: 12,000 rows.
const (
	flinkInterval   = 5 * time.Millisecond
	flinkDuration   = 60 * time.Second
	flinkTrigger    = 5
	flinkCheckpoint = 5 * time.Second
)

// flinkRun is a Flink run of clicks with a fault; interval and duration
// replace flinkInterval and flinkDuration, and args are more flags for
// clicks.
type flinkRun struct {
	faulttest.Fault
	interval, duration time.Duration
	args               []string
	// drains: the run must end through the stable-input drain
	// (scripts/flink/stable-input-drain.patch), which its job server logs.
	drains bool
}

// TestFlinkExactlyOnce runs clicks on Beam's portable Flink runner with
// checkpointing, its harnesses in a worker pool of their own, and reads
// the table back: every seq 0..N-1 exactly once, whatever fails on the way,
// and the job's exit status 0.
func TestFlinkExactlyOnce(t *testing.T) {
	runs := []flinkRun{
		{Fault: faulttest.Fault{Name: "no fault"}},
		{Fault: faulttest.CrashAfterCommit()},
		{Fault: faulttest.CrashBeforeCommit()},
		{Fault: faulttest.CatalogDown(15 * time.Second)},
		{
			// The catalog expires every token it has issued, five times a
			// second for 10 s: each request sees 419s until it refreshes.
			Fault: faulttest.Fault{
				Name: "burst of 419s",
				Before: func(c *faulttest.Catalog, n int) bool {
					if n == 1 {
						go c.ExpireTokensFor(10 * time.Second)
					}
					return true
				},
				Check: func(t *testing.T, c *faulttest.Catalog) {
					if n := c.Guard.Rejections(authtest.StatusAuthenticationTimeout); n == 0 {
						t.Error("the catalog answered no 419")
					} else {
						t.Logf("the catalog answered %d requests with 419", n)
					}
				},
			},
		},
		{
			// Eight shards write each pane in Flink's two slots; one
			// committer commits it. Flink places a key by a hash of its
			// encoded bytes: of the keys "0|flink.clicks" to
			// "3|flink.clicks" all four land in slot 2, of eight, three
			// land in slot 1. A shard gets whole chunks (a bundle's
			// rows, at most 65,536), and Flink ends the generator's
			// bundles at checkpoints, so the stream runs at 40,000 rows/s
			// for panes of several chunks. Each slot runs its own instance of
			// the writing DoFn (Flink's operator for a subtask registers a
			// bundle descriptor of its own, and the Go harness keeps DoFn
			// instances per descriptor), and data file names carry the
			// instance: a snapshot with files of two instances holds files
			// written in both slots.
			Fault: faulttest.Fault{
				Name: "sharded write, crash after commit",
				After: func(c *faulttest.Catalog, n int) {
					if n == 2 {
						c.Pool.Crash()
					}
				},
				Check: func(t *testing.T, c *faulttest.Catalog) {
					c.RequireCrashes(t, 1)
					both := 0
					for _, w := range writersPerSnapshot(t, c.URL, c.Tokens.Credential(), "flink.clicks") {
						if len(w) >= 2 {
							both++
						}
					}
					if both == 0 {
						t.Error("no snapshot holds files written in two slots")
					} else {
						t.Logf("%d snapshots hold files written in two slots", both)
					}
				},
			},
			interval: 25 * time.Microsecond,
			args:     []string{"--write_shards=8"},
		},
		{
			// Flat out, with the job's sources stopped a second after
			// they start (Flink ends the input; the generator then emits
			// its rows inside its operator's end): the commit step ends
			// holding the last pane, which no checkpoint can cover any
			// more. Beam 2.70's Flink runner spun there for good, the job
			// never ending (scripts/flink/stable-input-drain.patch).
			Fault:    faulttest.Fault{Name: "flat out, sources stopped early"},
			interval: time.Microsecond,
			duration: 3 * time.Second,
			args:     []string{"--runner_option=shutdownSourcesAfterIdleMs=1000"},
			drains:   true,
		},
	}
	bin := pipelineBin.Path(t)
	for _, fa := range runs {
		t.Run(fa.Name, func(t *testing.T) {
			js := jobservertest.Start(t, "flink")
			f := faulttest.NewCatalog(t, fa.Fault)
			const credentialEnv = "ICEBEAM_TEST_CREDENTIAL"
			env := credentialEnv + "=" + f.Tokens.Credential()
			f.Pool = jobservertest.StartWorkerPool(t, bin, env)
			name := "flink.clicks"
			interval, duration := flinkInterval, flinkDuration
			if fa.interval > 0 {
				interval = fa.interval
			}
			if fa.duration > 0 {
				duration = fa.duration
			}
			cmd := exec.Command(bin,
				"--runner=flink", "--endpoint="+js.Endpoint,
				"--environment_type=EXTERNAL", "--environment_config="+f.Pool.Addr,
				"--checkpointing_interval="+flinkCheckpoint.String(),
				"--catalog_uri="+f.URL, "--auth=oauth2", "--credential=env:"+credentialEnv,
				"--iceberg_table="+name, "--seq_column",
				"--interval="+interval.String(), "--duration="+duration.String(),
				"--triggering_frequency_seconds="+strconv.Itoa(flinkTrigger))
			cmd.Args = append(cmd.Args, fa.args...)
			cmd.Env = append(cmd.Environ(), env)
			start := time.Now()
			if _, err := js.Run(t, 6*time.Minute, cmd); err != nil {
				t.Fatalf("clicks on Flink: %v", err)
			}
			t.Logf("clicks on Flink (%s): %v, %d completed checkpoints, %d job restarts, %d stable-input steps drained at the end", fa.Name,
				time.Since(start).Round(time.Second), js.Count("Completed checkpoint"), js.Count("Restoring job"), js.Count("ends holding input"))
			if fa.drains && js.Count("ends holding input") == 0 {
				t.Error("the job ended without the stable-input drain: this run no longer reaches the path it tests")
			}
			faulttest.RequireEachSeqOnce(t, f.URL, f.Tokens.Credential(), name, int(duration/interval))
			f.Check(t)
		})
	}
}

// writersPerSnapshot lists, for each snapshot of table name, the writers
// (worker and DoFn instance) of the data files it added, as the sink names
// them: "w<worker id>-<instance>-<uuid>-<n>.parquet".
func writersPerSnapshot(t *testing.T, uri, credential, name string) []map[string]bool {
	t.Helper()
	tbl := faulttest.LoadChecked(t, uri, credential, name)
	fsys, err := tbl.FS(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	fileName := regexp.MustCompile(`/(w[^/]*)-[0-9a-f-]{36}-[0-9]+\.parquet$`)
	var out []map[string]bool
	for _, snap := range tbl.Metadata().Snapshots() {
		manifests, err := snap.Manifests(fsys)
		if err != nil {
			t.Fatal(err)
		}
		writers := map[string]bool{}
		for _, m := range manifests {
			if m.SnapshotID() != snap.SnapshotID {
				continue
			}
			entries, err := m.FetchEntries(fsys, true)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if e.Status() != iceberg.EntryStatusADDED || e.SnapshotID() != snap.SnapshotID {
					continue
				}
				match := fileName.FindStringSubmatch(e.DataFile().FilePath())
				if match == nil {
					t.Fatalf("data file %s: no worker in its name", e.DataFile().FilePath())
				}
				writers[match[1]] = true
			}
		}
		t.Logf("snapshot %d: files from %v", snap.SnapshotID, slices.Sorted(maps.Keys(writers)))
		out = append(out, writers)
	}
	return out
}
