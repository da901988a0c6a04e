package cdc

import (
	"strings"
	"testing"
)

// wrap puts a payload in the envelope of Debezium's JSON converter with
// schemas enabled (the schema abridged).
func wrap(payload string) string {
	return `{"schema":{"type":"struct","fields":[{"type":"struct","fields":[{"type":"int64","optional":false,"field":"id"}],"optional":true,"name":"bank.public.accounts.Value","field":"before"}],"optional":false,"name":"bank.public.accounts.Envelope"},"payload":` + payload + `}`
}

func TestParseDebeziumOps(t *testing.T) {
	const pgSource = `"source":{"version":"2.7.0.Final","connector":"postgresql","name":"bank","ts_ms":1767225600000,"snapshot":"false","db":"bank","schema":"public","table":"accounts","txId":771,"lsn":24023128,"xmin":null}`
	cases := []struct {
		name    string
		payload string
		want    Change
	}{{
		name:    "insert",
		payload: `{"before":null,"after":{"id":1,"owner":"alice","balance_cents":1000,"updated_at":1767225600000000},` + pgSource + `,"op":"c","ts_ms":1767225600123,"transaction":null}`,
		want:    Change{Op: "c", LSN: 24023128, ID: 1, Owner: "alice", BalanceCents: 1000, UpdatedAt: 1767225600000000},
	}, {
		name:    "snapshot read",
		payload: `{"before":null,"after":{"id":2,"owner":"bob","balance_cents":-250,"updated_at":1767225599000001},"source":{"connector":"postgresql","snapshot":"true","lsn":24000000},"op":"r","ts_ms":1767225600000}`,
		want:    Change{Op: "r", LSN: 24000000, ID: 2, Owner: "bob", BalanceCents: -250, UpdatedAt: 1767225599000001},
	}, {
		name:    "update",
		payload: `{"before":{"id":1,"owner":"alice","balance_cents":1000,"updated_at":1767225600000000},"after":{"id":1,"owner":"alice","balance_cents":750,"updated_at":1767225660000000},` + pgSource + `,"op":"u","ts_ms":1767225660123}`,
		want:    Change{Op: "u", LSN: 24023128, ID: 1, Owner: "alice", BalanceCents: 750, UpdatedAt: 1767225660000000},
	}, {
		name:    "update without a before image",
		payload: `{"before":null,"after":{"id":3,"owner":"carol","balance_cents":5,"updated_at":7},"source":{"lsn":30},"op":"u"}`,
		want:    Change{Op: "u", LSN: 30, ID: 3, Owner: "carol", BalanceCents: 5, UpdatedAt: 7},
	}, {
		name:    "delete with the full before image",
		payload: `{"before":{"id":1,"owner":"alice","balance_cents":750,"updated_at":1767225660000000},"after":null,` + pgSource + `,"op":"d","ts_ms":1767225700000}`,
		want:    Change{Op: "d", LSN: 24023128, ID: 1, Owner: "alice", BalanceCents: 750, UpdatedAt: 1767225660000000},
	}, {
		// Postgres without REPLICA IDENTITY FULL: the key, the rest null.
		name:    "delete with the key only",
		payload: `{"before":{"id":9,"owner":null,"balance_cents":null,"updated_at":null},"after":null,"source":{"lsn":31},"op":"d"}`,
		want:    Change{Op: "d", LSN: 31, ID: 9},
	}}
	for _, c := range cases {
		for _, form := range []struct{ name, line string }{{"unwrapped", c.payload}, {"wrapped", wrap(c.payload)}} {
			got, err := ParseDebezium([]byte(form.line), 99)
			if err != nil {
				t.Errorf("%s, %s: %v", c.name, form.name, err)
				continue
			}
			if got != c.want {
				t.Errorf("%s, %s: got %+v, want %+v", c.name, form.name, got, c.want)
			}
		}
	}
}

func TestParseDebeziumFallsBackToFileOrder(t *testing.T) {
	for _, line := range []string{
		`{"op":"c","after":{"id":5,"owner":"o","balance_cents":1,"updated_at":2}}`,
		`{"op":"c","after":{"id":5,"owner":"o","balance_cents":1,"updated_at":2},"source":{"connector":"mysql","file":"binlog.000003","pos":154}}`,
		`{"op":"c","after":{"id":5,"owner":"o","balance_cents":1,"updated_at":2},"source":{"lsn":null}}`,
		wrap(`{"op":"c","after":{"id":5,"owner":"o","balance_cents":1,"updated_at":2},"source":null}`),
	} {
		got, err := ParseDebezium([]byte(line), 42)
		want := Change{Op: "c", LSN: 42, ID: 5, Owner: "o", BalanceCents: 1, UpdatedAt: 2}
		if err != nil || got != want {
			t.Errorf("ParseDebezium(%s, 42) = %+v, %v; want %+v", line, got, err, want)
		}
	}
}

// Numbers above 2^53 lose digits as float64: 2^53+1 would read as 2^53.
func TestParseDebeziumKeepsBigNumbersExact(t *testing.T) {
	line := `{"op":"u","after":{"id":9223372036854775807,"owner":"big","balance_cents":9007199254740995,"updated_at":1},"source":{"lsn":9007199254740993}}`
	got, err := ParseDebezium([]byte(line), 0)
	want := Change{Op: "u", LSN: 9007199254740993, ID: 9223372036854775807, Owner: "big", BalanceCents: 9007199254740995, UpdatedAt: 1}
	if err != nil || got != want {
		t.Errorf("got %+v, %v; want %+v", got, err, want)
	}
}

func TestParseDebeziumErrors(t *testing.T) {
	const row = `"after":{"id":1,"owner":"o","balance_cents":2,"updated_at":3}`
	cases := []struct{ line, want string }{
		{``, "empty line"},
		{"  \t", "empty line"},
		{`null`, "the event is null (a Kafka tombstone?), want an object"},
		{`[1]`, "the event is an array, want an object"},
		{`"c"`, `the event is a string ("c"), want an object`},
		{`{"op":"c",`, "invalid JSON"},
		{`{"op":"c",` + row + `} {}`, "invalid JSON: more data after the event's object"},
		{`{"schema":null,"payload":null}`, "payload is null, want an object"},
		{`{` + row + `}`, "op: missing or null"},
		{`{"op":null,` + row + `}`, "op: missing or null"},
		{`{"op":1,` + row + `}`, "op is a number (1), want a string"},
		{`{"op":"t",` + row + `}`, `op: unknown op "t", want "c", "r", "u" or "d"`},
		{wrap(`{"op":"m",` + row + `}`), `op: unknown op "m"`},
		{`{"op":"c","before":{"id":1}}`, `after: missing or null, and op "c" needs it`},
		{`{"op":"u","before":{"id":1},"after":null}`, `after: missing or null, and op "u" needs it`},
		{`{"op":"d",` + row + `}`, `before: missing or null, and op "d" needs it`},
		{`{"op":"c","after":[1]}`, "after is an array, want an object"},
		{`{"op":"d","before":"x"}`, `before is a string ("x"), want an object`},
		{`{"op":"c","after":{"owner":"o"}}`, "after.id: missing or null"},
		{`{"op":"d","before":{"id":null}}`, "before.id: missing or null"},
		{`{"op":"c","after":{"id":1.5}}`, "after.id: 1.5 is not an integer"},
		{`{"op":"c","after":{"id":1e3}}`, "after.id: 1e3 is not an integer"},
		{`{"op":"c","after":{"id":"7"}}`, `after.id is a string ("7"), want an integer`},
		{`{"op":"d","before":{"id":true}}`, "before.id is a boolean (true), want an integer"},
		{`{"op":"c","after":{"id":99999999999999999999}}`, "after.id: 99999999999999999999 is out of the int64 range"},
		{`{"op":"c","after":{"id":1,"owner":5}}`, "after.owner is a number (5), want a string"},
		{`{"op":"c","after":{"id":1,"balance_cents":"12"}}`, `after.balance_cents is a string ("12"), want an integer`},
		{`{"op":"c","after":{"id":1,"updated_at":"2026-01-01T00:00:00Z"}}`, `after.updated_at is a string ("2026-01-01T00:00:00Z"), want an integer`},
		{`{"op":"c","after":{"id":1,"updated_at":1.5e15}}`, "after.updated_at: 1.5e15 is not an integer"},
		{`{"op":"c",` + row + `,"source":{"lsn":"24023128"}}`, `source.lsn is a string ("24023128"), want an integer`},
		{`{"op":"c",` + row + `,"source":{"lsn":2.5}}`, "source.lsn: 2.5 is not an integer"},
		{`{"op":"c",` + row + `,"source":"pg"}`, `source is a string ("pg"), want an object`},
		{`{"op":"c",` + row + `,"ts_ms":{}}`, "ts_ms is an object, want an integer"},
	}
	for _, c := range cases {
		got, err := ParseDebezium([]byte(c.line), 0)
		if err == nil {
			t.Errorf("ParseDebezium(%s) = %+v, want an error containing %q", c.line, got, c.want)
			continue
		}
		if msg := err.Error(); !strings.HasPrefix(msg, "cdc: Debezium event: ") || !strings.Contains(msg, c.want) {
			t.Errorf("ParseDebezium(%s): error %q, want one starting \"cdc: Debezium event: \" containing %q", c.line, msg, c.want)
		}
	}
}
