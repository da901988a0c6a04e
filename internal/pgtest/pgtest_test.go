package pgtest_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/icebeam/icebeam/internal/pgtest"
)

// TestServer checks what the Debezium tests rely on: logical replication
// is on, values come back typed, and the data outlives a stop and a kill.
func TestServer(t *testing.T) {
	s := pgtest.Start(t)
	if got := s.Query(t, "SHOW wal_level")[0][0]; got != "logical" {
		t.Fatalf("wal_level = %v, want logical", got)
	}
	s.CreateDatabase(t, "shop")
	s.ExecIn(t, "shop",
		`CREATE TABLE items (id int PRIMARY KEY, price numeric(12,3), at timestamptz, name text, raw bytea)`,
		`INSERT INTO items VALUES (1, 1234.5, '2024-03-01 12:00:00+02', 'crème brûlée', '\x00ff'); INSERT INTO items VALUES (2, NULL, NULL, NULL, NULL)`)
	check := func(when string) {
		t.Helper()
		rows := s.QueryIn(t, "shop", "SELECT id, price, at, name, raw FROM items ORDER BY id")
		if len(rows) != 2 {
			t.Fatalf("%s: %d rows, want 2", when, len(rows))
		}
		r := rows[0]
		price := r[1].(pgtype.Numeric)
		if f, _ := price.Float64Value(); r[0] != int32(1) || f.Float64 != 1234.5 || price.Exp != -3 ||
			!r[2].(time.Time).Equal(time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC)) ||
			r[3] != "crème brûlée" || !bytes.Equal(r[4].([]byte), []byte{0, 0xff}) {
			t.Fatalf("%s: row 1 = %#v", when, r)
		}
		for i, v := range rows[1][1:] {
			if v != nil {
				t.Fatalf("%s: row 2 column %d = %#v, want NULL", when, i+1, v)
			}
		}
	}
	check("at first")
	addr := s.Addr()
	s.Stop(t)
	s.StartAgain(t)
	check("after a stop")
	s.Kill(t)
	s.StartAgain(t)
	check("after a kill")
	if s.Addr() != addr {
		t.Fatalf("address %s after StartAgain, want %s", s.Addr(), addr)
	}
	if !strings.Contains(s.LogTail(50), "database system is ready") {
		t.Fatalf("the log's end does not say the server is ready:\n%s", s.LogTail(50))
	}
}
