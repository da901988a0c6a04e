// Package catalog connects icebeam to Iceberg catalogs: one vocabulary of
// flags shared by every pipeline and by the icebeam command, opening a REST
// catalog from those flags, and starting the embedded local catalog when no
// catalog URI is given so that local runs take the same REST code path as
// production. Authentication, request headers, retries and storage IO live
// here too, so a worker that opens a catalog gets all of them at once.
package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/catalog/rest"
	"github.com/apache/iceberg-go/table"
)

// DefaultName is the catalog name used when --catalog_name is not set; it
// matches the seed tutorial's OUTPUT_CATALOG_NAME.
const DefaultName = "lakehouse"

// DefaultLocalDir is where the embedded local catalog keeps its state when
// --local_dir is not set.
const DefaultLocalDir = "lakehouse"

// Config says which catalog to use and how to reach it. It travels inside
// DoFns as JSON, so every field is plain data, and each worker builds its own
// token sources and clients from it. Secrets are Secret values: see Secret
// for how they reach workers and why references are preferred.
type Config struct {
	// URI is the Iceberg REST endpoint. Empty means: start the embedded
	// local catalog (see Launch), unless Preset supplies one.
	URI string `json:"uri,omitempty"`
	// Name is the catalog's name, as engines such as Spark address it.
	Name string `json:"name,omitempty"`
	// Warehouse is passed to the catalog's /v1/config call. For the
	// embedded catalog it is the table root (default LocalDir/warehouse).
	Warehouse string `json:"warehouse,omitempty"`
	// LocalDir holds the embedded catalog's SQLite database and, unless
	// Warehouse says otherwise, its file warehouse.
	LocalDir string `json:"local_dir,omitempty"`

	// Preset is PresetBigLake, PresetNessie or PresetREST (the default).
	Preset string `json:"catalog,omitempty"`
	// Project is the Google Cloud project of the BigLake preset.
	Project string `json:"project,omitempty"`
	// Ref is the Nessie branch or tag of the Nessie preset.
	Ref string `json:"ref,omitempty"`

	// Auth is AuthNone, AuthGoogle, AuthOAuth2 or AuthBearer. Empty picks
	// oauth2 when Credential is set, bearer when Token is set, google for
	// BigLake and none otherwise.
	Auth string `json:"auth,omitempty"`
	// Credential is the OAuth2 client credential, CLIENT_ID:SECRET.
	Credential Secret `json:"credential,omitempty"`
	// OAuth2ServerURI is the token endpoint; default URI + /v1/oauth/tokens.
	OAuth2ServerURI string `json:"oauth2_server_uri,omitempty"`
	// Scope is the OAuth2 scope: default "catalog" for oauth2 and
	// GoogleScope for google.
	Scope string `json:"scope,omitempty"`
	// Token is the static bearer token.
	Token Secret `json:"token,omitempty"`
	// Headers are sent with every catalog request. They are printed like
	// any flag: no secrets here.
	Headers map[string]string `json:"headers,omitempty"`
	// GCSEndpoint overrides the Cloud Storage endpoint, for emulators such
	// as fake-gcs-server (e.g. http://127.0.0.1:4443/storage/v1/).
	GCSEndpoint string `json:"gcs_endpoint,omitempty"`

	// projectFlag is Beam's --project flag when it was defined first: both
	// mean the same project, and a flag set panics on a second definition.
	projectFlag *flag.Flag
}

// RegisterFlags defines the catalog flags on fs, writing into c. Every binary
// calls it once (pipelines with flag.CommandLine) so the vocabulary is the same
// everywhere.
func (c *Config) RegisterFlags(fs *flag.FlagSet) {
	fs.StringVar(&c.URI, "catalog_uri", c.URI, "Iceberg REST catalog URI; empty starts the embedded local catalog (unless --catalog=biglake)")
	fs.StringVar(&c.Name, "catalog_name", orDefault(c.Name, DefaultName), "Iceberg catalog name")
	fs.StringVar(&c.Warehouse, "warehouse", c.Warehouse, "warehouse location passed to the catalog (embedded default: <local_dir>/warehouse)")
	fs.StringVar(&c.LocalDir, "local_dir", orDefault(c.LocalDir, DefaultLocalDir), "state directory of the embedded local catalog")
	fs.StringVar(&c.Preset, "catalog", c.Preset, "catalog preset: biglake (needs --project; sets URI, warehouse bl://projects/P/catalogs/<catalog_name>, x-goog-user-project, --auth=google), nessie (--catalog_uri=http://HOST:19120/iceberg, --ref=BRANCH) or rest")
	if f := fs.Lookup("project"); f != nil {
		c.projectFlag = f // Beam's gcpopts defines --project already
	} else {
		fs.StringVar(&c.Project, "project", c.Project, "Google Cloud project (BigLake preset)")
	}
	fs.StringVar(&c.Ref, "ref", c.Ref, "Nessie branch or tag (--catalog=nessie)")
	fs.StringVar(&c.Auth, "auth", c.Auth, "catalog authentication: none, google (Application Default Credentials), oauth2 (--credential) or bearer (--token, never refreshed); default from the other flags")
	fs.Var(&c.Credential, "credential", "OAuth2 client credential CLIENT_ID:SECRET for --auth=oauth2; env:VAR or file:PATH keep it out of the job description")
	fs.StringVar(&c.OAuth2ServerURI, "oauth2_server_uri", c.OAuth2ServerURI, "OAuth2 token endpoint for --auth=oauth2 (default <catalog_uri>/v1/oauth/tokens)")
	fs.StringVar(&c.Scope, "scope", c.Scope, "OAuth2 scope (default catalog for oauth2, cloud-platform for google)")
	fs.Var(&c.Token, "token", "static bearer token for --auth=bearer; env:VAR or file:PATH keep it out of the job description")
	fs.Var(headerFlag{&c.Headers}, "header", "NAME=VALUE header sent with every catalog request (repeatable; not for secrets)")
	fs.StringVar(&c.GCSEndpoint, "gcs_endpoint", c.GCSEndpoint, "Cloud Storage endpoint override for emulators, e.g. http://127.0.0.1:4443/storage/v1/")
}

// LogValue prints a Config with its secrets redacted, for slog; fmt does the
// same through Secret's String and GoString.
func (c Config) LogValue() slog.Value {
	attrs := []slog.Attr{slog.String("uri", c.URI), slog.String("name", c.Name)}
	add := func(k, v string) {
		if v != "" {
			attrs = append(attrs, slog.String(k, v))
		}
	}
	add("warehouse", c.Warehouse)
	add("local_dir", c.LocalDir)
	add("catalog", c.Preset)
	add("project", c.project())
	add("ref", c.Ref)
	add("auth", c.Auth)
	add("credential", c.Credential.String())
	add("oauth2_server_uri", c.OAuth2ServerURI)
	add("scope", c.Scope)
	add("token", c.Token.String())
	add("header", headerFlag{&c.Headers}.String())
	add("gcs_endpoint", c.GCSEndpoint)
	return slog.GroupValue(attrs...)
}

// cacheKey identifies c within this process. It holds secrets: never print it.
func (c Config) cacheKey() string {
	c.Project = c.project()
	b, _ := json.Marshal(c)
	return string(b)
}

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// Resolve fills in what a run's workers need and cannot look up
// themselves (the catalog name's default, --project when it is Beam's flag)
// and checks that the flags fit together. A Config that names no catalog
// (Embedded) is returned for launch.Catalog, which starts one.
func Resolve(cfg Config) (Config, error) {
	if cfg.Name == "" {
		cfg.Name = DefaultName
	}
	// Workers get the Config as JSON, without the flag it may come from.
	cfg.Project = cfg.project()
	if cfg.Embedded() {
		return cfg, nil
	}
	_, err := cfg.resolve()
	return cfg, err
}

// opened holds the catalogs Open connected to, by Config.
var opened processCache[icecatalog.Catalog]

// processCache holds what this process made for a key, for as long as it
// runs: what every DoFn instance on a worker asks for again.
type processCache[V any] struct {
	mu sync.Mutex
	m  map[string]V
}

// get returns the value for key, made by build on the first call for key
// that it succeeds in. build runs under the cache's lock: a key's value is
// made once.
func (c *processCache[V]) get(key string, build func() (V, error)) (V, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.m[key]; ok {
		return v, nil
	}
	v, err := build()
	if err != nil {
		return v, err
	}
	if c.m == nil {
		c.m = map[string]V{}
	}
	c.m[key] = v
	return v, nil
}

// Open connects to the REST catalog cfg names, through a transport that
// authenticates every request with renewed tokens, adds the --header values
// and retries as transport describes. Connections are cached per Config for
// the life of the process, because every DoFn instance on a worker opens the
// same catalog and /v1/config should be asked once, not per bundle. Tables
// loaded from it read and write gs:// files with cfg's storage credentials
// (see StorageClientOptions).
func Open(ctx context.Context, cfg Config) (icecatalog.Catalog, error) {
	if cfg.Embedded() {
		return nil, errors.New("catalog: no catalog URI (call launch.Catalog before Open to start the embedded catalog)")
	}
	ep, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	return opened.get(cfg.cacheKey(), func() (icecatalog.Catalog, error) {
		tokens, err := sharedTokenSource(cfg, ep)
		if err != nil {
			return nil, err
		}
		opts := []rest.Option{
			rest.WithCustomTransport(newTransport(nil, ep.headers, tokens)),
			rest.WithAdditionalProps(iceberg.Properties{storageConfigProp: registerStorageConfig(cfg)}),
		}
		if ep.warehouse != "" {
			opts = append(opts, rest.WithWarehouseLocation(ep.warehouse))
		}
		c, err := rest.NewCatalog(ctx, orDefault(cfg.Name, DefaultName), ep.uri, opts...)
		if err != nil {
			return nil, fmt.Errorf("catalog: connecting to %s: %w", ep.uri, err)
		}
		return c, nil
	})
}

// ParseTable splits "namespace.table" into an identifier; the last dot
// separates the table from a (possibly nested, dotted) namespace.
func ParseTable(name string) (table.Identifier, error) {
	if !utf8.ValidString(name) {
		// A table name is a shuffle key of the sink's rows, and Java runners
		// decode keys as UTF-8.
		return nil, fmt.Errorf("table name %q is not valid UTF-8", name)
	}
	parts := strings.Split(name, ".")
	if len(parts) < 2 {
		return nil, fmt.Errorf("table name %q: want namespace.table", name)
	}
	for _, p := range parts {
		if p == "" {
			return nil, fmt.Errorf("table name %q: want namespace.table, without empty name parts", name)
		}
	}
	return parts, nil
}
