package catalog

import (
	"fmt"
	"net/url"
	"strings"
)

// Catalog presets (--catalog).
const (
	// PresetREST is any Iceberg REST catalog, configured flag by flag.
	PresetREST = "rest"
	// PresetBigLake is Google's BigLake Iceberg REST catalog: --project and
	// --catalog_name fill in the URI, warehouse, quota-project header and
	// Google authentication.
	PresetBigLake = "biglake"
	// PresetNessie is Project Nessie's Iceberg REST endpoint; --ref picks
	// the branch or tag.
	PresetNessie = "nessie"
)

// Authentication modes (--auth).
const (
	AuthNone   = "none"
	AuthGoogle = "google" // Application Default Credentials, refreshed
	AuthOAuth2 = "oauth2" // OAuth2 client credentials (--credential), refreshed
	AuthBearer = "bearer" // a static --token, never refreshed
)

// BigLakeURI is the BigLake Iceberg REST catalog endpoint.
const BigLakeURI = "https://biglake.googleapis.com/iceberg/v1/restcatalog"

// GoogleScope is the OAuth scope of Google credentials; it covers BigLake and
// Cloud Storage.
const GoogleScope = "https://www.googleapis.com/auth/cloud-platform"

// defaultOAuth2Scope is the scope Iceberg REST clients ask for by default.
const defaultOAuth2Scope = "catalog"

// endpoint is what a Config means once presets and defaults are applied:
// everything Open needs. It is derived on every Open rather than stored, so
// the Config that travels to workers stays what the user typed.
type endpoint struct {
	uri       string
	warehouse string
	headers   map[string]string
	auth      string
	tokenURL  string // oauth2 only
	scope     string // google and oauth2
}

// Embedded reports whether cfg names no catalog: a run then starts the
// embedded local catalog (launch.Catalog).
func (c Config) Embedded() bool {
	return c.URI == "" && (c.Preset == "" || c.Preset == PresetREST)
}

// project is --project, which may be Beam's flag of the same name.
func (c Config) project() string {
	if c.Project == "" && c.projectFlag != nil {
		return c.projectFlag.Value.String()
	}
	return c.Project
}

// resolve applies the preset and the defaults and checks that the flags fit
// together.
func (c Config) resolve() (endpoint, error) {
	ep := endpoint{uri: c.URI, warehouse: c.Warehouse, headers: map[string]string{}}
	for k, v := range c.Headers {
		ep.headers[k] = v
	}
	switch c.Preset {
	case "", PresetREST:
		if c.URI == "" {
			return ep, fmt.Errorf("catalog: no catalog URI (set --catalog_uri, or call launch.Catalog to start the embedded catalog)")
		}
	case PresetBigLake:
		p := c.project()
		if p == "" {
			return ep, fmt.Errorf("catalog: --catalog=biglake needs --project (the Google Cloud project that owns the BigLake catalog)")
		}
		if ep.uri == "" {
			ep.uri = BigLakeURI
		}
		if ep.warehouse == "" {
			ep.warehouse = "bl://projects/" + p + "/catalogs/" + orDefault(c.Name, DefaultName)
		}
		if !hasHeader(ep.headers, "x-goog-user-project") {
			// BigLake bills and applies quota to this project.
			ep.headers["x-goog-user-project"] = p
		}
	case PresetNessie:
		if ep.uri == "" {
			return ep, fmt.Errorf("catalog: --catalog=nessie needs --catalog_uri (Nessie's Iceberg REST base, e.g. http://HOST:19120/iceberg)")
		}
		if c.Ref != "" {
			// Nessie serves each branch or tag as its own REST catalog
			// under /iceberg/<ref>; its /v1/config answers with the
			// matching prefix.
			ep.uri = strings.TrimRight(ep.uri, "/") + "/" + url.PathEscape(c.Ref)
		}
	default:
		return ep, fmt.Errorf("catalog: unknown --catalog=%q (want %s, %s or %s)", c.Preset, PresetBigLake, PresetNessie, PresetREST)
	}
	if c.Ref != "" && c.Preset != PresetNessie {
		return ep, fmt.Errorf("catalog: --ref=%s only applies to --catalog=nessie", c.Ref)
	}
	if _, err := url.Parse(ep.uri); err != nil {
		return ep, fmt.Errorf("catalog: --catalog_uri: %w", err)
	}

	return ep, c.resolveAuth(&ep)
}

// resolveAuth fills in ep's authentication from the flags; ep.uri is only
// used for the default token endpoint.
func (c Config) resolveAuth(ep *endpoint) error {
	ep.auth = c.Auth
	if ep.auth == "" {
		switch {
		case c.Credential != "":
			ep.auth = AuthOAuth2
		case c.Token != "":
			ep.auth = AuthBearer
		case c.Preset == PresetBigLake:
			ep.auth = AuthGoogle
		default:
			ep.auth = AuthNone
		}
	}
	switch ep.auth {
	case AuthNone, AuthGoogle:
	case AuthOAuth2:
		if c.Credential == "" {
			return fmt.Errorf("catalog: --auth=oauth2 needs --credential=CLIENT_ID:SECRET (or env:VAR / file:PATH holding it)")
		}
		ep.tokenURL = c.OAuth2ServerURI
		if ep.tokenURL == "" {
			ep.tokenURL = strings.TrimRight(ep.uri, "/") + "/v1/oauth/tokens"
		}
		ep.scope = orDefault(c.Scope, defaultOAuth2Scope)
	case AuthBearer:
		if c.Token == "" {
			return fmt.Errorf("catalog: --auth=bearer needs --token (or env:VAR / file:PATH holding it)")
		}
	default:
		return fmt.Errorf("catalog: unknown --auth=%q (want %s, %s, %s or %s)", ep.auth, AuthNone, AuthGoogle, AuthOAuth2, AuthBearer)
	}
	if ep.auth == AuthGoogle {
		ep.scope = orDefault(c.Scope, GoogleScope)
	}
	if c.Credential != "" && ep.auth != AuthOAuth2 {
		return fmt.Errorf("catalog: --credential is only used with --auth=oauth2, not --auth=%s", ep.auth)
	}
	if c.Token != "" && ep.auth != AuthBearer {
		return fmt.Errorf("catalog: --token is only used with --auth=bearer, not --auth=%s", ep.auth)
	}
	return nil
}

func hasHeader(h map[string]string, name string) bool {
	for k := range h {
		if strings.EqualFold(k, name) {
			return true
		}
	}
	return false
}
