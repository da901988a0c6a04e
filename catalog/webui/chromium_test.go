package webui_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/internal/browsertest"
)

// TestUIInChromium loads a table page in headless Chromium (installed by
// scripts/chromium.sh; the test skips without it): the DOM holds every
// snapshot id, and the page's script, allowed by its CSP, adds a snapshot
// committed after the page was rendered. It also takes screenshots at
// 1280x800 and a phone's width into $ICEBEAM_UI_SCREENSHOTS when set.
func TestUIInChromium(t *testing.T) {
	chromium := browsertest.Chromium(t)
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

	browse := func(args ...string) string { t.Helper(); return browsertest.Run(t, chromium, args...) }
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
