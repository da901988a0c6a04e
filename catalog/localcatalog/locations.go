package localcatalog

import (
	"compress/gzip"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/apache/iceberg-go"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
	"github.com/apache/iceberg-go/view"
)

// place is a location in one spelling: scheme, host (bucket) and a clean
// absolute path, so that file:/a, file:///a/ and /a are one place and a
// "../" cannot lead out of a prefix.
type place struct{ scheme, host, path string }

func (p place) String() string {
	if p.scheme == "file" {
		return "file://" + p.path
	}
	return p.scheme + "://" + p.host + p.path
}

// within reports whether p is q or lies under it.
func (p place) within(q place) bool {
	if p.scheme != q.scheme || p.host != q.host {
		return false
	}
	return p.path == q.path || q.path == "/" || strings.HasPrefix(p.path, q.path+"/")
}

// overlaps reports whether one of p and q lies under the other.
func (p place) overlaps(q place) bool { return p.within(q) || q.within(p) }

// parsePlace reads a location a client names: an absolute path or a URI of
// a storage scheme the server has. Relative paths, "." and ".." segments and
// control characters are refused, so a location means one place however it
// is spelled.
func parsePlace(loc string) (place, error) {
	if loc == "" {
		return place{}, fmt.Errorf("empty location")
	}
	if strings.ContainsFunc(loc, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return place{}, fmt.Errorf("location %q has a control character", loc)
	}
	var p place
	if strings.HasPrefix(loc, "/") {
		p = place{scheme: "file", path: loc}
	} else {
		u, err := url.Parse(loc)
		if err != nil || u.Scheme == "" || u.Opaque != "" {
			return place{}, fmt.Errorf("location %q is neither an absolute path nor a URI", loc)
		}
		p = place{scheme: strings.ToLower(u.Scheme), host: u.Host, path: u.Path}
		if !slices.Contains(icebergio.GetRegisteredSchemes(), p.scheme) {
			return place{}, fmt.Errorf("location %q: no storage is registered for %s:// (have %v)",
				loc, p.scheme, icebergio.GetRegisteredSchemes())
		}
		if p.scheme == "file" && p.host != "" && p.host != "localhost" {
			return place{}, fmt.Errorf("location %q names host %q; file locations are on this machine", loc, u.Host)
		}
		if p.scheme == "file" {
			p.host = ""
		}
	}
	if p.path == "" {
		p.path = "/"
	}
	if !strings.HasPrefix(p.path, "/") {
		return place{}, fmt.Errorf("location %q is not absolute", loc)
	}
	for _, seg := range strings.Split(p.path, "/") {
		if seg == "." || seg == ".." {
			return place{}, fmt.Errorf("location %q has a %q segment", loc, seg)
		}
	}
	p.path = path.Clean(p.path)
	return p, nil
}

// allowed are the places the server may write and delete under: the
// default warehouse and the operator's --allow_location prefixes.
type allowed []place

func newAllowed(warehouse string, extra []string) (allowed, error) {
	var a allowed
	for _, loc := range append([]string{warehouse}, extra...) {
		p, err := parsePlace(loc)
		if err != nil {
			return nil, fmt.Errorf("localcatalog: allowed location: %w", err)
		}
		a = append(a, p)
	}
	return a, nil
}

// check refuses a location outside every allowed place, naming what it is
// (e.g. "table location") in the error.
func (a allowed) check(what, loc string) (place, error) {
	p, err := parsePlace(loc)
	if err != nil {
		return place{}, invalidArgument("Invalid %s: %v", what, err)
	}
	if !slices.ContainsFunc(a, p.within) {
		roots := make([]string, len(a))
		for i, q := range a {
			roots[i] = q.String()
		}
		return place{}, newAPIError(http.StatusForbidden, "ForbiddenException",
			"%s %s is outside the locations this catalog may write to (%s; the server's --allow_location adds more)",
			what, loc, strings.Join(roots, ", "))
	}
	return p, nil
}

// checkTable checks every place a table's metadata makes the server write
// to: its location and its metadata directory.
func (a allowed) checkTable(meta table.Metadata) (place, error) {
	return a.checkObject("table location", meta.Location(), meta.Properties())
}

// checkView is checkTable for a view.
func (a allowed) checkView(meta view.Metadata) (place, error) {
	return a.checkObject("view location", meta.Location(), meta.Properties())
}

func (a allowed) checkObject(what, loc string, props iceberg.Properties) (place, error) {
	p, err := a.check(what, loc)
	if err != nil {
		return place{}, err
	}
	if mp := props.Get(table.WriteMetadataPathKey, ""); mp != "" {
		if _, err := a.check(table.WriteMetadataPathKey, mp); err != nil {
			return place{}, err
		}
	}
	return p, nil
}

// The places of tables and views are indexed in catalog.db, so that a new
// or moved table cannot take a place another one holds: purging either
// would delete the other's files.
const placesSchema = `CREATE TABLE IF NOT EXISTS icebeam_places (
	catalog_name VARCHAR(255) NOT NULL,
	table_namespace VARCHAR(255) NOT NULL,
	table_name VARCHAR(255) NOT NULL,
	location VARCHAR(5000) NOT NULL,
	PRIMARY KEY (catalog_name, table_namespace, table_name))`

// dbtx is what both *sql.DB and *sql.Tx offer.
type dbtx interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// claimPlace records that the object ident of catalog cat is at p, after
// checking that no other object's place overlaps p.
func claimPlace(ctx context.Context, tx dbtx, cat string, ident table.Identifier, p place, what string) error {
	ns, name := namespaceKey(ident[:len(ident)-1]), ident[len(ident)-1]
	rows, err := tx.QueryContext(ctx, `SELECT catalog_name, table_namespace, table_name, location FROM icebeam_places`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var c, n, t, loc string
		if err := rows.Scan(&c, &n, &t, &loc); err != nil {
			return err
		}
		if c == cat && n == ns && t == name {
			continue
		}
		q, err := parsePlace(loc)
		if err != nil || !p.overlaps(q) {
			continue
		}
		return invalidArgument("Cannot place %s %s at %s: it overlaps %s, the location of %s.%s", what, dotted(ident), p, loc, n, t)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO icebeam_places (catalog_name, table_namespace, table_name, location)
		VALUES (?, ?, ?, ?) ON CONFLICT (catalog_name, table_namespace, table_name) DO UPDATE SET location = excluded.location`,
		cat, ns, name, p.String())
	return err
}

// backfillPlaces indexes the places of tables and views that a catalog.db
// from before the index holds.
func (h *Handler) backfillPlaces(ctx context.Context) error {
	rows, err := h.db.QueryContext(ctx, `SELECT t.catalog_name, t.table_namespace, t.table_name, t.metadata_location,
		t.iceberg_type FROM iceberg_tables t LEFT JOIN icebeam_places p ON p.catalog_name = t.catalog_name
		AND p.table_namespace = t.table_namespace AND p.table_name = t.table_name
		WHERE p.location IS NULL AND t.metadata_location IS NOT NULL`)
	if err != nil {
		return err
	}
	type missing struct{ cat, ns, name, loc string }
	var todo []missing
	for rows.Next() {
		var m missing
		var typ sql.NullString
		if err := rows.Scan(&m.cat, &m.ns, &m.name, &m.loc, &typ); err != nil {
			rows.Close()
			return err
		}
		todo = append(todo, m)
	}
	rows.Close()
	for _, m := range todo {
		loc, err := readLocation(ctx, m.loc)
		if err != nil {
			slog.Warn("localcatalog: cannot index the location of a table or view", "table", m.ns+"."+m.name, "error", err)
			continue
		}
		if _, err := h.db.ExecContext(ctx, `INSERT OR IGNORE INTO icebeam_places
			(catalog_name, table_namespace, table_name, location) VALUES (?, ?, ?, ?)`, m.cat, m.ns, m.name, loc); err != nil {
			return err
		}
	}
	return nil
}

// readLocation reads the location a table's or view's metadata file holds,
// in its place spelling.
func readLocation(ctx context.Context, metadataLoc string) (string, error) {
	fsys, err := icebergio.LoadFS(ctx, nil, metadataLoc)
	if err != nil {
		return "", err
	}
	f, err := fsys.Open(metadataLoc)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(metadataLoc, ".gz.metadata.json") {
		gz, err := gzip.NewReader(f)
		if err != nil {
			return "", err
		}
		r = gz
	}
	var m struct {
		Location string `json:"location"`
	}
	if err := json.NewDecoder(r).Decode(&m); err != nil {
		return "", err
	}
	p, err := parsePlace(m.Location)
	if err != nil {
		return "", err
	}
	return p.String(), nil
}
