package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"runtime/debug"
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
	var allowedHosts, allowedOrigins listFlag
	fs.Var(&allowedHosts, "allowed_hosts", "comma-separated host `names` clients may reach the catalog by, besides IP addresses,\n"+
		"localhost, the host of --addr and, on every interface, this machine's name; \".example.com\" allows\n"+
		"a domain, \"*\" any name. Requests to other names are refused: a web page can point its own name at\n"+
		"this machine (DNS rebinding)")
	fs.Var(&allowedOrigins, "allowed_origins", "comma-separated `origins` (scheme://host[:port]) whose web pages may change the catalog\n"+
		"besides its own, e.g. a web UI behind a proxy; \"*\" allows any. Changes from other pages, and bodies\n"+
		"that are not application/json, are refused: any page the user opens could send them")
	verbose := fs.Bool("v", false, "log one line per request (never headers)")
	withUI := fs.Bool("ui", true, "serve the read-only web UI at / beside the REST API, behind the same guard and authentication")
	var token, client catalog.Secret
	fs.Func("token", "static bearer token clients must send (Authorization: Bearer); give env:VAR or file:PATH,\n"+
		"since a literal value shows in the process list", func(v string) error {
		token = catalog.Secret(v)
		return nil
	})
	fs.Func("client_credential", "OAuth2 client CLIENT_ID:SECRET that may get tokens from <url>/v1/oauth/tokens\n"+
		"(clients: --auth=oauth2 --credential=CLIENT_ID:SECRET); env:VAR or file:PATH holding it", func(v string) error {
		client = catalog.Secret(v)
		return nil
	})
	tokenTTL := fs.Duration("token_ttl", localcatalog.DefaultTokenTTL, "lifetime of the tokens issued to --client_credential")
	tlsCert := fs.String("tls_cert", "", "PEM certificate (chain) file: serve HTTPS (needs --tls_key)")
	tlsKey := fs.String("tls_key", "", "PEM private key file of --tls_cert")
	insecure := fs.Bool("insecure", false, "serve a non-loopback --addr without authentication (anyone who can reach it\n"+
		"may read, change and delete every table)")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	if *verbose {
		slog.SetDefault(slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelDebug})))
	}
	opts := localcatalog.Options{Dir: *dir, Warehouse: *warehouse, AllowLocations: allow,
		TokenTTL: *tokenTTL, TLSCert: *tlsCert, TLSKey: *tlsKey, AllowedHosts: allowedHosts, AllowedOrigins: allowedOrigins}
	if *tokenTTL <= 0 {
		return fmt.Errorf("--token_ttl=%v: must be positive", *tokenTTL)
	}
	if (*tlsCert == "") != (*tlsKey == "") {
		return errors.New("--tls_cert and --tls_key go together: give both to serve HTTPS, or neither")
	}
	// Secrets are resolved here and never printed: errors name the flag
	// and the reference, not the value.
	if token != "" {
		v, err := token.Resolve("token")
		if err != nil {
			return err
		}
		opts.Token = v
	}
	var clientID string
	if client != "" {
		v, err := client.Resolve("client_credential")
		if err != nil {
			return err
		}
		id, secret, ok := strings.Cut(v, ":")
		if !ok || id == "" || secret == "" {
			return fmt.Errorf("--client_credential=%s: the value must be CLIENT_ID:SECRET", client)
		}
		clientID = id
		opts.Clients = map[string]string{id: secret}
	}
	for _, s := range []struct {
		flag string
		v    catalog.Secret
	}{{"token", token}, {"client_credential", client}} {
		if s.v != "" && !s.v.IsReference() {
			fmt.Fprintf(stderr, "icebeam: warning: --%s is given literally, so other users of this machine can read it in the process list; prefer env:VAR or file:PATH\n", s.flag)
		}
	}
	if _, _, err := net.SplitHostPort(*addr); err != nil {
		return fmt.Errorf("--addr=%s: %w", *addr, err)
	}
	auth := opts.Token != "" || len(opts.Clients) > 0
	loopback := isLoopback(*addr)
	switch {
	case !loopback && !auth && !*insecure:
		return fmt.Errorf("refusing to serve %s without authentication: it is not a loopback address, so anyone who can reach it "+
			"could read, change and delete every table; set --token or --client_credential (see icebeam help serve), "+
			"listen on 127.0.0.1, or pass --insecure to serve it open anyway", *addr)
	case !loopback && !auth:
		fmt.Fprintf(stderr, "icebeam: warning: --insecure: serving %s without authentication; anyone who can reach it may change or delete every table\n", *addr)
	case !loopback && *tlsCert == "":
		fmt.Fprintf(stderr, "icebeam: warning: serving %s over plain HTTP: tokens and client secrets cross the network unencrypted; set --tls_cert and --tls_key\n", *addr)
	}
	// A soft memory limit makes the garbage collector work harder instead
	// of letting the heap double past what parallel large requests need
	// (localcatalog bounds those); GOMEMLIMIT overrides it.
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(serveMemoryLimit)
	}
	if *withUI {
		opts.Site = uiSite(defaultPoll)
	}
	srv, err := localcatalog.Listen(*addr, opts)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "icebeam: serving the Iceberg REST catalog at %s\n", srv.URL())
	if *withUI {
		fmt.Fprintf(stdout, "icebeam: web UI at %s/\n", srv.URL())
	}
	fmt.Fprintf(stdout, "icebeam: authentication: %s\n", describeAuth(opts, clientID, srv.URL()))
	fmt.Fprintf(stdout, "icebeam: warehouse %s\n", srv.Warehouse())
	<-ctx.Done()
	fmt.Fprintln(stdout, "icebeam: shutting down")
	return srv.Close()
}

// serveMemoryLimit is serve's soft memory limit (runtime/debug.SetMemoryLimit).
const serveMemoryLimit = 256 << 20

// describeAuth says which authentication serve uses, never with a secret.
func describeAuth(opts localcatalog.Options, clientID, url string) string {
	var kinds []string
	if opts.Token != "" {
		kinds = append(kinds, "static bearer token (--token)")
	}
	if len(opts.Clients) > 0 {
		kinds = append(kinds, fmt.Sprintf("OAuth2 client credentials for client %q, tokens from %s%s valid %v",
			clientID, url, localcatalog.TokenPath, opts.TokenTTL))
	}
	if len(kinds) == 0 {
		return "off (every request is admitted)"
	}
	return "on, bearer tokens required: " + strings.Join(kinds, " or ")
}

// isLoopback reports whether addr (host:port) listens on loopback only:
// localhost, 127.0.0.0/8 or ::1. An empty host or an unspecified address
// (0.0.0.0, ::) listens on every interface, so it is not loopback; neither
// is any other name, whatever it resolves to.
func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// multiFlag is a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// listFlag is a comma-separated list flag; given again, it adds to the list.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error {
	for e := range strings.SplitSeq(v, ",") {
		if e = strings.TrimSpace(e); e != "" {
			*l = append(*l, e)
		}
	}
	return nil
}
