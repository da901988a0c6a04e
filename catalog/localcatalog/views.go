package localcatalog

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/apache/iceberg-go"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
	"github.com/apache/iceberg-go/view"
	"github.com/google/uuid"
)

// Views are stored as the Iceberg view spec says: each version of a view's
// metadata is a JSON file under <location>/metadata, and catalog.db points
// at the current one (a row of iceberg_tables with iceberg_type 'VIEW', as
// Iceberg's JDBC catalog and iceberg-go's SQL catalog keep them). Replacing
// a view writes a new file and moves the pointer if it still points where
// the replacement started from, as table commits do.

type loadViewResult struct {
	MetadataLocation string            `json:"metadata-location"`
	Metadata         view.Metadata     `json:"metadata"`
	Config           map[string]string `json:"config"`
}

func (c *call) writeView(loc string, meta view.Metadata) {
	writeJSON(c.w, http.StatusOK, loadViewResult{MetadataLocation: loc, Metadata: meta, Config: map[string]string{}})
}

// views lists the views of namespace ns, sorted.
func (c *call) views(ns table.Identifier) ([]table.Identifier, error) {
	return c.listSorted(ns, c.cat.ListViews)
}

func (c *call) listViews(ns table.Identifier) error {
	ids, err := c.views(ns)
	if err != nil {
		return err
	}
	return c.writeIdentifiers(ids)
}

func (c *call) createView(ns table.Identifier) error {
	var req struct {
		createRequest
		ViewVersion *view.Version `json:"view-version"`
	}
	if err := c.decode(&req); err != nil {
		return err
	}
	if err := checkName("view name", req.Name); err != nil {
		return err
	}
	switch {
	case req.Schema == nil:
		return invalidArgument("Invalid schema: null")
	case req.ViewVersion == nil:
		return invalidArgument("Invalid view version: null")
	}
	ident, loc, err := c.newPlace(ns, req.Name, req.Location, true)
	if err != nil {
		return err
	}
	// As the reference's view builder does: the version is the view's first,
	// written now, on the request's schema.
	v := *req.ViewVersion
	v.VersionID, v.SchemaID, v.TimestampMS = 1, req.Schema.ID, time.Now().UnixMilli()
	b, err := view.NewMetadataBuilder()
	if err != nil {
		return err
	}
	b.SetProperties(req.Properties).SetLoc(loc).SetCurrentVersion(&v, req.Schema)
	built, err := b.Build()
	if err != nil {
		return invalidArgument("%s", viewBuildError(err))
	}
	p, err := c.h.allowed.checkView(built.Metadata)
	if err != nil {
		return err
	}
	metaLoc := viewMetadataLocation(built.Metadata, 0)
	ctx := context.WithoutCancel(c.r.Context())
	if _, err := writeJSONFile(ctx, nil, metaLoc, built.Metadata); err != nil {
		return fmt.Errorf("view %s: writing %s: %w", dotted(ident), metaLoc, err)
	}
	err = c.h.inTx(ctx, func(tx *sql.Tx) error {
		if err := claimPlace(ctx, tx, c.cat.Name(), ident, p, "view"); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO iceberg_tables
			(catalog_name, table_namespace, table_name, iceberg_type, metadata_location) VALUES (?, ?, ?, 'VIEW', ?)`,
			c.cat.Name(), namespaceKey(ns), req.Name, metaLoc)
		return err
	})
	if err != nil {
		removeFile(ctx, metaLoc)
		if strings.Contains(err.Error(), "UNIQUE") {
			return alreadyExists("View was created concurrently: %s", dotted(ident))
		}
		return fmt.Errorf("view %s: %w", dotted(ident), err)
	}
	c.writeView(metaLoc, built.Metadata)
	return nil
}

// viewBuildError words iceberg-go's view validation as the reference words
// the same check, where they differ.
func viewBuildError(err error) string {
	msg := err.Error()
	if strings.Contains(msg, "dialect") && strings.Contains(msg, "multiple") {
		if i := strings.LastIndex(msg, "dialect "); i >= 0 {
			return "Invalid view version: Cannot add multiple queries for dialect " + strings.Fields(msg[i+len("dialect "):])[0]
		}
	}
	return msg
}

// currentView returns a view's metadata location and metadata.
func (h *Handler) currentView(ctx context.Context, c *call, ident table.Identifier) (string, view.Metadata, error) {
	loc, err := h.pointer(ctx, c.cat.Name(), ident, viewObject)
	if err != nil || loc == "" {
		return "", nil, cmp.Or(err, errNoSuchView(ident))
	}
	fsys, err := icebergio.LoadFS(ctx, iceberg.Properties{"warehouse": c.warehouse}, loc)
	if err != nil {
		return "", nil, err
	}
	f, err := fsys.Open(loc)
	if err != nil {
		return "", nil, fmt.Errorf("view %s: reading %s: %w", dotted(ident), loc, err)
	}
	defer f.Close()
	meta, err := view.ParseMetadata(f)
	if err != nil {
		return "", nil, fmt.Errorf("view %s: reading %s: %w", dotted(ident), loc, err)
	}
	return loc, meta, nil
}

func (c *call) loadView(ident table.Identifier) error {
	loc, meta, err := c.h.currentView(c.r.Context(), c, ident)
	if err != nil {
		return err
	}
	c.writeView(loc, meta)
	return nil
}

func (c *call) viewExists(ident table.Identifier) error { return c.answerExists(ident, viewObject) }

// replaceView answers a view commit: requirements checked, updates applied
// to the current metadata, a new metadata file, the pointer moved.
func (c *call) replaceView(ident table.Identifier) error {
	var req struct {
		Identifier   *restIdentifier   `json:"identifier"`
		Requirements view.Requirements `json:"requirements"`
		Updates      view.Updates      `json:"updates"`
	}
	if err := c.decode(&req); err != nil {
		return err
	}
	ctx := context.WithoutCancel(c.r.Context())
	l := c.h.tableLock(c.warehouse, lockKey(ident))
	l.Lock()
	defer l.Unlock()
	prevLoc, prev, err := c.h.currentView(ctx, c, ident)
	if err != nil {
		return err
	}
	for _, r := range req.Requirements {
		if err := r.Validate(prev); err != nil {
			return commitFailed("Requirement failed: %v", err)
		}
	}
	b, err := view.MetadataBuilderFromBase(prev)
	if err != nil {
		return err
	}
	for _, u := range req.Updates {
		if err := u.Apply(b); err != nil {
			return invalidArgument("%s", viewBuildError(err))
		}
	}
	if !b.HasChanges() {
		c.writeView(prevLoc, prev)
		return nil
	}
	built, err := b.Build()
	if err != nil {
		return invalidArgument("%s", viewBuildError(err))
	}
	version := metadataVersion(prevLoc) + 1
	if version == 0 {
		return fmt.Errorf("view %s: unrecognized metadata file name %s", dotted(ident), prevLoc)
	}
	p, err := c.h.allowed.checkView(built.Metadata)
	if err != nil {
		return err
	}
	newLoc := viewMetadataLocation(built.Metadata, version)
	if _, err := writeJSONFile(ctx, nil, newLoc, built.Metadata); err != nil {
		return fmt.Errorf("view %s: writing %s: %w", dotted(ident), newLoc, err)
	}
	err = c.h.inTx(ctx, func(tx *sql.Tx) error {
		if built.Location() != prev.Location() {
			if err := claimPlace(ctx, tx, c.cat.Name(), ident, p, "view"); err != nil {
				return err
			}
		}
		res, err := tx.ExecContext(ctx, `UPDATE iceberg_tables
			SET metadata_location = ?, previous_metadata_location = ?
			WHERE catalog_name = ? AND table_namespace = ? AND table_name = ? AND metadata_location = ? AND iceberg_type = 'VIEW'`,
			newLoc, prevLoc, c.cat.Name(), namespaceKey(ident[:len(ident)-1]), ident[len(ident)-1], prevLoc)
		if n, err := rowsAffected(res, err); err != nil || n != 1 {
			return cmp.Or(err, commitFailed("Cannot commit %s: metadata location %s has changed", dotted(ident), prevLoc))
		}
		return nil
	})
	if err != nil {
		removeFile(ctx, newLoc)
		return err
	}
	c.writeView(newLoc, built.Metadata)
	return nil
}

func (c *call) dropView(ident table.Identifier) error {
	if ok, err := c.remove(c.r.Context(), ident, viewObject); err != nil || !ok {
		return cmp.Or(err, errNoSuchView(ident))
	}
	c.w.WriteHeader(http.StatusNoContent)
	return nil
}

func (c *call) renameView() error {
	from, to, err := c.decodeRename()
	if err != nil {
		return err
	}
	// The reference's checks, in its order.
	ctx := c.r.Context()
	if err := c.requireNamespace(to[:len(to)-1]); err != nil {
		return err
	}
	if ok, err := c.exists(ctx, from, viewObject); err != nil || !ok {
		return cmp.Or(err, errNoSuchView(from))
	}
	if ok, err := c.exists(ctx, to, tableObject); err != nil || ok {
		return cmp.Or(err, errRenameOnto(from, to, "Table"))
	}
	if ok, err := c.exists(ctx, to, viewObject); err != nil || ok {
		return cmp.Or(err, errRenameOnto(from, to, "View"))
	}
	if ok, err := c.rename(ctx, from, to, viewObject); err != nil || !ok {
		return cmp.Or(err, errNoSuchView(from))
	}
	c.w.WriteHeader(http.StatusNoContent)
	return nil
}

func rowsAffected(res sql.Result, err error) (int64, error) {
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// viewMetadataLocation names version v of a view's metadata file as the
// reference does: <v, 5 digits>-<uuid>.metadata.json in the directory the
// view's write.metadata.path names, else in <location>/metadata.
func viewMetadataLocation(meta view.Metadata, v int) string {
	dir := meta.Properties().Get(table.WriteMetadataPathKey, "")
	if dir == "" {
		dir = strings.TrimRight(meta.Location(), "/") + "/metadata"
	}
	return fmt.Sprintf("%s/%05d-%s.metadata.json", strings.TrimRight(dir, "/"), v, uuid.New())
}

// removeFile removes a file written for a commit that did not land.
func removeFile(ctx context.Context, loc string) {
	if fs, err := icebergio.LoadFS(ctx, nil, loc); err == nil {
		_ = fs.Remove(loc)
	}
}
