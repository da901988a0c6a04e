package localcatalog

import (
	"fmt"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"strings"
)

// A server a browser can reach has a browser's attackers. Any web page the
// user opens can send requests to 127.0.0.1: a form or fetch() POST with a
// text/plain body (or none typed at all) needs no CORS preflight, so it
// reaches the catalog and changes it, even if the page cannot read the
// answer; and a page whose DNS name its owner rebinds to 127.0.0.1 is, to
// the browser, same-origin with the server, so it can read and change
// everything (DNS rebinding). Jupyter, Vite and the like refuse both, and
// so does guard: Iceberg clients (iceberg-go, pyiceberg, Spark, DuckDB)
// send application/json, no Origin, and address the server by the name
// they were given, so they never meet it.

// guard refuses, ahead of authentication and the catalog, what only a
// browser made to attack the server sends:
//
//   - a Host that is not an address or name the server serves, which is
//     how DNS rebinding shows: a page at http://evil.example whose name now
//     resolves to 127.0.0.1 still says Host: evil.example;
//   - a change (any method but GET, HEAD and OPTIONS) from a web page of
//     another origin: an Origin header other than the server's own, or
//     Sec-Fetch-Site cross-site or same-site (the page of another port of
//     localhost is same-site, not same-origin);
//   - a request body that is not application/json, which no Iceberg client
//     sends but a page can without a preflight (text/plain, form
//     encodings, an untyped Blob); the token endpoint (TokenPath) takes its
//     form encoding, and the authenticator checks it.
//
// Refusals are in the REST error model: 403 ForbiddenException for Host and
// Origin, 415 for the content type.
type guard struct {
	next http.Handler

	anyHost bool
	hosts   map[string]bool // allowed names, lower case, no trailing dot
	domains []string        // allowed domains: the name and every name under it, as ".example.com"

	anyOrigin bool
	origins   map[string]bool // allowed origins, normalized (origin)
}

// Guard wraps next so that it answers only requests addressed to host (the
// host of the address the server listens on: a name, an IP address, or
// empty for every interface), to any IP address, to localhost or to the
// names in Options.AllowedHosts, and refuses changes from web pages of
// other origins than the server's own and Options.AllowedOrigins, and
// request bodies that are not JSON (see Options.AllowedHosts and
// AllowedOrigins). Listen puts it in front of every request; programs
// that mount Handler themselves may too.
func Guard(next http.Handler, host string, opts Options) (http.Handler, error) {
	g, err := newGuard(host, opts)
	if err != nil {
		return nil, err
	}
	g.next = next
	return g, nil
}

// newGuard checks Options.AllowedHosts and AllowedOrigins.
func newGuard(host string, opts Options) (*guard, error) {
	g := &guard{hosts: map[string]bool{}, origins: map[string]bool{}}
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	if ip, err := netip.ParseAddr(host); host == "" || (err == nil && ip.IsUnspecified()) {
		// On every interface the server is also this machine's name,
		// which only the local network's DNS answers for, not a web page's
		// owner.
		if name, err := os.Hostname(); err == nil && name != "" {
			g.hosts[strings.TrimSuffix(strings.ToLower(name), ".")] = true
		}
	} else if err != nil {
		g.hosts[host] = true
	}
	for _, h := range opts.AllowedHosts {
		e := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(h)), ".")
		if e == "*" {
			g.anyHost = true
			continue
		}
		if _, err := netip.ParseAddr(strings.Trim(e, "[]")); err == nil {
			continue // every IP address is allowed anyway
		}
		name := e
		if d, ok := strings.CutPrefix(e, "*."); ok {
			name = d
		} else if d, ok := strings.CutPrefix(e, "."); ok {
			name = d
		}
		if name == "" || strings.ContainsAny(name, "*:/@?#[] \t") {
			return nil, fmt.Errorf("localcatalog: allowed host %q (Options.AllowedHosts) is not a host name: give a name "+
				"without scheme or port, \".example.com\" or \"*.example.com\" for a domain, or \"*\" for any", h)
		}
		if name != e {
			g.domains = append(g.domains, "."+name)
		} else {
			g.hosts[name] = true
		}
	}
	for _, o := range opts.AllowedOrigins {
		e := strings.TrimSpace(o)
		if e == "*" {
			g.anyOrigin = true
			continue
		}
		n := origin(e)
		if n == "" {
			return nil, fmt.Errorf("localcatalog: allowed origin %q (Options.AllowedOrigins) is not an origin: give "+
				"scheme://host[:port] as browsers send it, e.g. https://ui.example.com, or \"*\" for any", o)
		}
		g.origins[n] = true
	}
	return g, nil
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !g.hostAllowed(r.Host) {
		g.refuse(w, r, http.StatusForbidden, "ForbiddenException", "Host %q is not a name this catalog serves "+
			"(as a web page whose DNS name was pointed at this machine would send); to reach the catalog by that name, "+
			"start it with --allowed_hosts=%s (Options.AllowedHosts)", clip(r.Host), clip(hostOnly(r.Host)))
		return
	}
	if unsafeMethod(r.Method) {
		if msg := g.crossOrigin(r); msg != "" {
			g.refuse(w, r, http.StatusForbidden, "ForbiddenException", "%s", msg)
			return
		}
		if msg := notJSON(r); msg != "" {
			// No Iceberg exception means 415; BadRequestException is what
			// Java clients get for the other bodies they cannot send (413).
			g.refuse(w, r, http.StatusUnsupportedMediaType, "BadRequestException", "%s", msg)
			return
		}
	}
	g.next.ServeHTTP(w, r)
}

// refuse answers in the REST error model and logs why, never with headers
// besides the one refused (others may hold tokens).
//
// Host and Origin refusals are 403, as Jupyter and Vite answer them: 421
// Misdirected Request would invite clients to retry on another
// connection, which cannot help, and 400 says the request is malformed,
// which it is not.
func (g *guard) refuse(w http.ResponseWriter, r *http.Request, code int, typ, format string, args ...any) {
	err := newAPIError(code, typ, format, args...)
	slog.Warn("localcatalog: request refused", "method", r.Method, "path", r.URL.Path, "status", code, "reason", err.msg)
	writeError(w, r, err)
}

// hostAllowed reports whether a request's Host (port and all) is an
// address or name the server serves. A Host that is an IP address cannot
// come from DNS rebinding, nor can localhost and *.localhost, which
// browsers resolve to loopback themselves. An empty Host (HTTP/1.0) names
// nothing a page could have rebound; browsers always send one.
func (g *guard) hostAllowed(hostport string) bool {
	h := strings.TrimSuffix(strings.ToLower(hostOnly(hostport)), ".")
	switch {
	case h == "" || g.anyHost || g.hosts[h]:
		return true
	case h == "localhost" || strings.HasSuffix(h, ".localhost"):
		return true
	}
	if _, err := netip.ParseAddr(h); err == nil {
		return true
	}
	for _, d := range g.domains {
		if h == d[1:] || strings.HasSuffix(h, d) {
			return true
		}
	}
	return false
}

// hostOnly is a Host header without its port and IPv6 brackets.
func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.Trim(hostport, "[]")
}

// unsafeMethod reports whether a method may change the catalog: all but
// GET, HEAD and OPTIONS. A page can send only POST without a preflight,
// but every changing method is held to the checks, so that a lax proxy or
// a browser bug letting another one through meets them too.
func unsafeMethod(m string) bool {
	return m != http.MethodGet && m != http.MethodHead && m != http.MethodOptions
}

// crossOrigin returns why a change comes from a web page the server must
// not take it from, or "" if it may. Browsers send Origin with every
// cross-origin POST and Sec-Fetch-Site with every request; Iceberg
// clients send neither, and are admitted. An allowed origin is admitted
// whatever Sec-Fetch-Site says, as net/http's CrossOriginProtection does:
// the page is then served through a proxy the operator set up.
func (g *guard) crossOrigin(r *http.Request) string {
	o := r.Header.Get("Origin")
	if o != "" && (g.anyOrigin || g.origins[origin(o)]) {
		return ""
	}
	allow := origin(o)
	if allow == "" {
		allow = "ORIGIN"
	}
	hint := "; to take changes from that web page, start the catalog with --allowed_origins=" + clip(allow) + " (Options.AllowedOrigins)"
	switch site := r.Header.Get("Sec-Fetch-Site"); site {
	case "cross-site", "same-site":
		from := "another site"
		if o != "" {
			from = fmt.Sprintf("Origin %q", clip(o))
		}
		return fmt.Sprintf("%s from a web page of %s (Sec-Fetch-Site: %s) refused: a page may not change the catalog%s",
			r.Method, from, site, hint)
	}
	if o == "" {
		return ""
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	own := origin(scheme + "://" + r.Host)
	if own != "" && origin(o) == own {
		return ""
	}
	return fmt.Sprintf("%s from Origin %q refused: only pages of the catalog's own origin %s may change it%s",
		r.Method, clip(o), own, hint)
}

// origin normalizes an origin (scheme://host[:port]): lower case, without
// the scheme's default port. It is "" for what is not one, such as the
// "null" origin of sandboxed pages and files, which no allow-list names.
func origin(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" || u.Host == "" || u.User != nil || (u.Path != "" && u.Path != "/") ||
		u.RawQuery != "" || u.Fragment != "" {
		return ""
	}
	scheme, host, port := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname()), u.Port()
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" && !(scheme == "http" && port == "80" || scheme == "https" && port == "443") {
		host += ":" + port
	}
	return scheme + "://" + host
}

// notJSON returns why a change's body is not one the REST API takes, or ""
// if it is: a body (its length declared or chunked) must be
// application/json, parameters allowed. A request without a body (DELETE,
// and the POSTs some clients send empty and untyped) carries nothing a
// page could have smuggled in. The token endpoint's form is left to the
// authenticator, which answers in OAuth2's error model.
func notJSON(r *http.Request) string {
	if r.ContentLength == 0 || r.URL.Path == TokenPath {
		return ""
	}
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return fmt.Sprintf("%s %s: the request body has no Content-Type; the REST API takes application/json", r.Method, r.URL.Path)
	}
	if mt, _, err := mime.ParseMediaType(ct); err == nil && mt == "application/json" {
		return ""
	}
	return fmt.Sprintf("%s %s: Content-Type %q is not application/json, which the REST API takes (only the token endpoint %s "+
		"takes a form; with curl, add -H 'Content-Type: application/json')", r.Method, r.URL.Path, clip(ct), TokenPath)
}

// clip bounds a header value quoted in an answer or a log line.
func clip(s string) string {
	const max = 200
	if len(s) > max {
		return s[:max] + "..."
	}
	return s
}
