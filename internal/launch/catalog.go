package launch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/catalog/localcatalog"
)

// Catalog prepares cfg for a run, in the process that launches it (a
// pipeline main, `icebeam`): it is here and not in package catalog because
// workers import catalog and must not link a REST server and SQLite. A
// Config that names a catalog comes back resolved (catalog.Resolve).
// Without one, Catalog starts the embedded local catalog in cfg.LocalDir
// (default catalog.DefaultLocalDir) on a loopback port and returns a Config
// pointing at it; stop shuts the server down once the pipeline is done.
// Workers must receive the returned Config, not the original.
func Catalog(ctx context.Context, cfg catalog.Config) (resolved catalog.Config, stop func() error, err error) {
	cfg, err = catalog.Resolve(cfg)
	if err != nil || !cfg.Embedded() {
		return cfg, func() error { return nil }, err
	}
	dir := cfg.LocalDir
	if dir == "" {
		dir = catalog.DefaultLocalDir
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return cfg, nil, fmt.Errorf("catalog: local catalog directory %q: %w", dir, err)
	}
	// The server runs in this process and writes metadata through the same
	// gs:// factory: give it this run's storage settings (--gcs_endpoint).
	catalog.UseStorageOf(cfg)
	srv, err := localcatalog.Listen("127.0.0.1:0", localcatalog.Options{Dir: abs, Warehouse: cfg.Warehouse})
	if err != nil {
		return cfg, nil, fmt.Errorf("catalog: starting the embedded local catalog in %s: %w", abs, err)
	}
	cfg.URI = srv.URL()
	cfg.LocalDir = abs
	cfg.Warehouse = ""
	return cfg, srv.Close, nil
}

// Where names the catalog a job wrote to, for its summary: cfg as Catalog
// resolved it, flags as given.
func Where(cfg, flags catalog.Config) string {
	if flags.URI == "" && cfg.LocalDir != "" {
		// The embedded catalog's address died with the job.
		return "the local catalog in " + cfg.LocalDir
	}
	return fmt.Sprintf("catalog %s at %s", cfg.Name, cfg.URI)
}

// LookCommand is the icebeam command that shows table (verb: snapshots,
// scan, describe) in the catalog the flags name, as a job's summary prints
// it.
func LookCommand(verb, table string, flags catalog.Config) string {
	look := "go run ./cmd/icebeam " + verb + " " + table
	switch {
	case flags.URI != "":
		look += " --catalog_uri=" + flags.URI
	case flags.LocalDir != catalog.DefaultLocalDir:
		look += " --local_dir=" + flags.LocalDir
	}
	return look
}

// OpenCatalog opens the existing catalog the flags name, for a process
// that works on its tables (maintenance, reading): Catalog, then
// catalog.Open on what it resolved. It never creates an empty lakehouse
// where none was. stop shuts an embedded catalog down.
func OpenCatalog(ctx context.Context, flags catalog.Config) (cfg catalog.Config, cat icecatalog.Catalog, stop func() error, err error) {
	if flags.Embedded() {
		db := filepath.Join(flags.LocalDir, localcatalog.DBFile)
		if _, err := os.Stat(db); err != nil {
			return flags, nil, nil, fmt.Errorf("no local catalog at %s (pass --local_dir of a pipeline's lakehouse, or --catalog_uri)", db)
		}
	}
	cfg, stop, err = Catalog(ctx, flags)
	if err != nil {
		return cfg, nil, nil, err
	}
	if cat, err = catalog.Open(ctx, cfg); err != nil {
		stop()
		return cfg, nil, nil, err
	}
	return cfg, cat, stop, nil
}
