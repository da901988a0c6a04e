// Package debeziumtest runs a real Debezium connector in tests: Debezium
// 3.6.1's PostgreSQL connector on Kafka Connect 4.3.0 standalone, which
// scripts/debezium.sh assembles from Maven Central (cached in
// .cache/debezium and .cache/kafka) and starts on loopback, capturing one
// database of a pgtest server into a kafkatest broker: one topic per table,
// PREFIX.SCHEMA.TABLE, JSON with schemas ({"schema":…,"payload":…} for keys
// and values), pgoutput, TRUNCATE events included. It owns that connector's
// life: Start returns once the connector streams (its snapshot in Kafka), a
// test can stop, kill and start it again on the same offsets, and it stops
// when the test (or, through --owner, the test binary) ends. Reading the
// topics back goes through franz-go (Read).
package debeziumtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/icebeam/icebeam/internal/launch/launchtest"
	"github.com/icebeam/icebeam/internal/pgtest"
	"github.com/icebeam/icebeam/internal/servertest"
)

// Required reports whether a machine without Java or Maven fails the
// Debezium tests instead of skipping them: DEBEZIUM=require, KAFKA=require
// or JOBSERVER=require (CI's, for every test that assembles Java from
// Maven Central).
func Required() bool {
	return os.Getenv("DEBEZIUM") == "require" || os.Getenv("KAFKA") == "require" ||
		os.Getenv("JOBSERVER") == "require"
}

// SkipUnlessJava skips t (or fails it, if Required) on a machine without
// Java and Maven, and under -short. Start calls it; a test calls it first
// to skip before it starts a broker and a database for nothing.
func SkipUnlessJava(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts Debezium on Kafka Connect")
	}
	for _, tool := range []string{"java", "mvn"} {
		if _, err := exec.LookPath(tool); err != nil {
			if Required() {
				t.Fatalf("the Debezium tests need %s (DEBEZIUM, KAFKA or JOBSERVER=require)", tool)
			}
			t.Skipf("the Debezium tests need %s", tool)
		}
	}
}

// Options are what StartWith adds to a connector.
type Options struct {
	// Prefix is topic.prefix (default "dbz"): topics Prefix.SCHEMA.TABLE.
	// It also names the replication slot and the publication (dbz_prefix,
	// lower case), so connectors on one server, or tests on one broker
	// (kafkatest.Shared), need prefixes of their own.
	// [A-Za-z_][A-Za-z0-9_]*.
	Prefix string
	// DB is the database captured (default "postgres").
	DB string
	// Tables are the only tables captured ("schema.table"); default all.
	Tables []string
	// Transactions adds transaction metadata: BEGIN/END events on
	// Prefix.transaction and a transaction block in each event.
	Transactions bool
	// Snapshot is snapshot.mode (default "initial").
	Snapshot string
	// Set are more connector properties, e.g.
	// "heartbeat.interval.ms": "1000".
	Set map[string]string
}

// Connector is a Debezium connector started by scripts/debezium.sh.
type Connector struct {
	Dir    string // the worker's directory: its properties and offsets
	Log    string // the worker's log, every run on Dir one after the other
	Prefix string // topic.prefix
	DB     string // the database captured

	proc servertest.Process
	args []string // start's arguments
	rest string   // Connect's REST API, 127.0.0.1:PORT
}

// Start starts a connector capturing database postgres of pg into the
// broker at bootstrap, with topics dbz.SCHEMA.TABLE, and stops it when t
// ends. It returns once the connector streams: the rows already in the
// tables are on their topics as snapshot reads (op "r"), and every change
// from then on comes as c, u, d or t.
func Start(t testing.TB, bootstrap string, pg *pgtest.Server) *Connector {
	t.Helper()
	return StartWith(t, bootstrap, pg, Options{})
}

// StartWith is Start with opts.
func StartWith(t testing.TB, bootstrap string, pg *pgtest.Server, opts Options) *Connector {
	t.Helper()
	SkipUnlessJava(t)
	if opts.Prefix == "" {
		opts.Prefix = "dbz"
	}
	if opts.DB == "" {
		opts.DB = "postgres"
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "connect.log")
	c := &Connector{
		Dir:    dir,
		Log:    log,
		Prefix: opts.Prefix,
		DB:     opts.DB,
		proc:   servertest.Process{Script: filepath.Join(launchtest.RepoRoot(t), "scripts", "debezium.sh"), Log: log},
		args: []string{"--bootstrap", bootstrap, "--pg", pg.Addr(), "--db", opts.DB,
			"--prefix", opts.Prefix, "--dir", dir},
	}
	if len(opts.Tables) > 0 {
		c.args = append(c.args, "--tables", strings.Join(opts.Tables, ","))
	}
	if opts.Transactions {
		c.args = append(c.args, "--transactions")
	}
	if opts.Snapshot != "" {
		c.args = append(c.args, "--snapshot", opts.Snapshot)
	}
	for k, v := range opts.Set {
		c.args = append(c.args, "--set", k+"="+v)
	}
	if err := c.start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.proc.Stop(); err != nil {
			t.Log(err)
		}
	})
	return c
}

// start runs `debezium.sh start` with c.args.
func (c *Connector) start() error {
	addrs, err := c.proc.Start(c.args, 1)
	if err != nil {
		return err
	}
	c.rest = addrs[0]
	return nil
}

// Topic is the topic of table schema.table: Prefix.schema.table.
func (c *Connector) Topic(schema, table string) string {
	return c.Prefix + "." + schema + "." + table
}

// TransactionTopic is the topic of the BEGIN/END events of a connector
// started with Options.Transactions.
func (c *Connector) TransactionTopic() string { return c.Prefix + ".transaction" }

// Stop shuts the worker down cleanly: Connect stops the task and flushes
// its offsets; the replication slot stays, so the changes made meanwhile
// wait in PostgreSQL's WAL for StartAgain.
func (c *Connector) Stop(t testing.TB) {
	t.Helper()
	if err := c.proc.Stop(); err != nil {
		t.Fatal(err)
	}
}

// Kill kills the worker with SIGKILL, as a crash would: offsets not yet
// flushed (at most a second's) are lost, so StartAgain sends their events
// again (Debezium delivers at least once).
func (c *Connector) Kill(t testing.TB) {
	t.Helper()
	if err := c.proc.Kill(); err != nil {
		t.Fatal(err)
	}
}

// StartAgain starts the stopped or killed connector on the same directory:
// it goes on from its offsets (no second snapshot) and returns once it
// streams.
func (c *Connector) StartAgain(t testing.TB) {
	t.Helper()
	if err := c.start(); err != nil {
		t.Fatal(err)
	}
}

// Restart is Stop, then StartAgain.
func (c *Connector) Restart(t testing.TB) {
	t.Helper()
	c.Stop(t)
	c.StartAgain(t)
}

// Status is the connector's status from Connect's REST API, as JSON
// (connector and task states, a failed task's trace).
func (c *Connector) Status(t testing.TB) string {
	t.Helper()
	out, err := exec.Command(c.proc.Script, "status", c.Dir).CombinedOutput()
	if err != nil {
		t.Fatalf("%s status %s: %v\n%s", c.proc.Script, c.Dir, err, out)
	}
	return strings.TrimSpace(string(out))
}

// LogTail is the end of the worker's log, for failure messages.
func (c *Connector) LogTail(lines int) string { return c.proc.LogTail(lines) }

// Read reads topics from their start with client cl (its seed brokers set,
// no group, no topics consumed yet) until done says the records read so
// far, by topic, are enough, and returns them. A client with a short
// kgo.FetchMaxWait (250 ms, say) sees the last records sooner: with the
// default 5 s, a read here sometimes lagged the topics by that much. It fails t, showing what it
// read, if done does not say so within timeout.
func Read(t testing.TB, cl *kgo.Client, topics []string, timeout time.Duration,
	done func(map[string][]*kgo.Record) bool,
) map[string][]*kgo.Record {
	t.Helper()
	offsets := map[string]map[int32]kgo.Offset{}
	for _, tp := range topics {
		// The partition from its start; Debezium's topics have one.
		offsets[tp] = map[int32]kgo.Offset{0: kgo.NewOffset().AtStart()}
	}
	cl.AddConsumePartitions(offsets)
	got := map[string][]*kgo.Record{}
	deadline := time.Now().Add(timeout)
	for !done(got) {
		if time.Now().After(deadline) {
			var b strings.Builder
			for _, tp := range topics {
				fmt.Fprintf(&b, "\n%s: %d records", tp, len(got[tp]))
				for _, r := range got[tp] {
					fmt.Fprintf(&b, "\n  offset %d op %s key %.200s", r.Offset, op(r.Value), r.Key)
				}
			}
			t.Fatalf("debeziumtest.Read: not done within %v; read:%s", timeout, b.String())
		}
		ctx, cancel := context.WithDeadline(context.Background(), deadline)
		fetches := cl.PollFetches(ctx)
		cancel()
		for _, e := range fetches.Errors() {
			if !errors.Is(e.Err, context.DeadlineExceeded) {
				t.Fatalf("debeziumtest.Read: %s[%d]: %v", e.Topic, e.Partition, e.Err)
			}
		}
		fetches.EachRecord(func(r *kgo.Record) { got[r.Topic] = append(got[r.Topic], r) })
	}
	return got
}

// op is the payload.op of a Debezium event's value, "-" for a tombstone,
// for messages.
func op(value []byte) string {
	if value == nil {
		return "-"
	}
	var v struct {
		Payload struct {
			Op string `json:"op"`
		} `json:"payload"`
	}
	if err := json.Unmarshal(value, &v); err != nil {
		return fmt.Sprintf("? (%v)", err)
	}
	return v.Payload.Op
}
