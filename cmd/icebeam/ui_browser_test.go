package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/internal/launch/launchtest"
)

// While a clicks stream commits to `icebeam serve`, headless Chromium
// (Debian's, installed by scripts/chromium.sh) shows the table on the front
// page, and its page follows the stream: a snapshot committed after the page
// was rendered appears in it. Once the stream has ended, the page shows the
// current snapshot id and the snapshot count `icebeam describe` gives.
// Screenshots of both pages are kept in .cache/test-artifacts/ui.
func TestServeUIFollowsAClicksStream(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("BROWSER") == "require" {
			t.Fatal("chromium is not on PATH and BROWSER=require: run ./scripts/chromium.sh")
		}
		t.Skip("chromium is not on PATH (./scripts/chromium.sh installs it)")
	}
	if testing.Short() {
		t.Skip("streams for 20 s")
	}
	lines, _, stop := serveOutput(t, "--addr", "127.0.0.1:0", "--local_dir", t.TempDir())
	defer stop()
	u := servedURL(t, lines)

	clicks := launchtest.Build(t, "clicks", "v0.0.0-test.ui", t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	stream := exec.CommandContext(ctx, clicks, "--catalog_uri="+u, "--interval=20ms", "--duration=20s", "--triggering_frequency_seconds=1")
	stream.Dir = t.TempDir()
	var out bytes.Buffer
	stream.Stdout, stream.Stderr = &out, &out
	require.NoError(t, stream.Start())
	done := make(chan error, 1)
	go func() { done <- stream.Wait() }()

	cat, err := catalog.Open(ctx, catalog.Config{URI: u})
	require.NoError(t, err)
	ident := table.Identifier{"clicks", "user_clicks"}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(200 * time.Millisecond) {
		if tbl, err := cat.LoadTable(ctx, ident); err == nil && len(tbl.Metadata().Snapshots()) >= 2 {
			break
		}
		require.True(t, time.Now().Before(deadline), "the stream committed fewer than 2 snapshots in a minute:\n%s", out.String())
	}

	browse := func(args ...string) string {
		t.Helper()
		bctx, bcancel := context.WithTimeout(ctx, time.Minute)
		defer bcancel()
		c := exec.CommandContext(bctx, chromium, append([]string{"--headless", "--no-sandbox", "--disable-gpu",
			"--disable-dev-shm-usage", "--no-first-run", "--user-data-dir=" + t.TempDir()}, args...)...)
		dom, err := c.Output()
		require.NoError(t, err, "chromium %s", strings.Join(args, " "))
		return string(dom)
	}
	front := browse("--dump-dom", u+"/")
	require.Contains(t, front, `href="/ui/tables/clicks/user_clicks"`, "the front page does not link the stream's table")
	page := u + "/ui/tables/clicks/user_clicks"
	// The page's script polls every few (virtual) seconds while the stream
	// commits every real one; a few tries make a commit between render and
	// poll certain enough.
	followed := false
	for try := 0; try < 3 && !followed; try++ {
		followed = strings.Contains(browse("--virtual-time-budget=30000", "--dump-dom", page), " new snapshot")
	}
	require.True(t, followed, "the table's page never showed a snapshot committed after it was rendered")

	require.NoError(t, <-done, "clicks:\n%s", out.String())
	var desc bytes.Buffer
	require.NoError(t, runDescribe(ctx, []string{"--catalog_uri=" + u, "clicks.user_clicks"}, &desc, io.Discard))
	m := regexp.MustCompile(`current snapshot\s+(\d+) \(.*, (\d+) snapshots in all\)`).FindStringSubmatch(desc.String())
	require.NotNil(t, m, "icebeam describe:\n%s", desc.String())
	dom := browse("--dump-dom", page)
	require.Contains(t, dom, `<code id="current">`+m[1]+`</code>`, "the page's current snapshot is not describe's %s", m[1])
	require.Contains(t, dom, `<dd id="snapshot-count">`+m[2]+`</dd>`, "the page's snapshot count is not describe's %s", m[2])

	shots := filepath.Join(launchtest.RepoRoot(t), ".cache", "test-artifacts", "ui")
	require.NoError(t, os.MkdirAll(shots, 0o755))
	for name, url := range map[string]string{"front": u + "/", "table": page} {
		for size, window := range map[string]string{"desktop": "1280,800", "phone": "390,844"} {
			file := filepath.Join(shots, name+"-"+size+".png")
			browse("--hide-scrollbars", "--window-size="+window, "--screenshot="+file, url)
			_, err := os.Stat(file)
			require.NoError(t, err)
		}
	}
	t.Logf("table at snapshot %s of %s; screenshots in %s", m[1], m[2], shots)
}
