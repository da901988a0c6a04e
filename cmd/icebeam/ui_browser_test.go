package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/internal/browsertest"

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
	chromium := browsertest.Chromium(t)
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

	browse := func(args ...string) string { t.Helper(); return browsertest.Run(t, chromium, args...) }
	front := browse("--dump-dom", u+"/")
	require.Contains(t, front, `href="/ui/tables/clicks/user_clicks"`, "the front page does not link the stream's table")
	page := u + "/ui/tables/clicks/user_clicks"
	// The page's script polls every few virtual seconds, which pass in a
	// moment of real time: a proxy holds its polls until the stream has
	// committed a snapshot the catalog did not have when the page was
	// asked for, so that there is always one to show.
	asked := make(chan int, 1)
	target, err := url.Parse(u)
	require.NoError(t, err)
	rp := httputil.NewSingleHostReverseProxy(target)
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/ui/api/") {
			n := <-asked
			asked <- n
			for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
				if tbl, err := cat.LoadTable(r.Context(), ident); err == nil && len(tbl.Metadata().Snapshots()) > n {
					break
				}
			}
		} else if strings.HasPrefix(r.URL.Path, "/ui/tables/") && len(asked) == 0 {
			tbl, err := cat.LoadTable(r.Context(), ident)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadGateway)
				return
			}
			asked <- len(tbl.Metadata().Snapshots())
		}
		rp.ServeHTTP(w, r)
	}))
	defer proxy.Close()
	followed := strings.Contains(browse("--virtual-time-budget=30000", "--dump-dom", proxy.URL+"/ui/tables/clicks/user_clicks"), " new snapshot")
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
