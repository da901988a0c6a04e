// Command smallfiles makes a table as a long clicks stream leaves it: many
// small data files, appended a few at a time. Benchmarks compact it with our
// maintenance pipeline and with Spark's rewrite_data_files (see
// interop/bench-compact.sh).
//
//	smallfiles --catalog_uri=http://127.0.0.1:8181 --table=bench.clicks --files=1000 --rows_per_file=10000
//
// Row seq s holds user_id "user-"+s%10 and click_count s%100, as the clicks
// pipeline's rows do; seqs run from 0 to files*rows_per_file-1.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/internal/launch"
)

func main() {
	var cfg catalog.Config
	cfg.RegisterFlags(flag.CommandLine)
	name := flag.String("table", "bench.clicks", "table to create, namespace.table (replaced if it exists)")
	files := flag.Int("files", 1000, "data files")
	rowsPerFile := flag.Int("rows_per_file", 10_000, "rows per data file")
	perCommit := flag.Int("files_per_commit", 10, "data files per append")
	flag.Parse()
	if *files <= 0 || *rowsPerFile <= 0 || *perCommit <= 0 {
		log.Fatal("smallfiles: --files, --rows_per_file and --files_per_commit must be positive")
	}
	if err := run(context.Background(), cfg, *name, *files, *rowsPerFile, *perCommit); err != nil {
		log.Fatalf("smallfiles: %v", err)
	}
}

var schema = iceberg.NewSchema(0,
	iceberg.NestedField{ID: 1, Name: "seq", Type: iceberg.PrimitiveTypes.Int64, Required: true},
	iceberg.NestedField{ID: 2, Name: "user_id", Type: iceberg.PrimitiveTypes.String, Required: true},
	iceberg.NestedField{ID: 3, Name: "click_count", Type: iceberg.PrimitiveTypes.Int64, Required: true},
)

func run(ctx context.Context, cfg catalog.Config, name string, files, rowsPerFile, perCommit int) error {
	cfg, stop, err := launch.Catalog(ctx, cfg)
	if err != nil {
		return err
	}
	defer stop()
	cat, err := catalog.Open(ctx, cfg)
	if err != nil {
		return err
	}
	ns, tblName, ok := strings.Cut(name, ".")
	if !ok {
		return fmt.Errorf("--table %q: want namespace.table", name)
	}
	ident := table.Identifier{ns, tblName}
	if err := cat.CreateNamespace(ctx, table.Identifier{ns}, nil); err != nil && !errors.Is(err, icecatalog.ErrNamespaceAlreadyExists) {
		return err
	}
	if err := cat.DropTable(ctx, ident); err != nil && !errors.Is(err, icecatalog.ErrNoSuchTable) {
		return err
	}
	tbl, err := cat.CreateTable(ctx, ident, schema)
	if err != nil {
		return err
	}
	arrowSchema, err := table.SchemaToArrowSchema(schema, nil, false, false)
	if err != nil {
		return err
	}
	for first := 0; first < files; first += perCommit {
		var dfs []iceberg.DataFile
		for f := first; f < min(first+perCommit, files); f++ {
			rec := clicks(arrowSchema, int64(f*rowsPerFile), rowsPerFile)
			for df, err := range table.WriteRecords(ctx, tbl, arrowSchema, func(yield func(arrow.RecordBatch, error) bool) { yield(rec, nil) }) {
				if err != nil {
					return err
				}
				dfs = append(dfs, df)
			}
		}
		tx := tbl.NewTransaction()
		if err := tx.AddDataFiles(ctx, dfs, nil, table.WithoutDuplicateCheck()); err != nil {
			return err
		}
		if tbl, err = tx.Commit(ctx); err != nil {
			return err
		}
	}
	log.Printf("smallfiles: %s: %d files of %d rows in %d appends", name, files, rowsPerFile, (files+perCommit-1)/perCommit)
	return nil
}

// clicks is rows seq from..from+n-1.
func clicks(sc *arrow.Schema, from int64, n int) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	seq, user, count := b.Field(0).(*array.Int64Builder), b.Field(1).(*array.StringBuilder), b.Field(2).(*array.Int64Builder)
	for s := from; s < from+int64(n); s++ {
		seq.Append(s)
		user.Append(fmt.Sprintf("user-%d", s%10))
		count.Append(s % 100)
	}
	return b.NewRecordBatch()
}
