package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/catalog/localcatalog"
)

// runServe serves the local catalog until ctx is cancelled (SIGINT/SIGTERM).
// Flags keep the pipelines' names (--local_dir, --warehouse) so one
// directory means the same lakehouse to both.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("serve", stderr)
	addr := fs.String("addr", "127.0.0.1:8181", "address to listen on (host:port; port 0 picks a free one)")
	dir := fs.String("local_dir", catalog.DefaultLocalDir, "state directory: catalog.db and, by default, the warehouse")
	warehouse := fs.String("warehouse", "", "warehouse directory or URI for new tables (default <local_dir>/warehouse)")
	var allow multiFlag
	fs.Var(&allow, "allow_location", "a location (path or URI) besides the warehouse where clients may place tables,\n"+
		"views and metadata, and so where the server may write and delete files (repeatable)")
	verbose := fs.Bool("v", false, "log one line per request (never headers)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "icebeam serve: unexpected arguments %q\n", fs.Args())
		fs.Usage()
		return errUsage
	}
	if *verbose {
		slog.SetDefault(slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelDebug})))
	}
	srv, err := localcatalog.Listen(*addr, localcatalog.Options{Dir: *dir, Warehouse: *warehouse, AllowLocations: allow})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "icebeam: serving the Iceberg REST catalog at %s\n", srv.URL())
	fmt.Fprintf(stdout, "icebeam: warehouse %s\n", srv.Warehouse())
	<-ctx.Done()
	fmt.Fprintln(stdout, "icebeam: shutting down")
	return srv.Close()
}

// multiFlag is a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }
