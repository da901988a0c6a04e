package cdc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// ParseDebezium parses one line of newline-delimited Debezium JSON: a change
// event of the accounts table, with or without the {"schema": ...,
// "payload": ...} envelope of Debezium's JSON converter. The row is the
// event's "after" for ops c, r and u, and its "before" for d (of which only
// id is required: a table without full replica identity sends only the
// key). updated_at is a Debezium MicroTimestamp, epoch microseconds.
//
// The LSN is source.lsn; an event without one (MySQL's have none) takes
// fileOrder, the event's position in the files it was read from, so that
// file order decides. Numbers are read as written, so LSNs and ids above
// 2^53 keep every digit.
//
// A blank line, a null (a Kafka tombstone) and anything but an object are
// errors: readers skip blank lines themselves.
func ParseDebezium(line []byte, fileOrder int64) (Change, error) {
	c, err := parseDebezium(line, fileOrder)
	if err != nil {
		return Change{}, fmt.Errorf("cdc: Debezium event: %w", err)
	}
	return c, nil
}

// parseDebezium is ParseDebezium with errors that name only the field, for
// callers that say where the line came from.
func parseDebezium(line []byte, fileOrder int64) (Change, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		if errors.Is(err, io.EOF) {
			return Change{}, errors.New("empty line")
		}
		return Change{}, fmt.Errorf("invalid JSON: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Change{}, errors.New("invalid JSON: more data after the event's object")
	}
	if v == nil {
		return Change{}, errors.New("the event is null (a Kafka tombstone?), want an object")
	}
	ev, ok := v.(map[string]any)
	if !ok {
		return Change{}, fmt.Errorf("the event is %s, want an object", kind(v))
	}
	if p, ok := ev["payload"]; ok {
		if ev, ok = p.(map[string]any); !ok {
			return Change{}, fmt.Errorf("payload is %s, want an object", kind(p))
		}
	}

	if ev["op"] == nil {
		return Change{}, errors.New("op: missing or null")
	}
	op, err := stringField(ev, "op", "")
	if err != nil {
		return Change{}, err
	}
	switch op {
	case "c", "r", "u", "d":
	default:
		return Change{}, fmt.Errorf("op: unknown op %q, want \"c\", \"r\", \"u\" or \"d\"", op)
	}
	// The image the op does not read is checked too: a malformed event
	// is an error whatever its op.
	before, err := objectField(ev, "before", "")
	if err != nil {
		return Change{}, err
	}
	after, err := objectField(ev, "after", "")
	if err != nil {
		return Change{}, err
	}
	rowField, row := "after", after
	if op == "d" {
		rowField, row = "before", before
	}
	if row == nil {
		return Change{}, fmt.Errorf("%s: missing or null, and op %q needs it", rowField, op)
	}
	if _, err := intField(ev, "ts_ms", ""); err != nil {
		return Change{}, err
	}
	source, err := objectField(ev, "source", "")
	if err != nil {
		return Change{}, err
	}
	lsn, err := intField(source, "lsn", "source.")
	if err != nil {
		return Change{}, err
	}
	if lsn == nil {
		lsn = &fileOrder
	}

	p := rowField + "."
	id, err := intField(row, "id", p)
	if err != nil {
		return Change{}, err
	}
	if id == nil {
		return Change{}, fmt.Errorf("%sid: missing or null", p)
	}
	owner, err := stringField(row, "owner", p)
	if err != nil {
		return Change{}, err
	}
	balance, err := intField(row, "balance_cents", p)
	if err != nil {
		return Change{}, err
	}
	updated, err := intField(row, "updated_at", p)
	if err != nil {
		return Change{}, err
	}
	return Change{
		Op:           op,
		LSN:          *lsn,
		ID:           *id,
		Owner:        owner,
		BalanceCents: deref(balance),
		UpdatedAt:    deref(updated),
	}, nil
}

// objectField is obj[name] as an object; nil if obj is nil or the field is
// missing or null. path prefixes name in errors.
func objectField(obj map[string]any, name, path string) (map[string]any, error) {
	v, ok := obj[name]
	if !ok || v == nil {
		return nil, nil
	}
	o, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s%s is %s, want an object", path, name, kind(v))
	}
	return o, nil
}

// intField is obj[name] as an int64; nil if obj is nil or the field is
// missing or null.
func intField(obj map[string]any, name, path string) (*int64, error) {
	v, ok := obj[name]
	if !ok || v == nil {
		return nil, nil
	}
	n, ok := v.(json.Number)
	if !ok {
		return nil, fmt.Errorf("%s%s is %s, want an integer", path, name, kind(v))
	}
	i, err := strconv.ParseInt(n.String(), 10, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return nil, fmt.Errorf("%s%s: %s is out of the int64 range", path, name, n)
		}
		return nil, fmt.Errorf("%s%s: %s is not an integer", path, name, n)
	}
	return &i, nil
}

// stringField is obj[name] as a string; "" if obj is nil or the field is
// missing or null.
func stringField(obj map[string]any, name, path string) (string, error) {
	v, ok := obj[name]
	if !ok || v == nil {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%s%s is %s, want a string", path, name, kind(v))
	}
	return s, nil
}

func deref(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

// kind names the JSON type of a value encoding/json decoded.
func kind(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return fmt.Sprintf("a string (%q)", v)
	case json.Number:
		return "a number (" + v.String() + ")"
	case bool:
		return fmt.Sprintf("a boolean (%t)", v)
	}
	return fmt.Sprintf("%T", v)
}
