package main

import (
	"fmt"
	"os/exec"
	"testing"
	"time"

	"github.com/icebeam/icebeam/internal/faulttest"
	"github.com/icebeam/icebeam/internal/jobservertest"
	"github.com/icebeam/icebeam/internal/launch/launchtest"
)

// TestFlinkViewEqualsRecount runs the view on Beam's portable Flink
// runner, checkpointing every 5 s, while the cdc pipeline (on prism) writes
// a run of changes into its source, through a worker crash after the
// view's first commit and through the catalog down for 15 s from it: the
// view equals a recount of the source's current rows. The running totals
// live in Flink's state, restored with the source's position from the same
// checkpoint; the sink's commit of a restored pane is skipped by its id.
func TestFlinkViewEqualsRecount(t *testing.T) {
	const (
		writeFor  = 60 * time.Second
		followFor = 110 * time.Second // past the writer's last commit, a 15 s outage included
	)
	bin, writer := pipelineBin.Path(t), cdcBin.Path(t)
	for _, fault := range []faulttest.Fault{faulttest.CrashAfterCommit(), faulttest.CatalogDown(15 * time.Second)} {
		t.Run(fault.Name, func(t *testing.T) {
			js := jobservertest.Start(t, "flink")
			f := faulttest.NewCatalog(t, fault)
			f.SinkTable = "cdc.owners"
			const credentialEnv = "ICEBEAM_TEST_CREDENTIAL"
			env := credentialEnv + "=" + f.Tokens.Credential()
			f.Pool = jobservertest.StartWorkerPool(t, bin, env)
			auth := []string{"--catalog_uri=" + f.URL, "--auth=oauth2", "--credential=env:" + credentialEnv}

			// The source's writer, on prism: its commits retry an
			// unreachable catalog for 1.5 triggering periods, which
			// outlasts the outage.
			written := make(chan error, 1)
			go func() {
				out, err := launchtest.Run(t, t.TempDir(), writer, []string{env}, append(auth,
					"--format_version=3", "--changes=mixed", "--keys=300", "--interval=5ms",
					"--duration="+writeFor.String(), "--triggering_frequency_seconds=15")...)
				if err != nil {
					err = fmt.Errorf("cdc: %v\n%s", err, launchtest.Tail(out))
				}
				written <- err
			}()
			for deadline := time.Now().Add(time.Minute); !faulttest.ExistsChecked(t, f.URL, f.Tokens.Credential(), "cdc.accounts"); time.Sleep(200 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatal("the cdc pipeline created no table in a minute")
				}
			}

			cmd := exec.Command(bin, append(auth,
				"--runner=flink", "--endpoint="+js.Endpoint,
				"--environment_type=EXTERNAL", "--environment_config="+f.Pool.Addr,
				"--checkpointing_interval=5s",
				"--window=5s", "--poll_interval=250ms", "--triggering_frequency_seconds=5",
				"--duration="+followFor.String())...)
			cmd.Env = append(cmd.Environ(), env)
			start := time.Now()
			if _, err := js.Run(t, 6*time.Minute, cmd); err != nil {
				t.Fatalf("owners on Flink: %v", err)
			}
			if err := <-written; err != nil {
				t.Fatal(err)
			}
			t.Logf("owners on Flink (%s): %v, %d completed checkpoints, %d job restarts", fault.Name,
				time.Since(start).Round(time.Second), js.Count("Completed checkpoint"), js.Count("Restoring job"))

			src := faulttest.LoadChecked(t, f.URL, f.Tokens.Credential(), "cdc.accounts")
			if last := time.UnixMilli(src.CurrentSnapshot().TimestampMs); !last.Before(start.Add(followFor)) {
				t.Fatalf("the source's last snapshot (%v) came after the view stopped reading: make the view follow longer", last)
			}
			snaps, changes, deleted := sourceChanges(src)
			t.Logf("the source has %d snapshots: %d changes applied, %d rows deleted", snaps, changes, deleted)
			if snaps < 4 || deleted == 0 {
				t.Fatalf("the source did not stream changes: %d snapshots, %d changes, %d deletes", snaps, changes, deleted)
			}
			view := faulttest.LoadChecked(t, f.URL, f.Tokens.Credential(), f.SinkTable)
			requireRecount(t, readView(t, view), recount(t, src))
			t.Logf("the view has %d snapshots", len(view.Metadata().Snapshots()))
			f.Check(t)
		})
	}
}
