// Package tabletest makes Iceberg tables for tests the way other engines
// make them, without the code under test: an embedded catalog, and tables
// whose data files are existing Parquet files (Spark's and pyiceberg's
// add_files).
package tabletest

import (
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/internal/launch"
)

// Catalog starts the embedded REST catalog in a temporary directory and
// opens it.
func Catalog(t testing.TB) (catalog.Config, icecatalog.Catalog) {
	t.Helper()
	ctx := context.Background()
	cfg, stop, err := launch.Catalog(ctx, catalog.Config{LocalDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = stop() })
	cat, err := catalog.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return cfg, cat
}

// AddFiles creates table name (namespace.table, the namespace too when
// missing) with the schema of the Parquet file paths[0] and adds the files
// at paths as its data files. Nanosecond times (INT96) need format
// version 3, which the table then gets.
func AddFiles(t testing.TB, cat icecatalog.Catalog, name string, paths ...string) *table.Table {
	t.Helper()
	ctx := context.Background()
	pf, err := file.OpenParquetFile(paths[0], false)
	if err != nil {
		t.Fatal(err)
	}
	asc, err := pqarrow.FromParquet(pf.MetaData().Schema, &pqarrow.ArrowReadProperties{}, pf.MetaData().KeyValueMetadata())
	pf.Close()
	if err != nil {
		t.Fatal(err)
	}
	sc, err := table.ArrowSchemaToIcebergWithFreshIDs(asc, false)
	if err != nil {
		t.Fatal(err)
	}
	props := iceberg.Properties{}
	for _, f := range sc.Fields() {
		if f.Type.Equals(iceberg.PrimitiveTypes.TimestampTzNs) || f.Type.Equals(iceberg.PrimitiveTypes.TimestampNs) {
			props["format-version"] = "3"
		}
	}
	ident, err := catalog.ParseTable(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := cat.CreateNamespace(ctx, ident[:1], nil); err != nil && !strings.Contains(err.Error(), "exists") {
		t.Fatal(err)
	}
	tbl, err := cat.CreateTable(ctx, ident, sc, icecatalog.WithProperties(props))
	if err != nil {
		t.Fatal(err)
	}
	tx := tbl.NewTransaction()
	if err := tx.AddFiles(ctx, paths, nil, false); err != nil {
		t.Fatal(err)
	}
	if tbl, err = tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	return tbl
}
