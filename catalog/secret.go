package catalog

import (
	"fmt"
	"log/slog"
	"os"
	"sort"
	"strings"
)

// Secret is a credential given on the command line (--credential, --token):
// either a reference, "env:NAME" (the environment variable NAME) or
// "file:PATH" (the file's contents without surrounding whitespace), or a
// literal value. References are resolved where the credential is used, on
// the launching machine and again on every worker.
//
// Why references exist: Beam records the String form of every flag that was
// set as a pipeline option, and Dataflow shows pipeline options in the job
// description; a Config also travels as JSON inside every DoFn, which Beam
// stages with the job graph. With a reference only "env:NAME" travels, and
// each worker reads the value itself, so the variable or file must exist on
// the workers too (container environment, mounted secret file). A literal
// needs no setup, and its String, GoString, fmt and slog forms (and so the
// pipeline option) print "[redacted]", but its JSON form does not, because
// the workers need it: a literal secret ends up inside the serialized job.
// Use literals for local runs only. On Google Cloud prefer --auth=google,
// which carries no secret at all: every worker asks its own service account.
type Secret string

const redacted = "[redacted]"

// IsReference reports whether s names where the secret is rather than
// holding it.
func (s Secret) IsReference() bool {
	return strings.HasPrefix(string(s), "env:") || strings.HasPrefix(string(s), "file:")
}

// String prints references as they are and literals as "[redacted]".
func (s Secret) String() string {
	if s == "" || s.IsReference() {
		return string(s)
	}
	return redacted
}

// GoString keeps %#v from printing a literal.
func (s Secret) GoString() string { return fmt.Sprintf("catalog.Secret(%q)", s.String()) }

// LogValue keeps slog from printing a literal.
func (s Secret) LogValue() slog.Value { return slog.StringValue(s.String()) }

// Resolve returns the secret's value. flagName names the flag in errors,
// which never contain the value.
func (s Secret) Resolve(flagName string) (string, error) {
	switch {
	case strings.HasPrefix(string(s), "env:"):
		name := strings.TrimPrefix(string(s), "env:")
		v, ok := os.LookupEnv(name)
		if !ok || v == "" {
			return "", fmt.Errorf("catalog: --%s=%s: environment variable %s is not set on this machine", flagName, s, name)
		}
		return v, nil
	case strings.HasPrefix(string(s), "file:"):
		p := strings.TrimPrefix(string(s), "file:")
		b, err := os.ReadFile(p)
		if err != nil {
			return "", fmt.Errorf("catalog: --%s=%s: %w", flagName, s, err)
		}
		v := strings.TrimSpace(string(b))
		if v == "" {
			return "", fmt.Errorf("catalog: --%s=%s: file %s is empty", flagName, s, p)
		}
		return v, nil
	}
	return string(s), nil
}

// Set makes *Secret a flag.Value, whose String form is what Beam records
// as the pipeline option: a literal prints redacted.
func (s *Secret) Set(v string) error {
	*s = Secret(v)
	return nil
}

// headerFlag is the repeatable --header=NAME=VALUE flag.
type headerFlag struct{ m *map[string]string }

func (f headerFlag) String() string {
	if f.m == nil || len(*f.m) == 0 {
		return ""
	}
	var kv []string
	for k, v := range *f.m {
		kv = append(kv, k+"="+v)
	}
	sort.Strings(kv)
	return strings.Join(kv, ",")
}

func (f headerFlag) Set(v string) error {
	name, value, ok := strings.Cut(v, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" || strings.ContainsAny(name, " \t:") {
		return fmt.Errorf("want NAME=VALUE")
	}
	// Header values are printed (they are pipeline options), so credentials
	// must come through --auth, whose secrets are redacted.
	if strings.EqualFold(name, "Authorization") {
		return fmt.Errorf("use --auth=bearer --token=... (or --auth=google/oauth2) instead of an Authorization header")
	}
	if *f.m == nil {
		*f.m = map[string]string{}
	}
	(*f.m)[name] = value
	return nil
}
