package launch

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/icebeam/icebeam/catalog"
)

// runnerFlags are the flags defined before a pipeline's main package runs:
// Beam's and this package's own. This init runs after those of the packages
// launch imports and before the main package defines its flags.
var runnerFlags = map[string]bool{}

func init() {
	flag.VisitAll(func(f *flag.Flag) { runnerFlags[f.Name] = true })
	flag.CommandLine.Usage = func() { usage(os.Stderr, flag.CommandLine) }
}

// Synopsis is the one paragraph --help prints under the usage line; a
// pipeline sets it before Parse.
var Synopsis string

// usage prints the job's own flags, then the catalog's, then the names of
// the runner flags (described by --help_runner).
func usage(w io.Writer, fs *flag.FlagSet) {
	name := filepath.Base(os.Args[0])
	fmt.Fprintf(w, "Usage: %s [flags]\n\n", name)
	if Synopsis != "" {
		fmt.Fprintf(w, "%s\n\n", Synopsis)
	}
	var cat catalog.Config
	catalogSet := flag.NewFlagSet("catalog", flag.ContinueOnError)
	cat.RegisterFlags(catalogSet)
	var own, catalogFlags, runner []*flag.Flag
	fs.VisitAll(func(f *flag.Flag) {
		switch {
		case runnerFlags[f.Name]:
			runner = append(runner, f)
		case catalogSet.Lookup(f.Name) != nil:
			catalogFlags = append(catalogFlags, f)
		default:
			own = append(own, f)
		}
	})
	fmt.Fprintln(w, "Flags:")
	printFlags(w, own)
	fmt.Fprintln(w, "\nCatalog flags (empty --catalog_uri starts the embedded local catalog in --local_dir):")
	printFlags(w, catalogFlags)
	var names []string
	for _, f := range runner {
		names = append(names, "--"+f.Name)
	}
	fmt.Fprintf(w, "\nRunner flags: --runner (default prism, in this process; also dataflow, flink, spark, universal) and %d more\n", len(names)-1)
	fmt.Fprintf(w, "(--project, --region, --staging_location for Dataflow; --endpoint for a job server).\n")
	fmt.Fprintf(w, "Run %s --help_runner to describe them.\n", name)
}

// usageRunner describes the runner flags. Beam marks some "(required)";
// they are, on the runners that use them only.
func usageRunner(w io.Writer, fs *flag.FlagSet) {
	var runner []*flag.Flag
	fs.VisitAll(func(f *flag.Flag) {
		if runnerFlags[f.Name] {
			runner = append(runner, f)
		}
	})
	fmt.Fprintln(w, "Runner flags (each needed only on the runner that reads it):")
	printFlags(w, runner)
}

// printFlags prints flags as flag.PrintDefaults does, defaults included.
func printFlags(w io.Writer, flags []*flag.Flag) {
	slices.SortFunc(flags, func(a, b *flag.Flag) int { return strings.Compare(a.Name, b.Name) })
	for _, f := range flags {
		kind, help := flag.UnquoteUsage(f)
		help = strings.TrimSpace(strings.ReplaceAll(help, "(required)", ""))
		line := "  --" + f.Name
		if kind != "" {
			line += " " + kind
		}
		fmt.Fprintf(w, "%s\n    \t%s", line, strings.ReplaceAll(help, "\n", "\n    \t"))
		switch {
		case f.DefValue == "" || f.DefValue == "false" || f.DefValue == "0":
		case kind == "string":
			fmt.Fprintf(w, " (default %q)", f.DefValue)
		default:
			fmt.Fprintf(w, " (default %v)", f.DefValue)
		}
		fmt.Fprintln(w)
	}
}
