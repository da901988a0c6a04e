package main

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/internal/faulttest"
	"github.com/icebeam/icebeam/internal/launch"
	"github.com/icebeam/icebeam/internal/launch/launchtest"
)

// TestCatalogThatStaysDownFailsTheJob: once the catalog stops answering, a
// stream's next commit retries for one and a half triggering periods and
// then fails the job, naming the table and the cause, instead of stalling.
func TestCatalogThatStaysDownFailsTheJob(t *testing.T) {
	if testing.Short() {
		t.Skip("streams until the job fails")
	}
	const trigger = 10 * time.Second
	cat := faulttest.NewCatalog(t, faulttest.Fault{Before: func(c *faulttest.Catalog, _ int) bool {
		c.DownFor(time.Hour) // from the first data commit on
		return false
	}})
	tokens := cat.Tokens
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, pipelineBin.Path(t), "--catalog_uri="+cat.URL,
		"--auth=oauth2", "--credential=env:ICEBEAM_TEST_CREDENTIAL", "--iceberg_table=down.clicks",
		"--interval=10ms", "--triggering_frequency_seconds="+strings.TrimSuffix(trigger.String(), "s"))
	cmd.Env = append(cmd.Environ(), "ICEBEAM_TEST_CREDENTIAL="+tokens.Credential())
	start := time.Now()
	out, err := cmd.CombinedOutput()
	took := time.Since(start)
	if err == nil {
		t.Fatalf("clicks ran on against a dead catalog and exited 0:\n%s", launchtest.Tail(string(out)))
	}
	for _, want := range []string{"table down.clicks", "EOF", "failing for 15s"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the failure does not say %q:\n%s", want, launchtest.Tail(string(out)))
		}
	}
	// The cause, once, at ERROR, last; the runner's plan dumps only in the
	// debug log.
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if last := lines[len(lines)-1]; !strings.Contains(last, "level=ERROR") || !strings.Contains(last, "clicks: job failed: icebergio:") {
		t.Errorf("the last line is not the job's failure at ERROR: %s", last)
	}
	if n := strings.Count(string(out), "level=ERROR"); n != 1 {
		t.Errorf("%d ERROR lines, want 1:\n%s", n, launchtest.Tail(string(out)))
	}
	if strings.Contains(string(out), "while executing Process for Plan") {
		t.Errorf("the runner's plan dump is printed:\n%s", launchtest.Tail(string(out)))
	}
	// The first pane is due after one period; its commit may retry for
	// 1.5 more; a few seconds go to starting and stopping the job.
	if limit := 3*trigger + 10*time.Second; took > limit {
		t.Errorf("the job failed after %v; with a %v trigger it should within %v", took.Round(time.Second), trigger, limit)
	}
	t.Logf("failed after %v", took.Round(time.Second))
}

// A streaming pipeline on Spark is refused before anything is submitted,
// naming the missing runner feature.
func TestSparkRefusesStreaming(t *testing.T) {
	cat, stop, err := launch.Catalog(context.Background(), catalog.Config{LocalDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = stop() })
	out, err := launchtest.Run(t, t.TempDir(), pipelineBin.Path(t), nil,
		"--runner=spark", "--endpoint=localhost:1", "--environment_type=LOOPBACK",
		"--catalog_uri="+cat.URI, "--duration=10s")
	if err == nil {
		t.Fatalf("clicks on Spark exited 0:\n%s", launchtest.Tail(out))
	}
	if !strings.Contains(out, "--runner=spark cannot run this streaming pipeline") || !strings.Contains(out, "splittable DoFn") {
		t.Errorf("the refusal does not name the runner and the missing feature:\n%s", launchtest.Tail(out))
	}
}
