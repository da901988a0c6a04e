// Package webui is icebeam's read-only web page for Iceberg REST catalogs:
// it lists namespaces and tables and shows a table's schema, partition spec,
// sort order, properties, refs, snapshot timeline, commit and partition
// charts and a preview of its rows, following new snapshots live. It renders
// HTML on the server with html/template and draws charts as inline SVG, so
// the only script is one small embedded file that polls for new snapshots;
// every asset is embedded in the binary and served from the page's own
// origin under a strict Content-Security-Policy. It reads any catalog through
// iceberg-go's REST client, which the caller opens (catalog.Open for a
// remote catalog, or the local catalog's handler in-process for serve), and
// answers only GET and HEAD: it never changes a table.
package webui

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"
)

// Prefix is the path under which the UI serves everything but its home page
// (/): table and namespace pages, the JSON API and the static assets. A
// server that serves the REST API beside the UI routes / and Prefix here.
const Prefix = "/ui/"

// CSP is the Content-Security-Policy of every answer: scripts, styles and
// connections only from the page's own origin, no inline code, no frames,
// no plugins, no forms posting elsewhere. Charts are inline SVG elements,
// which need no img-src; data: images are allowed for the SVG in CSS.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
	"base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// PreviewRows is how many rows the table page previews.
const PreviewRows = 100

// Options configure the UI.
type Options struct {
	// Open returns the catalog to read. It is called for every request, so
	// it should return a cached connection (catalog.Open caches).
	Open func(ctx context.Context) (icecatalog.Catalog, error)
	// CatalogName and CatalogURI appear in the lines that read a table
	// from icebeam, pyiceberg and Spark; CatalogFlags, when set, are the
	// icebeam flags that reach the same catalog (e.g. "--catalog_uri=URI
	// --catalog=nessie --ref=main"), instead of --catalog_uri=CatalogURI.
	CatalogName  string
	CatalogURI   string
	CatalogFlags string
	// Poll is how often the table page asks for new snapshots; default 3s.
	Poll time.Duration
}

//go:embed assets
var assets embed.FS

var pages = template.Must(template.New("").Funcs(template.FuncMap{
	"tableURL": tableURL,
	"nsURL":    namespaceURL,
	"join":     strings.Join,
	"last":     func(id table.Identifier) string { return id[len(id)-1] },
}).ParseFS(assets, "assets/*.html"))

// New returns the UI's handler. It serves / (namespaces and tables),
// Prefix+"ns/{namespace}", Prefix+"tables/{namespace}/{table}",
// Prefix+"api/tables/{namespace}/{table}/snapshots?after=ID" and
// Prefix+"static/"; namespaces in paths are dotted ("a.b" is a nested
// namespace), as in icebeam's NS.TABLE arguments.
func New(opts Options) http.Handler {
	if opts.Poll <= 0 {
		opts.Poll = 3 * time.Second
	}
	if opts.CatalogName == "" {
		opts.CatalogName = "lakehouse"
	}
	u := &ui{opts: opts}
	static, _ := fs.Sub(assets, "assets")
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", u.index)
	mux.HandleFunc("GET "+Prefix+"{$}", u.index)
	mux.Handle("GET "+Prefix+"static/", http.StripPrefix(Prefix+"static/", staticFiles(static)))
	mux.HandleFunc("GET "+Prefix+"ns/{ns}", u.namespace)
	mux.HandleFunc("GET "+Prefix+"tables/{ns}/{table}", u.table)
	mux.HandleFunc("GET "+Prefix+"api/tables/{ns}/{table}/snapshots", u.snapshotsAPI)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		u.notFound(w, r, fmt.Sprintf("There is no page at %s.", r.URL.Path))
	})
	return readOnly(mux)
}

// readOnly answers every method but GET and HEAD 405 and sets the headers
// every answer carries: the CSP, no MIME sniffing, no referrer (URLs name
// tables) and no caching (pages show live state).
func readOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", CSP)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			http.Error(w, "the icebeam web UI is read-only: only GET and HEAD", http.StatusMethodNotAllowed)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// staticFiles serves the embedded assets; they change only with the
// binary, so browsers may cache them briefly.
func staticFiles(fsys fs.FS) http.Handler {
	files := http.FileServerFS(fsys)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, ".html") || r.URL.Path == "" || strings.HasSuffix(r.URL.Path, "/") {
			// Templates are not pages, and directories are not listed.
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Cache-Control", "public, max-age=300")
		files.ServeHTTP(w, r)
	})
}

type ui struct {
	opts Options
}

// page is what every template gets.
type page struct {
	Title   string
	Crumbs  []crumb
	Error   string
	Data    any
	Options Options
}

type crumb struct {
	Name, URL string
}

func (u *ui) render(w http.ResponseWriter, r *http.Request, status int, name string, p page) {
	p.Options = u.opts
	var b strings.Builder
	if err := pages.ExecuteTemplate(&b, name, p); err != nil {
		slog.Error("webui: rendering page", "template", name, "path", r.URL.Path, "error", err)
		http.Error(w, "webui: rendering "+name+": "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write([]byte(b.String()))
	}
}

func (u *ui) notFound(w http.ResponseWriter, r *http.Request, msg string) {
	u.render(w, r, http.StatusNotFound, "notfound.html", page{Title: "Not found", Error: msg})
}

// failed answers a catalog error: 404 naming what is missing, 502 for the
// rest (the catalog, not the UI, failed).
func (u *ui) failed(w http.ResponseWriter, r *http.Request, what string, err error) {
	switch {
	case errors.Is(err, icecatalog.ErrNoSuchTable), errors.Is(err, icecatalog.ErrNoSuchNamespace):
		u.notFound(w, r, fmt.Sprintf("%s does not exist in catalog %s.", what, u.opts.CatalogName))
	default:
		slog.Warn("webui: catalog request failed", "what", what, "error", err)
		u.render(w, r, http.StatusBadGateway, "notfound.html", page{Title: "Catalog error",
			Error: fmt.Sprintf("Reading %s from catalog %s failed: %v", what, u.opts.CatalogName, err)})
	}
}

// namespaceURL is the page of a namespace (dotted levels).
func namespaceURL(ns []string) string {
	return Prefix + "ns/" + url.PathEscape(strings.Join(ns, "."))
}

// tableURL is the page of a table.
func tableURL(ident []string) string {
	return Prefix + "tables/" + url.PathEscape(strings.Join(ident[:len(ident)-1], ".")) + "/" + url.PathEscape(ident[len(ident)-1])
}

func snapshotsAPIURL(ident []string) string {
	return Prefix + "api/tables/" + url.PathEscape(strings.Join(ident[:len(ident)-1], ".")) + "/" +
		url.PathEscape(ident[len(ident)-1]) + "/snapshots"
}

// pathIdent is the namespace and table of a request's path.
func pathIdent(r *http.Request) (table.Identifier, bool) {
	ns, name := r.PathValue("ns"), r.PathValue("table")
	parts := strings.Split(ns, ".")
	if name == "" || slices.Contains(parts, "") {
		return nil, false
	}
	return append(parts, name), true
}

func (u *ui) catalog(ctx context.Context) (icecatalog.Catalog, error) {
	if u.opts.Open == nil {
		return nil, errors.New("webui: no catalog (Options.Open is nil)")
	}
	return u.opts.Open(ctx)
}

// maxNamespaces bounds how many namespaces the home page walks, so that a
// catalog with thousands does not make it thousands of requests.
const maxNamespaces = 200

type nsView struct {
	Name   []string
	Tables []table.Identifier
	Error  string
}

// listNamespaces walks the namespaces under parent breadth first, with
// their tables, up to maxNamespaces.
func listNamespaces(ctx context.Context, cat icecatalog.Catalog, parent table.Identifier) ([]nsView, bool, error) {
	var out []nsView
	queue := []table.Identifier{parent}
	more := false
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		children, err := cat.ListNamespaces(ctx, p)
		if err != nil {
			if len(p) == 0 {
				return nil, false, err
			}
			continue // a catalog without nested namespaces may refuse the parent filter
		}
		slices.SortFunc(children, func(a, b table.Identifier) int { return strings.Compare(strings.Join(a, "."), strings.Join(b, ".")) })
		for _, ns := range children {
			if len(ns) <= len(p) || !slices.Equal(ns[:len(p)], p) {
				continue // some catalogs ignore parent and list everything
			}
			if len(out) >= maxNamespaces {
				more = true
				break
			}
			v := nsView{Name: ns}
			for id, err := range cat.ListTables(ctx, ns) {
				if err != nil {
					v.Error = err.Error()
					break
				}
				v.Tables = append(v.Tables, id)
			}
			slices.SortFunc(v.Tables, func(a, b table.Identifier) int { return strings.Compare(strings.Join(a, "."), strings.Join(b, ".")) })
			out = append(out, v)
			queue = append(queue, ns)
		}
	}
	return out, more, nil
}

func (u *ui) index(w http.ResponseWriter, r *http.Request) {
	cat, err := u.catalog(r.Context())
	if err != nil {
		u.failed(w, r, "the catalog", err)
		return
	}
	nss, more, err := listNamespaces(r.Context(), cat, nil)
	if err != nil {
		u.failed(w, r, "the namespaces", err)
		return
	}
	u.render(w, r, http.StatusOK, "index.html", page{Title: "Catalog " + u.opts.CatalogName,
		Data: map[string]any{"Namespaces": nss, "More": more, "Max": maxNamespaces}})
}

func (u *ui) namespace(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("ns")
	ns := table.Identifier(strings.Split(name, "."))
	if slices.Contains(ns, "") {
		u.notFound(w, r, fmt.Sprintf("Namespace %q is not a namespace name.", name))
		return
	}
	cat, err := u.catalog(r.Context())
	if err != nil {
		u.failed(w, r, "the catalog", err)
		return
	}
	if _, err := cat.LoadNamespaceProperties(r.Context(), ns); err != nil {
		u.failed(w, r, "Namespace "+name, err)
		return
	}
	v := nsView{Name: ns}
	for id, err := range cat.ListTables(r.Context(), ns) {
		if err != nil {
			u.failed(w, r, "the tables of namespace "+name, err)
			return
		}
		v.Tables = append(v.Tables, id)
	}
	slices.SortFunc(v.Tables, func(a, b table.Identifier) int { return strings.Compare(strings.Join(a, "."), strings.Join(b, ".")) })
	children, _, _ := listNamespaces(r.Context(), cat, ns)
	u.render(w, r, http.StatusOK, "namespace.html", page{Title: "Namespace " + name,
		Crumbs: []crumb{{Name: u.opts.CatalogName, URL: "/"}},
		Data:   map[string]any{"Namespace": v, "Children": children}})
}

func (u *ui) loadTable(w http.ResponseWriter, r *http.Request) (*table.Table, table.Identifier, bool) {
	ident, ok := pathIdent(r)
	if !ok {
		u.notFound(w, r, fmt.Sprintf("%q is not a namespace and table name.", r.URL.Path))
		return nil, nil, false
	}
	cat, err := u.catalog(r.Context())
	if err != nil {
		u.failed(w, r, "the catalog", err)
		return nil, nil, false
	}
	tbl, err := cat.LoadTable(r.Context(), ident)
	if err != nil {
		u.failed(w, r, "Table "+strings.Join(ident, "."), err)
		return nil, nil, false
	}
	return tbl, ident, true
}

func (u *ui) table(w http.ResponseWriter, r *http.Request) {
	tbl, ident, ok := u.loadTable(w, r)
	if !ok {
		return
	}
	v := buildTableView(r.Context(), tbl, ident, u.opts, r.URL.Query())
	ns := ident[:len(ident)-1]
	u.render(w, r, http.StatusOK, "table.html", page{Title: "Table " + strings.Join(ident, "."),
		Crumbs: []crumb{{Name: u.opts.CatalogName, URL: "/"}, {Name: strings.Join(ns, "."), URL: namespaceURL(ns)}},
		Data:   v})
}

// snapshotsAPI answers the table page's poll: the snapshots committed after
// the one named by ?after=ID (all of them when it is absent or expired), in
// the timeline's order, oldest first. Snapshot ids are JSON strings, since
// they do not fit JavaScript's numbers.
func (u *ui) snapshotsAPI(w http.ResponseWriter, r *http.Request) {
	ident, ok := pathIdent(r)
	if !ok {
		writeJSON(w, r, http.StatusNotFound, map[string]string{"error": "not a namespace and table name: " + r.URL.Path})
		return
	}
	var after int64
	if a := r.URL.Query().Get("after"); a != "" {
		n, err := strconv.ParseInt(a, 10, 64)
		if err != nil {
			writeJSON(w, r, http.StatusBadRequest, map[string]string{"error": fmt.Sprintf("after=%q is not a snapshot id", a)})
			return
		}
		after = n
	}
	cat, err := u.catalog(r.Context())
	if err == nil {
		var tbl *table.Table
		if tbl, err = cat.LoadTable(r.Context(), ident); err == nil {
			snaps := snapshotViews(tbl)
			for i, s := range snaps {
				if s.ID == after {
					snaps = snaps[i+1:]
					break
				}
			}
			writeJSON(w, r, http.StatusOK, map[string]any{"table": strings.Join(ident, "."), "snapshots": snaps})
			return
		}
	}
	code := http.StatusBadGateway
	if errors.Is(err, icecatalog.ErrNoSuchTable) || errors.Is(err, icecatalog.ErrNoSuchNamespace) {
		code = http.StatusNotFound
	}
	writeJSON(w, r, code, map[string]string{"error": fmt.Sprintf("table %s: %v", strings.Join(ident, "."), err)})
}

func writeJSON(w http.ResponseWriter, r *http.Request, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_ = json.NewEncoder(w).Encode(v)
	}
}
