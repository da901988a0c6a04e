package kafkaiceberg

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icebeam/icebeam/transforms/internal/jsonscan"
)

// InferSchema is the table a topic's JSON records make, for a table that
// does not exist yet: a column for each field any of them has, in the
// order first seen, every column optional; integers become long, other
// numbers double, booleans boolean, strings string, objects structs and
// arrays lists of their elements' type. A field whose values disagree (an
// integer here, a string there) takes the wider type where one holds both
// exactly (long and double: double), else the type most of its values
// have, so that a few malformed records in the sample do not make the
// table refuse the good ones (they are refused instead). A field null in
// every sample is left out: a record that gives it a value is refused
// with a reason naming it. Values that are not JSON objects are
// skipped; with none left, InferSchema fails.
func InferSchema(values [][]byte) (*arrow.Schema, error) {
	var root *shape
	for _, v := range values {
		var x any
		dec := json.NewDecoder(bytes.NewReader(v))
		dec.UseNumber()
		if err := dec.Decode(&x); err != nil {
			continue
		}
		if _, ok := x.(map[string]any); !ok {
			continue
		}
		root = merge(root, shapeOf(x, v))
	}
	if root == nil || len(root.fields) == 0 {
		return nil, fmt.Errorf("kafkaiceberg: no JSON object among %d records to take the table's columns from", len(values))
	}
	fields := root.arrowFields()
	if len(fields) == 0 {
		return nil, fmt.Errorf("kafkaiceberg: every field of the %d records sampled is null: no column to make", len(values))
	}
	return arrow.NewSchema(fields, nil), nil
}

// shape is the type of a JSON value, as far as the samples tell.
type shape struct {
	kind   kind
	count  map[kind]int // values seen of each kind, when they disagree
	fields []namedShape // object
	elem   *shape       // array
}

type namedShape struct {
	name  string
	shape *shape
}

type kind int

const (
	kindNull kind = iota
	kindBool
	kindLong
	kindDouble
	kindString
	kindObject
	kindArray
)

// shapeOf is x's shape; raw is x's own text, which keeps its keys in the
// order the record wrote them (a map does not).
func shapeOf(x any, raw []byte) *shape {
	switch v := x.(type) {
	case nil:
		return &shape{kind: kindNull}
	case bool:
		return &shape{kind: kindBool}
	case json.Number:
		if _, err := v.Int64(); err == nil {
			return &shape{kind: kindLong}
		}
		return &shape{kind: kindDouble}
	case string:
		return &shape{kind: kindString}
	case []any:
		s := &shape{kind: kindArray}
		var raws []json.RawMessage
		_ = json.Unmarshal(raw, &raws)
		for i, e := range v {
			var r []byte
			if i < len(raws) {
				r = raws[i]
			}
			s.elem = merge(s.elem, shapeOf(e, r))
		}
		return s
	case map[string]any:
		s := &shape{kind: kindObject}
		seen := map[string]bool{}
		topLevelKeys(raw, func(k string, val []byte) {
			if x, ok := v[k]; ok && !seen[k] {
				seen[k] = true
				s.fields = append(s.fields, namedShape{name: k, shape: shapeOf(x, val)})
			}
		})
		rest := make([]string, 0, len(v)-len(seen))
		for k := range v {
			if !seen[k] {
				rest = append(rest, k)
			}
		}
		slices.Sort(rest)
		for _, k := range rest {
			s.fields = append(s.fields, namedShape{name: k, shape: shapeOf(v[k], nil)})
		}
		return s
	}
	return &shape{kind: kindString}
}

// merge is the shape that holds values of both a and b.
func merge(a, b *shape) *shape {
	switch {
	case a == nil || a.kind == kindNull:
		return b
	case b == nil || b.kind == kindNull:
		return a
	case a.kind == b.kind && a.kind == kindObject:
		out := &shape{kind: kindObject, fields: slices.Clone(a.fields)}
		for _, f := range b.fields {
			i := slices.IndexFunc(out.fields, func(g namedShape) bool { return g.name == f.name })
			if i < 0 {
				out.fields = append(out.fields, f)
			} else {
				out.fields[i].shape = merge(out.fields[i].shape, f.shape)
			}
		}
		out.count = addCounts(a, b)
		return out
	case a.kind == b.kind && a.kind == kindArray:
		return &shape{kind: kindArray, elem: merge(a.elem, b.elem), count: addCounts(a, b)}
	case a.kind == b.kind:
		return &shape{kind: a.kind, count: addCounts(a, b)}
	}
	// They disagree: the numbers widen to double, else most values win.
	count := addCounts(a, b)
	if len(count) == 2 && count[kindLong] > 0 && count[kindDouble] > 0 {
		return &shape{kind: kindDouble, count: map[kind]int{kindDouble: count[kindLong] + count[kindDouble]}}
	}
	win := a
	if count[b.kind] > count[a.kind] || (count[b.kind] == count[a.kind] && b.kind > a.kind) {
		win = b
	}
	out := *win
	out.count = count
	return &out
}

// addCounts is how many values of each kind a and b saw together.
func addCounts(a, b *shape) map[kind]int {
	out := map[kind]int{}
	for _, s := range []*shape{a, b} {
		if s.count == nil {
			out[s.kind]++
			continue
		}
		for k, n := range s.count {
			out[k] += n
		}
	}
	return out
}

func (s *shape) arrowFields() []arrow.Field {
	var out []arrow.Field
	for _, f := range s.fields {
		if t := f.shape.arrowType(); t != nil {
			out = append(out, arrow.Field{Name: f.name, Type: t, Nullable: true})
		}
	}
	return out
}

// arrowType is s as an Arrow type, nil for a value only ever null.
func (s *shape) arrowType() arrow.DataType {
	switch s.kind {
	case kindBool:
		return arrow.FixedWidthTypes.Boolean
	case kindLong:
		return arrow.PrimitiveTypes.Int64
	case kindDouble:
		return arrow.PrimitiveTypes.Float64
	case kindString:
		return arrow.BinaryTypes.String
	case kindObject:
		fields := s.arrowFields()
		if len(fields) == 0 {
			return nil
		}
		return arrow.StructOf(fields...)
	case kindArray:
		if s.elem == nil {
			return nil
		}
		e := s.elem.arrowType()
		if e == nil {
			return nil
		}
		return arrow.ListOfField(arrow.Field{Name: "element", Type: e, Nullable: true})
	}
	return nil
}

// topLevelKeys calls fn with each key of the JSON object in b, unescaped,
// and its value's text, in order, as far as b is well formed.
func topLevelKeys(b []byte, fn func(key string, value []byte)) {
	jsonscan.Object(b, func(key, value []byte) bool {
		fn(jsonscan.Key(key), value)
		return true
	})
}
