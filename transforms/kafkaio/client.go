package kafkaio

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"cloud.google.com/go/compute/metadata"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl"
	"github.com/twmb/franz-go/pkg/sasl/oauth"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/google"

	"github.com/icebeam/icebeam/catalog"
)

// Security is how Read connects: TLS, and SASL with one of PLAIN,
// SCRAM-SHA-256, SCRAM-SHA-512 or OAUTHBEARER. Secrets are catalog.Secret
// values: "env:NAME" and "file:PATH" are read on each worker and never
// travel with the job; a literal does (it is redacted from logs and
// pipeline options, not from the job's graph).
type Security struct {
	// TLS connects with TLS, trusting the system's roots, or CAFile's
	// PEM certificates when set.
	TLS    bool
	CAFile string
	// SASLMechanism is "" (none), "PLAIN", "SCRAM-SHA-256",
	// "SCRAM-SHA-512" or "OAUTHBEARER".
	SASLMechanism string
	// Username and Password for PLAIN and SCRAM.
	Username string
	Password catalog.Secret
	// Token is OAUTHBEARER's bearer token. Without it, OAUTHBEARER uses the
	// worker's Google credentials (application default credentials, as
	// Google's Managed Service for Apache Kafka takes them), asking for a
	// fresh token before each one expires for as long as the job runs.
	Token catalog.Secret
}

// LogValue keeps slog from printing a literal secret: its JSON handler
// would marshal the struct, literal and all.
func (s Security) LogValue() slog.Value {
	return slog.GroupValue(
		slog.Bool("tls", s.TLS),
		slog.String("ca_file", s.CAFile),
		slog.String("sasl_mechanism", s.SASLMechanism),
		slog.String("username", s.Username),
		slog.String("password", s.Password.String()),
		slog.String("token", s.Token.String()),
	)
}

// saslRefused reports whether err is the cluster refusing the client's SASL
// login. A wrong password or mechanism does not heal: franz-go would try
// again on every request, and a read that waited for it would hang.
func saslRefused(err error) bool {
	return errors.Is(err, kerr.SaslAuthenticationFailed) ||
		errors.Is(err, kerr.UnsupportedSaslMechanism) ||
		errors.Is(err, kerr.IllegalSaslState)
}

// explain names the login a refused error is about (the broker's message
// does not always name the mechanism); other errors pass as they are.
func (c ReadConfig) explain(err error) error {
	if err == nil || !saslRefused(err) {
		return err
	}
	return fmt.Errorf("%w (the brokers refused the SASL %s login of user %q: a wrong password or mechanism, not tried again)", err, c.Security.SASLMechanism, c.Security.Username)
}

const (
	mechPlain       = "PLAIN"
	mechScram256    = "SCRAM-SHA-256"
	mechScram512    = "SCRAM-SHA-512"
	mechOAuthBearer = "OAUTHBEARER"
)

func (s Security) check() error {
	switch s.SASLMechanism {
	case "":
		if s.Username != "" || s.Password != "" || s.Token != "" {
			return fmt.Errorf("kafkaio: a username, password or token without a SASL mechanism")
		}
	case mechPlain, mechScram256, mechScram512:
		if s.Username == "" || s.Password == "" {
			return fmt.Errorf("kafkaio: SASL %s needs a username and a password", s.SASLMechanism)
		}
	case mechOAuthBearer:
	default:
		return fmt.Errorf("kafkaio: SASL mechanism %q (want %s, %s, %s or %s)", s.SASLMechanism, mechPlain, mechScram256, mechScram512, mechOAuthBearer)
	}
	return nil
}

// ClientOptions are the franz-go options every client of c starts from:
// the brokers, TLS and SASL, as Read connects.
func (c ReadConfig) ClientOptions() ([]kgo.Opt, error) {
	opts := []kgo.Opt{
		kgo.SeedBrokers(c.BootstrapServers...),
		kgo.ClientID("icebeam-kafkaio"),
		// A broker that is down is waited for, not failed on: the read
		// goes on when it is back.
		kgo.RetryTimeout(0),
	}
	sec := c.Security
	if sec.TLS {
		cfg := &tls.Config{MinVersion: tls.VersionTLS12}
		if sec.CAFile != "" {
			pem, err := os.ReadFile(sec.CAFile)
			if err != nil {
				return nil, fmt.Errorf("kafkaio: CA file: %w", err)
			}
			cfg.RootCAs = x509.NewCertPool()
			if !cfg.RootCAs.AppendCertsFromPEM(pem) {
				return nil, fmt.Errorf("kafkaio: CA file %s holds no PEM certificate", sec.CAFile)
			}
		}
		opts = append(opts, kgo.DialTLSConfig(cfg))
	}
	mech, err := sec.mechanism()
	if err != nil {
		return nil, err
	}
	if mech != nil {
		opts = append(opts, kgo.SASL(mech))
	}
	return opts, nil
}

func (s Security) mechanism() (sasl.Mechanism, error) {
	switch s.SASLMechanism {
	case "":
		return nil, nil
	case mechPlain, mechScram256, mechScram512:
		pass, err := s.Password.Resolve("kafka_password")
		if err != nil {
			return nil, err
		}
		switch s.SASLMechanism {
		case mechPlain:
			return plain.Auth{User: s.Username, Pass: pass}.AsMechanism(), nil
		case mechScram256:
			return scram.Auth{User: s.Username, Pass: pass}.AsSha256Mechanism(), nil
		default:
			return scram.Auth{User: s.Username, Pass: pass}.AsSha512Mechanism(), nil
		}
	case mechOAuthBearer:
		if s.Token != "" {
			tok := s.Token
			return oauth.Oauth(func(context.Context) (oauth.Auth, error) {
				// Resolved at each authentication, so a token file that
				// something outside renews is read anew.
				v, err := tok.Resolve("kafka_token")
				return oauth.Auth{Token: v}, err
			}), nil
		}
		src, err := newGoogleKafkaTokens()
		if err != nil {
			return nil, err
		}
		return oauth.Oauth(func(context.Context) (oauth.Auth, error) {
			v, err := src.token()
			return oauth.Auth{Token: v}, err
		}), nil
	}
	return nil, s.check()
}

// googleKafkaTokens makes the OAUTHBEARER tokens Google's Managed Service
// for Apache Kafka takes: a JWT-shaped string whose header names the
// GOOG_OAUTH2_TOKEN algorithm, whose claims name the principal (the
// service account's email), and whose third part is a Google access token.
type googleKafkaTokens struct {
	src   oauth2.TokenSource
	email string
}

func newGoogleKafkaTokens() (*googleKafkaTokens, error) {
	ctx := context.Background()
	creds, err := google.FindDefaultCredentials(ctx, "https://www.googleapis.com/auth/cloud-platform")
	if err != nil {
		return nil, fmt.Errorf("kafkaio: OAUTHBEARER without a token needs Google credentials: %w", err)
	}
	email, err := principal(ctx, creds)
	if err != nil {
		return nil, err
	}
	return &googleKafkaTokens{src: oauth2.ReuseTokenSource(nil, creds.TokenSource), email: email}, nil
}

// principal is the email of the account creds act for: a key file's
// client_email, else the metadata server's default service account.
func principal(ctx context.Context, creds *google.Credentials) (string, error) {
	var f struct {
		ClientEmail string `json:"client_email"`
	}
	if len(creds.JSON) > 0 && json.Unmarshal(creds.JSON, &f) == nil && f.ClientEmail != "" {
		return f.ClientEmail, nil
	}
	email, err := metadata.EmailWithContext(ctx, "default")
	if err != nil {
		return "", fmt.Errorf("kafkaio: OAUTHBEARER: the service account's email from the metadata server: %w", err)
	}
	return email, nil
}

func (g *googleKafkaTokens) token() (string, error) {
	t, err := g.src.Token()
	if err != nil {
		return "", fmt.Errorf("kafkaio: Google access token: %w", err)
	}
	enc := base64.RawURLEncoding
	header, _ := json.Marshal(map[string]string{"typ": "JWT", "alg": "GOOG_OAUTH2_TOKEN"})
	claims, _ := json.Marshal(map[string]any{
		"exp":   t.Expiry.Unix(),
		"iat":   time.Now().Unix(),
		"iss":   "Google",
		"scope": "kafka",
		"sub":   g.email,
	})
	return enc.EncodeToString(header) + "." + enc.EncodeToString(claims) + "." + enc.EncodeToString([]byte(t.AccessToken)), nil
}
