package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/icebeam/icebeam/internal/jobservertest"
	"github.com/icebeam/icebeam/internal/launch/launchtest"
)

// kitTests is how many tests Iceberg 1.10.1's REST Compatibility Kit holds
// (CatalogTests and ViewCatalogTests, parameterized cases counted), and
// kitSkips how many of them it skips itself against a catalog that, like
// the reference JDBC one, has no empty or nested namespaces and no dots in
// names (its assumptions).
const kitTests, kitSkips = 149, 8

// TestCompatibilityKit runs Apache Iceberg's REST Compatibility Kit
// (scripts/rck.sh: the kit's own JUnit classes from Maven Central) against
// `icebeam serve`: every test passes but those the kit skips.
func TestCompatibilityKit(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the Iceberg REST Compatibility Kit (Java)")
	}
	for _, tool := range []string{"java", "mvn"} {
		if _, err := exec.LookPath(tool); err != nil {
			if jobservertest.Required() {
				t.Fatalf("the compatibility kit needs %s (JOBSERVER=require)", tool)
			}
			t.Skipf("the compatibility kit needs %s", tool)
		}
	}
	// Some kit tests place tables and views under file:/tmp (CatalogTests'
	// BASE_TABLE_LOCATION) or in their own temporary directories (the kit's
	// java.io.tmpdir is made one of the test's), which the server must be
	// told to allow.
	kitTmp := t.TempDir()
	url, _, _ := serve(t, "--addr", "127.0.0.1:0", "--local_dir", t.TempDir(),
		"--allow_location", "file:/tmp", "--allow_location", kitTmp)
	reports := t.TempDir()
	cmd := exec.Command(filepath.Join(launchtest.RepoRoot(t), "scripts", "rck.sh"), "run", url+"/")
	cmd.Env = append(os.Environ(), "RCK_REPORTS="+reports, "RCK_JAVA_OPTS=-Djava.io.tmpdir="+kitTmp)
	out, err := cmd.CombinedOutput()
	m := regexp.MustCompile(`(?m)^rck: (\d+) passed, (\d+) failed, (\d+) skipped$`).FindSubmatch(out)
	if err != nil || m == nil {
		t.Fatalf("the compatibility kit failed (%v); the whole run is in %s/console.log:\n%s", err, reports, out)
	}
	passed, _ := strconv.Atoi(string(m[1]))
	skipped, _ := strconv.Atoi(string(m[3]))
	if passed != kitTests-kitSkips || skipped != kitSkips {
		t.Fatalf("the compatibility kit ran %d tests and skipped %d; want %d and %d:\n%s",
			passed, skipped, kitTests-kitSkips, kitSkips, out)
	}
	t.Logf("%s", m[0])
}
