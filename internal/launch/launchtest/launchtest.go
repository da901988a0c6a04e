// Package launchtest checks a pipeline binary the way Dataflow will meet it:
// built by the Dockerfile's own `go build` line, its Flex Template
// metadata.json against the flags it defines, and the job it prints on
// --runner=dataflow --dry_run. The pipelines' main_test.go files use it; it
// needs the go command and the repository checkout, nothing on the network.
package launchtest

import (
	"bufio"
	"bytes"
	"debug/elf"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/icebeam/icebeam/catalog"
)

// RepoRoot is the directory holding go.mod, found from the working
// directory (a package directory under go test).
func RepoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("launchtest: no go.mod above the working directory")
		}
		dir = parent
	}
}

// BuildCommand is the Dockerfile's `go build` RUN instruction, with its
// continuation lines joined and its spaces collapsed. It runs under sh with the build arguments
// (PIPELINE, VERSION) as environment variables, as docker runs it.
func BuildCommand(dockerfile string) (string, error) {
	b, err := os.ReadFile(dockerfile)
	if err != nil {
		return "", err
	}
	// Instructions, with continuation lines joined.
	var instrs []string
	var cur string
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if cur == "" && (line == "" || strings.HasPrefix(line, "#")) {
			continue
		}
		cur += " " + strings.TrimSuffix(line, "\\")
		if !strings.HasSuffix(line, "\\") {
			instrs = append(instrs, strings.Join(strings.Fields(cur), " "))
			cur = ""
		}
	}
	var cmd string
	for _, in := range instrs {
		if strings.HasPrefix(in, "RUN ") && strings.Contains(in, "go build") {
			if cmd != "" {
				return "", fmt.Errorf("%s: more than one RUN instruction with go build", dockerfile)
			}
			cmd = strings.TrimPrefix(in, "RUN ")
		}
	}
	if cmd == "" {
		return "", fmt.Errorf("%s: no RUN instruction with go build", dockerfile)
	}
	return strings.Join(strings.Fields(cmd), " "), nil
}

// Build runs the Dockerfile's build line for pipeline (taxi or clicks) with
// the given version, writing the binary into dir instead of the image's /out,
// and returns the binary's path.
func Build(t testing.TB, pipeline, version, dir string) string {
	t.Helper()
	root := RepoRoot(t)
	cmd, err := BuildCommand(filepath.Join(root, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(cmd, " -o /out/") {
		t.Fatalf("Dockerfile build line %q does not write to /out/", cmd)
	}
	cmd = strings.ReplaceAll(cmd, " -o /out/", " -o "+dir+"/")
	c := exec.Command("sh", "-c", cmd)
	c.Dir = root
	c.Env = append(os.Environ(), "PIPELINE="+pipeline, "VERSION="+version)
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cmd, err, out)
	}
	bin := filepath.Join(dir, "pipeline")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("%s wrote no %s: %v", cmd, bin, err)
	}
	return bin
}

// Binary is a pipeline binary built at most once per test process, by
// Build, into a temporary directory. Call Remove from TestMain after m.Run.
type Binary struct {
	Pipeline string // taxi or clicks
	Version  string

	once      sync.Once
	dir, path string
}

// Path builds the binary on first use and returns its path.
func (b *Binary) Path(t testing.TB) string {
	t.Helper()
	b.once.Do(func() {
		dir, err := os.MkdirTemp("", "icebeam-"+b.Pipeline+"-bin-")
		if err != nil {
			t.Fatal(err)
		}
		b.dir = dir
		b.path = Build(t, b.Pipeline, b.Version, dir)
	})
	if b.path == "" {
		t.Fatal("the pipeline binary did not build (see the first failing test)")
	}
	return b.path
}

// Remove deletes the binary's directory.
func (b *Binary) Remove() {
	if b.dir != "" {
		os.RemoveAll(b.dir)
	}
}

// CheckStatic returns an error unless path is a linux/amd64 ELF executable
// that needs no dynamic loader or shared library, so it runs on any image.
func CheckStatic(path string) error {
	f, err := elf.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if f.Machine != elf.EM_X86_64 || f.Class != elf.ELFCLASS64 {
		return fmt.Errorf("%s: machine %v %v, want EM_X86_64 64-bit", path, f.Machine, f.Class)
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return fmt.Errorf("%s: has a program interpreter (dynamically linked)", path)
		}
	}
	libs, err := f.ImportedLibraries()
	if err != nil {
		return err
	}
	if len(libs) > 0 {
		return fmt.Errorf("%s: needs shared libraries %v", path, libs)
	}
	return nil
}

// Metadata is a Flex Template metadata.json.
type Metadata struct {
	Name        string      `json:"name"`
	Description string      `json:"description"`
	Streaming   bool        `json:"streaming"`
	Parameters  []Parameter `json:"parameters"`
}

// Parameter is one template parameter: a flag of the pipeline.
type Parameter struct {
	Name       string   `json:"name"`
	Label      string   `json:"label"`
	HelpText   string   `json:"helpText"`
	IsOptional bool     `json:"isOptional"`
	Regexes    []string `json:"regexes"`
}

// ReadMetadata decodes path, rejecting fields the format does not have.
func ReadMetadata(path string) (Metadata, error) {
	var md Metadata
	b, err := os.ReadFile(path)
	if err != nil {
		return md, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&md); err != nil {
		return md, fmt.Errorf("%s: %w", path, err)
	}
	return md, nil
}

// MetadataSpec is what CheckMetadata holds a metadata.json to.
type MetadataSpec struct {
	// Flags is the pipeline's flag set (flag.CommandLine in its test).
	Flags *flag.FlagSet
	// Own are the flags the pipeline itself defines: its main's and the
	// catalog's. Each must be a parameter or listed in Excluded.
	Own []string
	// Excluded maps own flags left out of the template to why.
	Excluded map[string]string
	// Required are the flags a remote run cannot do without: parameters
	// with isOptional false, and no others.
	Required []string
	// Bad maps every parameter with regexes to a value they must reject.
	Bad map[string]string
}

// CheckMetadata returns every way md disagrees with spec.
func CheckMetadata(md Metadata, spec MetadataSpec) []error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if md.Name == "" || md.Description == "" {
		bad("name and description must be set")
	}
	required := map[string]bool{}
	for _, r := range spec.Required {
		required[r] = true
	}
	seen := map[string]bool{}
	for _, p := range md.Parameters {
		if seen[p.Name] {
			bad("parameter %q listed twice", p.Name)
		}
		seen[p.Name] = true
		f := spec.Flags.Lookup(p.Name)
		if f == nil {
			bad("parameter %q is not a flag of the pipeline", p.Name)
			continue
		}
		if _, ok := spec.Excluded[p.Name]; ok {
			bad("parameter %q is listed as excluded: %s", p.Name, spec.Excluded[p.Name])
		}
		if p.Label == "" || p.HelpText == "" {
			bad("parameter %q needs a label and helpText", p.Name)
		}
		if p.IsOptional == required[p.Name] {
			bad("parameter %q: isOptional %v, but required is %v", p.Name, p.IsOptional, required[p.Name])
		}
		for _, expr := range p.Regexes {
			re, err := regexp.Compile(expr)
			if err != nil {
				bad("parameter %q: regex %q: %v", p.Name, expr, err)
				continue
			}
			if !strings.HasPrefix(expr, "^") || !strings.HasSuffix(expr, "$") {
				bad("parameter %q: regex %q must be anchored (^...$)", p.Name, expr)
			}
			if def := f.DefValue; def != "" && !re.MatchString(def) {
				bad("parameter %q: regex %q rejects the flag's default %q", p.Name, expr, def)
			}
			if v, ok := spec.Bad[p.Name]; !ok {
				bad("parameter %q has regexes but no bad value to test them with", p.Name)
			} else if re.MatchString(v) {
				bad("parameter %q: regex %q accepts the bad value %q", p.Name, expr, v)
			}
		}
	}
	for _, name := range spec.Own {
		_, excluded := spec.Excluded[name]
		if !seen[name] && !excluded {
			bad("flag --%s is neither a template parameter nor excluded with a reason", name)
		}
	}
	for _, name := range spec.Required {
		if !seen[name] {
			bad("required flag --%s is not a template parameter", name)
		}
	}
	return errs
}

// FlagsDefinedIn lists the flags a Go file defines with flag.String,
// flag.Int, flag.Var and the like: the names in their string-literal
// arguments.
func FlagsDefinedIn(path string) ([]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		return nil, err
	}
	var names []string
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "flag" {
			return true
		}
		idx := 0 // flag.String("name", ...)
		if strings.HasSuffix(sel.Sel.Name, "Var") {
			idx = 1 // flag.StringVar(&v, "name", ...), flag.Var(v, "name", ...)
		}
		if len(call.Args) > idx {
			if lit, ok := call.Args[idx].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil {
					names = append(names, s)
				}
			}
		}
		return true
	})
	return names, nil
}

// Job is the part of a printed Dataflow job the tests look at.
type Job struct {
	Name        string `json:"name"`
	ProjectID   string `json:"projectId"`
	Type        string `json:"type"`
	Environment struct {
		SdkPipelineOptions json.RawMessage `json:"sdkPipelineOptions"`
		WorkerPools        []struct {
			Packages []struct {
				Name     string `json:"name"`
				Location string `json:"location"`
			} `json:"packages"`
		} `json:"workerPools"`
	} `json:"environment"`
}

// Run runs bin with args and returns its combined output and exit error.
func Run(t testing.TB, dir, bin string, env []string, args ...string) (string, error) {
	t.Helper()
	c := exec.Command(bin, args...)
	c.Dir = dir
	c.Env = append(os.Environ(), env...)
	out, err := c.CombinedOutput()
	return string(out), err
}

// PrintedJob finds the Dataflow job that --dry_run logs: the log message
// that is a JSON object with a "type" field.
func PrintedJob(output string) (Job, error) {
	for _, line := range strings.Split(output, "\n") {
		i := strings.Index(line, " msg=")
		if i < 0 {
			continue
		}
		q, err := strconv.QuotedPrefix(line[i+len(" msg="):])
		if err != nil {
			continue
		}
		msg, err := strconv.Unquote(q)
		if err != nil || !strings.HasPrefix(msg, "{") {
			continue
		}
		var job Job
		if json.Unmarshal([]byte(msg), &job) == nil && job.Type != "" {
			return job, nil
		}
	}
	return Job{}, errors.New("no Dataflow job in the output")
}

// CatalogFlags are the flags catalog.Config.RegisterFlags defines, which
// every pipeline has.
func CatalogFlags() []string {
	fs := flag.NewFlagSet("catalog", flag.ContinueOnError)
	var c catalog.Config
	c.RegisterFlags(fs)
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return names
}

// CatalogExcluded are the catalog flags no template offers, and why.
var CatalogExcluded = map[string]string{
	"local_dir":    "the embedded catalog runs on the launching machine, out of the workers' reach",
	"gcs_endpoint": "points Cloud Storage at a local emulator, which workers cannot reach",
	"project":      "Beam's --project: the launcher sets it to the job's project, which --catalog=biglake uses",
}

// CatalogBad are values the catalog parameters' regexes must reject.
var CatalogBad = map[string]string{
	"catalog":           "glue",
	"catalog_uri":       "catalog.example.com",
	"catalog_name":      "my catalog",
	"warehouse":         "/local/warehouse",
	"ref":               "feature branch",
	"auth":              "basic",
	"credential":        "secret-without-client-id",
	"oauth2_server_uri": "ftp://tokens.example.com",
	"scope":             " catalog",
	"token":             "two words",
	"header":            "NoValue",
}

// Merge returns a new map with the entries of all ms.
func Merge[V any](ms ...map[string]V) map[string]V {
	out := map[string]V{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// Tail is the end of a command's output, for failure messages: the printed
// job alone runs to thousands of lines, and the error comes last.
func Tail(out string) string {
	const n = 4000
	if len(out) <= n {
		return out
	}
	return "...\n" + out[len(out)-n:]
}

// DryRun describes a `--runner=dataflow --dry_run` of a pipeline binary, as
// a person and as the Flex Template launcher would start it.
type DryRun struct {
	Pipeline string   // binary name, logged with the version at start
	Version  string   // the version stamped into the binary
	JobType  string   // JOB_TYPE_BATCH or JOB_TYPE_STREAMING
	Args     []string // besides the runner, project, region and staging flags
	Secret   string   // a literal secret in Args that must appear nowhere
	// Output and Options must appear in the output and in the job's
	// pipeline options.
	Output, Options []string
}

// DataflowArgs submit nothing and need no network: --dry_run prints the job.
var DataflowArgs = []string{
	"--runner=dataflow", "--dry_run",
	"--project=p", "--region=us-central1", "--staging_location=gs://b/staging",
}

// CheckDryRun runs bin as spec says, once from a command line and once as
// the Flex Template launcher, and checks the printed job: its type, the
// worker binary staged, launcher options dropped, --async only under the
// launcher, no secret anywhere, and no catalog call (a dry run commits
// nothing, so there is nothing to read back).
func CheckDryRun(t *testing.T, bin string, spec DryRun) {
	t.Helper()
	args := append(append([]string{}, DataflowArgs...), spec.Args...)
	for _, flex := range []bool{false, true} {
		name := map[bool]string{false: "command line", true: "flex template launcher"}[flex]
		t.Run(name, func(t *testing.T) {
			var env []string
			args := args
			if flex {
				env = append(env, "FLEX_TEMPLATE_GO_BINARY="+bin)
				// Unknown to us, so added by the launcher: dropped.
				args = append(args[:len(args):len(args)], "--some_future_launcher_option=1")
			}
			out, err := Run(t, t.TempDir(), bin, env, args...)
			if err != nil {
				t.Fatalf("%v\n%s", err, Tail(out))
			}
			job, err := PrintedJob(out)
			if err != nil {
				t.Fatalf("%v\n%s", err, Tail(out))
			}
			if job.Type != spec.JobType || job.ProjectID != "p" {
				t.Errorf("job type %q in project %q, want %s in p", job.Type, job.ProjectID, spec.JobType)
			}
			if !stagesWorker(job) {
				t.Errorf("job stages no worker package under gs://b/staging: %+v", job.Environment.WorkerPools)
			}
			for _, want := range append([]string{"--worker_binary=" + bin, spec.Pipeline + " " + spec.Version}, spec.Output...) {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q", want)
				}
			}
			if flex && !strings.Contains(out, "ignoring Dataflow launcher option --some_future_launcher_option") {
				t.Error("the launcher's unknown flag was not dropped")
			}
			if got := strings.Contains(out, "launch: --async"); got != flex {
				t.Errorf("--async set: %v, want %v (only inside the Flex Template launcher)", got, flex)
			}
			opts := string(job.Environment.SdkPipelineOptions)
			for _, want := range append([]string{`"[redacted]"`}, spec.Options...) {
				if !strings.Contains(opts, want) {
					t.Errorf("pipeline options lack %s: %s", want, opts)
				}
			}
			if spec.Secret != "" && strings.Contains(out, spec.Secret) {
				t.Error("the literal secret appears in the output")
			}
			if strings.Contains(out, "Wrote Iceberg table") || strings.Contains(out, "example.invalid/catalog/v1") {
				t.Errorf("the dry run tried to read the table back:\n%s", Tail(out))
			}
		})
	}
}

func stagesWorker(job Job) bool {
	for _, wp := range job.Environment.WorkerPools {
		for _, p := range wp.Packages {
			if p.Name == "worker" && strings.HasPrefix(p.Location, "gs://b/staging/") {
				return true
			}
		}
	}
	return false
}

// icebeamBin is the icebeam command built for this test process.
var icebeamBin struct {
	sync.Mutex
	path string
}

// Icebeam builds cmd/icebeam (once per test process, again if the test that
// built it has cleaned its directory up) and returns its path.
func Icebeam(t testing.TB) string {
	t.Helper()
	icebeamBin.Lock()
	defer icebeamBin.Unlock()
	if icebeamBin.path != "" {
		if _, err := os.Stat(icebeamBin.path); err == nil {
			return icebeamBin.path
		}
	}
	bin := filepath.Join(t.TempDir(), "icebeam")
	build := exec.Command("go", "build", "-o", bin, "./cmd/icebeam")
	build.Dir = RepoRoot(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/icebeam: %v\n%s", err, out)
	}
	icebeamBin.path = bin
	return bin
}

// lookLine is the command a pipeline prints for people to look at what it
// wrote.
var lookLine = regexp.MustCompile(`(?m)^Look at it: go run \./cmd/icebeam (.+)$`)

// CheckLookCommand runs the command a pipeline's output printed to look at
// its table, as printed but with the icebeam binary instead of go run, in
// dir (where the pipeline ran: a default --local_dir is relative to it),
// and fails t unless there is one and it succeeds. It returns its output.
func CheckLookCommand(t testing.TB, out, dir string) string {
	t.Helper()
	m := lookLine.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("the output prints no command to look at the table:\n%s", Tail(out))
	}
	c := exec.Command(Icebeam(t), strings.Fields(m[1])...)
	c.Dir = dir
	got, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("the printed command go run ./cmd/icebeam %s failed: %v\n%s", m[1], err, Tail(string(got)))
	}
	return string(got)
}
