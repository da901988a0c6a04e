package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"html"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/internal/syncbuf"
)

// uiOutput starts icebeam ui with args and returns the URL it printed.
func uiOutput(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	var errOut syncbuf.Buffer
	done := make(chan error, 1)
	go func() {
		err := run(ctx, append([]string{"ui"}, args...), pw, &errOut)
		pw.CloseWithError(io.EOF)
		done <- err
	}()
	var url string
	scanner := bufio.NewScanner(pr)
	for scanner.Scan() {
		if line := scanner.Text(); strings.HasPrefix(line, "icebeam: web UI of ") {
			url = line[strings.LastIndex(line, " at ")+len(" at "):]
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			require.NoError(t, err)
		case <-time.After(15 * time.Second):
			t.Error("icebeam ui did not stop within 15s")
		}
	})
	require.NotEmpty(t, url, "icebeam ui printed no URL; stderr: %s", errOut.String())
	return strings.TrimSuffix(url, "/")
}

// appendAfter commits rows to db.events on main and returns the new
// snapshot's id.
func appendAfter(t *testing.T, tbl *table.Table) int64 {
	t.Helper()
	at := rowsFor(200, 202, 1)
	defer at.Release()
	tbl, err := tbl.AppendTable(context.Background(), at, 100, iceberg.Properties{"icebeam.commit-id": "late-writer/pane"})
	require.NoError(t, err)
	return tbl.CurrentSnapshot().SnapshotID
}

// checkTablePage checks the page of the fixture's table, and that the live
// endpoint returns a snapshot committed after it was rendered.
func checkTablePage(t *testing.T, base string, f *fixture, cat interface {
	LoadTable(context.Context, table.Identifier) (*table.Table, error)
}) {
	t.Helper()
	code, body := get(t, http.DefaultClient, base+"/", "")
	require.Equal(t, http.StatusOK, code, body)
	require.Contains(t, body, `href="/ui/tables/db/events"`)

	rsp, err := http.Get(base + "/ui/tables/db/events")
	require.NoError(t, err)
	b, err := io.ReadAll(rsp.Body)
	rsp.Body.Close()
	require.NoError(t, err)
	body = string(b)
	require.Equal(t, http.StatusOK, rsp.StatusCode, body)
	require.Contains(t, rsp.Header.Get("Content-Security-Policy"), "script-src 'self'")
	for _, fld := range readSchema.Fields() {
		require.Contains(t, body, `<td class="n">`+strconv.Itoa(fld.ID)+`</td><th scope="row">`+fld.Name+`</th>`)
	}
	for _, id := range f.snaps {
		require.Contains(t, body, strconv.FormatInt(id, 10))
	}
	for i := range 15 {
		require.Contains(t, body, "<td>"+strconv.Itoa(i)+"</td>", "preview row %d", i)
	}
	code, body = get(t, http.DefaultClient, base+"/ui/tables/db/events?ref=dev", "")
	require.Equal(t, http.StatusOK, code)
	require.Contains(t, body, "<td>100</td>")

	tbl, err := cat.LoadTable(context.Background(), table.Identifier{"db", "events"})
	require.NoError(t, err)
	last := tbl.CurrentSnapshot().SnapshotID
	added := appendAfter(t, tbl)
	code, body = get(t, http.DefaultClient, base+"/ui/api/tables/db/events/snapshots?after="+strconv.FormatInt(last, 10), "")
	require.Equal(t, http.StatusOK, code, body)
	var got struct{ Snapshots []struct{ ID, Writer string } }
	require.NoError(t, json.Unmarshal([]byte(body), &got), body)
	var ids []string
	for _, s := range got.Snapshots {
		ids = append(ids, s.ID)
	}
	require.Contains(t, ids, strconv.FormatInt(added, 10), body)
}

func TestServeUI(t *testing.T) {
	lines, _, stop := serveOutput(t, "--addr", "127.0.0.1:0", "--local_dir", t.TempDir())
	u := servedURL(t, lines)
	require.Contains(t, strings.Join(lines, "\n"), "icebeam: web UI at "+u+"/")
	cat, err := catalog.Open(context.Background(), catalog.Config{URI: u})
	require.NoError(t, err)
	f := newFixture(t, cat, u)
	checkTablePage(t, u, f, cat)

	// The REST API beside it answers as before, errors in its own model.
	code, body := get(t, http.DefaultClient, u+"/v1/namespaces", "")
	require.Equal(t, http.StatusOK, code, body)
	code, body = get(t, http.DefaultClient, u+"/v1/nothing/here", "")
	require.Equal(t, http.StatusNotFound, code)
	require.Contains(t, body, `"error"`)
	code, body = get(t, http.DefaultClient, u+"/ui/tables/db/missing", "")
	require.Equal(t, http.StatusNotFound, code)
	require.Contains(t, body, "db.missing does not exist")
	require.NoError(t, stop())
}

func TestServeUIBehindAuth(t *testing.T) {
	const token = "serve-ui-token-84c1"
	t.Setenv("ICEBEAM_TEST_UI_TOKEN", token)
	lines, _, _ := serveOutput(t, "--addr", "127.0.0.1:0", "--local_dir", t.TempDir(), "--token", "env:ICEBEAM_TEST_UI_TOKEN")
	u := servedURL(t, lines)
	code, _ := get(t, http.DefaultClient, u+"/", "")
	require.Equal(t, http.StatusUnauthorized, code)
	code, body := get(t, http.DefaultClient, u+"/", token)
	require.Equal(t, http.StatusOK, code, body)
	require.Contains(t, body, "<h1>")
	// The same guard: a rebound DNS name is refused before auth.
	req, err := http.NewRequest("GET", u+"/", nil)
	require.NoError(t, err)
	req.Host = "attacker.example:80"
	req.Header.Set("Authorization", "Bearer "+token)
	rsp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	rsp.Body.Close()
	require.Equal(t, http.StatusForbidden, rsp.StatusCode)
}

func TestServeWithoutUI(t *testing.T) {
	lines, _, _ := serveOutput(t, "--addr", "127.0.0.1:0", "--local_dir", t.TempDir(), "--ui=false")
	u := servedURL(t, lines)
	require.NotContains(t, strings.Join(lines, "\n"), "web UI")
	code, _ := get(t, http.DefaultClient, u+"/", "")
	require.Equal(t, http.StatusNotFound, code)
}

func TestUICommand(t *testing.T) {
	f := localFixture(t)
	base := uiOutput(t, "--catalog_uri", f.uri, "--addr", "127.0.0.1:0", "--poll", "1s")
	cat, err := catalog.Open(context.Background(), catalog.Config{URI: f.uri})
	require.NoError(t, err)
	checkTablePage(t, base, f, cat)

	code, body := get(t, http.DefaultClient, base+"/ui/tables/db/events", "")
	require.Equal(t, http.StatusOK, code)
	require.Contains(t, body, "--catalog_uri="+f.uri, "the icebeam line reaches the same catalog")
	// The page's icebeam line works as printed, at the current snapshot and
	// at a ref, and reads the rows the page previews.
	for _, at := range []string{"", "?ref=dev"} {
		code, body := get(t, http.DefaultClient, base+"/ui/tables/db/events"+at, "")
		require.Equal(t, http.StatusOK, code, body)
		m := regexp.MustCompile(`<h3>icebeam</h3>\s*<pre tabindex="0"><code>icebeam ([^<]+)</code></pre>`).FindStringSubmatch(body)
		require.NotNil(t, m, "the page %s has no icebeam line", at)
		line := html.UnescapeString(m[1])
		out, stderr, err := icebeam(strings.Fields(line)...)
		require.NoError(t, err, "icebeam %s: %s", line, stderr)
		for _, id := range []string{"0", "14"} {
			require.Regexp(t, `(?m)^\s*`+id+`\s`, out, "icebeam %s", line)
		}
		if at != "" {
			require.Regexp(t, `(?m)^\s*101\s`, out, "icebeam %s reads the ref", line)
		}
	}
	rsp, err := http.Post(base+"/ui/tables/db/events", "application/json", strings.NewReader("{}"))
	require.NoError(t, err)
	rsp.Body.Close()
	require.NotEqual(t, http.StatusOK, rsp.StatusCode)
	require.True(t, rsp.StatusCode == http.StatusMethodNotAllowed, "read-only: %d", rsp.StatusCode)
}

func TestUIRefusesOpenNetworkAddress(t *testing.T) {
	_, _, err := icebeam("ui", "--catalog_uri", "http://127.0.0.1:1", "--addr", "0.0.0.0:0")
	require.Error(t, err)
	require.Contains(t, err.Error(), "--insecure")
	_, _, err = icebeam("ui", "stray")
	require.True(t, errors.Is(err, errUsage), "%v", err)
}
