// Package maintenancetest builds the tables the maintenance tests work on:
// an embedded catalog, a table of many small Parquet files written by
// iceberg-go (not by the code under test), and plain readers that turn a
// table back into rows and list the files under its location, so that
// tests compare against what they generated themselves.
package maintenancetest

import (
	"context"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/catalog/localcatalog"
)

// Catalog starts the embedded REST catalog in a temporary directory and
// opens it.
func Catalog(t testing.TB) (catalog.Config, icecatalog.Catalog) {
	t.Helper()
	srv, err := localcatalog.Listen("127.0.0.1:0", localcatalog.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	cfg := catalog.Config{URI: srv.URL()}
	cat, err := catalog.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return cfg, cat
}

// Schema is the tables' first schema: n is an int, promoted to long by
// Evolve, which also adds the optional string column extra.
var Schema = iceberg.NewSchema(0,
	iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.PrimitiveTypes.Int64, Required: true},
	iceberg.NestedField{ID: 2, Name: "part", Type: iceberg.PrimitiveTypes.String, Required: true},
	iceberg.NestedField{ID: 3, Name: "v", Type: iceberg.PrimitiveTypes.Float64},
	iceberg.NestedField{ID: 4, Name: "s", Type: iceberg.PrimitiveTypes.String},
	iceberg.NestedField{ID: 5, Name: "n", Type: iceberg.PrimitiveTypes.Int32},
)

// CreateTable creates NS.NAME (and its namespace), identity-partitioned by
// part when partitioned.
func CreateTable(t testing.TB, cat icecatalog.Catalog, name string, partitioned bool, props iceberg.Properties) *table.Table {
	t.Helper()
	ctx := context.Background()
	ident := strings.Split(name, ".")
	ns := ident[:len(ident)-1]
	if err := cat.CreateNamespace(ctx, ns, nil); err != nil && !strings.Contains(err.Error(), "exists") {
		t.Fatal(err)
	}
	opts := []icecatalog.CreateTableOpt{icecatalog.WithProperties(props)}
	if partitioned {
		spec := iceberg.NewPartitionSpec(iceberg.PartitionField{SourceIDs: []int{2}, FieldID: 1000, Name: "part", Transform: iceberg.IdentityTransform{}})
		opts = append(opts, icecatalog.WithPartitionSpec(&spec))
	}
	tbl, err := cat.CreateTable(ctx, ident, Schema, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// Row is one generated row. Extra is nil for null, or where the column
// does not exist yet.
type Row struct {
	ID    int64
	Part  string
	V     float64
	S     string
	N     int64
	Extra *string
}

// Key is the row as one comparable string.
func (r Row) Key() string {
	extra := "<null>"
	if r.Extra != nil {
		extra = *r.Extra
	}
	return fmt.Sprintf("id=%d part=%s v=%g s=%s n=%d extra=%s", r.ID, r.Part, r.V, r.S, r.N, extra)
}

// Rows generates n rows with ids from first, spread over parts; with
// extra, each gets a value for the extra column.
func Rows(first, n int, parts []string, extra bool) []Row {
	rows := make([]Row, n)
	for i := range rows {
		id := first + i
		rows[i] = Row{ID: int64(id), Part: parts[id%len(parts)], V: float64(id) / 4, S: fmt.Sprintf("row-%d", id), N: int64(id % 1000)}
		if extra {
			e := fmt.Sprintf("x%d", id)
			rows[i].Extra = &e
		}
	}
	return rows
}

// Append commits rows to tbl in one append: one new data file per
// partition the rows touch.
func Append(t testing.TB, tbl *table.Table, rows []Row) *table.Table {
	t.Helper()
	rec := record(t, tbl.Schema(), len(rows), func(i int, f arrow.Field, fb array.Builder) {
		r := rows[i]
		switch f.Name {
		case "id":
			fb.(*array.Int64Builder).Append(r.ID)
		case "part":
			fb.(*array.StringBuilder).Append(r.Part)
		case "v":
			fb.(*array.Float64Builder).Append(r.V)
		case "s":
			fb.(*array.StringBuilder).Append(r.S)
		case "n":
			switch nb := fb.(type) {
			case *array.Int32Builder:
				nb.Append(int32(r.N))
			case *array.Int64Builder:
				nb.Append(r.N)
			}
		case "extra":
			if r.Extra == nil {
				fb.AppendNull()
			} else {
				fb.(*array.StringBuilder).Append(*r.Extra)
			}
		default:
			t.Fatalf("Append: unknown column %s", f.Name)
		}
	})
	defer rec.Release()
	rdr, err := array.NewRecordReader(rec.Schema(), []arrow.RecordBatch{rec})
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Release()
	tbl, err = tbl.Append(context.Background(), rdr, nil)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// record is one record batch of schema s (with its field ids) holding n
// rows: set appends row i's value of the column f to the column's builder.
func record(t testing.TB, s *iceberg.Schema, n int, set func(i int, f arrow.Field, fb array.Builder)) arrow.RecordBatch {
	t.Helper()
	sc, err := table.SchemaToArrowSchema(s, nil, true, false)
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	for i := range n {
		for j, f := range sc.Fields() {
			set(i, f, b.Field(j))
		}
	}
	return b.NewRecordBatch()
}

// Evolve adds the optional column extra and promotes n from int to long.
func Evolve(t testing.TB, tbl *table.Table) *table.Table {
	t.Helper()
	tx := tbl.NewTransaction()
	u := tx.UpdateSchema(true, false)
	u.AddColumn([]string{"extra"}, iceberg.PrimitiveTypes.String, "", false, nil)
	u.UpdateColumn([]string{"n"}, table.ColumnUpdate{FieldType: iceberg.Optional[iceberg.Type]{Val: iceberg.PrimitiveTypes.Int64, Valid: true}})
	if err := u.Commit(); err != nil {
		t.Fatal(err)
	}
	tbl, err := tx.Commit(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// Read scans tbl (current snapshot unless opts say otherwise) into rows.
func Read(t testing.TB, tbl *table.Table, opts ...table.ScanOption) []Row {
	t.Helper()
	at, err := tbl.Scan(opts...).ToArrowTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer at.Release()
	tr := array.NewTableReader(at, 1<<16)
	defer tr.Release()
	var out []Row
	for tr.Next() {
		rec := tr.RecordBatch()
		for r := 0; r < int(rec.NumRows()); r++ {
			var row Row
			for c := 0; c < int(rec.NumCols()); c++ {
				col := rec.Column(c)
				if col.IsNull(r) {
					continue
				}
				switch name := rec.ColumnName(c); name {
				case "id":
					row.ID = col.(*array.Int64).Value(r)
				case "part":
					row.Part = str(col, r)
				case "v":
					row.V = col.(*array.Float64).Value(r)
				case "s":
					row.S = str(col, r)
				case "n":
					switch a := col.(type) {
					case *array.Int32:
						row.N = int64(a.Value(r))
					case *array.Int64:
						row.N = a.Value(r)
					}
				case "extra":
					e := str(col, r)
					row.Extra = &e
				default:
					t.Fatalf("Read: unknown column %s", name)
				}
			}
			out = append(out, row)
		}
	}
	return out
}

func str(a arrow.Array, r int) string {
	switch s := a.(type) {
	case *array.String:
		return s.Value(r)
	case *array.LargeString:
		return s.Value(r)
	}
	panic(fmt.Sprintf("not a string column: %s", a.DataType()))
}

// Count is a multiset of rows by Key.
func Count(rows []Row) map[string]int {
	m := map[string]int{}
	for _, r := range rows {
		m[r.Key()]++
	}
	return m
}

// ByPartition is a multiset of rows per part value.
func ByPartition(rows []Row) map[string]map[string]int {
	m := map[string]map[string]int{}
	for _, r := range rows {
		if m[r.Part] == nil {
			m[r.Part] = map[string]int{}
		}
		m[r.Part][r.Key()]++
	}
	return m
}

// LiveDataFiles lists the data files of tbl's current snapshot, read
// directly from its manifests.
func LiveDataFiles(t testing.TB, tbl *table.Table) []iceberg.DataFile {
	t.Helper()
	return liveFiles(t, tbl, iceberg.ManifestContentData)
}

// liveFiles lists the files that the manifests of tbl's current snapshot
// holding content (data or deletes) list as live.
func liveFiles(t testing.TB, tbl *table.Table, content iceberg.ManifestContent) []iceberg.DataFile {
	t.Helper()
	snap := tbl.CurrentSnapshot()
	if snap == nil {
		return nil
	}
	fsys, err := tbl.FS(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ms, err := snap.Manifests(fsys)
	if err != nil {
		t.Fatal(err)
	}
	var out []iceberg.DataFile
	for _, m := range ms {
		if m.ManifestContent() != content {
			continue
		}
		for e, err := range m.Entries(fsys, true) {
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, e.DataFile())
		}
	}
	return out
}

// Referenced lists, as local paths, every file the table's metadata
// reaches: metadata files (current and logged), and of every snapshot the
// manifest list, the manifests and their data and delete files.
func Referenced(t testing.TB, tbl *table.Table) map[string]bool {
	t.Helper()
	fsys, err := tbl.FS(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{LocalPath(t, tbl.MetadataLocation()): true}
	for e := range tbl.Metadata().PreviousFiles() {
		out[LocalPath(t, e.MetadataFile)] = true
	}
	for _, s := range tbl.Metadata().Snapshots() {
		out[LocalPath(t, s.ManifestList)] = true
		ms, err := s.Manifests(fsys)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			out[LocalPath(t, m.FilePath())] = true
			for e, err := range m.Entries(fsys, false) {
				if err != nil {
					t.Fatal(err)
				}
				out[LocalPath(t, e.DataFile().FilePath())] = true
			}
		}
	}
	return out
}

// LocalPath turns a file:// location (or a path) into a clean local path.
func LocalPath(t testing.TB, loc string) string {
	t.Helper()
	if strings.HasPrefix(loc, "file:") {
		u, err := url.Parse(loc)
		if err != nil {
			t.Fatal(err)
		}
		loc = u.Path
	}
	return filepath.Clean(loc)
}

// Files lists the regular files under dir (recursively), sorted.
func Files(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			out = append(out, p)
		}
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// DiffCounts describes how got differs from want, "" when equal.
func DiffCounts(got, want map[string]int) string {
	var lines []string
	for k, w := range want {
		if g := got[k]; g != w {
			lines = append(lines, fmt.Sprintf("  %s: got %d, want %d", k, g, w))
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			lines = append(lines, fmt.Sprintf("  %s: got %d, want 0", k, g))
		}
	}
	slices.Sort(lines)
	if len(lines) > 10 {
		lines = append(lines[:10], fmt.Sprintf("  ... and %d more", len(lines)-10))
	}
	return strings.Join(lines, "\n")
}
