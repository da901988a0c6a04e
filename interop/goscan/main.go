// Command goscan is the interop suite's iceberg-go reader: it loads one table
// through the same catalog code the pipelines use and prints its schema and
// rows as JSON lines, so the Python checks can compare what iceberg-go reads
// with what Spark and pyiceberg read, value for value.
//
//	goscan --catalog_uri=http://127.0.0.1:8181 --table=spark_nyc_taxi.yellow_trips_analyzed
//
// The first line is {"schema": [{"name", "type", "required"}...]}; each
// further line is one row keyed by column name.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/catalog/inspect"
)

type field struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	Required bool   `json:"required"`
}

func main() {
	var cfg catalog.Config
	cfg.RegisterFlags(flag.CommandLine)
	name := flag.String("table", "", "table to scan, as namespace.table")
	flag.Parse()
	if err := run(context.Background(), cfg, *name); err != nil {
		log.Fatalf("goscan: %v", err)
	}
}

func run(ctx context.Context, cfg catalog.Config, name string) error {
	ns, tbl, ok := strings.Cut(name, ".")
	if !ok || cfg.URI == "" {
		return fmt.Errorf("need --catalog_uri and --table=namespace.table (got uri %q, table %q)", cfg.URI, name)
	}
	cat, err := catalog.Open(ctx, cfg)
	if err != nil {
		return err
	}
	t, err := cat.LoadTable(ctx, table.Identifier{ns, tbl})
	if err != nil {
		return fmt.Errorf("loading %s from %s: %w", name, cfg.URI, err)
	}
	var schema []field
	for _, f := range t.Schema().Fields() {
		schema = append(schema, field{Name: f.Name, Type: f.Type.String(), Required: f.Required})
	}
	if err := json.NewEncoder(os.Stdout).Encode(map[string]any{"schema": schema}); err != nil {
		return err
	}
	rows, err := inspect.Read(ctx, t)
	if err != nil {
		return err
	}
	return rows.Write(os.Stdout, inspect.JSON)
}
