package localcatalog_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/catalog/catalogtest"
	"github.com/apache/iceberg-go/catalog/rest"
	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/catalog/localcatalog"
)

// startServer serves a fresh catalog directory on a loopback port.
func startServer(t *testing.T, dir string) *localcatalog.Server {
	t.Helper()
	srv, err := localcatalog.Listen("127.0.0.1:0", localcatalog.Options{Dir: dir})
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	return srv
}

// connect opens iceberg-go's REST client against url.
func connect(t *testing.T, url string, opts ...rest.Option) *rest.Catalog {
	t.Helper()
	cat, err := rest.NewCatalog(context.Background(), "test", url, opts...)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cat.Close() })
	return cat
}

func TestConformance(t *testing.T) {
	catalogtest.RunCatalogTests(t, catalogtest.Config{
		SupportsNamespaceProperties: true,
		NewCatalog: func(t *testing.T) catalog.Catalog {
			return connect(t, startServer(t, t.TempDir()).URL())
		},
	})
}

var rowSchema = iceberg.NewSchema(0,
	iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.PrimitiveTypes.Int64, Required: true},
	iceberg.NestedField{ID: 2, Name: "name", Type: iceberg.PrimitiveTypes.String},
)

var arrowRowSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
}, nil)

// rows builds an Arrow table of ids [from, to) named "<tag>-<id>".
func rows(t *testing.T, tag string, from, to int) arrow.Table {
	t.Helper()
	var sb strings.Builder
	sb.WriteString("[")
	for i := from; i < to; i++ {
		if i > from {
			sb.WriteString(",")
		}
		fmt.Fprintf(&sb, `{"id":%d,"name":"%s-%d"}`, i, tag, i)
	}
	sb.WriteString("]")
	tbl, err := array.TableFromJSON(memory.DefaultAllocator, arrowRowSchema, []string{sb.String()})
	require.NoError(t, err)
	t.Cleanup(tbl.Release)
	return tbl
}

// readNames scans tbl and returns the sorted "name" column.
func readNames(t *testing.T, tbl *table.Table) []string {
	t.Helper()
	at, err := tbl.Scan().ToArrowTable(context.Background())
	require.NoError(t, err)
	defer at.Release()
	var out []string
	idx := at.Schema().FieldIndices("name")
	require.Len(t, idx, 1)
	for _, chunk := range at.Column(idx[0]).Data().Chunks() {
		s := chunk.(*array.String)
		for i := range s.Len() {
			out = append(out, s.Value(i))
		}
	}
	slices.Sort(out)
	return out
}

func names(tag string, from, to int) []string {
	var out []string
	for i := from; i < to; i++ {
		out = append(out, fmt.Sprintf("%s-%d", tag, i))
	}
	slices.Sort(out)
	return out
}

func createTable(t *testing.T, cat catalog.Catalog, ident table.Identifier) *table.Table {
	t.Helper()
	ctx := context.Background()
	ns := ident[:len(ident)-1]
	if ok, err := cat.CheckNamespaceExists(ctx, ns); err == nil && !ok {
		require.NoError(t, cat.CreateNamespace(ctx, ns, nil))
	}
	tbl, err := cat.CreateTable(ctx, ident, rowSchema)
	require.NoError(t, err)
	return tbl
}

func appendRows(t *testing.T, tbl *table.Table, data arrow.Table) *table.Table {
	t.Helper()
	tx := tbl.NewTransaction()
	require.NoError(t, tx.AppendTable(context.Background(), data, 1000, nil))
	out, err := tx.Commit(context.Background())
	require.NoError(t, err)
	return out
}

func TestAppendAndScan(t *testing.T) {
	ctx := context.Background()
	srv := startServer(t, t.TempDir())
	cat := connect(t, srv.URL())
	ident := table.Identifier{"db", "events"}
	tbl := createTable(t, cat, ident)
	require.True(t, strings.HasPrefix(tbl.Location(), srv.Warehouse()+"/db.db/events"), tbl.Location())

	tbl = appendRows(t, tbl, rows(t, "a", 0, 10))
	tbl = appendRows(t, tbl, rows(t, "b", 10, 15))

	// A second client sees both snapshots and all rows.
	other := connect(t, srv.URL())
	loaded, err := other.LoadTable(ctx, ident)
	require.NoError(t, err)
	require.Len(t, loaded.Metadata().Snapshots(), 2)
	require.Equal(t, tbl.MetadataLocation(), loaded.MetadataLocation())
	require.Equal(t, append(names("a", 0, 10), names("b", 10, 15)...), readNames(t, loaded))
}

func TestOptions(t *testing.T) {
	_, err := localcatalog.Listen("127.0.0.1:0", localcatalog.Options{})
	require.ErrorContains(t, err, "Dir is empty")
	_, err = localcatalog.Listen("127.0.0.1:0", localcatalog.Options{Dir: t.TempDir(), Warehouse: "nosuch://bucket/wh"})
	require.ErrorContains(t, err, `no storage is registered for nosuch://`)

	// A relative warehouse path is taken from the working directory; a
	// file:// URI is kept.
	wh := t.TempDir()
	t.Chdir(wh)
	srv, err := localcatalog.Listen("127.0.0.1:0", localcatalog.Options{Dir: t.TempDir(), Warehouse: "rel"})
	require.NoError(t, err)
	require.Equal(t, "file://"+wh+"/rel", srv.Warehouse())
	require.NoError(t, srv.Close())
	require.NoError(t, srv.Close(), "Close twice")
	srv, err = localcatalog.Listen("127.0.0.1:0", localcatalog.Options{Dir: t.TempDir(), Warehouse: "file:///x/y/"})
	require.NoError(t, err)
	require.Equal(t, "file:///x/y", srv.Warehouse())
	require.NoError(t, srv.Close())
}
