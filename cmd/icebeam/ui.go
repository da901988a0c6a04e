package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/catalog/rest"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/catalog/localcatalog"
	"github.com/icebeam/icebeam/catalog/webui"
	"github.com/icebeam/icebeam/internal/launch"
)

// defaultPoll is how often a table page asks for new snapshots.
const defaultPoll = 3 * time.Second

// runUI serves the read-only web UI (catalog/webui) for any REST catalog
// the catalog flags name, until ctx is cancelled. It answers only GET and
// HEAD, behind localcatalog's Host guard: it holds the catalog's
// credentials, so a web page that rebinds its DNS name to this machine
// must not read through it.
func runUI(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("ui", stderr)
	var cfg catalog.Config
	cfg.RegisterFlags(fs)
	addr := fs.String("addr", "127.0.0.1:8080", "address the web UI listens on (host:port; port 0 picks a free one)")
	poll := fs.Duration("poll", defaultPoll, "how often a table page asks for new snapshots")
	var allowedHosts listFlag
	fs.Var(&allowedHosts, "allowed_hosts", "comma-separated host `names` browsers may reach the UI by, besides IP addresses,\n"+
		"localhost and the host of --addr; \".example.com\" allows a domain, \"*\" any name")
	insecure := fs.Bool("insecure", false, "serve a non-loopback --addr: the UI has no login of its own, so anyone who can\n"+
		"reach it may read every table the catalog credentials can")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: icebeam ui [flags]")
		fmt.Fprintln(stderr)
		fmt.Fprintln(stderr, "Serves a read-only web page of the catalog's namespaces and tables at http://ADDR/.")
		fmt.Fprintln(stderr)
		fs.PrintDefaults()
	}
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	if *poll < 500*time.Millisecond {
		return fmt.Errorf("--poll=%v: must be at least 500ms", *poll)
	}
	host, _, err := net.SplitHostPort(*addr)
	if err != nil {
		return fmt.Errorf("--addr=%s: %w", *addr, err)
	}
	if !isLoopback(*addr) && !*insecure {
		return fmt.Errorf("refusing to serve the web UI on %s: it is not a loopback address and the UI has no login, so anyone "+
			"who can reach it could read every table; listen on 127.0.0.1 (and reach it through an SSH tunnel or an "+
			"authenticating proxy), or pass --insecure", *addr)
	}
	resolved, cat, stop, err := launch.OpenCatalog(ctx, cfg)
	if err != nil {
		return err
	}
	defer stop()
	opts := webui.Options{
		Open:         func(context.Context) (icecatalog.Catalog, error) { return cat, nil },
		CatalogName:  resolved.Name,
		CatalogURI:   resolved.URI,
		CatalogFlags: strings.Join(launch.CatalogFlags(cfg), " "),
		Poll:         *poll,
	}
	ui := webui.New(opts)
	guarded, err := localcatalog.Guard(ui, host, localcatalog.Options{AllowedHosts: allowedHosts})
	if err != nil {
		return err
	}
	// The UI takes no change from anyone, so a change is refused as such
	// (405, read-only) before the guard: the guard would refuse one from
	// another origin with advice to allow it by --allowed_origins, a flag
	// of serve that ui has no use for.
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			ui.ServeHTTP(w, r)
			return
		}
		guarded.ServeHTTP(w, r)
	})
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("icebeam ui: listening on %s: %w", *addr, err)
	}
	// The timeouts are localcatalog.Listen's: a page's requests are small.
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 120 * time.Second, IdleTimeout: 120 * time.Second, MaxHeaderBytes: 64 << 10}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	fmt.Fprintf(stdout, "icebeam: web UI of %s at http://%s/\n", launch.Where(resolved, cfg), ln.Addr())
	select {
	case <-ctx.Done():
	case err := <-done:
		return fmt.Errorf("icebeam ui: serving %s: %w", ln.Addr(), err)
	}
	fmt.Fprintln(stdout, "icebeam: shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return srv.Shutdown(sctx)
}

// uiSite is the web UI beside the local catalog's REST API in icebeam
// serve (localcatalog.Options.Site): / and webui.Prefix go to the UI,
// every other path reaches the catalog's handler untouched (a ServeMux
// would clean and redirect paths the REST API answers itself). The UI
// reads the catalog through iceberg-go's REST client, whose requests go to
// the catalog's handler in-process: the browser's request already passed
// the guard and authentication, and the UI needs neither the server's
// tokens nor to trust its TLS certificate.
func uiSite(poll time.Duration) func(http.Handler, string) (http.Handler, error) {
	return func(h http.Handler, url string) (http.Handler, error) {
		cat, err := rest.NewCatalog(context.Background(), catalog.DefaultName, url, rest.WithCustomTransport(inProcess{h}))
		if err != nil {
			return nil, fmt.Errorf("opening the local catalog for the web UI: %w", err)
		}
		ui := webui.New(webui.Options{
			Open:        func(context.Context) (icecatalog.Catalog, error) { return cat, nil },
			CatalogName: catalog.DefaultName,
			CatalogURI:  url,
			Poll:        poll,
		})
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/" || strings.HasPrefix(r.URL.Path, webui.Prefix) {
				ui.ServeHTTP(w, r)
				return
			}
			h.ServeHTTP(w, r)
		}), nil
	}
}

// inProcess is an http.RoundTripper that hands requests to a handler in
// this process, without a network or TLS.
type inProcess struct{ h http.Handler }

func (t inProcess) RoundTrip(r *http.Request) (*http.Response, error) {
	in := r.Clone(r.Context())
	if in.Body == nil {
		in.Body = http.NoBody
	}
	in.RequestURI = r.URL.RequestURI()
	rec := &recorder{header: http.Header{}}
	t.h.ServeHTTP(rec, in)
	if rec.code == 0 {
		rec.code = http.StatusOK
	}
	return &http.Response{
		Status: fmt.Sprintf("%d %s", rec.code, http.StatusText(rec.code)), StatusCode: rec.code,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: rec.header, Body: io.NopCloser(bytes.NewReader(rec.body.Bytes())),
		ContentLength: int64(rec.body.Len()), Request: r,
	}, nil
}

// recorder is the http.ResponseWriter of an in-process request.
type recorder struct {
	header http.Header
	code   int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }
func (r *recorder) WriteHeader(code int) {
	if r.code == 0 {
		r.code = code
	}
}
func (r *recorder) Write(b []byte) (int, error) {
	if r.code == 0 {
		r.code = http.StatusOK
	}
	return r.body.Write(b)
}
