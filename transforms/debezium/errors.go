package debezium

import (
	"errors"
	"strconv"
	"strings"

	"github.com/icebeam/icebeam/transforms/internal/jsonscan"
)

// Error is why an event could not be decoded: where the caller read it
// (Message.Where, such as topic/partition/offset), the source table when
// the event got that far, the column when one value was at fault, and the
// reason. A caller that keeps going sends the event to a dead-letter row
// with it; the decoder's batches hold nothing of that event.
type Error struct {
	Where  string
	Table  string // db.schema.table, or "" when the event named none
	Column string // the column (a.b[2] within nested ones), or ""
	Reason string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("debezium: ")
	if e.Where != "" {
		b.WriteString(e.Where)
		b.WriteString(": ")
	}
	if e.Table != "" {
		b.WriteString("table ")
		b.WriteString(e.Table)
		b.WriteString(": ")
	}
	if e.Column != "" {
		b.WriteString("column ")
		b.WriteString(e.Column)
		b.WriteString(": ")
	}
	b.WriteString(e.Reason)
	return b.String()
}

// valueError is a value that is not what its column reads.
type valueError struct {
	want string
	v    []byte
}

func (e *valueError) Error() string { return "not " + e.want + ": " + jsonscan.Short(e.v) }

func errValue(want string, v []byte) error { return &valueError{want: want, v: v} }

// pathError is a failure within a nested value, with its path.
type pathError struct {
	path string
	err  error
}

func (e *pathError) Error() string { return e.err.Error() }

func wrapField(name string, err error) error {
	var p *pathError
	if errors.As(err, &p) {
		return &pathError{path: name + "." + p.path, err: p.err}
	}
	return &pathError{path: name, err: err}
}

func wrapIndex(i int, err error) error {
	var p *pathError
	if errors.As(err, &p) {
		return &pathError{path: "[" + strconv.Itoa(i) + "]." + p.path, err: p.err}
	}
	return &pathError{path: "[" + strconv.Itoa(i) + "]", err: err}
}

// columnError is err of column name as an Error's column and reason.
func columnError(name string, err error) (string, string) {
	var p *pathError
	if errors.As(err, &p) {
		path := p.path
		if !strings.HasPrefix(path, "[") {
			path = "." + path
		}
		return name + path, p.err.Error()
	}
	return name, err.Error()
}
