package webui_test

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"
)

// TestUIInChromium loads a table page in headless Chromium (installed by
// scripts/chromium.sh; the test skips without it): the DOM holds every
// snapshot id, and the page's script, allowed by its CSP, adds a snapshot
// committed after the page was rendered. It also takes screenshots at
// 1280x800 and a phone's width into $ICEBEAM_UI_SCREENSHOTS when set.
func TestUIInChromium(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("BROWSER") == "require" {
			t.Fatal("chromium is not on PATH and BROWSER=require: run ./scripts/chromium.sh")
		}
		t.Skip("chromium is not on PATH (./scripts/chromium.sh installs it)")
	}
	var (
		once  sync.Once
		added int64
	)
	f := newWrappedFixture(t, func(f *fixture, next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.Contains(r.URL.Path, "/api/") {
				// The page has been rendered and its script polls: commit now.
				once.Do(func() { added = appendRows(t, f.tbl, 7, 9).CurrentSnapshot().SnapshotID })
			}
			next.ServeHTTP(w, r)
		})
	})
	loaded, err := f.cat.LoadTable(context.Background(), table.Identifier{"db", "events"})
	require.NoError(t, err)
	page := f.url + "/ui/tables/db/events"

	browse := func(args ...string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, chromium, append([]string{"--headless", "--no-sandbox", "--disable-gpu",
			"--disable-dev-shm-usage", "--no-first-run", "--user-data-dir=" + t.TempDir()}, args...)...)
		out, err := cmd.Output()
		require.NoError(t, err, "chromium %s", strings.Join(args, " "))
		return string(out)
	}
	// Virtual time runs the page's timers (the poll) without waiting for
	// them in real time.
	dom := browse("--virtual-time-budget=8000", "--dump-dom", page)
	for _, s := range loaded.Metadata().Snapshots() {
		require.Contains(t, dom, `data-id="`+strconv.FormatInt(s.SnapshotID, 10)+`"`)
	}
	require.NotZero(t, added, "the page's script never polled for new snapshots")
	require.Contains(t, dom, `data-id="`+strconv.FormatInt(added, 10)+`"`, "the live script did not add the new snapshot")
	require.Contains(t, dom, "1 new snapshot")

	if dir := os.Getenv("ICEBEAM_UI_SCREENSHOTS"); dir != "" {
		for name, size := range map[string]string{"desktop": "1280,800", "phone": "390,844", "desktop-full": "1280,4000", "phone-full": "390,6000"} {
			out := filepath.Join(dir, name+".png")
			browse("--hide-scrollbars", "--window-size="+size, "--screenshot="+out, page)
			_, err := os.Stat(out)
			require.NoError(t, err)
		}
		browse("--window-size=1280,800", "--screenshot="+filepath.Join(dir, "index.png"), f.url+"/")
	}
}
