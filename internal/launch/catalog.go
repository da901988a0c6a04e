package launch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

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
// pointing at it; stop shuts the server down once the pipeline is done,
// and ends the ICEBEAM_CPUPROFILE profile. Workers must receive the
// returned Config, not the original.
func Catalog(ctx context.Context, cfg catalog.Config) (resolved catalog.Config, stop func() error, err error) {
	cfg, err = catalog.Resolve(cfg)
	if err != nil || !cfg.Embedded() {
		return cfg, func() error { stopCPUProfile(); return nil }, err
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
	return cfg, func() error { stopCPUProfile(); return srv.Close() }, nil
}

// CheckedCatalog is Catalog for a pipeline that writes: when the launch
// waits for the job (Waits), it also opens the catalog before any work, so
// that one that does not answer or refuses the credentials fails the launch
// rather than the job's first commit. A launch that runs nothing (a dry
// run, a template) contacts no catalog.
func CheckedCatalog(ctx context.Context, flags catalog.Config) (cfg catalog.Config, stop func() error, err error) {
	cfg, stop, err = Catalog(ctx, flags)
	if err != nil || !Waits() {
		return cfg, stop, err
	}
	if _, err := catalog.Open(ctx, cfg); err != nil {
		stop()
		return cfg, nil, err
	}
	return cfg, stop, nil
}

// Begin is a pipeline main's steps between Start and building its
// pipeline: the job's own checks (its flags, its sink's configuration),
// then the catalog flags, each refusal one line naming the pipeline; then
// the catalog, as CheckedCatalog opens it. A failure ends the process; the
// caller defers stop.
func Begin(ctx context.Context, name string, flags catalog.Config, checks ...func() error) (cfg catalog.Config, stop func() error) {
	for _, check := range checks {
		if err := check(); err != nil {
			Fatalf("%s: %v", name, err)
		}
	}
	if err := CheckCatalog(flags); err != nil {
		Fatalf("%s: %v", name, err)
	}
	cfg, stop, err := CheckedCatalog(ctx, flags)
	if err != nil {
		Fatalf("%s: %v", name, err)
	}
	return cfg, stop
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
	return strings.Join(append([]string{"go run ./cmd/icebeam", verb, table}, CatalogFlags(flags)...), " ")
}

// CatalogFlags are the icebeam flags that reach the catalog flags name
// again, for commands printed for people to run: every setting the user
// gave, secrets only as the env: or file: references they were given as
// (a literal secret is left out, and the command then asks for it).
func CatalogFlags(flags catalog.Config) []string {
	var f []string
	switch {
	case flags.URI != "":
		f = append(f, "--catalog_uri="+flags.URI)
	case flags.LocalDir != catalog.DefaultLocalDir:
		f = append(f, "--local_dir="+flags.LocalDir)
	}
	add := func(name, v string) {
		if v != "" {
			f = append(f, "--"+name+"="+v)
		}
	}
	add("catalog", flags.Preset)
	if flags.Name != catalog.DefaultName {
		add("catalog_name", flags.Name)
	}
	add("project", flags.Project)
	add("ref", flags.Ref)
	if flags.URI != "" {
		add("warehouse", flags.Warehouse)
	}
	add("auth", flags.Auth)
	if flags.Credential.IsReference() {
		add("credential", string(flags.Credential))
	}
	if flags.Token.IsReference() {
		add("token", string(flags.Token))
	}
	add("oauth2_server_uri", flags.OAuth2ServerURI)
	add("scope", flags.Scope)
	add("gcs_endpoint", flags.GCSEndpoint)
	return f
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
