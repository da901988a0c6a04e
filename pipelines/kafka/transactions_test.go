package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/internal/debeziumtest"
	"github.com/icebeam/icebeam/internal/kafkatest"
	"github.com/icebeam/icebeam/internal/launch"
	"github.com/icebeam/icebeam/internal/launch/launchtest"
	"github.com/icebeam/icebeam/internal/pgtest"
	"github.com/icebeam/icebeam/internal/syncbuf"
	"github.com/icebeam/icebeam/transforms/icebergio"
)

// With Debezium's transaction metadata on, a source transaction that
// changes two tables lands whole: orders and their lines are written,
// rewritten and deleted together, in transactions of up to 80 changes,
// while windows close every second; at every commit of the job, each
// order has exactly the lines its last transaction gave it, and every line
// its order. The job is stopped with SIGINT mid-stream and a --bounded run
// finishes; the tables then equal PostgreSQL's.
func TestDebeziumTransactionsWhole(t *testing.T) {
	debeziumtest.SkipUnlessJava(t)
	b := kafkatest.Shared(t)
	pg := pgtest.Start(t)
	pg.Exec(t, append(ordersDDL, "CREATE TABLE marker (id int PRIMARY KEY)", "INSERT INTO marker VALUES (0)")...)
	rng := rand.New(rand.NewPCG(5, 8))
	var live []int
	next := 0
	work := func(n int) {
		for range n {
			pg.Exec(t, orderTransaction(rng, &live, &next))
		}
	}
	work(20)
	dbz := debeziumtest.StartWith(t, b.Bootstrap(), pg, debeziumtest.Options{Prefix: "whole", Transactions: true})
	cfg, stop, err := launch.Catalog(context.Background(), catalog.Config{LocalDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = stop() })
	args := []string{"--catalog_uri=" + cfg.URI, "--bootstrap_servers=" + b.Bootstrap(), `--topic_pattern=whole\.public\..*`,
		"--format=debezium", "--triggering_frequency_seconds=1"}
	dir := t.TempDir()
	cmd := exec.Command(pipelineBin.Path(t), args...)
	cmd.Dir = dir
	out := &syncbuf.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	deadline := time.Now().Add(2 * time.Minute)
	for snapshots(t, cfg.URI, "public.lines") < 8 {
		if time.Now().After(deadline) {
			t.Fatalf("no 8 commits within 2 minutes:\n%s", launchtest.Tail(out.String()))
		}
		work(10)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	work(30)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the streaming run after SIGINT: %v\n%s", err, launchtest.Tail(out.String()))
	}
	if !strings.Contains(out.String(), "each source transaction lands whole") {
		t.Fatalf("the job did not read the transaction topic:\n%s", launchtest.Tail(out.String()))
	}
	work(30)
	runBounded(t, pg, b, dbz, 1, dir, args)

	requireOrdersWhole(t, loadTable(t, cfg.URI, "public.orders"), loadTable(t, cfg.URI, "public.lines"), 5)
	requireOrdersEqualPostgres(t, pg, cfg.URI)
}

// ordersDDL are the tables orderTransaction changes.
var ordersDDL = []string{"CREATE TABLE orders (id int PRIMARY KEY, lines int NOT NULL)",
	"CREATE TABLE lines (o int, k int, v text, PRIMARY KEY (o, k))"}

// requireOrdersEqualPostgres checks that orders and lines hold
// PostgreSQL's rows.
func requireOrdersEqualPostgres(t *testing.T, pg *pgtest.Server, uri string) {
	t.Helper()
	orders, lines := loadTable(t, uri, "public.orders"), loadTable(t, uri, "public.lines")
	for _, c := range []struct {
		tbl  *table.Table
		read string
		cols []string
	}{
		{orders, "SELECT id, lines FROM orders", []string{"id", "lines"}},
		{lines, "SELECT o, k, v FROM lines", []string{"o", "k", "v"}},
	} {
		var want []string
		for _, r := range pg.Query(t, c.read) {
			want = append(want, rowText(r))
		}
		have := icebergText(t, c.tbl.Scan(), c.cols)
		slices.Sort(want)
		slices.Sort(have)
		if !slices.Equal(have, want) {
			t.Errorf("table %v: %d rows, want PostgreSQL's %d; first differences:\n%s", c.tbl.Identifier(), len(have), len(want), firstDiffs(have, want))
		}
	}
}

// orderTransaction is one source transaction over orders and lines: a new
// order with its lines, an order's lines rewritten (deleted, then as many
// new ones as orders.lines says), or an order deleted with its lines.
func orderTransaction(rng *rand.Rand, live *[]int, next *int) string {
	insertLines := func(o, n int) string {
		vals := make([]string, n)
		for k := range n {
			vals[k] = fmt.Sprintf("(%d, %d, 'l%d')", o, k, rng.IntN(1000))
		}
		return "INSERT INTO lines VALUES " + strings.Join(vals, ", ")
	}
	n := 1 + rng.IntN(40)
	var sqls []string
	switch op := rng.IntN(4); {
	case op < 2 || len(*live) == 0:
		*next++
		*live = append(*live, *next)
		sqls = []string{fmt.Sprintf("INSERT INTO orders VALUES (%d, %d)", *next, n), insertLines(*next, n)}
	case op == 2:
		o := (*live)[rng.IntN(len(*live))]
		sqls = []string{fmt.Sprintf("DELETE FROM lines WHERE o = %d", o), fmt.Sprintf("UPDATE orders SET lines = %d WHERE id = %d", n, o), insertLines(o, n)}
	default:
		i := rng.IntN(len(*live))
		o := (*live)[i]
		*live = slices.Delete(*live, i, i+1)
		sqls = []string{fmt.Sprintf("DELETE FROM lines WHERE o = %d", o), fmt.Sprintf("DELETE FROM orders WHERE id = %d", o)}
	}
	return "BEGIN; " + strings.Join(sqls, "; ") + "; COMMIT"
}

// requireOrdersWhole checks every state the job committed: after each of
// its commits, in the order they were made, each order in the orders
// table has exactly orders.lines lines in the lines table, and each line
// an order. A commit of one table only leaves the other as it was.
func requireOrdersWhole(t *testing.T, orders, lines *table.Table, commits int) {
	t.Helper()
	type point struct {
		at   int64
		snap map[string]int64 // table -> snapshot id
	}
	var points []*point
	byID := map[string]*point{}
	for name, tbl := range map[string]*table.Table{"orders": orders, "lines": lines} {
		for _, s := range tbl.Metadata().Snapshots() {
			if s.Summary.Operation == table.OpReplace {
				continue // a compaction of the table on its own: the same rows
			}
			id := s.Summary.Properties[icebergio.CommitIDKey]
			p := byID[id]
			if p == nil {
				p = &point{at: s.TimestampMs, snap: map[string]int64{}}
				byID[id] = p
				points = append(points, p)
			}
			p.at = min(p.at, s.TimestampMs)
			p.snap[name] = s.SnapshotID // a commit's last snapshot of the table
		}
	}
	slices.SortFunc(points, func(a, b *point) int { return int(a.at - b.at) })
	var cur [2]int64
	checked := 0
	for _, p := range points {
		for i, name := range []string{"orders", "lines"} {
			if id, ok := p.snap[name]; ok {
				cur[i] = id
			}
		}
		if cur[0] == 0 || cur[1] == 0 {
			continue
		}
		want := map[string]int{}
		for _, r := range icebergText(t, orders.Scan(table.WithSnapshotID(cur[0])), []string{"id", "lines"}) {
			id, n, _ := strings.Cut(r, " | ")
			want[id], _ = strconv.Atoi(n)
		}
		have := map[string]int{}
		for _, r := range icebergText(t, lines.Scan(table.WithSnapshotID(cur[1])), []string{"o"}) {
			have[r]++
		}
		for id, n := range want {
			if have[id] != n {
				t.Fatalf("after commit at %d (orders snapshot %d, lines snapshot %d): order %s has %d lines, its transaction wrote %d: a source transaction was split across commits",
					p.at, cur[0], cur[1], id, have[id], n)
			}
		}
		for o := range have {
			if _, ok := want[o]; !ok {
				t.Fatalf("after commit at %d (orders snapshot %d, lines snapshot %d): %d lines of order %s, which is not in orders: a source transaction was split across commits",
					p.at, cur[0], cur[1], have[o], o)
			}
		}
		checked++
	}
	if checked < commits {
		t.Fatalf("only %d commits of both tables to check, want %d", checked, commits)
	}
	var at []string
	for _, p := range points {
		at = append(at, time.UnixMilli(p.at).UTC().Format("15:04:05.000"))
	}
	t.Logf("%d commits checked; the tables' commits at %s", checked, strings.Join(at, " "))
}
