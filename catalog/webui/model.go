package webui

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/catalog/inspect"
)

// Snapshot summary keys icebeam's sink writes (transforms/icebergio); the
// UI reads them from any table and shows nothing where they are absent.
const (
	commitIDKey    = "icebeam.commit-id"
	batchesSentKey = "icebeam.batches-sent-ms"
	paneTimingKey  = "icebeam.pane-timing"
)

// snapshotView is one snapshot of the timeline, as the page and the JSON
// API show it. Counts are the summary's strings ("" when absent), so that
// a catalog's odd values show as they are.
type snapshotView struct {
	ID        int64  `json:"id,string"`
	Parent    string `json:"parent"`
	TimeMs    int64  `json:"time_ms"`
	Time      string `json:"time"`
	Operation string `json:"operation"`

	AddedRows          string `json:"added_rows"`
	DeletedRows        string `json:"deleted_rows"`
	AddedFiles         string `json:"added_files"`
	RemovedFiles       string `json:"removed_files"`
	AddedDeleteFiles   string `json:"added_delete_files"`
	RemovedDeleteFiles string `json:"removed_delete_files"`
	ChangeRows         string `json:"change_rows"`

	CommitID string `json:"commit_id"`
	Writer   string `json:"writer"`
	Pane     string `json:"pane"`
	// LatencyMs is the snapshot's time minus when the sink sent the pane's
	// last batch, -1 when the summary has no icebeam.batches-sent-ms.
	LatencyMs int64  `json:"latency_ms"`
	Latency   string `json:"latency"`
	Refs      string `json:"refs"`
}

func formatMillis(ms int64) string {
	return time.UnixMilli(ms).UTC().Format("2006-01-02 15:04:05.000Z")
}

// snapshotViews lists the table's snapshots in commit order, oldest first.
func snapshotViews(tbl *table.Table) []snapshotView {
	refs := map[int64][]string{}
	for name, ref := range tbl.Metadata().Refs() {
		refs[ref.SnapshotID] = append(refs[ref.SnapshotID], name)
	}
	snaps := tbl.Metadata().Snapshots()
	// Sequence numbers order commits (v1 tables have none: all 0, then
	// the timestamp decides).
	slices.SortStableFunc(snaps, func(a, b table.Snapshot) int {
		return cmp.Or(cmp.Compare(a.SequenceNumber, b.SequenceNumber), cmp.Compare(a.TimestampMs, b.TimestampMs))
	})
	out := make([]snapshotView, 0, len(snaps))
	for _, s := range snaps {
		v := snapshotView{ID: s.SnapshotID, TimeMs: s.TimestampMs, Time: formatMillis(s.TimestampMs), LatencyMs: -1}
		if s.ParentSnapshotID != nil {
			v.Parent = strconv.FormatInt(*s.ParentSnapshotID, 10)
		}
		var p iceberg.Properties
		if s.Summary != nil {
			v.Operation = string(s.Summary.Operation)
			p = s.Summary.Properties
		}
		v.AddedRows = p["added-records"]
		v.DeletedRows = p["deleted-records"]
		v.AddedFiles = p["added-data-files"]
		v.RemovedFiles = p["deleted-data-files"]
		v.AddedDeleteFiles = p["added-delete-files"]
		v.RemovedDeleteFiles = p["removed-delete-files"]
		if c := p["icebeam.change-rows"]; c != "" {
			v.ChangeRows = fmt.Sprintf("%s (upserted %s, deleted %s)", c, orDash(p["icebeam.upserted-rows"]), orDash(p["icebeam.deleted-rows"]))
		}
		v.CommitID = p[commitIDKey]
		v.Writer, _, _ = strings.Cut(v.CommitID, "/")
		v.Pane = p[paneTimingKey]
		if sent := p[batchesSentKey]; sent != "" {
			if _, last, ok := strings.Cut(sent, "-"); ok {
				if ms, err := strconv.ParseInt(last, 10, 64); err == nil && ms > 0 {
					v.LatencyMs = max(s.TimestampMs-ms, 0)
					v.Latency = (time.Duration(v.LatencyMs) * time.Millisecond).String()
				}
			}
		}
		names := refs[s.SnapshotID]
		slices.Sort(names)
		v.Refs = strings.Join(names, ", ")
		out = append(out, v)
	}
	return out
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

type fieldView struct {
	ID         int
	Name       string
	Type       string
	Required   bool
	Identifier bool
	Doc        string
}

type specFieldView struct {
	ID                      int
	Name, Transform, Source string
}

type refView struct {
	Name, Type string
	SnapshotID int64
	Retention  string
}

type propView struct{ Key, Value string }

type tableView struct {
	Ident       table.Identifier
	Name        string
	Location    string
	Metadata    string
	Version     int
	UUID        string
	Current     string
	SchemaID    int
	Fields      []fieldView
	SpecID      int
	Spec        []specFieldView
	SortOrderID int
	Sort        []string
	Props       []propView
	Refs        []refView
	Snapshots   []snapshotView // newest first
	LastID      string         // newest snapshot's id, for the poll
	APIURL      string
	PollMs      int64
	Charts      []chart
	HasLatency  bool
	Partitions  partitionsView
	Preview     previewView
	Elsewhere   []snippet
}

// buildTableView gathers everything the table page shows. Parts that read
// files (partitions, preview) fail on their own, shown in their section,
// so that a table whose files are unreachable still shows its metadata.
func buildTableView(ctx context.Context, tbl *table.Table, ident table.Identifier, opts Options, q url.Values) tableView {
	meta := tbl.Metadata()
	schema := tbl.Schema()
	v := tableView{
		Ident: ident, Name: strings.Join(ident, "."), Location: tbl.Location(), Metadata: tbl.MetadataLocation(),
		Version: meta.Version(), UUID: meta.TableUUID().String(), SchemaID: schema.ID,
		APIURL: snapshotsAPIURL(ident), PollMs: opts.Poll.Milliseconds(),
	}
	if s := tbl.CurrentSnapshot(); s != nil {
		v.Current = strconv.FormatInt(s.SnapshotID, 10)
	}
	idents := map[int]bool{}
	for _, id := range schema.IdentifierFieldIDs {
		idents[id] = true
	}
	for _, f := range schema.Fields() {
		v.Fields = append(v.Fields, fieldView{ID: f.ID, Name: f.Name, Type: f.Type.String(), Required: f.Required,
			Identifier: idents[f.ID], Doc: f.Doc})
	}
	spec := tbl.Spec()
	v.SpecID = spec.ID()
	for _, f := range spec.Fields() {
		v.Spec = append(v.Spec, specFieldView{ID: f.FieldID, Name: f.Name, Transform: f.Transform.String(),
			Source: inspect.SourceColumn(schema, f.SourceID())})
	}
	order := tbl.SortOrder()
	v.SortOrderID = order.OrderID()
	for _, f := range order.Fields() {
		v.Sort = append(v.Sort, inspect.SortField(schema, f))
	}
	props := tbl.Properties()
	for _, k := range slices.Sorted(maps.Keys(props)) {
		v.Props = append(v.Props, propView{k, props[k]})
	}
	refs := maps.Collect(meta.Refs())
	for _, name := range slices.Sorted(maps.Keys(refs)) {
		ref := refs[name]
		var ret []string
		if ref.MinSnapshotsToKeep != nil {
			ret = append(ret, fmt.Sprintf("keep ≥%d snapshots", *ref.MinSnapshotsToKeep))
		}
		if ref.MaxSnapshotAgeMs != nil {
			ret = append(ret, "snapshots ≤"+(time.Duration(*ref.MaxSnapshotAgeMs)*time.Millisecond).String())
		}
		if ref.MaxRefAgeMs != nil {
			ret = append(ret, "ref ≤"+(time.Duration(*ref.MaxRefAgeMs)*time.Millisecond).String())
		}
		v.Refs = append(v.Refs, refView{Name: name, Type: string(ref.SnapshotRefType), SnapshotID: ref.SnapshotID, Retention: strings.Join(ret, ", ")})
	}
	snaps := snapshotViews(tbl)
	v.Charts, v.HasLatency = commitCharts(snaps)
	slices.Reverse(snaps)
	v.Snapshots = snaps
	if len(snaps) > 0 {
		v.LastID = strconv.FormatInt(snaps[0].ID, 10)
	}
	v.Preview = preview(ctx, tbl, q)
	v.Partitions = partitions(ctx, tbl, v.Preview.snapshotID)
	v.Elsewhere = elsewhere(ident, opts, v.Preview)
	return v
}

type previewView struct {
	Ref        string // the ref asked for
	Snapshot   string // the snapshot asked for
	At         string // what was read, in words
	snapshotID int64  // 0: current
	Columns    []string
	Rows       [][]string
	Error      string
	RefNames   []string
}

// preview reads the first PreviewRows rows at ?snapshot=ID or ?ref=NAME
// (the current snapshot without either).
func preview(ctx context.Context, tbl *table.Table, q url.Values) previewView {
	p := previewView{Ref: strings.TrimSpace(q.Get("ref")), Snapshot: strings.TrimSpace(q.Get("snapshot"))}
	for name := range tbl.Metadata().Refs() {
		p.RefNames = append(p.RefNames, name)
	}
	slices.Sort(p.RefNames)
	opts := []table.ScanOption{table.WithLimit(PreviewRows)}
	switch {
	case p.Snapshot != "" && p.Ref != "":
		p.Error = fmt.Sprintf("choose a snapshot (%s) or a ref (%s), not both", p.Snapshot, p.Ref)
		return p
	case p.Snapshot != "":
		id, err := strconv.ParseInt(p.Snapshot, 10, 64)
		if err != nil || tbl.SnapshotByID(id) == nil {
			p.Error = fmt.Sprintf("table %s has no snapshot %q", strings.Join(tbl.Identifier(), "."), p.Snapshot)
			return p
		}
		p.snapshotID = id
		p.At = "snapshot " + p.Snapshot
		opts = append(opts, table.WithSnapshotID(id))
	case p.Ref != "":
		s := tbl.SnapshotByName(p.Ref)
		if s == nil {
			p.Error = fmt.Sprintf("table %s has no branch or tag %q", strings.Join(tbl.Identifier(), "."), p.Ref)
			return p
		}
		p.snapshotID = s.SnapshotID
		p.At = fmt.Sprintf("ref %s (snapshot %d)", p.Ref, s.SnapshotID)
	default:
		s := tbl.CurrentSnapshot()
		if s == nil {
			p.At = "the current snapshot: the table has none yet"
			return p
		}
		p.At = fmt.Sprintf("the current snapshot (%d)", s.SnapshotID)
	}
	scan := tbl.Scan(opts...)
	if p.Ref != "" {
		var err error
		if scan, err = scan.UseRef(p.Ref); err != nil {
			p.Error = fmt.Sprintf("ref %s: %v", p.Ref, err)
			return p
		}
	}
	rows, err := inspect.ReadScan(ctx, tbl, scan)
	if err != nil {
		p.Error = err.Error()
		return p
	}
	rows.Limit(PreviewRows)
	p.Columns = rows.Columns
	for _, row := range rows.Values {
		cells := make([]string, len(row))
		for i, c := range row {
			cells[i] = inspect.Format(c)
		}
		p.Rows = append(p.Rows, cells)
	}
	return p
}

type snippet struct{ Label, Code string }

// elsewhere is how to read the table from icebeam, pyiceberg and Spark.
func elsewhere(ident table.Identifier, opts Options, p previewView) []snippet {
	name := strings.Join(ident, ".")
	uri := opts.CatalogURI
	if uri == "" {
		uri = "CATALOG_URI"
	}
	ib := "icebeam scan " + name
	if p.Ref != "" && p.snapshotID != 0 {
		ib += "@" + p.Ref
	} else if p.snapshotID != 0 {
		ib += " --snapshot=" + p.Snapshot
	}
	if opts.CatalogFlags != "" {
		ib += " " + opts.CatalogFlags
	} else {
		ib += " --catalog_uri=" + uri
	}
	ib += " --limit=" + strconv.Itoa(PreviewRows)
	cat := opts.CatalogName
	py := fmt.Sprintf("from pyiceberg.catalog import load_catalog\n"+
		"catalog = load_catalog(%q, type=\"rest\", uri=%q)  # add token=... or credential=... if the catalog needs them\n"+
		"print(catalog.load_table(%q).scan(limit=%d).to_arrow())", cat, uri, name, PreviewRows)
	spark := fmt.Sprintf("spark-sql --packages org.apache.iceberg:iceberg-spark-runtime-3.5_2.12:1.9.2 \\\n"+
		"  --conf spark.sql.catalog.%[1]s=org.apache.iceberg.spark.SparkCatalog \\\n"+
		"  --conf spark.sql.catalog.%[1]s.type=rest \\\n"+
		"  --conf spark.sql.catalog.%[1]s.uri=%[2]s \\\n"+
		"  -e 'SELECT * FROM %[1]s.%[3]s LIMIT %[4]d'", cat, uri, sparkName(ident), PreviewRows)
	return []snippet{{"icebeam", ib}, {"pyiceberg", py}, {"Spark SQL", spark}}
}

// sparkName quotes each part of an identifier in backticks.
func sparkName(ident table.Identifier) string {
	parts := make([]string, len(ident))
	for i, p := range ident {
		parts[i] = "`" + strings.ReplaceAll(p, "`", "``") + "`"
	}
	return strings.Join(parts, ".")
}
