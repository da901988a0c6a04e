package main

import (
	"context"
	"errors"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	icecatalog "github.com/apache/iceberg-go/catalog"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/internal/debeziumtest"
	"github.com/icebeam/icebeam/internal/faulttest"
	"github.com/icebeam/icebeam/internal/kafkatest"
	"github.com/icebeam/icebeam/internal/launch"
	"github.com/icebeam/icebeam/internal/launch/launchtest"
	"github.com/icebeam/icebeam/internal/pgtest"
	"github.com/icebeam/icebeam/internal/syncbuf"
)

// A streaming job named a topic that does not exist yet waits for it: the
// topic, created and written once the job waits, lands in its own table,
// as the topic that existed does, every record once, none rejected.
func TestTopicCreatedAfterStart(t *testing.T) {
	b := kafkatest.Shared(t)
	early, late := "created-early", "created-late"
	b.CreateTopic(t, early, 2)
	cfg, stop, err := launch.Catalog(context.Background(), catalog.Config{LocalDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = stop() })
	b.ProduceLines(t, early, events(0, 100), keyed...)

	cmd := exec.Command(pipelineBin.Path(t), "--catalog_uri="+cfg.URI, "--bootstrap_servers="+b.Bootstrap(),
		"--topics="+early+","+late, "--triggering_frequency_seconds=2")
	cmd.Dir = t.TempDir()
	out := &syncbuf.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	waitFor(t, out, "waiting for topics "+late+" to exist", time.Minute)
	time.Sleep(3 * time.Second) // the job polls: let it see the topic missing more than once
	b.CreateTopic(t, late, 3)
	waitFor(t, out, "waiting for a first record of topic "+late, time.Minute)
	b.ProduceLines(t, late, events(1000, 1100), keyed...)

	// More of both once the job runs.
	earlyTable, lateTable := "kafka.created_early", "kafka.created_late"
	deadline := time.Now().Add(2 * time.Minute)
	for snapshots(t, cfg.URI, lateTable) < 1 {
		if time.Now().After(deadline) {
			t.Fatalf("no commit of %s within 2 minutes:\n%s", lateTable, launchtest.Tail(out.String()))
		}
		time.Sleep(200 * time.Millisecond)
	}
	b.ProduceLines(t, early, events(100, 150), keyed...)
	b.ProduceLines(t, late, events(1100, 1150), keyed...)
	want := map[string][]int64{earlyTable: seqRange(0, 150), lateTable: seqRange(1000, 1150)}
	for name, seqs := range want {
		for {
			got := faulttest.ReadSeqs(t, loadTable(t, cfg.URI, name).Scan())
			if len(got) >= len(seqs) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("table %s holds %d rows within 2 minutes, want %d:\n%s", name, len(got), len(seqs), launchtest.Tail(out.String()))
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the job after SIGINT: %v\n%s", err, launchtest.Tail(out.String()))
	}
	for name, seqs := range want {
		got := faulttest.ReadSeqs(t, loadTable(t, cfg.URI, name).Scan())
		slices.Sort(got)
		if !slices.Equal(got, seqs) {
			t.Errorf("table %s holds seqs %v, want %d to %d once each", name, got, seqs[0], seqs[len(seqs)-1])
		}
	}
	if rejected := rejectedValues(t, cfg.URI); len(rejected) > 0 {
		t.Errorf("rejected %q, want none", rejected)
	}
}

// A bounded job lands the topics it was named that hold records, and
// skips, saying so, one that does not exist and one that is empty.
func TestMissingAndEmptyTopicsBounded(t *testing.T) {
	b := kafkatest.Shared(t)
	full, empty, missing := "bounded-full", "bounded-empty", "bounded-missing"
	b.CreateTopic(t, full, 2)
	b.CreateTopic(t, empty, 1)
	b.ProduceLines(t, full, events(0, 40), keyed...)
	cfg, stop, err := launch.Catalog(context.Background(), catalog.Config{LocalDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = stop() })
	out, err := launchtest.Run(t, t.TempDir(), pipelineBin.Path(t), nil, "--catalog_uri="+cfg.URI,
		"--bootstrap_servers="+b.Bootstrap(), "--topics="+full+","+missing+","+empty, "--bounded")
	if err != nil {
		t.Fatalf("%v\n%s", err, launchtest.Tail(out))
	}
	for _, line := range []string{"topic " + missing + " does not exist", "topic " + empty + " is empty"} {
		if !strings.Contains(out, line) {
			t.Errorf("the job did not say %q:\n%s", line, launchtest.Tail(out))
		}
	}
	got := faulttest.ReadSeqs(t, loadTable(t, cfg.URI, "kafka.bounded_full").Scan())
	slices.Sort(got)
	if want := seqRange(0, 40); !slices.Equal(got, want) {
		t.Errorf("table kafka.bounded_full holds seqs %v, want 0 to 39 once each", got)
	}
	for _, name := range []string{"kafka.bounded_empty", "kafka.bounded_missing"} {
		if _, err := openTable(t, cfg.URI, name); !errors.Is(err, icecatalog.ErrNoSuchTable) {
			t.Errorf("table %s: %v, want no such table", name, err)
		}
	}
	if rejected := rejectedValues(t, cfg.URI); len(rejected) > 0 {
		t.Errorf("rejected %q, want none", rejected)
	}
}

// waitFor waits for the job's output to say s.
func waitFor(t *testing.T, out *syncbuf.Buffer, s string, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !strings.Contains(out.String(), s) {
		if time.Now().After(deadline) {
			t.Fatalf("the job did not say %q within %v:\n%s", s, timeout, launchtest.Tail(out.String()))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// seqRange is from to to-1.
func seqRange(from, to int64) []int64 {
	var out []int64
	for i := from; i < to; i++ {
		out = append(out, i)
	}
	return out
}

// rejectedValues are the values in the rejected table, none if the job
// made no such table.
func rejectedValues(t *testing.T, uri string) []string {
	t.Helper()
	tbl, err := openTable(t, uri, "kafka.rejected")
	if errors.Is(err, icecatalog.ErrNoSuchTable) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return scanStrings(t, tbl, "value")
}

// The same for Debezium: a table created in the database after the job
// started gets its topic then, and lands in its own table, value for
// value, as the table that existed does, with nothing rejected.
func TestDebeziumTopicCreatedAfterStart(t *testing.T) {
	debeziumtest.SkipUnlessJava(t)
	b := kafkatest.Shared(t)
	pg := pgtest.Start(t)
	pg.Exec(t, "CREATE TABLE early (id int PRIMARY KEY, v text)", "INSERT INTO early SELECT g, 'e' || g FROM generate_series(1, 20) g")
	dbz := debeziumtest.StartWith(t, b.Bootstrap(), pg, debeziumtest.Options{Prefix: "late"})
	cfg, stop, err := launch.Catalog(context.Background(), catalog.Config{LocalDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = stop() })
	cmd := exec.Command(pipelineBin.Path(t), "--catalog_uri="+cfg.URI, "--bootstrap_servers="+b.Bootstrap(), "--format=debezium",
		"--topics="+dbz.Topic("public", "early")+","+dbz.Topic("public", "later"), "--triggering_frequency_seconds=2")
	cmd.Dir = t.TempDir()
	out := &syncbuf.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	waitFor(t, out, "waiting for topics "+dbz.Topic("public", "later")+" to exist", 2*time.Minute)
	pg.Exec(t, "CREATE TABLE later (id int PRIMARY KEY, v text)", "INSERT INTO later SELECT g, 'l' || g FROM generate_series(1, 30) g")
	waitFor(t, out, "topic "+dbz.Topic("public", "later")+" -> table public.later", 2*time.Minute)
	pg.Exec(t, "UPDATE later SET v = 'changed' WHERE id % 3 = 0", "DELETE FROM later WHERE id % 5 = 0",
		"INSERT INTO later VALUES (100, 'after')", "UPDATE early SET v = NULL WHERE id % 4 = 0", "INSERT INTO early VALUES (21, 'e21')")

	read := func(name string) []string {
		var rows []string
		for _, r := range pg.Query(t, "SELECT id::text, v FROM "+name) {
			rows = append(rows, rowText(r))
		}
		slices.Sort(rows)
		return rows
	}
	landed := func(name string) []string {
		tbl, err := openTable(t, cfg.URI, "public."+name)
		if err != nil {
			return nil
		}
		rows := icebergText(t, tbl.Scan(), []string{"id", "v"})
		slices.Sort(rows)
		return rows
	}
	deadline := time.Now().Add(2 * time.Minute)
	for _, name := range []string{"early", "later"} {
		for want := read(name); !slices.Equal(landed(name), want); {
			if time.Now().After(deadline) {
				t.Fatalf("table public.%s does not hold PostgreSQL's rows within 2 minutes; first differences:\n%s\n%s",
					name, firstDiffs(landed(name), want), launchtest.Tail(out.String()))
			}
			time.Sleep(500 * time.Millisecond)
		}
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the job after SIGINT: %v\n%s", err, launchtest.Tail(out.String()))
	}
	for _, name := range []string{"early", "later"} {
		if have, want := landed(name), read(name); !slices.Equal(have, want) {
			t.Errorf("table public.%s: %d rows, PostgreSQL %d; first differences:\n%s", name, len(have), len(want), firstDiffs(have, want))
		}
	}
	if rejected, err := openTable(t, cfg.URI, "kafka.rejected"); err == nil {
		if reasons := scanStrings(t, rejected, "reason"); len(reasons) > 0 {
			t.Errorf("rejected: %q", reasons)
		}
	}
}
