package localcatalog

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"iter"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog"
	sqlcat "github.com/apache/iceberg-go/catalog/sql"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
)

// nsSep separates namespace levels inside one path segment or query value,
// as the REST spec's default namespace-separator (%1F) says.
const nsSep = "\x1f"

// Request bodies are bounded one by one and in total: parsing JSON takes
// several times a body's size, so parallel large requests wait for their
// turn instead of growing the server's memory. A commit is kilobytes; a
// create with a schema of thousands of columns a few megabytes.
const (
	maxBody        = 8 << 20
	bodiesInFlight = 2 * maxBody
	bodyWait       = 15 * time.Second // then 503
)

// warehousePrefix marks a path prefix that names a warehouse other than the
// default. The prefix is the warehouse location itself, base64url-encoded, so
// it needs no state and survives restarts.
const warehousePrefix = "wh-"

// call is one request, resolved to the catalog of its warehouse.
type call struct {
	w         http.ResponseWriter
	r         *http.Request
	h         *Handler
	cat       *sqlcat.Catalog // nil for /v1/config
	warehouse string

	empty string // stands for an empty path segment while routing (muxPath)
	err   error  // what the route answered
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

// ServeHTTP serves the Iceberg REST catalog API under /v1.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
	var err error
	if n := bodyWeight(r); n > 0 {
		// Wait for a turn well within the server's read timeout, which
		// would otherwise cut the body off unread.
		ctx, cancel := context.WithTimeout(r.Context(), bodyWait)
		err = h.bodies.Acquire(ctx, n)
		cancel()
		if err != nil {
			if r.Context().Err() == nil {
				w.Header().Set("Retry-After", "5")
				writeError(rec, r, newAPIError(http.StatusServiceUnavailable, "ServiceUnavailableException",
					"Too many large requests in flight; retry later"))
			}
			return
		}
		defer h.bodies.Release(n)
	}
	err = h.route(rec, r)
	if err != nil {
		writeError(rec, r, err)
	}
	// Headers are never logged: they may carry Authorization tokens.
	slog.Debug("localcatalog", "method", r.Method, "path", r.URL.Path,
		"status", rec.status, "duration", time.Since(start))
}

// bodyWeight is what a request's body counts against bodiesInFlight: its
// declared length, or the most it may be when it declares none.
func bodyWeight(r *http.Request) int64 {
	switch {
	case r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0:
		return 0
	case r.ContentLength < 0 || r.ContentLength > maxBody:
		return maxBody
	}
	return max(r.ContentLength, 4<<10)
}

func parseNamespace(seg string) (table.Identifier, error) {
	ns := strings.Split(seg, nsSep)
	if err := checkNamespace(ns); err != nil {
		return nil, err
	}
	return ns, nil
}

func parseTable(nsSeg, name string) (table.Identifier, error) {
	ns, err := parseNamespace(nsSeg)
	if err != nil {
		return nil, err
	}
	if err := checkName("table or view name", name); err != nil {
		return nil, err
	}
	return append(ns, name), nil
}

// maxName bounds a name (one namespace level, or a table or view name): it
// becomes a directory name, which file systems cap at 255 bytes.
const maxName = 255

// checkName refuses a name no catalog could store or place: empty, longer
// than maxName bytes, or holding a control character (NUL among them,
// which SQLite would cut the name at).
func checkName(what, name string) error {
	switch {
	case name == "":
		return invalidArgument("Invalid %s: (empty string)", what)
	case len(name) > maxName:
		return invalidArgument("Invalid %s: %d bytes long, at most %d", what, len(name), maxName)
	case strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return invalidArgument("Invalid %s %q: control characters are not allowed", what, name)
	}
	return nil
}

// checkNamespace applies checkName to every level of ns.
func checkNamespace(ns []string) error {
	if len(ns) == 0 {
		return invalidArgument("Invalid namespace: (empty)")
	}
	for _, level := range ns {
		if err := checkName("namespace level", level); err != nil {
			return err
		}
	}
	return nil
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		code = http.StatusInternalServerError
		b, _ = json.Marshal(map[string]restError{"error": {
			Message: "encoding response: " + err.Error(), Type: "InternalServerError", Code: code,
		}})
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(code)
	_, _ = w.Write(b)
}

func (c *call) decode(v any) error {
	dec := json.NewDecoder(http.MaxBytesReader(c.w, c.r.Body, maxBody))
	if err := dec.Decode(v); err != nil {
		var maxErr *http.MaxBytesError
		if errors.As(err, &maxErr) {
			return err
		}
		return badRequest("%s %s: invalid JSON body: %v", c.r.Method, c.r.URL.Path, err)
	}
	return nil
}

// config answers GET /v1/config. A client's ?warehouse= selects (and creates
// on first use) a warehouse other than the default through a path prefix.
func (c *call) config() error {
	h, w, r := c.h, c.w, c.r
	wh := h.warehouse
	overrides := map[string]string{}
	if q := r.URL.Query().Get("warehouse"); q != "" {
		n, err := normalizeWarehouse(q)
		if err != nil {
			return badRequest("warehouse %q: %v", q, err)
		}
		if n != h.warehouse {
			if _, err := h.allowed.check("warehouse", n); err != nil {
				return err
			}
			if _, err := h.catalogFor(n); err != nil {
				return err
			}
			overrides["prefix"] = warehousePrefix + base64.RawURLEncoding.EncodeToString([]byte(n))
		}
		wh = n
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"defaults":  map[string]string{"warehouse": wh},
		"overrides": overrides,
		"endpoints": h.router.endpoints,
	})
	return nil
}

type restIdentifier struct {
	Namespace []string `json:"namespace"`
	Name      string   `json:"name"`
}

func (id restIdentifier) ident(what string) (table.Identifier, error) {
	if err := checkNamespace(id.Namespace); err != nil {
		return nil, err
	}
	if err := checkName(what+" name", id.Name); err != nil {
		return nil, err
	}
	return append(slices.Clone(id.Namespace), id.Name), nil
}

// page applies the spec's pageToken/pageSize to a sorted list. The token is
// the offset of the next item.
func page[T any](r *http.Request, items []T) ([]T, string, error) {
	q := r.URL.Query()
	start := 0
	if t := q.Get("pageToken"); t != "" {
		n, err := strconv.Atoi(t)
		if err != nil || n < 0 {
			return nil, "", badRequest("invalid pageToken %q", t)
		}
		start = min(n, len(items))
	}
	end := len(items)
	if s := q.Get("pageSize"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return nil, "", badRequest("invalid pageSize %q", s)
		}
		end = min(start+n, len(items))
	}
	next := ""
	if end < len(items) {
		next = strconv.Itoa(end)
	}
	return items[start:end], next, nil
}

func compareIdent(a, b table.Identifier) int { return slices.Compare(a, b) }

func (c *call) listNamespaces() error {
	var parent table.Identifier
	if p := c.r.URL.Query().Get("parent"); p != "" {
		var err error
		if parent, err = parseNamespace(p); err != nil {
			return err
		}
	}
	if len(parent) > 0 {
		if err := c.requireNamespace(parent); err != nil {
			return err
		}
	}
	all, err := c.cat.ListNamespaces(c.r.Context(), parent)
	if err != nil {
		return err
	}
	// The SQL catalog lists every descendant; the spec wants the level just
	// below parent, so deeper namespaces show up as their ancestor.
	var out []table.Identifier
	seen := map[string]bool{}
	for _, ns := range all {
		if len(ns) <= len(parent) {
			continue
		}
		child := slices.Clone(ns[:len(parent)+1])
		if k := strings.Join(child, nsSep); !seen[k] {
			seen[k] = true
			out = append(out, child)
		}
	}
	slices.SortFunc(out, compareIdent)
	pg, next, err := page(c.r, out)
	if err != nil {
		return err
	}
	if pg == nil {
		pg = []table.Identifier{}
	}
	resp := map[string]any{"namespaces": pg}
	if next != "" {
		resp["next-page-token"] = next
	}
	writeJSON(c.w, http.StatusOK, resp)
	return nil
}

func (c *call) createNamespace() error {
	var req struct {
		Namespace  []string           `json:"namespace"`
		Properties iceberg.Properties `json:"properties"`
	}
	if err := c.decode(&req); err != nil {
		return err
	}
	if err := checkNamespace(req.Namespace); err != nil {
		return err
	}
	if err := c.h.checkNamespaceProps(req.Properties); err != nil {
		return err
	}
	if err := c.cat.CreateNamespace(c.r.Context(), req.Namespace, req.Properties); err != nil {
		if errors.Is(err, catalog.ErrNamespaceAlreadyExists) {
			return errNamespaceExists(req.Namespace)
		}
		return err
	}
	props, err := c.cat.LoadNamespaceProperties(c.r.Context(), req.Namespace)
	if err != nil {
		return err
	}
	writeJSON(c.w, http.StatusOK, map[string]any{"namespace": req.Namespace, "properties": props})
	return nil
}

// checkNamespaceProps refuses a namespace location outside the allowed
// places: new tables go under it.
func (h *Handler) checkNamespaceProps(props iceberg.Properties) error {
	if loc, ok := props["location"]; ok {
		if _, err := h.allowed.check("namespace location", loc); err != nil {
			return err
		}
	}
	return nil
}

func (c *call) loadNamespace(ns table.Identifier) error {
	props, err := c.cat.LoadNamespaceProperties(c.r.Context(), ns)
	if errors.Is(err, catalog.ErrNoSuchNamespace) {
		return errNoSuchNamespace(ns)
	}
	if err != nil {
		return err
	}
	writeJSON(c.w, http.StatusOK, map[string]any{"namespace": ns, "properties": props})
	return nil
}

func (c *call) namespaceExists(ns table.Identifier) error {
	if err := c.requireNamespace(ns); err != nil {
		return err
	}
	c.w.WriteHeader(http.StatusNoContent)
	return nil
}

// requireNamespace answers whether ns exists with the error for when it
// does not.
func (c *call) requireNamespace(ns table.Identifier) error {
	ok, err := c.cat.CheckNamespaceExists(c.r.Context(), ns)
	if err != nil {
		return err
	}
	if !ok {
		return errNoSuchNamespace(ns)
	}
	return nil
}

// dropNamespace refuses a namespace holding tables or views, counting them
// in the message as the reference does.
func (c *call) dropNamespace(ns table.Identifier) error {
	if err := c.requireNamespace(ns); err != nil {
		return err
	}
	for _, kind := range []struct {
		list func(table.Identifier) ([]table.Identifier, error)
		what string
	}{{c.tables, "table(s)"}, {c.views, "view(s)"}} {
		ids, err := kind.list(ns)
		if err != nil {
			return err
		}
		if len(ids) > 0 {
			return errNamespaceNotEmpty(ns, len(ids), kind.what)
		}
	}
	if err := c.cat.DropNamespace(c.r.Context(), ns); err != nil {
		return err
	}
	c.w.WriteHeader(http.StatusNoContent)
	return nil
}

func (c *call) updateNamespaceProperties(ns table.Identifier) error {
	var req struct {
		Removals []string           `json:"removals"`
		Updates  iceberg.Properties `json:"updates"`
	}
	if err := c.decode(&req); err != nil {
		return err
	}
	for _, k := range req.Removals {
		if _, ok := req.Updates[k]; ok {
			return unprocessable("Cannot remove and update the same key: %s", k)
		}
	}
	if err := c.requireNamespace(ns); err != nil {
		return err
	}
	if err := c.h.checkNamespaceProps(req.Updates); err != nil {
		return err
	}
	sum, err := c.cat.UpdateNamespaceProperties(c.r.Context(), ns, req.Removals, req.Updates)
	if err != nil {
		return err
	}
	for _, s := range []*[]string{&sum.Removed, &sum.Updated, &sum.Missing} {
		if *s == nil {
			*s = []string{}
		}
	}
	writeJSON(c.w, http.StatusOK, sum)
	return nil
}

func (c *call) listTables(ns table.Identifier) error {
	ids, err := c.tables(ns)
	if err != nil {
		return err
	}
	return c.writeIdentifiers(ids)
}

// tables lists the tables of namespace ns, sorted.
func (c *call) tables(ns table.Identifier) ([]table.Identifier, error) {
	return c.listSorted(ns, c.cat.ListTables)
}

// listSorted lists the tables or views of namespace ns, as list (the
// catalog's ListTables or ListViews) gives them, sorted.
func (c *call) listSorted(ns table.Identifier, list func(context.Context, table.Identifier) iter.Seq2[table.Identifier, error]) ([]table.Identifier, error) {
	if err := c.requireNamespace(ns); err != nil {
		return nil, err
	}
	var ids []table.Identifier
	for id, err := range list(c.r.Context(), ns) {
		if err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	slices.SortFunc(ids, compareIdent)
	return ids, nil
}

// writeIdentifiers answers a list of tables or views, a page of it if the
// request asks for one.
func (c *call) writeIdentifiers(ids []table.Identifier) error {
	pg, next, err := page(c.r, ids)
	if err != nil {
		return err
	}
	out := make([]restIdentifier, len(pg))
	for i, id := range pg {
		out[i] = restIdentifier{Namespace: id[:len(id)-1], Name: id[len(id)-1]}
	}
	resp := map[string]any{"identifiers": out}
	if next != "" {
		resp["next-page-token"] = next
	}
	writeJSON(c.w, http.StatusOK, resp)
	return nil
}

type loadTableResult struct {
	MetadataLocation string            `json:"metadata-location,omitempty"`
	Metadata         table.Metadata    `json:"metadata"`
	Config           map[string]string `json:"config"`
}

func (c *call) writeTable(meta table.Metadata, loc string) {
	writeJSON(c.w, http.StatusOK, loadTableResult{MetadataLocation: loc, Metadata: meta, Config: map[string]string{}})
}

// createRequest is what the spec's requests to create a table and to
// create a view have in common.
type createRequest struct {
	Name       string             `json:"name"`
	Location   string             `json:"location"`
	Schema     *iceberg.Schema    `json:"schema"`
	Properties iceberg.Properties `json:"properties"`
}

func (c *call) createTable(ns table.Identifier) error {
	var req struct {
		createRequest
		PartitionSpec *iceberg.UnboundPartitionSpec `json:"partition-spec"`
		WriteOrder    *table.UnboundSortOrder       `json:"write-order"`
		StageCreate   bool                          `json:"stage-create"`
	}
	if err := c.decode(&req); err != nil {
		return err
	}
	if err := checkName("table name", req.Name); err != nil {
		return err
	}
	if req.Schema == nil {
		return invalidArgument("Invalid schema: null")
	}
	ident, loc, err := c.newPlace(ns, req.Name, req.Location, false)
	if err != nil {
		return err
	}
	var spec *iceberg.PartitionSpec
	if req.PartitionSpec != nil {
		spec = &req.PartitionSpec.PartitionSpec
	}
	order := table.UnsortedSortOrder
	if req.WriteOrder != nil {
		order = req.WriteOrder.SortOrder
	}
	// Building the metadata here checks schema, spec, order and properties,
	// so that what the client got wrong is a 400, not a storage error.
	meta, err := table.NewMetadata(req.Schema, spec, order, loc, req.Properties)
	if err != nil {
		return invalidArgument("Cannot create table %s: %v", dotted(ident), err)
	}
	if req.StageCreate {
		// Nothing is written until the client's assert-create commit.
		c.writeTable(meta, "")
		return nil
	}
	res, err := c.commit([]change{{ident: ident, reqs: []table.Requirement{table.AssertCreate()}, created: meta}})
	if err != nil {
		return err
	}
	c.writeTable(res[0].meta, res[0].loc)
	return nil
}

// registerTable answers POST .../register: a table made from an existing
// metadata file, which the catalog then points at as it is (no copy), as the
// reference does. With overwrite, an existing table's pointer moves to it.
func (c *call) registerTable(ns table.Identifier) error {
	var req struct {
		Name             string `json:"name"`
		MetadataLocation string `json:"metadata-location"`
		Overwrite        bool   `json:"overwrite"`
	}
	if err := c.decode(&req); err != nil {
		return err
	}
	if err := checkName("table name", req.Name); err != nil {
		return err
	}
	if req.MetadataLocation == "" {
		return invalidArgument("Cannot register an empty metadata file location as a table")
	}
	ident := append(slices.Clone(ns), req.Name)
	if err := c.requireNamespace(ns); err != nil {
		return err
	}
	ctx := context.WithoutCancel(c.r.Context())
	l := c.h.tableLock(c.warehouse, lockKey(ident))
	l.Lock()
	defer l.Unlock()
	prevLoc, _, err := c.h.current(ctx, c.cat, c.warehouse, ident)
	switch {
	case err == nil && !req.Overwrite:
		return errTableExists(ident)
	case err != nil && !errors.Is(err, catalog.ErrNoSuchTable):
		return err
	}
	if prevLoc == "" { // a view of that name is in the way
		if err := c.requireFree(ident, false); err != nil {
			return err
		}
	}
	// Read nothing outside the allowed places either.
	if _, err := c.h.allowed.check("metadata location", req.MetadataLocation); err != nil {
		return err
	}
	tbl, err := table.NewFromLocation(ctx, ident, req.MetadataLocation,
		icebergio.LoadFSFunc(iceberg.Properties{"warehouse": c.warehouse}, req.MetadataLocation), nil)
	if err != nil {
		return invalidArgument("Cannot read table metadata %s: %v", req.MetadataLocation, err)
	}
	p, err := c.h.allowed.checkTable(tbl.Metadata())
	if err != nil {
		return err
	}
	ns0, name := namespaceKey(ns), req.Name
	err = c.h.inTx(ctx, func(tx *sql.Tx) error {
		if err := claimPlace(ctx, tx, c.cat.Name(), ident, p, "table"); err != nil {
			return err
		}
		var res sql.Result
		var err error
		if prevLoc == "" {
			res, err = tx.ExecContext(ctx, `INSERT INTO iceberg_tables
				(catalog_name, table_namespace, table_name, iceberg_type, metadata_location) VALUES (?, ?, ?, 'TABLE', ?)`,
				c.cat.Name(), ns0, name, req.MetadataLocation)
		} else {
			res, err = tx.ExecContext(ctx, `UPDATE iceberg_tables SET metadata_location = ?, previous_metadata_location = ?
				WHERE catalog_name = ? AND table_namespace = ? AND table_name = ? AND metadata_location = ?`,
				req.MetadataLocation, prevLoc, c.cat.Name(), ns0, name, prevLoc)
		}
		if n, err := rowsAffected(res, err); err != nil || n != 1 {
			if err == nil || strings.Contains(err.Error(), "UNIQUE") {
				return errTableExists(ident)
			}
			return err
		}
		return nil
	})
	if err != nil {
		return err
	}
	c.h.cache.put(req.MetadataLocation, tbl.Metadata(), 0)
	c.writeTable(tbl.Metadata(), req.MetadataLocation)
	return nil
}

// newPlace checks that a new table (or a view, if view) may be named name
// in namespace ns, and returns its identifier and its location: loc as the
// request gave it, else tableLocation's.
func (c *call) newPlace(ns table.Identifier, name, loc string, view bool) (table.Identifier, string, error) {
	ident := append(slices.Clone(ns), name)
	if err := c.requireNamespace(ns); err != nil {
		return nil, "", err
	}
	if err := c.requireFree(ident, view); err != nil {
		return nil, "", err
	}
	if loc = strings.TrimRight(loc, "/"); loc != "" {
		return ident, loc, nil
	}
	loc, err := c.tableLocation(ident)
	return ident, loc, err
}

// tableLocation is where a new table goes when the request names no
// location: under the namespace's location property, else under
// <warehouse>/<namespace>.db, as the SQL catalog would put it. Names are
// escaped here because the SQL catalog's own url.JoinPath treats them as
// already escaped and fails on a literal "%".
func (c *call) tableLocation(ident table.Identifier) (string, error) {
	ns, name := ident[:len(ident)-1], ident[len(ident)-1]
	nsProps, err := c.cat.LoadNamespaceProperties(c.r.Context(), ns)
	if err != nil {
		return "", err
	}
	var loc string
	if nsLoc := nsProps.Get("location", ""); nsLoc != "" {
		loc, err = url.JoinPath(nsLoc, url.PathEscape(name))
	} else {
		loc, err = url.JoinPath(c.warehouse, url.PathEscape(namespaceKey(ns)+".db"), url.PathEscape(name))
	}
	if err != nil {
		return "", badRequest("table location for %s: %v", strings.Join(ident, "."), err)
	}
	return loc, nil
}

func (c *call) loadTable(ident table.Identifier) error {
	loc, meta, err := c.h.current(c.r.Context(), c.cat, c.warehouse, ident)
	if err != nil {
		return err
	}
	c.writeTable(meta, loc)
	return nil
}

func (c *call) tableExists(ident table.Identifier) error { return c.answerExists(ident, tableObject) }

// answerExists answers a HEAD of a table or view: 204 if there is one, else
// the spec's 404 for its kind.
func (c *call) answerExists(ident table.Identifier, o object) error {
	ok, err := c.exists(c.r.Context(), ident, o)
	if err != nil || !ok {
		return cmp.Or(err, o.errNoSuch(ident))
	}
	c.w.WriteHeader(http.StatusNoContent)
	return nil
}

// requireFree answers whether the name ident is free for a new table (or a
// view, if view), with each clash worded as the reference words it.
func (c *call) requireFree(ident table.Identifier, view bool) error {
	ctx := c.r.Context()
	isTable, err := c.exists(ctx, ident, tableObject)
	if err != nil {
		return err
	}
	isView, err := c.exists(ctx, ident, viewObject)
	if err != nil {
		return err
	}
	switch {
	case isTable && !view:
		return errTableExists(ident)
	case isView && view:
		return errViewExists(ident)
	case isTable:
		return errTableInTheWay(ident)
	case isView:
		return errViewInTheWay(ident)
	}
	return nil
}

func (c *call) dropTable(ident table.Identifier) error {
	if purge, _ := strconv.ParseBool(c.r.URL.Query().Get("purgeRequested")); purge {
		return c.purgeTable(ident)
	}
	if ok, err := c.remove(c.r.Context(), ident, tableObject); err != nil || !ok {
		return cmp.Or(err, errNoSuchTable(ident))
	}
	c.w.WriteHeader(http.StatusNoContent)
	return nil
}

// decodeRename reads a rename request of a table or view.
func (c *call) decodeRename() (from, to table.Identifier, err error) {
	var req struct {
		Source      restIdentifier `json:"source"`
		Destination restIdentifier `json:"destination"`
	}
	if err := c.decode(&req); err != nil {
		return nil, nil, err
	}
	if from, err = req.Source.ident("source"); err != nil {
		return nil, nil, err
	}
	to, err = req.Destination.ident("destination")
	return from, to, err
}

func (c *call) renameTable() error {
	from, to, err := c.decodeRename()
	if err != nil {
		return err
	}
	// The reference's checks, in its order.
	ctx := c.r.Context()
	if ok, err := c.exists(ctx, from, tableObject); err != nil || !ok {
		return cmp.Or(err, errNoSuchTable(from))
	}
	if err := c.requireNamespace(to[:len(to)-1]); err != nil {
		return err
	}
	if ok, err := c.exists(ctx, to, viewObject); err != nil || ok {
		return cmp.Or(err, errRenameOnto(from, to, "View"))
	}
	if ok, err := c.exists(ctx, to, tableObject); err != nil || ok {
		return cmp.Or(err, errTableExists(to))
	}
	// A commit in flight on the table finishes on its old name first.
	l := c.h.tableLock(c.warehouse, lockKey(from))
	l.Lock()
	defer l.Unlock()
	if ok, err := c.rename(ctx, from, to, tableObject); err != nil || !ok {
		return cmp.Or(err, errNoSuchTable(from))
	}
	c.w.WriteHeader(http.StatusNoContent)
	return nil
}
