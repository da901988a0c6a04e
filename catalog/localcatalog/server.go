// Package localcatalog is icebeam's embedded Iceberg REST catalog server:
// the REST spec served over HTTP, with a SQLite catalog database and a file
// warehouse in one local directory, so local runs and other engines (Spark,
// pyiceberg, DuckDB) share tables without any cloud service. It can require
// bearer tokens (a static one, or OAuth2 client-credentials tokens it
// issues itself) and serve HTTPS (see Options), and refuses what a web page
// in the user's browser could send it (see Guard).
package localcatalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/apache/iceberg-go"
	sqlcat "github.com/apache/iceberg-go/catalog/sql"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/uptrace/bun/driver/sqliteshim"
	"golang.org/x/sync/semaphore"
)

// Options configure a Server.
type Options struct {
	// Dir holds the SQLite database (catalog.db) and, by default, the warehouse.
	Dir string
	// Warehouse is the root location for new tables; default file://<Dir>/warehouse.
	// A plain path is taken relative to the working directory.
	Warehouse string
	// AllowLocations are the locations (paths or URIs), besides the
	// warehouse, under which the server may write or delete files: a table,
	// view, namespace or metadata location a request names, or a warehouse
	// a client asks for, must lie under one of them or the warehouse.
	AllowLocations []string

	// Token, if set, is a static bearer token: requests carrying
	// "Authorization: Bearer <Token>" are admitted (compared in constant
	// time). With Token or Clients set, every other request is answered
	// 401 NotAuthorizedException; with neither, the server is open.
	Token string
	// Clients, if set, are OAuth2 clients, client id to secret: the server
	// then serves the REST spec's client-credentials token endpoint, POST
	// /v1/oauth/tokens (TokenPath), whose tokens admit requests. Clients
	// send their id and secret in the form body or by HTTP Basic, as
	// Iceberg's --credential=ID:SECRET and icebeam's --auth=oauth2 do.
	// Issued tokens live in memory only, so a restart revokes them.
	Clients map[string]string
	// TokenTTL is the lifetime of tokens issued to Clients; default
	// DefaultTokenTTL (1h).
	TokenTTL time.Duration

	// TLSCert and TLSKey are PEM files of the server's certificate (chain)
	// and private key. With both set, Listen serves HTTPS; one without the
	// other is an error.
	TLSCert string
	TLSKey  string

	// AllowedHosts are host names requests may address the server by (in
	// their Host header, port ignored) besides those always allowed: every
	// IP address, localhost and *.localhost, the host Listen's address
	// names, and, listening on every interface, this machine's host name.
	// A request to any other name is refused 403: it is how a web page
	// whose DNS name its owner pointed at this machine (DNS rebinding)
	// reaches the server. ".example.com" or "*.example.com" allows
	// example.com and every name under it, "*" any name.
	AllowedHosts []string
	// AllowedOrigins are the origins (scheme://host[:port], as browsers
	// send them in Origin) whose web pages may change the catalog besides
	// the server's own, e.g. a web UI whose reverse proxy rewrites the Host
	// or terminates TLS; "*" allows any. Every other change (any method but
	// GET, HEAD and OPTIONS) that carries an Origin, or Sec-Fetch-Site
	// cross-site or same-site, is refused 403, since any page the user
	// opens can send one. Requests without Origin (Iceberg clients, curl)
	// are not from pages and are admitted. The server answers no CORS
	// preflights, so pages of other origins still cannot send it JSON.
	AllowedOrigins []string
	// Site, when set, wraps the catalog's handler in Listen, so that the
	// server also answers requests of its own (icebeam serve's web UI)
	// and passes the others on; url is the server's base URL. Its requests
	// pass the same guard and authentication as the catalog's.
	Site func(catalog http.Handler, url string) (http.Handler, error)
}

// DBFile is the name of the SQLite database inside Options.Dir.
const DBFile = "catalog.db"

// catalogName partitions the rows of the default warehouse in catalog.db.
// Other warehouses a client asks for with ?warehouse= are stored under their
// own location as catalog name.
const catalogName = "icebeam"

// Handler serves the Iceberg REST catalog API for one catalog directory. It
// is what Listen serves; tests may mount it on an httptest.Server.
//
// It serves /v1/config, namespaces (list with parent, create, load, exists,
// drop, properties), tables (list, create with stage-create, register, load,
// exists, commit, drop with purgeRequested, rename, metrics reports),
// multi-table transactions and views (list, create, load, exists, replace,
// drop, rename). Errors follow the spec's error model, worded as Iceberg's
// reference catalog words them (see apiError). A client asking /v1/config for another ?warehouse= gets a path prefix
// that selects it; its tables live in the same catalog.db. It trusts every
// request: Listen serves it behind Guard (and Authenticate), which refuse
// what a web page could send it.
type Handler struct {
	dir       string
	warehouse string
	db        *sql.DB

	allowed allowed             // where requests may place files
	bodies  *semaphore.Weighted // bytes of request bodies in flight
	router  *router             // the routes, on their ServeMuxes

	mu       sync.Mutex
	catalogs map[string]*sqlcat.Catalog // by warehouse location
	locks    map[string]*sync.Mutex     // commit locks by warehouse + table
	cache    metaCache
}

// Open opens (creating if needed) the catalog in opts.Dir without serving it.
func Open(opts Options) (*Handler, error) {
	if opts.Dir == "" {
		return nil, errors.New("localcatalog: Options.Dir is empty")
	}
	dir, err := filepath.Abs(opts.Dir)
	if err != nil {
		return nil, fmt.Errorf("localcatalog: directory %q: %w", opts.Dir, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("localcatalog: creating directory: %w", err)
	}
	wh := opts.Warehouse
	if wh == "" {
		wh = filepath.Join(dir, "warehouse")
	}
	warehouse, err := normalizeWarehouse(wh)
	if err != nil {
		return nil, err
	}

	// WAL lets readers run beside the one writer; "begin immediate" takes the
	// write lock up front so a read-then-write transaction never fails with
	// "database is locked" on upgrade, and busy_timeout makes writers queue
	// instead of failing. synchronous=FULL syncs the WAL at every commit, so
	// a commit the server has acknowledged survives an operating system
	// crash or power loss too (NORMAL keeps it across a process crash only);
	// the metadata file it points at was synced before (writeJSONFile).
	dsn := (&url.URL{Scheme: "file", Path: filepath.Join(dir, DBFile)}).String() +
		"?_pragma=busy_timeout(30000)&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_txlock=immediate"
	db, err := sql.Open(sqliteshim.ShimName, dsn)
	if err != nil {
		return nil, fmt.Errorf("localcatalog: opening %s: %w", filepath.Join(dir, DBFile), err)
	}
	h := &Handler{
		dir:       dir,
		warehouse: warehouse,
		db:        db,
		catalogs:  map[string]*sqlcat.Catalog{},
		bodies:    semaphore.NewWeighted(bodiesInFlight),
		router:    newRouter(routes),
		locks:     map[string]*sync.Mutex{},
	}
	if h.allowed, err = newAllowed(warehouse, opts.AllowLocations); err != nil {
		db.Close()
		return nil, err
	}
	if _, err := h.catalogFor(warehouse); err != nil {
		db.Close()
		return nil, err
	}
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, placesSchema); err != nil {
		db.Close()
		return nil, fmt.Errorf("localcatalog: creating the location index in %s: %w", filepath.Join(dir, DBFile), err)
	}
	if err := h.backfillPlaces(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("localcatalog: indexing table locations in %s: %w", filepath.Join(dir, DBFile), err)
	}
	return h, nil
}

// normalizeWarehouse turns a path into an absolute file:// URI and leaves
// URIs with a scheme as they are, so one warehouse has one spelling.
func normalizeWarehouse(wh string) (string, error) {
	if i := strings.Index(wh, "://"); i > 0 && !strings.ContainsAny(wh[:i], `/\`) {
		scheme := strings.ToLower(wh[:i])
		if !slices.Contains(icebergio.GetRegisteredSchemes(), scheme) {
			return "", fmt.Errorf("localcatalog: warehouse %q: no storage is registered for %s:// (have %v)",
				wh, scheme, icebergio.GetRegisteredSchemes())
		}
		return strings.TrimRight(wh, "/"), nil
	}
	abs, err := filepath.Abs(wh)
	if err != nil {
		return "", fmt.Errorf("localcatalog: warehouse %q: %w", wh, err)
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String(), nil
}

// catalogFor returns the SQL catalog whose tables live under warehouse.
func (h *Handler) catalogFor(warehouse string) (*sqlcat.Catalog, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if c, ok := h.catalogs[warehouse]; ok {
		return c, nil
	}
	name := catalogName
	if warehouse != h.warehouse {
		name = warehouse
	}
	c, err := sqlcat.NewCatalog(name, h.db, sqlcat.SQLite, iceberg.Properties{"warehouse": warehouse})
	if err != nil {
		return nil, fmt.Errorf("localcatalog: opening catalog database in %s: %w", h.dir, err)
	}
	h.catalogs[warehouse] = c
	return c, nil
}

// tableLock serializes commits to one table in this process, so that of two
// commits from the same base the loser fails its requirement check before it
// writes a metadata file, instead of leaving an orphan behind after losing
// the database compare-and-swap.
func (h *Handler) tableLock(warehouse string, key string) *sync.Mutex {
	h.mu.Lock()
	defer h.mu.Unlock()
	k := warehouse + "\x00" + key
	l, ok := h.locks[k]
	if !ok {
		l = &sync.Mutex{}
		h.locks[k] = l
	}
	return l
}

// Warehouse is the location of the default warehouse, as a URI.
func (h *Handler) Warehouse() string { return h.warehouse }

// Close closes the catalog database.
func (h *Handler) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	var errs []error
	for _, c := range h.catalogs {
		errs = append(errs, c.Close())
	}
	h.catalogs = map[string]*sqlcat.Catalog{}
	errs = append(errs, h.db.Close())
	return errors.Join(errs...)
}

// Server is a running local catalog.
type Server struct {
	h   *Handler
	srv *http.Server
	url string
	// done is closed when Serve returns.
	done      chan struct{}
	closeOnce sync.Once
	closeErr  error
}

// Listen opens the catalog in opts.Dir and serves it on addr (host:port;
// port 0 picks one): over HTTPS with Options.TLSCert and TLSKey, behind
// Authenticate when Options.Token or Clients are set, and, in front of
// everything, behind Guard.
func Listen(addr string, opts Options) (*Server, error) {
	// Options are checked before the database is opened.
	auth, err := newAuthenticator(opts)
	if err != nil {
		return nil, err
	}
	host, _, _ := net.SplitHostPort(addr) // a bad addr fails net.Listen below
	g, err := newGuard(host, opts)
	if err != nil {
		return nil, err
	}
	tlsConfig, err := serverTLS(opts)
	if err != nil {
		return nil, err
	}
	h, err := Open(opts)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		h.Close()
		return nil, fmt.Errorf("localcatalog: listening on %s: %w", addr, err)
	}
	scheme := "http"
	if tlsConfig != nil {
		scheme = "https"
	}
	url := scheme + "://" + ln.Addr().String()
	var handler http.Handler = h
	if opts.Site != nil {
		if handler, err = opts.Site(h, url); err != nil {
			ln.Close()
			h.Close()
			return nil, err
		}
	}
	if auth != nil {
		auth.next = handler
		handler = auth
	}
	// The guard comes first: the token endpoint is no more a web page's
	// to call than the catalog is.
	g.next = handler
	handler = g
	s := &Server{
		h: h,
		srv: &http.Server{
			Handler:           handler,
			TLSConfig:         tlsConfig,
			ReadHeaderTimeout: 10 * time.Second,
			ReadTimeout:       30 * time.Second, // a stalled body is dropped
			WriteTimeout:      120 * time.Second,
			IdleTimeout:       120 * time.Second,
			MaxHeaderBytes:    64 << 10,
		},
		url:  url,
		done: make(chan struct{}),
	}
	go func() {
		defer close(s.done)
		var err error
		if tlsConfig != nil {
			err = s.srv.ServeTLS(ln, "", "") // the certificate is in TLSConfig
		} else {
			err = s.srv.Serve(ln)
		}
		if err != nil && !errors.Is(err, http.ErrServerClosed) {
			slog.Error("localcatalog: server stopped", "addr", ln.Addr().String(), "error", err)
		}
	}()
	return s, nil
}

// URL is the base URI clients pass as catalog URI, e.g. http://127.0.0.1:8181.
func (s *Server) URL() string { return s.url }

// Warehouse is the location of the default warehouse, as a URI.
func (s *Server) Warehouse() string { return s.h.Warehouse() }

// Close stops serving, waits up to 10 s for requests in flight, and closes
// the database. Later calls return the first call's result.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		err := s.srv.Shutdown(ctx)
		if err != nil {
			err = errors.Join(err, s.srv.Close())
		}
		<-s.done
		s.closeErr = errors.Join(err, s.h.Close())
	})
	return s.closeErr
}
