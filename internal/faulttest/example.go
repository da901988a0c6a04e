package faulttest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/icebeam/icebeam/internal/jobservertest"
)

// BuildExample compiles the main package of the test's directory (an
// example, a user's program) as a user would, with go build, into a
// temporary directory.
func BuildExample(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "example")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// RunExample runs bin against c with args, its credential in the
// environment variable credentialEnv, submitting to js (nil: on prism);
// the job must exit 0.
func (c *Catalog) RunExample(t testing.TB, js *jobservertest.Server, bin, credentialEnv string, args ...string) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{
		"--catalog_uri=" + c.URL, "--auth=oauth2", "--credential=env:" + credentialEnv,
	}, args...)...)
	cmd.Env = append(os.Environ(), credentialEnv+"="+c.Tokens.Credential())
	if _, err := js.Run(t, 6*time.Minute, cmd); err != nil {
		t.Fatalf("%s %v: %v", filepath.Base(bin), args, err)
	}
}
