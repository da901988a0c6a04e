package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/internal/launch"
	"github.com/icebeam/icebeam/transforms/icebergio"
)

// tableCommits is what one run committed to one table.
type tableCommits struct {
	name      string
	snapshots int
	rows      int64
	total     string // the table's rows now, from its current snapshot
	// partial: the catalog served only part of the table's history (Nessie
	// serves the current snapshot alone; expiry drops old ones), so the
	// writer may have committed more than its snapshots here say.
	partial bool
}

// committedBy finds what writer committed to the tables dest names (a
// table, or a template such as clicks.user_{user_id}): the writer's totals
// (icebergio.CommittedBy), else its snapshots in the history the catalog
// serves.
func committedBy(ctx context.Context, cfg catalog.Config, dest, writer string) ([]tableCommits, error) {
	cat, err := catalog.Open(ctx, cfg)
	if err != nil {
		return nil, err
	}
	var names []string
	if prefix, _, templated := strings.Cut(dest, "{"); templated {
		ns, tablePrefix, _ := strings.Cut(prefix, ".")
		for ident, err := range cat.ListTables(ctx, table.Identifier{ns}) {
			if err != nil {
				return nil, fmt.Errorf("listing namespace %s: %w", ns, err)
			}
			if name := ident[len(ident)-1]; strings.HasPrefix(name, tablePrefix) {
				names = append(names, ns+"."+name)
			}
		}
		slices.Sort(names)
	} else {
		names = []string{dest}
	}
	var out []tableCommits
	for _, name := range names {
		ns, tbl, _ := strings.Cut(name, ".")
		t, err := cat.LoadTable(ctx, table.Identifier{ns, tbl})
		if err != nil {
			return nil, fmt.Errorf("loading table %s: %w", name, err)
		}
		c := tableCommits{name: name}
		meta := t.Metadata()
		for _, snap := range meta.Snapshots() {
			if snap.ParentSnapshotID != nil && meta.SnapshotByID(*snap.ParentSnapshotID) == nil {
				c.partial = true
			}
			if snap.Summary == nil || !strings.HasPrefix(snap.Summary.Properties[icebergio.CommitIDKey], writer+"/") {
				continue
			}
			c.snapshots++
			n, _ := strconv.ParseInt(snap.Summary.Properties["added-records"], 10, 64)
			c.rows += n
		}
		// The writer's own totals, kept in the table's properties, count
		// what it committed whatever history the catalog serves.
		if commits, rows, ok := icebergio.CommittedBy(t, writer); ok {
			c.snapshots, c.rows, c.partial = int(commits), rows, false
		}
		if cur := t.CurrentSnapshot(); cur != nil && cur.Summary != nil {
			c.total = cur.Summary.Properties["total-records"]
		}
		if c.snapshots > 0 {
			out = append(out, c)
		}
	}
	return out, nil
}

// printSummary says what the run committed, where, and how to look.
func printSummary(w io.Writer, cfg catalog.Config, flags catalog.Config, commits []tableCommits, took time.Duration) {
	var rows int64
	var snaps int
	atLeast := ""
	for _, c := range commits {
		rows += c.rows
		snaps += c.snapshots
		if c.partial {
			atLeast = "at least "
		}
	}
	where := launch.Where(cfg, flags)
	if len(commits) == 0 {
		fmt.Fprintf(w, "Committed nothing in %s (%s).\n", took.Round(time.Second), where)
		return
	}
	fmt.Fprintf(w, "Committed %s%d rows in %d snapshots to %d table(s) in %s (%s):\n", atLeast, rows, snaps, len(commits), took.Round(time.Second), where)
	for _, c := range commits {
		fmt.Fprintf(w, "  %s: %d rows in %d snapshots; the table now holds %s rows\n", c.name, c.rows, c.snapshots, c.total)
	}
	if atLeast != "" {
		fmt.Fprintln(w, "  (counted from the snapshots the catalog still serves: it returns only part of the table's history)")
	}
	fmt.Fprintf(w, "Look at it: %s\n", launch.LookCommand("snapshots", commits[0].name, flags))
}
