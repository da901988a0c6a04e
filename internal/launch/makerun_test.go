package launch

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMakeRunProgress runs the awk filter `make run` puts after `go build -v`
// (taken from the Makefile) over what a first build prints: package paths,
// some of which contain "errors", then a failed package. It must print
// progress every 100 packages and the compiler's own lines, and no package
// path, which a user reads as an error.
func TestMakeRunProgress(t *testing.T) {
	awk, err := exec.LookPath("awk")
	if err != nil {
		t.Skip("no awk")
	}
	makefile, err := os.ReadFile(filepath.Join("..", "..", "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`build -v -o \.cache/bin/taxi \./pipelines/taxi 2>&1 \| \\\n\s*awk '([^']+)'`).FindSubmatch(makefile)
	if m == nil {
		t.Fatal("the Makefile's run target pipes go build -v through no awk filter")
	}
	var in strings.Builder
	for i := range 250 {
		switch i % 5 {
		case 0:
			fmt.Fprintf(&in, "github.com/goccy/go-json/internal/errors\n")
		case 1:
			fmt.Fprintf(&in, "errors\n")
		case 2:
			fmt.Fprintf(&in, "github.com/pkg/errors\n")
		default:
			fmt.Fprintf(&in, "github.com/apache/beam/sdks/v2/go/pkg/beam/core/p%d\n", i)
		}
	}
	in.WriteString("# github.com/icebeam/icebeam/pipelines/taxi\n./main.go:12:3: undefined: foo\n")
	cmd := exec.Command(awk, string(m[1]))
	cmd.Stdin = strings.NewReader(in.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("awk '%s': %v", m[1], err)
	}
	want := "  100 packages compiled\n  200 packages compiled\n# github.com/icebeam/icebeam/pipelines/taxi\n./main.go:12:3: undefined: foo\n"
	if string(out) != want {
		t.Errorf("make run's progress filter printed\n%s\nwant\n%s", out, want)
	}
}
