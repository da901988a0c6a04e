// Package pgtest runs a real PostgreSQL server in tests: Debian's
// PostgreSQL (15 here), started by scripts/postgres.sh on loopback from a
// directory of the test's own, ready for logical replication (wal_level
// logical, trust for the superuser postgres on 127.0.0.1), so that Debezium
// can capture it. It owns that server's life: it stops when the test ends
// (or, through --owner, when the test binary dies), and a test can stop,
// kill and start it again on the same data and port. It talks to the server
// through pgx (pure Go), so that a test compares typed values, not psql's
// text.
package pgtest

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/icebeam/icebeam/internal/launch/launchtest"
	"github.com/icebeam/icebeam/internal/servertest"
)

// Required reports whether a machine where PostgreSQL cannot be had fails
// the tests instead of skipping them: POSTGRES=require, or
// JOBSERVER=require, which CI sets for every test of a real component.
func Required() bool {
	return os.Getenv("POSTGRES") == "require" || os.Getenv("JOBSERVER") == "require"
}

// Server is a PostgreSQL server started by scripts/postgres.sh.
type Server struct {
	Dir string // the server's directory: the cluster in Dir/data
	Log string // the server's log, every run on Dir one after the other

	proc servertest.Process
	addr string // 127.0.0.1:PORT, the same across StartAgain
	port string
}

// callTimeout bounds each statement or query of the helpers below.
const callTimeout = 30 * time.Second

// Start starts a server of the test's own and stops it when t ends; it
// takes well under a second. A machine without PostgreSQL's programs
// (and where scripts/postgres.sh cannot install them) skips the test
// unless Required; so does -short.
func Start(t testing.TB) *Server {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a PostgreSQL server")
	}
	script := filepath.Join(launchtest.RepoRoot(t), "scripts", "postgres.sh")
	// `bin` installs Debian's package when it is missing and it can.
	if out, err := exec.Command(script, "bin").CombinedOutput(); err != nil {
		if Required() {
			t.Fatalf("PostgreSQL is needed (POSTGRES=require or JOBSERVER=require): %s bin: %v\n%s", script, err, out)
		}
		t.Skipf("no PostgreSQL: %s", strings.TrimSpace(string(out)))
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "postgres.log")
	s := &Server{Dir: dir, Log: log, proc: servertest.Process{Script: script, Log: log, Crash: "kill"}}
	if err := s.start("0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.proc.Stop(); err != nil {
			t.Log(err)
		}
	})
	return s
}

// start runs `postgres.sh start` on s.Dir at port ("0": a free one).
func (s *Server) start(port string) error {
	addrs, err := s.proc.Start([]string{"--port", port, "--dir", s.Dir}, 1)
	if err != nil {
		return err
	}
	_, p, ok := strings.Cut(addrs[0], ":")
	if !ok || (s.port != "" && p != s.port) {
		return fmt.Errorf("%s start printed address %s, want 127.0.0.1:%s", s.proc.Script, addrs[0], s.port)
	}
	s.addr, s.port = addrs[0], p
	return nil
}

// Addr is the server's address, 127.0.0.1:PORT; it stays the same across
// StartAgain.
func (s *Server) Addr() string { return s.addr }

// Host is 127.0.0.1.
func (s *Server) Host() string { h, _, _ := net.SplitHostPort(s.addr); return h }

// Port is the server's port.
func (s *Server) Port() int { p, _ := strconv.Atoi(s.port); return p }

// DSN is a connection URL for database db as the superuser postgres (no
// password), for pgx, database/sql drivers and psql alike.
func (s *Server) DSN(db string) string {
	u := url.URL{Scheme: "postgres", User: url.User("postgres"), Host: s.addr, Path: "/" + db,
		RawQuery: "sslmode=disable&connect_timeout=10"}
	return u.String()
}

// Stop shuts the server down, its data kept: an outage that StartAgain
// ends. Clients, Debezium's replication connection among them, are
// disconnected.
func (s *Server) Stop(t testing.TB) {
	t.Helper()
	if err := s.proc.Stop(); err != nil {
		t.Fatal(err)
	}
}

// Kill kills the server, its postmaster and every process of it at once,
// with SIGKILL, as a crash would, and returns once they are gone.
// StartAgain recovers from the WAL (written before a commit is answered;
// fsync is off, which only a crash of the machine would show).
func (s *Server) Kill(t testing.TB) {
	t.Helper()
	if err := s.proc.Kill(); err != nil {
		t.Fatal(err)
	}
}

// StartAgain starts the stopped or killed server on the same directory and
// port.
func (s *Server) StartAgain(t testing.TB) {
	t.Helper()
	if err := s.start(s.port); err != nil {
		t.Fatalf("%v\nthe end of %s:\n%s", err, s.Log, s.LogTail(30))
	}
}

// LogTail is the end of the server's log, for failure messages.
func (s *Server) LogTail(lines int) string { return s.proc.LogTail(lines) }

// Conn is a connection to database db, closed when t ends.
func (s *Server) Conn(t testing.TB, db string) *pgx.Conn {
	t.Helper()
	c := s.connect(t, db)
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// CreateDatabase creates database name (UTF8, like the cluster).
func (s *Server) CreateDatabase(t testing.TB, name string) {
	t.Helper()
	s.Exec(t, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize())
}

// Exec runs each of sqls on database postgres, in order, each in its own
// transaction unless it says otherwise; a string may hold several
// statements separated by semicolons (no parameters then).
func (s *Server) Exec(t testing.TB, sqls ...string) {
	t.Helper()
	s.ExecIn(t, "postgres", sqls...)
}

// ExecIn is Exec on database db.
func (s *Server) ExecIn(t testing.TB, db string, sqls ...string) {
	t.Helper()
	c := s.connect(t, db)
	defer c.Close(context.Background())
	for _, q := range sqls {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		_, err := c.Exec(ctx, q)
		cancel()
		if err != nil {
			t.Fatalf("pgtest: %s: %v", q, err)
		}
	}
}

// Query runs sql with args on database postgres and returns its rows, each
// as pgx decodes its columns (int32 for integer, pgtype.Numeric for
// numeric, time.Time for timestamps, [16]byte for uuid, []byte for bytea,
// nil for NULL, ...).
func (s *Server) Query(t testing.TB, sql string, args ...any) [][]any {
	t.Helper()
	return s.QueryIn(t, "postgres", sql, args...)
}

// QueryIn is Query on database db.
func (s *Server) QueryIn(t testing.TB, db, sql string, args ...any) [][]any {
	t.Helper()
	c := s.connect(t, db)
	defer c.Close(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	rows, err := c.Query(ctx, sql, args...)
	if err != nil {
		t.Fatalf("pgtest: %s: %v", sql, err)
	}
	var out [][]any
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			t.Fatalf("pgtest: %s: %v", sql, err)
		}
		out = append(out, vals)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("pgtest: %s: %v", sql, err)
	}
	return out
}

// connect is Conn for one helper call: the caller closes it.
func (s *Server) connect(t testing.TB, db string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	c, err := pgx.Connect(ctx, s.DSN(db))
	if err != nil {
		t.Fatalf("connecting to %s: %v\nthe end of %s:\n%s", s.DSN(db), err, s.Log, s.LogTail(20))
	}
	return c
}
