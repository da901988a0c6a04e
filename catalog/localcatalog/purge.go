package localcatalog

import (
	"context"
	"database/sql"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/apache/iceberg-go"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/catalog/manifests"
)

// purgeTable answers a drop with purgeRequested: the table is dropped, then
// the files it alone holds are deleted. Those are the files its metadata
// references (its metadata files, manifest lists, manifests, data and delete
// files, statistics) and the metadata files left in its metadata directory
// by commits that did not land. Never deleted: a file outside the allowed
// places (a client can write any path into a manifest), and a file another
// table references (a registered copy, a snapshot of another table). If
// another table cannot be read, nothing is deleted: the table is dropped
// and its files stay, which the log says.
func (c *call) purgeTable(ident table.Identifier) error {
	ctx := context.WithoutCancel(c.r.Context())
	l := c.h.tableLock(c.warehouse, lockKey(ident))
	l.Lock()
	defer l.Unlock()
	loc, meta, err := c.h.current(ctx, c.cat, c.warehouse, ident)
	if err != nil {
		return err
	}
	own, err := referencedFiles(ctx, c.warehouse, loc, meta)
	if err != nil {
		// Unreadable manifests: drop, keep the files.
		slog.Warn("localcatalog: purge: cannot list the table's files; dropping it and keeping them",
			"table", dotted(ident), "error", err)
		own = map[string]string{}
	}
	for _, f := range orphanMetadata(meta) {
		own[placeKey(f)] = f
	}
	if ok, err := c.remove(ctx, ident, tableObject); err != nil || !ok {
		if err == nil {
			err = errNoSuchTable(ident)
		}
		return err
	}
	c.w.WriteHeader(http.StatusNoContent)

	others, err := c.h.filesOfAllTables(ctx)
	if err != nil {
		slog.Warn("localcatalog: purge: cannot read every other table, so no file is deleted",
			"table", dotted(ident), "error", err)
		return nil
	}
	keys := make([]string, 0, len(own))
	for k := range own {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var deleted, shared, outside int
	for _, k := range keys {
		f := own[k]
		switch {
		case others[k]:
			shared++
		case !c.h.allowed.holds(f):
			outside++
		default:
			removeFile(ctx, f)
			deleted++
		}
	}
	slog.Info("localcatalog: purged table", "table", dotted(ident), "deleted", deleted,
		"kept_shared", shared, "kept_outside_allowed", outside)
	return nil
}

// holds reports whether loc lies under an allowed place.
func (a allowed) holds(loc string) bool {
	p, err := parsePlace(loc)
	return err == nil && slices.ContainsFunc(a, p.within)
}

// placeKey is a file location in one spelling, for comparing.
func placeKey(loc string) string {
	if p, err := parsePlace(loc); err == nil {
		return p.String()
	}
	return loc
}

// referencedFiles lists every file a table's metadata references, keyed by
// placeKey: its metadata file at loc and the earlier ones it logs, and for
// every snapshot its manifest list, manifests and their data and delete
// files, plus statistics files.
func referencedFiles(ctx context.Context, warehouse, loc string, meta table.Metadata) (map[string]string, error) {
	files := map[string]string{}
	add := func(f string) {
		if f != "" {
			files[placeKey(f)] = f
		}
	}
	add(loc)
	for e := range meta.PreviousFiles() {
		add(e.MetadataFile)
	}
	for s := range meta.Statistics() {
		add(s.StatisticsPath)
	}
	for s := range meta.PartitionStatistics() {
		add(s.StatisticsPath)
	}
	fsys, err := icebergio.LoadFS(ctx, iceberg.Properties{"warehouse": warehouse}, meta.Location())
	if err != nil {
		return files, err
	}
	for _, snap := range meta.Snapshots() {
		add(snap.ManifestList)
	}
	for m, err := range manifests.All(fsys, meta.Snapshots()) {
		if err != nil {
			return files, err
		}
		add(m.FilePath())
		entries, err := m.FetchEntries(fsys, false)
		if err != nil {
			return files, err
		}
		for _, e := range entries {
			add(e.DataFile().FilePath())
		}
	}
	return files, nil
}

// orphanMetadata lists the metadata files in a local table's metadata
// directory, which include those of commits that did not land.
func orphanMetadata(meta table.Metadata) []string {
	dir := meta.Properties().Get(table.WriteMetadataPathKey, "")
	if dir == "" {
		dir = strings.TrimRight(meta.Location(), "/") + "/metadata"
	}
	p, err := parsePlace(dir)
	if err != nil || p.scheme != "file" {
		return nil
	}
	entries, err := os.ReadDir(p.path)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".metadata.json") {
			out = append(out, "file://"+p.path+"/"+e.Name())
		}
	}
	return out
}

// filesOfAllTables is the union of the files every table of catalog.db (of
// every warehouse) references, and the metadata files of every view.
func (h *Handler) filesOfAllTables(ctx context.Context) (map[string]bool, error) {
	rows, err := h.db.QueryContext(ctx, `SELECT catalog_name, table_namespace, table_name, metadata_location, iceberg_type
		FROM iceberg_tables WHERE metadata_location IS NOT NULL`)
	if err != nil {
		return nil, err
	}
	type row struct {
		cat, ns, name, loc string
		typ                sql.NullString
	}
	var all []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.cat, &r.ns, &r.name, &r.loc, &r.typ); err != nil {
			rows.Close()
			return nil, err
		}
		all = append(all, r)
	}
	rows.Close()
	out := map[string]bool{}
	for _, r := range all {
		out[placeKey(r.loc)] = true
		if r.typ.String == string(viewObject) {
			continue
		}
		meta := h.cache.get(r.loc)
		if meta == nil {
			tbl, err := table.NewFromLocation(ctx, table.Identifier{r.ns, r.name}, r.loc,
				icebergio.LoadFSFunc(nil, r.loc), nil)
			if err != nil {
				return nil, err
			}
			meta = tbl.Metadata()
		}
		files, err := referencedFiles(ctx, "", r.loc, meta)
		if err != nil {
			return nil, err
		}
		for k := range files {
			out[k] = true
		}
	}
	return out, nil
}
