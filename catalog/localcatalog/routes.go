package localcatalog

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/apache/iceberg-go/table"
)

// routes are the endpoints the server serves, in the order /v1/config lists
// them. A route's path is at once its http.ServeMux pattern and the REST
// spec's path template, wildcards named as the spec names them, so the
// endpoints /v1/config advertises (method, space, path) are exactly what is
// routed. The spec's optional {prefix} is a warehouse prefix (see
// warehousePrefix); every route with one is also served without it.
var routes = []route{
	{http.MethodGet, "/v1/config", unlisted, noArgs((*call).config)},
	{http.MethodGet, "/v1/{prefix}/namespaces", listed, noArgs((*call).listNamespaces)},
	{http.MethodPost, "/v1/{prefix}/namespaces", listed, noArgs((*call).createNamespace)},
	{http.MethodGet, "/v1/{prefix}/namespaces/{namespace}", listed, onNamespace((*call).loadNamespace)},
	{http.MethodHead, "/v1/{prefix}/namespaces/{namespace}", listed, onNamespace((*call).namespaceExists)},
	{http.MethodDelete, "/v1/{prefix}/namespaces/{namespace}", listed, onNamespace((*call).dropNamespace)},
	{http.MethodPost, "/v1/{prefix}/namespaces/{namespace}/properties", listed, onNamespace((*call).updateNamespaceProperties)},
	{http.MethodGet, "/v1/{prefix}/namespaces/{namespace}/tables", listed, onNamespace((*call).listTables)},
	{http.MethodPost, "/v1/{prefix}/namespaces/{namespace}/tables", listed, onNamespace((*call).createTable)},
	{http.MethodGet, "/v1/{prefix}/namespaces/{namespace}/tables/{table}", listed, onObject("table", (*call).loadTable)},
	{http.MethodHead, "/v1/{prefix}/namespaces/{namespace}/tables/{table}", listed, onObject("table", (*call).tableExists)},
	{http.MethodPost, "/v1/{prefix}/namespaces/{namespace}/tables/{table}", listed, onObject("table", (*call).commitTable)},
	{http.MethodDelete, "/v1/{prefix}/namespaces/{namespace}/tables/{table}", listed, onObject("table", (*call).dropTable)},
	// Reports are taken whatever the path names (its names are not checked).
	{http.MethodPost, "/v1/{prefix}/namespaces/{namespace}/tables/{table}/metrics", listed, noArgs((*call).reportMetrics)},
	{http.MethodPost, "/v1/{prefix}/tables/rename", listed, noArgs((*call).renameTable)},
	{http.MethodPost, "/v1/{prefix}/transactions/commit", listed, noArgs((*call).commitTransaction)},
	{http.MethodPost, "/v1/{prefix}/namespaces/{namespace}/register", listed, onNamespace((*call).registerTable)},
	{http.MethodGet, "/v1/{prefix}/namespaces/{namespace}/views", listed, onNamespace((*call).listViews)},
	{http.MethodPost, "/v1/{prefix}/namespaces/{namespace}/views", listed, onNamespace((*call).createView)},
	{http.MethodGet, "/v1/{prefix}/namespaces/{namespace}/views/{view}", listed, onObject("view", (*call).loadView)},
	{http.MethodHead, "/v1/{prefix}/namespaces/{namespace}/views/{view}", listed, onObject("view", (*call).viewExists)},
	{http.MethodPost, "/v1/{prefix}/namespaces/{namespace}/views/{view}", listed, onObject("view", (*call).replaceView)},
	{http.MethodDelete, "/v1/{prefix}/namespaces/{namespace}/views/{view}", listed, onObject("view", (*call).dropView)},
	{http.MethodPost, "/v1/{prefix}/views/rename", listed, noArgs((*call).renameView)},
}

// A route is one endpoint: requests of method to path go to handler.
type route struct {
	method string
	path   string
	// advertised routes are listed in /v1/config's endpoints (the spec
	// lists neither /v1/config itself nor the token endpoint).
	advertised bool
	handler
}

const (
	listed   = true
	unlisted = false
)

// endpoint is the route as the REST spec writes an endpoint.
func (rt route) endpoint() string { return rt.method + " " + rt.path }

// handler serves a route. args reads the identifier the path names from
// its wildcards (nil when serve takes none), before the method is checked:
// a path naming nothing valid is a 400 whatever the method.
type handler struct {
	args  func(r *http.Request) (table.Identifier, error)
	serve func(c *call, id table.Identifier) error
}

func noArgs(serve func(*call) error) handler {
	return handler{serve: func(c *call, _ table.Identifier) error { return serve(c) }}
}

// onNamespace serves routes whose path names a namespace.
func onNamespace(serve func(*call, table.Identifier) error) handler {
	return handler{
		args:  func(r *http.Request) (table.Identifier, error) { return parseNamespace(r.PathValue("namespace")) },
		serve: serve,
	}
}

// onObject serves routes whose path names a table or view: the namespace
// and the name in wildcard.
func onObject(wildcard string, serve func(*call, table.Identifier) error) handler {
	return handler{
		args: func(r *http.Request) (table.Identifier, error) {
			return parseTable(r.PathValue("namespace"), r.PathValue(wildcard))
		},
		serve: serve,
	}
}

// router holds the routes registered on http.ServeMuxes, and the endpoints
// /v1/config advertises.
type router struct {
	// plain routes paths without a prefix (/v1/namespaces), prefixed
	// those with a warehouse prefix (/v1/wh-.../namespaces). One mux
	// cannot hold both: /v1/{prefix}/namespaces and /v1/namespaces/{namespace}
	// both match /v1/namespaces/namespaces, and ServeMux refuses such
	// conflicting patterns. Route picks the mux as the prefix has always
	// been told: by a first segment of the form wh-... (warehousePrefix).
	plain, prefixed *http.ServeMux
	endpoints       []string
}

// newRouter registers routes on the muxes. Besides each route's pattern,
// each path gets a pattern without a method, which answers the other
// methods 405 (after the path's names are checked, as the path's routes
// check them), and each mux gets "/", which answers 404: both in the REST
// error model rather than ServeMux's plain text. Open builds one per
// Handler: a package-level one would be an initialization cycle, since
// config lists the endpoints.
func newRouter(routes []route) *router {
	rt := &router{plain: http.NewServeMux(), prefixed: http.NewServeMux()}
	registered := map[*http.ServeMux]map[string]bool{rt.plain: {}, rt.prefixed: {}}
	register := func(mux *http.ServeMux, path string, r route) {
		h := muxHandler{route: r, wildcards: wildcards(path)}
		mux.Handle(r.method+" "+path, h)
		if !registered[mux][path] {
			registered[mux][path] = true
			mux.Handle(path, muxHandler{route: route{path: path, handler: handler{args: r.args}}, wildcards: h.wildcards})
		}
	}
	for _, r := range routes {
		if r.advertised {
			rt.endpoints = append(rt.endpoints, r.endpoint())
		}
		plain, prefixed := strings.CutPrefix(r.path, "/v1/{prefix}/")
		if !prefixed {
			register(rt.plain, r.path, r)
			continue
		}
		register(rt.prefixed, r.path, r)
		register(rt.plain, "/v1/"+plain, r)
	}
	for _, mux := range []*http.ServeMux{rt.plain, rt.prefixed} {
		mux.Handle("/", muxHandler{})
	}
	return rt
}

// wildcards are the names of a pattern's wildcards.
func wildcards(path string) []string {
	var names []string
	for seg := range strings.SplitSeq(path, "/") {
		if name, ok := strings.CutPrefix(seg, "{"); ok {
			names = append(names, strings.TrimSuffix(name, "}"))
		}
	}
	return names
}

// muxHandler is what a pattern is registered with: a route, or the 405 of
// a path (a route without method or serve), or the 404 of every other path
// (no route at all). It answers through the call that route put in the
// request's context.
type muxHandler struct {
	route
	wildcards []string
}

type callKey struct{}

func (m muxHandler) ServeHTTP(_ http.ResponseWriter, r *http.Request) {
	c := r.Context().Value(callKey{}).(*call)
	c.err = m.serveCall(c, r)
}

func (m muxHandler) serveCall(c *call, r *http.Request) error {
	if m.path == "" {
		return errNotFound
	}
	if c.empty != "" {
		for _, name := range m.wildcards {
			if r.PathValue(name) == c.empty {
				r.SetPathValue(name, "")
			}
		}
	}
	var id table.Identifier
	if m.args != nil {
		var err error
		if id, err = m.args(r); err != nil {
			return err
		}
	}
	// ServeMux routes HEAD to a GET pattern when the path has no HEAD one:
	// that HEAD, like every method the path has no route for, is a 405.
	if r.Method != m.method || m.serve == nil {
		return errMethod
	}
	return m.serve(c, id)
}

// route answers a request from the routes: it resolves the warehouse (a
// prefix, checked before the route is), then has the ServeMux of the
// routes serve it.
func (h *Handler) route(w http.ResponseWriter, r *http.Request) error {
	rest, ok := strings.CutPrefix(r.URL.EscapedPath(), "/v1/")
	if !ok {
		return errNotFound
	}
	// One trailing slash is ignored; names are path segments escaped one by
	// one, so a name may hold '/' (as %2F).
	raw := strings.Split(strings.TrimSuffix(rest, "/"), "/")
	segs := make([]string, len(raw))
	for i, s := range raw {
		u, err := url.PathUnescape(s)
		if err != nil {
			return badRequest("path segment %q: %v", s, err)
		}
		segs[i] = u
	}
	c := &call{w: w, r: r, h: h, warehouse: h.warehouse}
	mux := h.router.plain
	if len(segs) != 1 || segs[0] != "config" { // config needs no catalog
		if p, ok := strings.CutPrefix(segs[0], warehousePrefix); ok {
			warehouse, err := h.prefixWarehouse(segs[0], p)
			if err != nil {
				return err
			}
			c.warehouse, mux = warehouse, h.router.prefixed
		}
		var err error
		if c.cat, err = h.catalogFor(c.warehouse); err != nil {
			return err
		}
	}
	routed := r.WithContext(context.WithValue(r.Context(), callKey{}, c))
	u := *r.URL
	u.RawPath, c.empty = muxPath(raw, segs)
	u.Path, _ = url.PathUnescape(u.RawPath) // each segment unescaped above
	routed.URL = &u
	mux.ServeHTTP(w, routed)
	return c.err
}

// prefixWarehouse is the warehouse a path prefix (wh-<p>) names.
func (h *Handler) prefixWarehouse(prefix, p string) (string, error) {
	b, err := base64.RawURLEncoding.DecodeString(p)
	if err != nil {
		return "", fmt.Errorf("%w: prefix %q", errNotFound, prefix)
	}
	warehouse := string(b)
	if n, err := normalizeWarehouse(warehouse); err != nil || n != warehouse {
		return "", fmt.Errorf("%w: prefix %q", errNotFound, prefix)
	}
	// A prefix made up without /v1/config is held to the same rule.
	if _, err := h.allowed.check("warehouse", warehouse); err != nil {
		return "", err
	}
	return warehouse, nil
}

// muxPath is the escaped path the routes' ServeMux is given for a request
// whose path below /v1/ is the segments raw (escaped) and segs (unescaped),
// trailing slash dropped. ServeMux redirects a path with an empty, "." or
// ".." segment to its cleaned form, which would name another table; here
// such a segment is a name like any other (an empty one refused as a
// name). So "." and ".." are escaped, which ServeMux unescapes back, and an
// empty segment stands as empty, a run of %00 no segment is, which the
// route turns back into "" before reading it.
func muxPath(raw, segs []string) (path, empty string) {
	escaped := slices.Clone(raw)
	for i, s := range raw {
		switch s {
		case "":
			if empty == "" {
				empty = "\x00"
				for slices.Contains(segs, empty) {
					empty += "\x00"
				}
			}
			escaped[i] = url.PathEscape(empty)
		case ".", "..":
			escaped[i] = strings.ReplaceAll(s, ".", "%2E")
		}
	}
	return "/v1/" + strings.Join(escaped, "/"), empty
}

// reportMetrics takes scan and commit reports and drops them: the local
// catalog keeps no metrics.
func (c *call) reportMetrics() error {
	_, _ = io.Copy(io.Discard, io.LimitReader(c.r.Body, maxBody))
	c.w.WriteHeader(http.StatusNoContent)
	return nil
}
