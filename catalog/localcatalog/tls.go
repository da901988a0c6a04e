package localcatalog

import (
	"crypto/tls"
	"errors"
	"fmt"
)

// serverTLS loads Options.TLSCert and Options.TLSKey, or returns nil when
// neither is set.
func serverTLS(opts Options) (*tls.Config, error) {
	switch {
	case opts.TLSCert == "" && opts.TLSKey == "":
		return nil, nil
	case opts.TLSCert == "" || opts.TLSKey == "":
		return nil, errors.New("localcatalog: TLS needs both a certificate and a key (Options.TLSCert and Options.TLSKey)")
	}
	cert, err := tls.LoadX509KeyPair(opts.TLSCert, opts.TLSKey)
	if err != nil {
		return nil, fmt.Errorf("localcatalog: loading TLS certificate %s and key %s: %w", opts.TLSCert, opts.TLSKey, err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}
