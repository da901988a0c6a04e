package kafkaiceberg

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icebeam/icebeam/transforms/internal/jsonscan"
)

// rowDecoder appends JSON objects to a RecordBuilder as rows, column by
// column, without a JSON token stream: a scan of the object's bytes finds
// each field's value, numbers, booleans and strings are parsed straight
// into their column, and other types go through Arrow's own JSON
// decoding of that one value. A record is checked whole before anything
// of it is appended, so one that does not fit leaves the batch as it was.
type rowDecoder struct {
	table  string
	schema *arrow.Schema
	// open takes fields the columns lack into more instead of refusing
	// them: the table may take them as columns (Table.Evolve).
	open   bool
	more   []rawField
	fields []arrow.Field // schema's, which Fields copies at each call
	rb     *array.RecordBuilder
	cols   map[string]int
	kinds  []colKind

	// One record's values, by column.
	raw    [][]byte
	ints   []int64
	floats []float64
	strs   [][]byte
	check  []array.Builder // a column's own builder for checking values of other kinds
}

// rawField is a field of a JSON object: its key, unescaped, and its
// value's text.
type rawField struct {
	key   string
	value []byte
}

type colKind int

const (
	colOther colKind = iota
	colInt64
	colInt32
	colFloat64
	colFloat32
	colBool
	colString
)

func newRowDecoder(table string, sc *arrow.Schema, open bool) *rowDecoder {
	n := sc.NumFields()
	d := &rowDecoder{table: table, schema: sc, open: open, fields: sc.Fields(), rb: array.NewRecordBuilder(memory.DefaultAllocator, sc),
		cols: make(map[string]int, n), kinds: make([]colKind, n), raw: make([][]byte, n),
		ints: make([]int64, n), floats: make([]float64, n), strs: make([][]byte, n), check: make([]array.Builder, n)}
	for i, f := range d.fields {
		d.cols[f.Name] = i
		switch f.Type.ID() {
		case arrow.INT64:
			d.kinds[i] = colInt64
		case arrow.INT32:
			d.kinds[i] = colInt32
		case arrow.FLOAT64:
			d.kinds[i] = colFloat64
		case arrow.FLOAT32:
			d.kinds[i] = colFloat32
		case arrow.BOOL:
			d.kinds[i] = colBool
		case arrow.STRING:
			d.kinds[i] = colString
		}
	}
	return d
}

func (d *rowDecoder) rows() int { return d.rb.Field(0).Len() }

// reserve makes room for n more rows of values, so that the columns do not
// grow, and copy themselves, row by row.
func (d *rowDecoder) reserve(n int) {
	for i, b := range d.rb.Fields() {
		b.Reserve(n)
		if d.kinds[i] == colString {
			b.(*array.StringBuilder).ReserveData(n * 16)
		}
	}
}

// add appends the JSON object v as a row, or returns why it does not fit
// the columns (and appends nothing).
func (d *rowDecoder) add(v []byte) string {
	if why := d.fit(v); why != "" {
		return why
	}
	if len(d.more) > 0 {
		return fmt.Sprintf("field %q is not a column of table %s", d.more[0].key, d.table)
	}
	d.appendRow()
	return ""
}

// appendRow appends the row fit parsed.
func (d *rowDecoder) appendRow() {
	for i := range d.raw {
		d.append(i)
	}
}

// release frees the batch in the making.
func (d *rowDecoder) release() {
	d.rb.Release()
	for _, b := range d.check {
		if b != nil {
			b.Release()
		}
	}
}

// fit parses the JSON object v into the row's values, ready for
// appendRow, or returns why it does not fit the columns. An open decoder
// keeps the fields the columns lack, but for those only ever null, in
// more: the row is ready only when there are none.
func (d *rowDecoder) fit(v []byte) string {
	clear(d.raw)
	d.more = d.more[:0]
	var why string
	ok := jsonscan.Object(v, func(key []byte, val []byte) bool {
		i, known := d.cols[string(key)]
		switch {
		case !known && d.open:
			if !jsonscan.IsNull(val) {
				d.more = append(d.more, rawField{jsonscan.Key(key), val})
			}
			return true
		case !known:
			why = fmt.Sprintf("field %q is not a column of table %s", jsonscan.Key(key), d.table)
		case d.raw[i] != nil:
			why = fmt.Sprintf("field %q appears twice", jsonscan.Key(key))
		default:
			d.raw[i] = val
			return true
		}
		return false
	})
	if why != "" {
		return why
	}
	if !ok {
		if i := jsonscan.SkipSpace(v, 0); i < len(v) && v[i] != '{' {
			return "not a JSON object"
		}
		return "not valid JSON"
	}
	for i, f := range d.fields {
		val := d.raw[i]
		if val == nil || jsonscan.IsNull(val) {
			if !f.Nullable {
				return fmt.Sprintf("field %q is missing or null, but column %s of table %s is required", f.Name, f.Name, d.table)
			}
			d.raw[i] = nil
			continue
		}
		if why := d.parse(i, val); why != "" {
			return fmt.Sprintf("field %q: %s (column %s of table %s is %s)", f.Name, why, f.Name, d.table, f.Type)
		}
	}
	return ""
}

// moreColumns is the columns the fields in more make: their types are
// inferred from their values as InferSchema infers a table's. It says why
// when a value has no type to take (an empty array or object).
func (d *rowDecoder) moreColumns() ([]arrow.Field, string) {
	obj := []byte{'{'}
	for i, f := range d.more {
		if i > 0 {
			obj = append(obj, ',')
		}
		k, _ := json.Marshal(f.key)
		obj = append(append(append(obj, k...), ':'), f.value...)
	}
	obj = append(obj, '}')
	sc, err := InferSchema([][]byte{obj})
	if err != nil || sc.NumFields() < len(d.more) {
		for _, f := range d.more {
			if sc == nil || !sc.HasField(f.key) {
				return nil, fmt.Sprintf("field %q is not a column of table %s, and its value (%s) gives no column type to add", f.key, d.table, jsonscan.Short(f.value))
			}
		}
	}
	return sc.Fields(), ""
}

// parse checks the value of column i and keeps what append needs.
func (d *rowDecoder) parse(i int, val []byte) string {
	switch d.kinds[i] {
	case colInt64, colInt32:
		n, ok := jsonscan.ParseInt(val)
		if !ok {
			if !jsonscan.Number(val) {
				return "not an integer: " + jsonscan.Short(val)
			}
			var err error
			if n, err = strconv.ParseInt(jsonscan.UnsafeString(val), 10, 64); err != nil {
				// 3.0 or 1e3: an integer all the same.
				f, ferr := strconv.ParseFloat(jsonscan.UnsafeString(val), 64)
				if ferr != nil || f != math.Trunc(f) || math.Abs(f) >= 1<<63 {
					return "not an integer: " + jsonscan.Short(val)
				}
				n = int64(f)
			}
		}
		if d.kinds[i] == colInt32 && (n < math.MinInt32 || n > math.MaxInt32) {
			return "out of range: " + jsonscan.Short(val)
		}
		d.ints[i] = n
	case colFloat64, colFloat32:
		if !jsonscan.Number(val) {
			return "not a number: " + jsonscan.Short(val)
		}
		f, err := strconv.ParseFloat(jsonscan.UnsafeString(val), 64)
		if err != nil {
			return "not a number: " + jsonscan.Short(val)
		}
		d.floats[i] = f
	case colBool:
		switch string(val) {
		case "true":
			d.ints[i] = 1
		case "false":
			d.ints[i] = 0
		default:
			return "not a boolean: " + jsonscan.Short(val)
		}
	case colString:
		if val[0] != '"' || len(val) < 2 || val[len(val)-1] != '"' {
			return "not a string: " + jsonscan.Short(val)
		}
		s := val[1 : len(val)-1]
		if bytes.IndexByte(s, '\\') >= 0 {
			var u string
			if err := json.Unmarshal(val, &u); err != nil {
				return "not a string: " + jsonscan.Short(val)
			}
			s = []byte(u)
		} else if !utf8.Valid(s) {
			return "not UTF-8 text"
		}
		d.strs[i] = s
	default:
		b := d.check[i]
		if b == nil || b.Len() >= 1024 {
			if b != nil {
				b.Release()
			}
			b = array.NewBuilder(memory.DefaultAllocator, d.fields[i].Type)
			d.check[i] = b
		}
		if err := b.UnmarshalJSON(wrap(val)); err != nil {
			return errorText(err)
		}
	}
	return ""
}

// append appends column i's parsed value, or null.
func (d *rowDecoder) append(i int) {
	b := d.rb.Field(i)
	val := d.raw[i]
	if val == nil {
		b.AppendNull()
		return
	}
	switch d.kinds[i] {
	case colInt64:
		b.(*array.Int64Builder).Append(d.ints[i])
	case colInt32:
		b.(*array.Int32Builder).Append(int32(d.ints[i]))
	case colFloat64:
		b.(*array.Float64Builder).Append(d.floats[i])
	case colFloat32:
		b.(*array.Float32Builder).Append(float32(d.floats[i]))
	case colBool:
		b.(*array.BooleanBuilder).Append(d.ints[i] == 1)
	case colString:
		b.(*array.StringBuilder).BinaryBuilder.Append(d.strs[i])
	default:
		// Checked by parse: it fits.
		_ = b.UnmarshalJSON(wrap(val))
	}
}

// errorText is err's message. Some errors of the JSON decoder Arrow uses
// panic when asked for it (a type error without its Go type).
func errorText(err error) (s string) {
	defer func() {
		if recover() != nil {
			s = "not of the column's type"
		}
	}()
	return err.Error()
}

// wrap is val as a JSON array of one, which a Builder's UnmarshalJSON
// appends.
func wrap(val []byte) []byte {
	w := make([]byte, 0, len(val)+2)
	w = append(w, '[')
	w = append(w, val...)
	return append(w, ']')
}
