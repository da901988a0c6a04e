package localcatalog

import (
	"cmp"
	"compress/gzip"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog"
	sqlcat "github.com/apache/iceberg-go/catalog/sql"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
)

type commitRequest struct {
	Identifier   *restIdentifier    `json:"identifier"`
	Requirements table.Requirements `json:"requirements"`
	Updates      table.Updates      `json:"updates"`
}

func (c *call) commitTable(ident table.Identifier) error {
	ch, err := c.decodeTableCommit(ident)
	if err != nil {
		return err
	}
	res, err := c.commit([]change{ch})
	if err != nil {
		return err
	}
	writeJSON(c.w, http.StatusOK, map[string]any{"metadata-location": res[0].loc, "metadata": res[0].meta})
	return nil
}

// decodeTableCommit reads the body of a commit to the table the path names
// (ident), which an identifier in the body, if any, must name too.
func (c *call) decodeTableCommit(ident table.Identifier) (change, error) {
	var req commitRequest
	if err := c.decode(&req); err != nil {
		return change{}, err
	}
	if req.Identifier != nil {
		id, err := req.Identifier.ident("commit")
		if err != nil {
			return change{}, err
		}
		if !slices.Equal(id, ident) {
			return change{}, badRequest("commit body names table %s but the path names %s",
				strings.Join(id, "."), strings.Join(ident, "."))
		}
	}
	return change{ident: ident, reqs: req.Requirements, updates: req.Updates}, nil
}

// commitTransaction answers POST /v1/transactions/commit: all table changes
// land together or none does.
func (c *call) commitTransaction() error {
	changes, err := c.decodeTransaction()
	if err != nil {
		return err
	}
	if _, err := c.commit(changes); err != nil {
		return err
	}
	c.w.WriteHeader(http.StatusNoContent)
	return nil
}

// decodeTransaction reads the body of a multi-table commit: one change per
// table, each naming its table.
func (c *call) decodeTransaction() ([]change, error) {
	var req struct {
		TableChanges []commitRequest `json:"table-changes"`
	}
	if err := c.decode(&req); err != nil {
		return nil, err
	}
	if len(req.TableChanges) == 0 {
		return nil, badRequest("transaction has no table-changes")
	}
	changes := make([]change, len(req.TableChanges))
	for i, ch := range req.TableChanges {
		if ch.Identifier == nil {
			return nil, badRequest("table-changes[%d] has no identifier", i)
		}
		id, err := ch.Identifier.ident(fmt.Sprintf("table-changes[%d]", i))
		if err != nil {
			return nil, err
		}
		for j := range i {
			if slices.Equal(changes[j].ident, id) {
				return nil, badRequest("table %s appears twice in one transaction", strings.Join(id, "."))
			}
		}
		changes[i] = change{ident: id, reqs: ch.Requirements, updates: ch.Updates}
	}
	return changes, nil
}

func lockKey(ident table.Identifier) string { return strings.Join(ident, nsSep) }

// change is one table's part of a commit.
type change struct {
	ident   table.Identifier
	reqs    []table.Requirement
	updates []table.Update
	created table.Metadata // a new table's metadata, built whole, instead of updates
}

// committed is a table's state after a commit.
type committed struct {
	meta table.Metadata
	loc  string
}

// staged is one table's change, checked, ready to be written.
type staged struct {
	ident   table.Identifier
	prevLoc string // empty when the commit creates the table
	newLoc  string
	meta    table.Metadata
	place   *place // the table's location, when it is new or moves
	size    int    // of the metadata as JSON, once written
}

// commit applies changes to one or more tables, all or nothing. Each table
// is locked in this process and its requirements are checked before
// anything is written, so a failed requirement is a 409 that leaves no
// metadata file behind. New metadata files are then written and every
// metadata_location is swapped in one SQL transaction, each swap only if the
// location is still the one the requirements were checked against: a writer
// in another process sharing catalog.db makes the swap fail (409) rather
// than be overwritten.
//
// Its stages, one table at a time up to persist: loadCurrent,
// checkRequirements, applyUpdates, validate, placeMetadata; then persist
// for all tables at once.
func (c *call) commit(changes []change) ([]committed, error) {
	// A commit that has started finishes even if the client goes away, so
	// that it neither half-happens nor leaves an orphaned metadata file.
	ctx := context.WithoutCancel(c.r.Context())
	defer c.lockTables(changes)()

	out := make([]committed, len(changes))
	var todo []staged
	for i, ch := range changes {
		s, changed, err := c.stage(ctx, ch)
		if err != nil {
			return nil, err
		}
		out[i] = committed{meta: s.meta, loc: s.newLoc}
		if changed {
			todo = append(todo, s)
		}
	}
	if len(todo) == 0 {
		return out, nil
	}
	if err := c.persist(ctx, todo); err != nil {
		return nil, err
	}
	return out, nil
}

// lockTables locks the tables of changes in this process and returns what
// unlocks them. A fixed lock order keeps two transactions over the same
// tables from deadlocking.
func (c *call) lockTables(changes []change) (unlock func()) {
	order := make([]int, len(changes))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		return strings.Compare(lockKey(changes[a].ident), lockKey(changes[b].ident))
	})
	locks := make([]*sync.Mutex, 0, len(order))
	for _, i := range order {
		l := c.h.tableLock(c.warehouse, lockKey(changes[i].ident))
		l.Lock()
		locks = append(locks, l)
	}
	return func() {
		for _, l := range slices.Backward(locks) {
			l.Unlock()
		}
	}
}

// stage takes one table's change through the stages before persist. It
// returns the table's metadata after the change, at its new location, and
// whether there is anything to write: a change that changes nothing
// returns the current metadata and location.
func (c *call) stage(ctx context.Context, ch change) (staged, bool, error) {
	prevLoc, prev, err := c.loadCurrent(ctx, ch)
	if err != nil {
		return staged{}, false, err
	}
	if err := c.checkRequirements(ctx, ch, prev); err != nil {
		return staged{}, false, err
	}
	updated, err := applyUpdates(ch, prev, prevLoc)
	if err != nil {
		return staged{}, false, err
	}
	if prev != nil && updated.Equals(prev) {
		return staged{ident: ch.ident, prevLoc: prevLoc, newLoc: prevLoc, meta: prev}, false, nil
	}
	p, err := c.validate(ctx, updated, prev)
	if err != nil {
		return staged{}, false, err
	}
	var moved *place
	if prev == nil || prev.Location() != updated.Location() {
		moved = &p
	}
	newLoc, err := placeMetadata(ch.ident, updated, prev, prevLoc)
	if err != nil {
		return staged{}, false, err
	}
	return staged{ident: ch.ident, prevLoc: prevLoc, newLoc: newLoc, meta: updated, place: moved}, true, nil
}

// loadCurrent returns the table's metadata location and metadata, or
// nothing (no error) for a table the change creates (asserts to create).
func (c *call) loadCurrent(ctx context.Context, ch change) (string, table.Metadata, error) {
	prevLoc, prev, err := c.h.current(ctx, c.cat, c.warehouse, ch.ident)
	if errors.Is(err, catalog.ErrNoSuchTable) && slices.ContainsFunc(ch.reqs, isAssertCreate) {
		err = nil
	}
	if err != nil {
		return "", nil, err
	}
	return prevLoc, prev, nil
}

// checkRequirements checks the change's requirements against the current
// metadata (nil for a table to create), and that a table to create is not
// where a view is.
func (c *call) checkRequirements(ctx context.Context, ch change, prev table.Metadata) error {
	for _, r := range ch.reqs {
		if err := checkRequirement(r, prev); err != nil {
			return err
		}
	}
	if prev == nil {
		if isView, err := c.exists(ctx, ch.ident, viewObject); err != nil || isView {
			return cmp.Or(err, errViewInTheWay(ch.ident))
		}
	}
	return nil
}

// applyUpdates is the table's metadata after the change: a new table's
// metadata as built whole, or the updates applied to nothing (a table a
// transaction creates) or to the current metadata prev.
func applyUpdates(ch change, prev table.Metadata, prevLoc string) (table.Metadata, error) {
	var updated table.Metadata
	var err error
	switch {
	case ch.created != nil:
		updated = ch.created
	case prev == nil:
		updated, err = createdFromNothing(ch.updates)
	default:
		updated, err = table.UpdateTableMetadata(prev, ch.updates, prevLoc)
	}
	if err != nil {
		return nil, invalidArgument("Cannot apply the updates to table %s: %v", strings.Join(ch.ident, "."), err)
	}
	return updated, nil
}

// validate refuses metadata no reader could use, and any place the server
// would write for the table outside the allowed ones; it returns the
// table's place.
func (c *call) validate(ctx context.Context, updated, prev table.Metadata) (place, error) {
	if err := c.h.checkMetadata(ctx, updated, prev); err != nil {
		return place{}, err
	}
	// Everywhere the server will write for this table must be allowed.
	return c.h.allowed.checkTable(updated)
}

// placeMetadata is the location of the table's next metadata file, the
// version after the current one's (prevLoc), where the table's properties
// put metadata.
func placeMetadata(ident table.Identifier, updated, prev table.Metadata, prevLoc string) (string, error) {
	name := strings.Join(ident, ".")
	version := 0
	if prev != nil {
		if version = metadataVersion(prevLoc) + 1; version == 0 {
			return "", fmt.Errorf("table %s: unrecognized metadata file name %s", name, prevLoc)
		}
	}
	provider, err := table.LoadLocationProvider(updated.Location(), updated.Properties())
	if err != nil {
		return "", badRequest("table %s: %v", name, err)
	}
	newLoc, err := provider.NewTableMetadataFileLocation(version)
	if err != nil {
		return "", badRequest("table %s: %v", name, err)
	}
	return newLoc, nil
}

// persist writes the new metadata files, then moves every table's pointer
// to its new file in one SQL transaction, and caches the new metadata. If
// anything fails, the files it wrote are removed.
func (c *call) persist(ctx context.Context, todo []staged) error {
	if written, err := writeStaged(ctx, todo); err != nil {
		removeStaged(ctx, todo[:written])
		return err
	}
	err := c.h.inTx(ctx, func(tx *sql.Tx) error {
		for _, s := range todo {
			if err := c.swapPointer(ctx, tx, s); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		removeStaged(ctx, todo)
		return err
	}
	for _, s := range todo {
		c.h.cache.put(s.newLoc, s.meta, s.size)
	}
	return nil
}

// writeStaged writes the metadata file of each of todo, recording its
// size, and returns how many it wrote or began to write.
func writeStaged(ctx context.Context, todo []staged) (written int, err error) {
	for i, s := range todo {
		size, err := writeMetadata(ctx, s.meta, s.newLoc)
		written++ // a partly written file goes too
		if err != nil {
			return written, fmt.Errorf("table %s: writing %s: %w", strings.Join(s.ident, "."), s.newLoc, err)
		}
		todo[i].size = size
	}
	return written, nil
}

// removeStaged removes the metadata files of todo.
func removeStaged(ctx context.Context, todo []staged) {
	for _, s := range todo {
		removeFile(ctx, s.newLoc)
	}
}

// swapPointer moves a table's metadata_location from where the commit
// started (if the table has not changed since) to its new file, or inserts
// the row of a table the commit creates, claiming the table's place if it
// is new or moves.
func (c *call) swapPointer(ctx context.Context, tx *sql.Tx, s staged) error {
	name := strings.Join(s.ident, ".")
	ns, tbl := namespaceKey(s.ident[:len(s.ident)-1]), s.ident[len(s.ident)-1]
	if s.place != nil {
		if err := claimPlace(ctx, tx, c.cat.Name(), s.ident, *s.place, "table"); err != nil {
			return err
		}
	}
	if s.prevLoc != "" {
		res, err := tx.ExecContext(ctx, `UPDATE iceberg_tables
			SET metadata_location = ?, previous_metadata_location = ?, iceberg_type = 'TABLE'
			WHERE catalog_name = ? AND table_namespace = ? AND table_name = ? AND metadata_location = ?
			AND (iceberg_type = 'TABLE' OR iceberg_type IS NULL)`,
			s.newLoc, s.prevLoc, c.cat.Name(), ns, tbl, s.prevLoc)
		if err != nil {
			return fmt.Errorf("table %s: %w", name, err)
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return fmt.Errorf("%w: table %s was changed or dropped concurrently", table.ErrCommitFailed, name)
		}
		return nil
	}
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM iceberg_namespace_properties WHERE catalog_name = ? AND namespace = ?
		UNION ALL SELECT 1 FROM iceberg_tables WHERE catalog_name = ? AND table_namespace = ? LIMIT 1`,
		c.cat.Name(), ns, c.cat.Name(), ns).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%w: %s", catalog.ErrNoSuchNamespace, strings.Join(s.ident[:len(s.ident)-1], "."))
	}
	if err != nil {
		return fmt.Errorf("table %s: %w", name, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO iceberg_tables
		(catalog_name, table_namespace, table_name, iceberg_type, metadata_location) VALUES (?, ?, ?, 'TABLE', ?)`,
		c.cat.Name(), ns, tbl, s.newLoc); err != nil {
		if strings.Contains(err.Error(), "UNIQUE") {
			return fmt.Errorf("%w: table %s was created concurrently", table.ErrCommitFailed, name)
		}
		return fmt.Errorf("table %s: %w", name, err)
	}
	return nil
}

func isAssertCreate(r table.Requirement) bool { return r.GetType() == "assert-create" }

// current returns a table's metadata location and metadata, reading
// metadata files through the cache: they never change once written, and
// parsing them is most of a commit's cost on a table with a long history.
func (h *Handler) current(ctx context.Context, cat *sqlcat.Catalog, warehouse string, ident table.Identifier) (string, table.Metadata, error) {
	loc, err := h.pointer(ctx, cat.Name(), ident, tableObject)
	if err != nil || loc == "" {
		return "", nil, cmp.Or(err, errNoSuchTable(ident))
	}
	if meta := h.cache.get(loc); meta != nil {
		return loc, meta, nil
	}
	tbl, err := table.NewFromLocation(ctx, ident, loc,
		icebergio.LoadFSFunc(iceberg.Properties{"warehouse": warehouse}, loc), nil)
	if err != nil {
		return "", nil, fmt.Errorf("table %s: reading %s: %w", strings.Join(ident, "."), loc, err)
	}
	h.cache.put(loc, tbl.Metadata(), 0)
	return loc, tbl.Metadata(), nil
}

// syncDir syncs the directory of a new local file, so that the file's name
// survives a crash as its contents do.
func syncDir(loc string) error {
	p, err := parsePlace(loc)
	if err != nil || p.scheme != "file" {
		return nil
	}
	d, err := os.Open(path.Dir(p.path))
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// metaCache holds recently used table metadata by metadata file location,
// bounded by the size of the metadata as JSON (the parsed form takes a few
// times that): a table with a long history has large metadata, and the
// server's memory must not grow with the number of tables it has served.
type metaCache struct {
	mu    sync.Mutex
	m     map[string]cached
	order []string // oldest first
	bytes int
}

type cached struct {
	meta table.Metadata
	size int
}

// metaCacheBytes bounds the cache: a few large tables or many small ones.
const metaCacheBytes = 32 << 20

func (c *metaCache) get(loc string) table.Metadata {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[loc].meta
}

// put caches meta, whose JSON form is size bytes (0: measure it).
func (c *metaCache) put(loc string, meta table.Metadata, size int) {
	if size <= 0 {
		b, err := json.Marshal(meta)
		if err != nil {
			return
		}
		size = len(b)
	}
	if size > metaCacheBytes/4 {
		return // one huge table must not push out every other
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]cached{}
	}
	if _, ok := c.m[loc]; ok {
		return
	}
	c.m[loc] = cached{meta, size}
	c.order = append(c.order, loc)
	c.bytes += size
	for c.bytes > metaCacheBytes {
		c.bytes -= c.m[c.order[0]].size
		delete(c.m, c.order[0])
		c.order = slices.Delete(c.order, 0, 1)
	}
}

// namespaceKey is how iceberg-go's SQL catalog stores a namespace: levels
// joined by dots, or JSON behind a marker when a level itself has a dot.
func namespaceKey(ns table.Identifier) string {
	const marker = "__iceberg_namespace_v1__:"
	joined := strings.Join(ns, ".")
	if !strings.Contains(joined, marker) && !slices.ContainsFunc(ns, func(s string) bool { return strings.Contains(s, ".") }) {
		return joined
	}
	b, _ := json.Marshal(ns)
	return marker + string(b)
}

var metadataFileRE = regexp.MustCompile(`(?:^|/)v?(\d+)[-.][^/]*metadata\.json$`)

// metadataVersion reads the version number from a metadata file name
// (00003-<uuid>.metadata.json or v3.metadata.json); -1 if there is none.
func metadataVersion(loc string) int {
	m := metadataFileRE.FindStringSubmatch(loc)
	if m == nil {
		return -1
	}
	v, err := strconv.Atoi(m[1])
	if err != nil {
		return -1
	}
	return v
}

// writeMetadata writes a table's metadata file, compressed as its
// properties ask, and returns its size as JSON.
func writeMetadata(ctx context.Context, meta table.Metadata, loc string) (int, error) {
	return writeJSONFile(ctx, meta.Properties(), loc, meta)
}

// maxMetadata bounds a table's or view's metadata file: every commit
// parses the table's metadata, which takes several times its size in
// memory. 32 MiB is 50,000 to 120,000 snapshots, by the size of their
// summaries: two weeks or more of commits every 20 seconds that expire none.
const maxMetadata = 32 << 20

// writeJSONFile writes v as JSON to a new file at loc, gzipped if props
// (the table's) ask for it, and syncs it to disk before returning: the
// catalog's pointer moves to it right after. It returns the JSON's size.
func writeJSONFile(ctx context.Context, props iceberg.Properties, loc string, v any) (size int, err error) {
	fsys, err := icebergio.LoadFS(ctx, props, loc)
	if err != nil {
		return 0, err
	}
	wfs, ok := fsys.(icebergio.WriteFileIO)
	if !ok {
		return 0, fmt.Errorf("storage for %s is read-only", loc)
	}
	codec := props.Get(table.MetadataCompressionKey, table.MetadataCompressionDefault)
	if codec != table.MetadataCompressionCodecNone && codec != table.MetadataCompressionCodecGzip {
		return 0, invalidArgument("Unsupported metadata compression codec: %s", codec)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return 0, err
	}
	if len(b) > maxMetadata {
		return 0, invalidArgument("Metadata would take %d MiB, more than this catalog's %d MiB: expire old snapshots "+
			"(e.g. Spark's expire_snapshots) or remove properties first", len(b)>>20, maxMetadata>>20)
	}
	out, err := wfs.Create(loc)
	if err != nil {
		return 0, err
	}
	defer func() {
		if s, ok := out.(interface{ Sync() error }); ok && err == nil {
			err = s.Sync()
		}
		err = errors.Join(err, out.Close())
		if err == nil {
			err = syncDir(loc)
		}
	}()
	var w io.Writer = out
	if codec == table.MetadataCompressionCodecGzip {
		gz := gzip.NewWriter(out)
		defer func() { err = errors.Join(err, gz.Close()) }()
		w = gz
	}
	_, err = w.Write(append(b, '\n'))
	return len(b), err
}
