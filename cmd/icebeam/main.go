// Command icebeam is the operator's tool for icebeam lakehouses. Its
// subcommands share the catalog flag names of the pipelines: serve runs the
// local Iceberg REST catalog for pipelines and other engines to share,
// describe, snapshots and scan read tables from any catalog the pipelines
// can write to (local, REST with OAuth2 or a bearer token, BigLake, Nessie),
// ui serves a read-only web page of any such catalog (serve serves it too),
// and maintain runs pipelines/maintain's table maintenance in-process.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// command is one subcommand. run gets the arguments after the subcommand
// name and returns when the work is done or ctx is cancelled.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// commands lists the subcommands in the order help shows them.
var commands = []command{
	{name: "serve", summary: "serve the local Iceberg REST catalog", run: runServe},
	{name: "describe", summary: "print a table's schema, partition spec, properties, location and snapshot", run: runDescribe},
	{name: "snapshots", summary: "list a table's snapshots with their commit summaries", run: runSnapshots},
	{name: "scan", summary: "print a table's rows (at a ref or snapshot) as a table, CSV or JSON", run: runScan},
	{name: "ui", summary: "serve a read-only web page of a catalog's tables, snapshots and rows (any REST catalog)", run: runUI},
	{name: "maintain", summary: "compact small files, rewrite manifests, expire snapshots, remove orphan files (--dry_run first)", run: runMaintain},
}

// errUsage means the arguments were wrong; the message has been printed.
var errUsage = errors.New("usage error")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case err == nil:
	case errors.Is(err, errUsage):
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "icebeam:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		usage(stderr)
		return errUsage
	}
	name := args[0]
	if name == "help" || name == "-h" || name == "--help" || name == "-help" {
		if len(args) > 1 {
			for _, c := range commands {
				if c.name == args[1] {
					if err := c.run(ctx, []string{"-h"}, stdout, stdout); !errors.Is(err, flag.ErrHelp) {
						return err
					}
					return nil
				}
			}
		}
		usage(stdout)
		return nil
	}
	for _, c := range commands {
		if c.name == name {
			err := c.run(ctx, args[1:], stdout, stderr)
			if errors.Is(err, flag.ErrHelp) {
				return nil
			}
			return err
		}
	}
	fmt.Fprintf(stderr, "icebeam: unknown command %q\n\n", name)
	usage(stderr)
	return errUsage
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "Usage: icebeam <command> [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "  %-10s %s\n", "help", "show this list, or a command's flags (icebeam help serve)")
}

// newFlagSet returns a flag set that reports errors instead of exiting, so
// commands run the same in tests as from the shell.
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("icebeam "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parseFlags parses args into fs. A mistake, which fs has reported along
// with its usage, is errUsage; -help is flag.ErrHelp, which run does not
// count as a failure.
func parseFlags(fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		return errUsage
	}
	return err
}

// parseOnlyFlags is parseFlags for a command that takes flags alone: any
// other argument is a mistake.
func parseOnlyFlags(fs *flag.FlagSet, args []string) error {
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "%s: unexpected arguments %q\n", fs.Name(), fs.Args())
		fs.Usage()
		return errUsage
	}
	return nil
}
