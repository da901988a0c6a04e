package webui_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
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

// TestUIKeyboardAndWidth loads each page in headless Chromium at 1280x800
// and at a phone's width, 390x844, with a probe script (testdata/probe.js,
// added to the page from its own origin, as its CSP allows): the page never
// scrolls sideways, every link, button, field and scrolling box is in the
// tab order, takes focus and shows it, fields have labels, and a skip link
// leads to the content. Headless Chromium lays out no window narrower than
// 500 px, so each page is loaded in a frame of the size, of a test page.
func TestUIKeyboardAndWidth(t *testing.T) {
	chromium := browsertest.Chromium(t)
	probe, err := os.ReadFile(filepath.Join("testdata", "probe.js"))
	require.NoError(t, err)
	f := newWrappedFixture(t, func(_ *fixture, next http.Handler) http.Handler {
		return withProbe(next, probe)
	})
	pages := []string{"/", "/ui/ns/db", "/ui/tables/db/events", "/ui/tables/db/events?ref=main", "/ui/tables/db/nope"}
	for _, size := range [][2]int{{1280, 800}, {390, 844}} {
		for _, p := range pages {
			frame := fmt.Sprintf("%s/probe-frame?w=%d&h=%d&src=%s", f.url, size[0], size[1], url.QueryEscape(p))
			dom := browsertest.Run(t, chromium, "--window-size=1400,1000", "--virtual-time-budget=2000", "--dump-dom", frame)
			m := regexp.MustCompile(`data-probe="([^"]*)"`).FindStringSubmatch(dom)
			require.NotNil(t, m, "%s at %dx%d: the probe did not run:\n%s", p, size[0], size[1], dom)
			var got struct {
				Width    int
				Controls int
				Problems []string
			}
			require.NoError(t, json.Unmarshal([]byte(html.UnescapeString(m[1])), &got), m[1])
			require.Equal(t, size[0], got.Width, "%s: the frame is not %d px wide", p, size[0])
			require.NotZero(t, got.Controls, "%s at %dx%d", p, size[0], size[1])
			require.Empty(t, got.Problems, "%s at %dx%d", p, size[0], size[1])
		}
	}
}

// withProbe serves probe at /probe.js and adds it to every HTML page next
// answers, and serves /probe-frame?w=W&h=H&src=PATH, a page that shows
// PATH in a frame of W x H px; for that, pages may be framed by their own
// origin (frame-ancestors 'self' instead of 'none').
func withProbe(next http.Handler, probe []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/probe.js":
			w.Header().Set("Content-Type", "text/javascript")
			_, _ = w.Write(probe)
			return
		case "/probe-frame":
			q := r.URL.Query()
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!doctype html><html><body style="margin:0"><iframe src="%s" width="%s" height="%s" style="border:0;display:block"></iframe></body></html>`,
				html.EscapeString(q.Get("src")), html.EscapeString(q.Get("w")), html.EscapeString(q.Get("h")))
			return
		}
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		if strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
			body = bytes.Replace(body, []byte("</body>"), []byte(`<script src="/probe.js" defer></script></body>`), 1)
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.Header().Del("Content-Length")
		w.Header().Del("X-Frame-Options")
		w.Header().Set("Content-Security-Policy", strings.Replace(rec.Header().Get("Content-Security-Policy"),
			"frame-ancestors 'none'", "frame-ancestors 'self'", 1))
		w.WriteHeader(rec.Code)
		_, _ = w.Write(body)
	})
}
