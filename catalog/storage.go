package catalog

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"cloud.google.com/go/storage"
	iceio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/io/gocloud/blobfs"
	"gocloud.dev/blob/gcsblob"
	"golang.org/x/oauth2"
	"google.golang.org/api/option"
)

// storageConfigProp is the property, among those iceberg-go hands to IO
// factories, that names the Config a table was opened with, so that gs://
// files use that Config's credentials. Its value is an opaque id known only
// inside this process (see Open).
const storageConfigProp = "icebeam.storage-config"

// iceberg-go's own gs factory builds a new client, and with it a new
// connection pool and credential lookup, on every table.FS call; this one
// shares a client per credentials for the life of the process and uses the
// catalog's refreshing Google token source.
func init() {
	// io/gocloud/gcs, if linked, has registered "gs" already: Go initializes
	// it first, since its import path sorts first and everything it imports
	// is imported here too.
	iceio.Unregister("gs")
	iceio.Register("gs", gcsIO)
}

// storageClients holds the Cloud Storage clients of this process, by
// credentials and endpoint.
var storageClients processCache[*storage.Client]

var storageState struct {
	mu      sync.Mutex
	configs map[string]Config // by storageConfigProp id
	// embedded is the Config of the embedded catalog started by launch.Catalog,
	// whose server writes table metadata through this same factory
	// without any icebeam property.
	embedded *Config
}

// UseStorageOf makes cfg's storage settings (--gcs_endpoint, credentials)
// the ones gs:// files use when no Config names them: those of an embedded
// catalog server writing table metadata in this process.
func UseStorageOf(cfg Config) {
	storageState.mu.Lock()
	defer storageState.mu.Unlock()
	storageState.embedded = &cfg
}

// registerStorageConfig makes cfg findable by the gs factory and returns
// its id.
func registerStorageConfig(cfg Config) string {
	sum := sha256.Sum256([]byte(cfg.cacheKey()))
	id := hex.EncodeToString(sum[:8])
	storageState.mu.Lock()
	defer storageState.mu.Unlock()
	if storageState.configs == nil {
		storageState.configs = map[string]Config{}
	}
	storageState.configs[id] = cfg
	return id
}

// StorageClientOptions returns the options for a cloud.google.com/go/storage
// client that reads and writes with cfg's storage credentials: with
// --auth=google, the same refreshing token source the catalog uses; with
// --gcs_endpoint, that endpoint with JSON API reads (emulators serve no XML
// API), unauthenticated unless --auth=google; otherwise none, so the storage
// library uses Application Default Credentials itself (--auth=oauth2 and
// bearer tokens are the catalog's, not Google's). Call it on workers with
// the Config they were given.
func StorageClientOptions(ctx context.Context, cfg Config) ([]option.ClientOption, error) {
	ep, err := authEndpoint(cfg)
	if err != nil {
		return nil, err
	}
	var opts []option.ClientOption
	if cfg.GCSEndpoint != "" {
		opts = append(opts, option.WithEndpoint(cfg.GCSEndpoint), storage.WithJSONReads())
	}
	if ep.auth == AuthGoogle {
		ts, err := sharedTokenSource(cfg, ep)
		if err != nil {
			return nil, err
		}
		return append(opts, option.WithTokenSource(ts)), nil
	}
	if cfg.GCSEndpoint != "" {
		opts = append(opts, option.WithoutAuthentication())
	}
	return opts, nil
}

// StorageClient returns this process's shared Cloud Storage client for cfg,
// built from StorageClientOptions on first use. Iceberg table files on
// gs:// use it too. Do not Close it.
func StorageClient(ctx context.Context, cfg Config) (*storage.Client, error) {
	return cachedClient(ctx, "cfg:"+cfg.GCSEndpoint+"\x00"+cfg.cacheKey(), func() ([]option.ClientOption, error) {
		return StorageClientOptions(ctx, cfg)
	})
}

func cachedClient(ctx context.Context, key string, options func() ([]option.ClientOption, error)) (*storage.Client, error) {
	return storageClients.get(key, func() (*storage.Client, error) {
		opts, err := options()
		if err != nil {
			return nil, err
		}
		// The client is shared: it must not die with the ctx of its first
		// user.
		c, err := storage.NewClient(context.WithoutCancel(ctx), opts...)
		if err != nil {
			return nil, fmt.Errorf("catalog: creating the Cloud Storage client: %w", err)
		}
		if strings.HasPrefix(key, "vended:") {
			// Vended tokens are replaced about hourly; keep only the latest
			// client per endpoint rather than one per token ever seen (get
			// holds the cache's lock while this runs).
			prefix := key[:strings.Index(key, "\x00")+1]
			for k := range storageClients.m {
				if strings.HasPrefix(k, prefix) {
					delete(storageClients.m, k)
				}
			}
		}
		return c, nil
	})
}

// gcsIO is the iceberg-go IO factory for gs:// locations. Properties the
// catalog vends win (gcs.no-auth, gcs.oauth2.token with
// gcs.oauth2.token-expires-at, gcs.endpoint or gcs.service.host,
// gcs.usejsonapi); iceberg-go renews vended credentials itself when they
// expire. Without vended credentials the Config the table was opened with
// decides (see StorageClientOptions).
func gcsIO(ctx context.Context, u *url.URL, props map[string]string) (iceio.IO, error) {
	if u.Host == "" {
		return nil, fmt.Errorf("catalog: gs location %q names no bucket", u.String())
	}
	client, err := clientForProps(ctx, props)
	if err != nil {
		return nil, fmt.Errorf("catalog: opening gs://%s: %w", u.Host, err)
	}
	// The bucket handle is a thin wrapper, and iceberg-go may Close it: only
	// the client is shared.
	b, err := gcsblob.OpenBucket(ctx, nil, u.Host, &gcsblob.Options{Client: client})
	if err != nil {
		return nil, fmt.Errorf("catalog: opening gs://%s: %w", u.Host, err)
	}
	return blobfs.New(ctx, b, blobfs.DefaultObjectLocationExtractor(u.Host, "gs")), nil
}

// serviceHostEndpoint turns gcs.service.host, which Iceberg Java and Nessie
// vend as Java's storage client takes it (the service's root URL, such as an
// emulator's http://host:4443), into the Go client's endpoint, the JSON
// API's base URL. A URL that already has a path is taken as it is.
func serviceHostEndpoint(host string) string {
	u, err := url.Parse(host)
	if err != nil || u.Scheme == "" || u.Host == "" || (u.Path != "" && u.Path != "/") {
		return host
	}
	u.Path = "/storage/v1/"
	return u.String()
}

func clientForProps(ctx context.Context, props map[string]string) (*storage.Client, error) {
	storageState.mu.Lock()
	cfg, known := storageState.configs[props[storageConfigProp]]
	if !known && storageState.embedded != nil {
		cfg, known = *storageState.embedded, true
	}
	storageState.mu.Unlock()

	endpoint := serviceHostEndpoint(props[iceio.GCSServiceHost])
	if endpoint == "" {
		endpoint = props[iceio.GCSEndpoint]
	}
	jsonReads, _ := strconv.ParseBool(props[iceio.GCSUseJSONAPI])
	noAuth, _ := strconv.ParseBool(props[iceio.GCSNoAuth])
	vended := props[iceio.GCSOAuthToken]
	if ms, err := strconv.ParseInt(props[iceio.GCSOAuthExpiresAt], 10, 64); err == nil && vended != "" && known && time.Now().After(time.UnixMilli(ms)) {
		// A table object kept past its vended token's hour: the Config's
		// own credentials are better than a certain 401.
		vended = ""
	}

	if endpoint == "" && !jsonReads && !noAuth && vended == "" && known {
		return StorageClient(ctx, cfg)
	}
	if endpoint == "" && known {
		endpoint = cfg.GCSEndpoint
	}
	if endpoint != "" {
		jsonReads = true
	}
	var (
		cred string
		opts []option.ClientOption
	)
	switch {
	case noAuth:
		cred = "anonymous"
		opts = append(opts, option.WithoutAuthentication())
	case vended != "":
		sum := sha256.Sum256([]byte(vended))
		cred = "vended:" + hex.EncodeToString(sum[:])
		tok := &oauth2.Token{AccessToken: vended, TokenType: "Bearer"}
		if ms, err := strconv.ParseInt(props[iceio.GCSOAuthExpiresAt], 10, 64); err == nil {
			tok.Expiry = time.UnixMilli(ms)
		}
		opts = append(opts, option.WithTokenSource(oauth2.StaticTokenSource(tok)))
	case known:
		cred = "cfg:" + cfg.cacheKey()
		base, err := StorageClientOptions(ctx, cfg)
		if err != nil {
			return nil, err
		}
		opts = append(opts, base...)
	default:
		cred = "adc" // the storage library finds Application Default Credentials
	}
	if endpoint != "" {
		opts = append(opts, option.WithEndpoint(endpoint))
	}
	if jsonReads {
		opts = append(opts, storage.WithJSONReads())
	}
	key := cred + "\x00" + endpoint + "\x00" + strconv.FormatBool(jsonReads)
	if strings.HasPrefix(cred, "vended:") {
		key = "vended:" + endpoint + "\x00" + cred
	}
	return cachedClient(ctx, key, func() ([]option.ClientOption, error) { return opts, nil })
}
