// Package browsertest runs Debian's headless Chromium for tests of the web
// UI: finding it (scripts/chromium.sh installs it; BROWSER=require, as CI
// sets, makes its absence a failure instead of a skip) and running it on a
// page.
package browsertest

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// Chromium returns the path of chromium, or skips t without it (fails t
// with BROWSER=require).
func Chromium(t testing.TB) string {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("BROWSER") == "require" {
			t.Fatal("chromium is not on PATH and BROWSER=require: run ./scripts/chromium.sh")
		}
		t.Skip("chromium is not on PATH (./scripts/chromium.sh installs it)")
	}
	return path
}

// Run runs chromium headless with a fresh profile and args (a page URL
// among them) and returns what it printed (the DOM with --dump-dom), failing
// t if it fails or takes over a minute.
func Run(t testing.TB, chromium string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium, append([]string{"--headless", "--no-sandbox", "--disable-gpu",
		"--disable-dev-shm-usage", "--no-first-run", "--user-data-dir=" + t.TempDir()}, args...)...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium %s: %v", strings.Join(args, " "), err)
	}
	return string(out)
}
