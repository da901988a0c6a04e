package launch

import (
	"context"
	"fmt"
	"path/filepath"

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
