package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/catalog/inspect"
	"github.com/icebeam/icebeam/internal/launch"
)

// tableArg is NS.TABLE with the optional @REF and #HASH suffixes.
type tableArg struct {
	ident table.Identifier
	ref   string // after @: a Nessie branch/tag, or an Iceberg branch/tag elsewhere
	hash  string // after #: a Nessie commit hash
}

func (a tableArg) String() string { return strings.Join(a.ident, ".") }

// nessieHash is what Nessie accepts as a commit hash: 8 to 64 hex digits.
var nessieHash = regexp.MustCompile(`^[0-9a-fA-F]{8,64}$`)

// parseTableArg splits "ns.table", "ns.table@branch", "ns.table#hash" and
// "ns.table@branch#hash" (Nessie's table reference syntax). Nested
// namespaces are dotted: "a.b.table".
func parseTableArg(s string) (tableArg, error) {
	var a tableArg
	name := s
	if i := strings.IndexByte(name, '#'); i >= 0 {
		name, a.hash = name[:i], name[i+1:]
		if !nessieHash.MatchString(a.hash) {
			return a, fmt.Errorf("table %q: commit hash %q is not 8 to 64 hex digits", s, a.hash)
		}
	}
	if i := strings.IndexByte(name, '@'); i >= 0 {
		name, a.ref = name[:i], name[i+1:]
		if a.ref == "" {
			return a, fmt.Errorf("table %q: empty reference after @", s)
		}
	}
	a.ident = strings.Split(name, ".")
	if len(a.ident) < 2 || slices.Contains(a.ident, "") {
		return a, fmt.Errorf("table %q: want NAMESPACE.TABLE[@REF][#HASH]", s)
	}
	return a, nil
}

// readCommand is what describe, snapshots and scan share: the catalog flags,
// one table argument, and how @REF, #HASH and --ref select what to read.
type readCommand struct {
	name string
	fs   *flag.FlagSet
	cfg  catalog.Config

	// icebergRef is the Iceberg branch or tag to read (non-Nessie catalogs).
	icebergRef string
	table      tableArg
}

func newReadCommand(name string, stderr io.Writer) *readCommand {
	c := &readCommand{name: name, fs: newFlagSet(name, stderr)}
	c.cfg.RegisterFlags(c.fs)
	c.fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: icebeam %s [flags] NS.TABLE[@REF][#HASH]\n\n", name)
		fmt.Fprintln(stderr, "NS.TABLE may end in @REF (a Nessie branch or tag with --catalog=nessie, an Iceberg")
		fmt.Fprintln(stderr, "branch or tag otherwise, like --ref) and, for Nessie only, #HASH (a Nessie commit).")
		fmt.Fprintln(stderr)
		c.fs.PrintDefaults()
	}
	return c
}

// parse reads flags and the table argument; flags may come before or
// after it.
func (c *readCommand) parse(args []string) error {
	var positional []string
	for {
		if err := parseFlags(c.fs, args); err != nil {
			return err
		}
		if c.fs.NArg() == 0 {
			break
		}
		positional = append(positional, c.fs.Arg(0))
		args = c.fs.Args()[1:]
	}
	out := c.fs.Output()
	if len(positional) != 1 {
		fmt.Fprintf(out, "icebeam %s: want one NS.TABLE argument, got %q\n", c.name, positional)
		c.fs.Usage()
		return errUsage
	}
	t, err := parseTableArg(positional[0])
	if err != nil {
		fmt.Fprintf(out, "icebeam %s: %v\n", c.name, err)
		return errUsage
	}
	c.table = t
	return c.resolveRef()
}

// resolveRef decides what @REF, #HASH and --ref mean for this catalog. For
// Nessie a branch is a catalog of its own (served under <uri>/<ref>), and a
// commit is addressed as "<branch>@<hash>" in the same path element
// ("@<hash>" alone: that commit, detached). Other catalogs know only
// Iceberg's own branches and tags, which are refs inside the table.
func (c *readCommand) resolveRef() error {
	ref := c.table.ref
	if ref != "" && c.cfg.Ref != "" && ref != c.cfg.Ref {
		return fmt.Errorf("table %s: @%s and --ref=%s name different references", c.table, ref, c.cfg.Ref)
	}
	if ref == "" {
		ref = c.cfg.Ref
	}
	if c.cfg.Preset == catalog.PresetNessie {
		if c.table.hash != "" {
			ref += "@" + c.table.hash
		}
		c.cfg.Ref = ref
		return nil
	}
	if c.table.hash != "" {
		return fmt.Errorf("table %s: #%s is a Nessie commit hash, which only --catalog=nessie understands; for an Iceberg snapshot use --snapshot ID (scan) or @BRANCH/@TAG", c.table, c.table.hash)
	}
	// The shared --ref flag means a Nessie reference to the catalog code;
	// here it is a ref inside the table.
	c.icebergRef, c.cfg.Ref = ref, ""
	return nil
}

// run is a read command that needs nothing but the table: it parses args,
// loads the table and passes it to show. (scan vets its own flags between
// parsing and loading.)
func (c *readCommand) run(ctx context.Context, args []string, show func(*table.Table) error) error {
	if err := c.parse(args); err != nil {
		return err
	}
	tbl, stop, err := c.load(ctx)
	if err != nil {
		return err
	}
	defer stop()
	return show(tbl)
}

// load opens the catalog (starting the embedded one when no URI is given)
// and loads the table.
func (c *readCommand) load(ctx context.Context) (*table.Table, func() error, error) {
	_, cat, stop, err := launch.OpenCatalog(ctx, c.cfg)
	if err != nil {
		return nil, nil, err
	}
	tbl, err := cat.LoadTable(ctx, c.table.ident)
	if err != nil {
		stop()
		return nil, nil, fmt.Errorf("loading table %s: %w", c.table, err)
	}
	if c.icebergRef != "" && tbl.SnapshotByName(c.icebergRef) == nil {
		stop()
		return nil, nil, fmt.Errorf("table %s has no branch or tag %q (has %s)", c.table, c.icebergRef, refNames(tbl))
	}
	return tbl, stop, nil
}

func refNames(tbl *table.Table) string {
	names := slices.Sorted(maps.Keys(maps.Collect(tbl.Metadata().Refs())))
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// head is the snapshot the command looks at: the ref's, else the current.
func (c *readCommand) head(tbl *table.Table) *table.Snapshot {
	if c.icebergRef != "" {
		return tbl.SnapshotByName(c.icebergRef)
	}
	return tbl.CurrentSnapshot()
}

func runDescribe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := newReadCommand("describe", stderr)
	return c.run(ctx, args, func(tbl *table.Table) error { return describe(stdout, c, tbl) })
}

func describe(w io.Writer, c *readCommand, tbl *table.Table) error {
	meta := tbl.Metadata()
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "table\t%s\n", c.table)
	if c.icebergRef != "" {
		fmt.Fprintf(tw, "ref\t%s\n", c.icebergRef)
	}
	if c.cfg.Ref != "" {
		fmt.Fprintf(tw, "nessie ref\t%s\n", c.cfg.Ref)
	}
	fmt.Fprintf(tw, "location\t%s\n", tbl.Location())
	fmt.Fprintf(tw, "metadata\t%s\n", tbl.MetadataLocation())
	fmt.Fprintf(tw, "format version\t%d\n", meta.Version())
	fmt.Fprintf(tw, "uuid\t%s\n", meta.TableUUID())
	label := "current snapshot"
	if c.icebergRef != "" {
		label = "snapshot"
	}
	if s := c.head(tbl); s != nil {
		fmt.Fprintf(tw, "%s\t%d (%s, %s, %d snapshots in all)\n", label, s.SnapshotID,
			formatMillis(s.TimestampMs), operation(s), len(meta.Snapshots()))
	} else {
		fmt.Fprintf(tw, "%s\tnone\n", label)
	}
	if err := tw.Flush(); err != nil {
		return err
	}

	schema := tbl.Schema()
	var fields []string
	for _, f := range schema.Fields() {
		req := "optional"
		if f.Required {
			req = "required"
		}
		// Identifier fields are the row key that upserts and deletes
		// match on (icebergio's Upsert and Changes modes).
		if slices.Contains(schema.IdentifierFieldIDs, f.ID) {
			req += "\tidentifier"
		}
		fields = append(fields, fmt.Sprintf("%d\t%s\t%s\t%s", f.ID, f.Name, f.Type, req))
	}
	if err := writeSection(w, "schema", schema.ID, "", fields); err != nil {
		return err
	}

	spec := tbl.Spec()
	var specFields []string
	for _, f := range spec.Fields() {
		specFields = append(specFields, fmt.Sprintf("%d\t%s\t%s(%s)", f.FieldID, f.Name, f.Transform, inspect.SourceColumn(schema, f.SourceID())))
	}
	if err := writeSection(w, "partition spec", spec.ID(), "unpartitioned", specFields); err != nil {
		return err
	}

	order := tbl.SortOrder()
	var sortFields []string
	for _, f := range order.Fields() {
		sortFields = append(sortFields, inspect.SortField(schema, f))
	}
	if err := writeSection(w, "sort order", order.OrderID(), "unsorted", sortFields); err != nil {
		return err
	}

	props := tbl.Properties()
	fmt.Fprintf(w, "\nproperties:\n")
	for _, k := range slices.Sorted(maps.Keys(props)) {
		fmt.Fprintf(w, "  %s=%s\n", k, props[k])
	}
	if len(props) == 0 {
		fmt.Fprintln(w, "  none")
	}

	fmt.Fprintf(w, "\nrefs:\n")
	refs := maps.Collect(meta.Refs())
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, name := range slices.Sorted(maps.Keys(refs)) {
		fmt.Fprintf(tw, "  %s\t%s\t%d\n", name, refs[name].SnapshotRefType, refs[name].SnapshotID)
	}
	if len(refs) == 0 {
		fmt.Fprintln(tw, "  none")
	}
	return tw.Flush()
}

// writeSection writes a part of describe's output: the heading "name (id
// N):", then one indented line a row, its tab-separated cells aligned; with
// no rows, the heading ends in none instead ("unpartitioned"), if given.
func writeSection(w io.Writer, name string, id int, none string, rows []string) error {
	if len(rows) == 0 && none != "" {
		_, err := fmt.Fprintf(w, "\n%s (id %d): %s\n", name, id, none)
		return err
	}
	fmt.Fprintf(w, "\n%s (id %d):\n", name, id)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range rows {
		fmt.Fprintf(tw, "  %s\n", r)
	}
	return tw.Flush()
}

func operation(s *table.Snapshot) string {
	if s.Summary == nil {
		return ""
	}
	return string(s.Summary.Operation)
}

func formatMillis(ms int64) string {
	return time.UnixMilli(ms).UTC().Format(time.RFC3339Nano)
}

// snapshotColumns are the columns of `icebeam snapshots`; the summary
// entries are the ones an operator checks after a pipeline commit.
var snapshotColumns = []string{"snapshot_id", "parent_id", "timestamp", "operation", "added_records", "added_data_files", "commit_id"}

func runSnapshots(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := newReadCommand("snapshots", stderr)
	format := c.fs.String("format", inspect.Aligned, "output format: table, csv or json (one object per line)")
	return c.run(ctx, args, func(tbl *table.Table) error { return snapshotRows(c, tbl).Write(stdout, *format) })
}

// snapshotRows lists the table's snapshots oldest first; with an Iceberg
// ref, only that ref's history (its head and its ancestors).
func snapshotRows(c *readCommand, tbl *table.Table) *inspect.Rows {
	snaps := tbl.Metadata().Snapshots()
	if c.icebergRef != "" {
		snaps = nil
		seen := map[int64]bool{}
		for s := c.head(tbl); s != nil && !seen[s.SnapshotID]; {
			seen[s.SnapshotID] = true
			snaps = append(snaps, *s)
			if s.ParentSnapshotID == nil {
				break
			}
			s = tbl.SnapshotByID(*s.ParentSnapshotID)
		}
		slices.Reverse(snaps)
	}
	rows := &inspect.Rows{Columns: snapshotColumns}
	for _, s := range snaps {
		var parent, added, files, commit any
		if s.ParentSnapshotID != nil {
			parent = *s.ParentSnapshotID
		}
		var props iceberg.Properties
		if s.Summary != nil {
			props = s.Summary.Properties
		}
		if v, ok := props["added-records"]; ok {
			added = summaryNumber(v)
		}
		if v, ok := props["added-data-files"]; ok {
			files = summaryNumber(v)
		}
		// The sink's commit id (icebergio.CommitIDKey), which says which
		// pipeline pane a snapshot holds.
		if v, ok := props["icebeam.commit-id"]; ok {
			commit = v
		}
		rows.Values = append(rows.Values, []any{s.SnapshotID, parent, formatMillis(s.TimestampMs), operation(&s), added, files, commit})
	}
	return rows
}

// summaryNumber keeps counts numeric in JSON output when they parse.
func summaryNumber(v string) any {
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		return n
	}
	return v
}

func runScan(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := newReadCommand("scan", stderr)
	snapshot := c.fs.Int64("snapshot", 0, "read this snapshot id instead of the current one (not with @REF or --ref on non-Nessie catalogs)")
	limit := c.fs.Int("limit", 20, "print at most this many rows; 0 prints all")
	format := c.fs.String("format", inspect.Aligned, "output format: table, csv or json (one object per line)")
	if err := c.parse(args); err != nil {
		return err
	}
	if *limit < 0 {
		fmt.Fprintf(stderr, "icebeam scan: --limit=%d must be 0 (all rows) or more\n", *limit)
		return errUsage
	}
	if *snapshot != 0 && c.icebergRef != "" {
		return fmt.Errorf("table %s: choose either --snapshot=%d or the ref %q, not both", c.table, *snapshot, c.icebergRef)
	}
	switch *format {
	case inspect.Aligned, inspect.CSV, inspect.JSON:
	default:
		fmt.Fprintf(stderr, "icebeam scan: unknown --format=%q (want table, csv or json)\n", *format)
		return errUsage
	}
	tbl, stop, err := c.load(ctx)
	if err != nil {
		return err
	}
	defer stop()
	if *snapshot != 0 && tbl.SnapshotByID(*snapshot) == nil {
		return fmt.Errorf("table %s has no snapshot %d (see icebeam snapshots %s)", c.table, *snapshot, c.table)
	}
	var opts []table.ScanOption
	if *limit > 0 {
		opts = append(opts, table.WithLimit(int64(*limit)))
	}
	if *snapshot != 0 {
		opts = append(opts, table.WithSnapshotID(*snapshot))
	}
	scan := tbl.Scan(opts...)
	if c.icebergRef != "" {
		if scan, err = scan.UseRef(c.icebergRef); err != nil {
			return fmt.Errorf("table %s: ref %s: %w", c.table, c.icebergRef, err)
		}
	}
	rows, err := inspect.ReadScan(ctx, tbl, scan)
	if err != nil {
		return err
	}
	rows.Limit(*limit)
	return rows.Write(stdout, *format)
}
