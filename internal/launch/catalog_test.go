package launch

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
	"github.com/fsouza/fake-gcs-server/fakestorage"
	"github.com/icebeam/icebeam/catalog"
)

// TestEmbeddedCatalog: Catalog without a URI starts the local catalog; local
// file tables keep working, and a gs:// warehouse goes through --gcs_endpoint
// for the server's metadata writes and the client's data files alike.
func TestEmbeddedCatalog(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct{ name, warehouse string }{{"file", ""}, {"gcs", "gs://embedded-bucket/wh"}} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := catalog.Config{LocalDir: t.TempDir(), Warehouse: tc.warehouse}
			if tc.warehouse != "" {
				srv, err := fakestorage.NewServerWithOptions(fakestorage.Options{Scheme: "http", Host: "127.0.0.1", Writer: io.Discard})
				if err != nil {
					t.Fatal(err)
				}
				defer srv.Stop()
				srv.CreateBucketWithOpts(fakestorage.CreateBucketOpts{Name: "embedded-bucket"})
				cfg.GCSEndpoint = srv.URL() + "/storage/v1/"
				t.Cleanup(func() { catalog.UseStorageOf(catalog.Config{}) })
			}
			resolved, stop, err := Catalog(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer stop()
			cat, err := catalog.Open(ctx, resolved)
			if err != nil {
				t.Fatal(err)
			}
			if err := cat.CreateNamespace(ctx, table.Identifier{"ns"}, nil); err != nil {
				t.Fatal(err)
			}
			tbl, err := cat.CreateTable(ctx, table.Identifier{"ns", "t"}, iceberg.NewSchema(0,
				iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.PrimitiveTypes.Int64},
				iceberg.NestedField{ID: 2, Name: "name", Type: iceberg.PrimitiveTypes.String}))
			if err != nil {
				t.Fatal(err)
			}
			wantPrefix := "file://" + resolved.LocalDir
			if tc.warehouse != "" {
				wantPrefix = tc.warehouse
			}
			if !strings.HasPrefix(tbl.Location(), wantPrefix) {
				t.Errorf("table location %s, want under %s", tbl.Location(), wantPrefix)
			}
			sc := arrow.NewSchema([]arrow.Field{
				{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
				{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
			}, nil)
			b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
			b.Field(0).(*array.Int64Builder).AppendValues([]int64{7, 35}, nil)
			b.Field(1).(*array.StringBuilder).AppendValues([]string{"a", "b"}, nil)
			rec := b.NewRecordBatch()
			at := array.NewTableFromRecords(sc, []arrow.RecordBatch{rec})
			if _, err := tbl.AppendTable(ctx, at, 10, nil); err != nil {
				t.Fatal(err)
			}
			back, err := cat.LoadTable(ctx, table.Identifier{"ns", "t"})
			if err != nil {
				t.Fatal(err)
			}
			got, err := back.Scan().ToArrowTable(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer got.Release()
			ids := got.Column(0).Data().Chunk(0).(*array.Int64)
			if got.NumRows() != 2 || ids.Value(0)+ids.Value(1) != 42 {
				t.Errorf("read back %d rows", got.NumRows())
			}
		})
	}
}
