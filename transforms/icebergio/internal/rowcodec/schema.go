// Package rowcodec owns the mapping between a pipeline's row structs (with
// `beam:"column"` and `iceberg:"..."` tags) and Iceberg and Arrow: the Iceberg
// schema a struct type stands for, the copying of rows into Arrow record
// batches and of record batches back into rows (through field offsets, not
// per-row reflection), the checks that a struct can hold a table's columns,
// and Match, the one walk that pairs the rows' schema with a table's by
// column name. It knows nothing of Beam, catalogs or commits.
package rowcodec

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// Schema is everything derived once from a row struct type: the Iceberg
// schema, its Arrow form and the field layout used to copy rows into Arrow
// builders without per-row reflection.
type Schema struct {
	GoType  reflect.Type // the struct type (never a pointer)
	Iceberg *iceberg.Schema
	Arrow   *arrow.Schema
	Fields  []Field // top-level fields, in schema order
	byPtr   bool    // rows arrive as *struct
	direct  bool    // the struct is pointer-shaped: an interface holds it inline
}

// Field is one struct field mapped to an Iceberg field.
type Field struct {
	Name     string // the column's
	GoName   string
	Offset   uintptr
	Type     reflect.Type // the field's Go type, pointer included
	Optional bool         // a pointer, or tagged iceberg:"optional"
	Children []Field      // a struct's fields
	Elem     *Field       // a list's element
	kind     string       // "", "date", "timestamp", "timestamptz" from the iceberg tag
}

// New derives the Iceberg schema of rows of type t (a struct or a
// pointer to one). Field names come from `beam:"name"` tags (else the Go
// name). Pointer fields are optional columns, others required. The iceberg
// tag is a comma-separated list: date, timestamp or timestamptz refine
// int32/int64, and optional makes the column optional although the Go field
// is never NULL, so that the schema can match a table other engines write
// (Spark makes every aggregate column optional), e.g.
// `iceberg:"date,optional"`.
func New(t reflect.Type) (*Schema, error) {
	rs := &Schema{GoType: t}
	if t.Kind() == reflect.Pointer {
		rs.byPtr = true
		rs.GoType = t.Elem()
	}
	if rs.GoType.Kind() != reflect.Struct {
		return nil, fmt.Errorf("icebergio: row type %v is not a struct", t)
	}
	rs.direct = !rs.byPtr && pointerShaped(rs.GoType)
	fields, err := structFields(rs.GoType, rs.GoType.String())
	if err != nil {
		return nil, err
	}
	if len(fields) == 0 {
		return nil, fmt.Errorf("icebergio: row type %v has no exported fields", t)
	}
	rs.Fields = fields
	nested := make([]iceberg.NestedField, len(fields))
	ids := 0
	for i := range fields {
		nested[i] = fields[i].nestedField(&ids)
	}
	rs.Iceberg = iceberg.NewSchema(0, nested...)
	rs.Arrow, err = table.SchemaToArrowSchema(rs.Iceberg, nil, false, false)
	if err != nil {
		return nil, fmt.Errorf("icebergio: arrow schema for %v: %w", t, err)
	}
	return rs, nil
}

// FromArrow is the schema of rows that arrive as Arrow record batches of
// schema sc (icebergio.WriteRecords): nullable fields are optional columns,
// and field ids, if sc carries them, are ignored. Such a Schema has no Go
// type and no Fields; Arrow is sc's canonical form, the types the batches
// are checked against.
func FromArrow(sc *arrow.Schema) (*Schema, error) {
	if sc == nil || sc.NumFields() == 0 {
		return nil, fmt.Errorf("icebergio: the records' Arrow schema has no fields")
	}
	ice, err := table.ArrowSchemaToIcebergWithFreshIDs(sc, false)
	if err != nil {
		return nil, fmt.Errorf("icebergio: the records' Arrow schema (%s) has no Iceberg form: %w", sc, err)
	}
	rs := &Schema{Iceberg: ice}
	if rs.Arrow, err = table.SchemaToArrowSchema(ice, nil, false, false); err != nil {
		return nil, fmt.Errorf("icebergio: arrow schema for %s: %w", ice, err)
	}
	return rs, nil
}

// String names the rows: their Go type, or the columns of Arrow records.
func (rs *Schema) String() string {
	if rs.GoType != nil {
		return rs.GoType.String()
	}
	names := make([]string, len(rs.Arrow.Fields()))
	for i, f := range rs.Arrow.Fields() {
		names[i] = f.Name
	}
	return "Arrow records (" + strings.Join(names, ", ") + ")"
}

// pointerShaped reports whether Go stores a value of t directly in an
// interface's data word (the runtime's "direct iface" rule), in which case
// the data word is the value rather than a pointer to it.
func pointerShaped(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return true
	case reflect.Struct:
		return t.NumField() == 1 && pointerShaped(t.Field(0).Type)
	case reflect.Array:
		return t.Len() == 1 && pointerShaped(t.Elem())
	}
	return false
}

func structFields(t reflect.Type, where string) ([]Field, error) {
	var out []Field
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		name := sf.Name
		if tag, ok := sf.Tag.Lookup("beam"); ok {
			tag, _, _ = strings.Cut(tag, ",")
			if tag == "-" {
				continue
			}
			if tag != "" {
				name = tag
			}
		}
		f, err := newGoField(sf.Type, name, where+"."+sf.Name, sf.Tag.Get("iceberg"))
		if err != nil {
			return nil, err
		}
		f.GoName = sf.Name
		f.Offset = sf.Offset
		out = append(out, f)
	}
	return out, nil
}

func newGoField(t reflect.Type, name, where, tag string) (Field, error) {
	f := Field{Name: name, Type: t}
	base := t
	if t.Kind() == reflect.Pointer {
		f.Optional = true
		base = t.Elem()
	}
	bad := func(why string) (Field, error) {
		return Field{}, fmt.Errorf("icebergio: field %s (%v): %s", where, t, why)
	}
	if tag != "" {
		for opt := range strings.SplitSeq(tag, ",") {
			switch opt = strings.TrimSpace(opt); opt {
			case "optional":
				f.Optional = true
			case "date", "timestamp", "timestamptz":
				if f.kind != "" {
					return bad(`iceberg tag "` + tag + `" names two types`)
				}
				f.kind = opt
			default:
				return bad(`unknown iceberg tag option "` + opt + `" in "` + tag + `" (want date, timestamp, timestamptz or optional)`)
			}
		}
	}
	kind := f.kind
	switch kind {
	case "":
	case "date":
		if base.Kind() != reflect.Int32 {
			return bad(`iceberg:"date" needs an int32 (days since 1970-01-01)`)
		}
	case "timestamp", "timestamptz":
		if base.Kind() != reflect.Int64 {
			return bad(`iceberg:"` + kind + `" needs an int64 (microseconds since the epoch)`)
		}
	}
	switch base.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Float32, reflect.Float64, reflect.String:
	case reflect.Struct:
		children, err := structFields(base, where)
		if err != nil {
			return Field{}, err
		}
		if len(children) == 0 {
			return bad("nested struct has no exported fields")
		}
		f.Children = children
	case reflect.Slice:
		if base.Elem().Kind() == reflect.Uint8 {
			break // []byte: binary
		}
		if t.Kind() == reflect.Pointer {
			return bad("pointer to slice is not supported; a nil slice already means an empty list")
		}
		elem, err := newGoField(base.Elem(), "element", where+"[]", "")
		if err != nil {
			return Field{}, err
		}
		f.Elem = &elem
	default:
		return bad("unsupported type (want string, bool, ints, floats, []byte, struct, slice or pointers to them)")
	}
	if t.Kind() == reflect.Pointer && base.Kind() == reflect.Slice && base.Elem().Kind() == reflect.Uint8 {
		return bad("use []byte for binary; a nil []byte is written as empty, not null")
	}
	return f, nil
}

// nestedField assigns ids depth first; CreateTable renumbers them anyway.
func (f *Field) nestedField(ids *int) iceberg.NestedField {
	*ids++
	nf := iceberg.NestedField{ID: *ids, Name: f.Name, Required: !f.Optional}
	nf.Type = f.icebergType(ids)
	return nf
}

func (f *Field) icebergType(ids *int) iceberg.Type {
	base := f.Type
	if base.Kind() == reflect.Pointer {
		base = base.Elem()
	}
	switch f.kind {
	case "date":
		return iceberg.PrimitiveTypes.Date
	case "timestamp":
		return iceberg.PrimitiveTypes.Timestamp
	case "timestamptz":
		return iceberg.PrimitiveTypes.TimestampTz
	}
	switch base.Kind() {
	case reflect.Bool:
		return iceberg.PrimitiveTypes.Bool
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Uint8, reflect.Uint16:
		return iceberg.PrimitiveTypes.Int32
	case reflect.Int, reflect.Int64, reflect.Uint32:
		return iceberg.PrimitiveTypes.Int64
	case reflect.Float32:
		return iceberg.PrimitiveTypes.Float32
	case reflect.Float64:
		return iceberg.PrimitiveTypes.Float64
	case reflect.String:
		return iceberg.PrimitiveTypes.String
	case reflect.Slice:
		if f.Elem == nil {
			return iceberg.PrimitiveTypes.Binary
		}
		*ids++
		lt := &iceberg.ListType{ElementID: *ids, ElementRequired: !f.Elem.Optional}
		lt.Element = f.Elem.icebergType(ids)
		return lt
	case reflect.Struct:
		st := &iceberg.StructType{FieldList: make([]iceberg.NestedField, len(f.Children))}
		for i := range f.Children {
			st.FieldList[i] = f.Children[i].nestedField(ids)
		}
		return st
	}
	panic("icebergio: unreachable type " + base.String())
}

// Field returns the top-level field of the column name, or nil.
func (rs *Schema) Field(name string) *Field {
	for i := range rs.Fields {
		if rs.Fields[i].Name == name {
			return &rs.Fields[i]
		}
	}
	return nil
}

// RowPointer returns the address of the struct held in v, which must hold a
// value of the row type. Reading through the interface's data word avoids
// reflect.Value on the per-row path.
func (rs *Schema) RowPointer(v *any) unsafe.Pointer {
	e := (*[2]unsafe.Pointer)(unsafe.Pointer(v))
	if rs.direct {
		return unsafe.Pointer(&e[1])
	}
	return e[1]
}

// appendFn copies the Go value at p into a bound Arrow builder.
type appendFn func(p unsafe.Pointer)

// BatchBuilder accumulates rows of one schema into Arrow columns.
type BatchBuilder struct {
	rb   *array.RecordBuilder
	apps []appendFn
	offs []uintptr
	rows int
}

// NewBatchBuilder returns an empty builder of batches of rs's rows.
func (rs *Schema) NewBatchBuilder(mem memory.Allocator) *BatchBuilder {
	rb := array.NewRecordBuilder(mem, rs.Arrow)
	bb := &BatchBuilder{rb: rb}
	for i := range rs.Fields {
		bb.apps = append(bb.apps, bindAppender(&rs.Fields[i], rb.Field(i)))
		bb.offs = append(bb.offs, rs.Fields[i].Offset)
	}
	return bb
}

// Add appends the row at p.
func (bb *BatchBuilder) Add(p unsafe.Pointer) {
	for i, app := range bb.apps {
		app(unsafe.Add(p, bb.offs[i]))
	}
	bb.rows++
}

// Batch returns the rows added so far as a record batch and resets.
func (bb *BatchBuilder) Batch() arrow.RecordBatch {
	bb.rows = 0
	return bb.rb.NewRecordBatch()
}

// Rows is how many rows were added since the last batch.
func (bb *BatchBuilder) Rows() int { return bb.rows }

// Release releases the builder's buffers.
func (bb *BatchBuilder) Release() { bb.rb.Release() }

func bindAppender(f *Field, b array.Builder) appendFn {
	if f.Type.Kind() == reflect.Pointer {
		inner := bindValue(f, f.Type.Elem(), b)
		return func(p unsafe.Pointer) {
			if q := *(*unsafe.Pointer)(p); q != nil {
				inner(q)
			} else {
				b.AppendNull()
			}
		}
	}
	return bindValue(f, f.Type, b)
}

type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

func bindValue(f *Field, t reflect.Type, b array.Builder) appendFn {
	switch t.Kind() {
	case reflect.Bool:
		bb := b.(*array.BooleanBuilder)
		return func(p unsafe.Pointer) { bb.Append(*(*bool)(p)) }
	case reflect.Int8:
		bb := b.(*array.Int32Builder)
		return func(p unsafe.Pointer) { bb.Append(int32(*(*int8)(p))) }
	case reflect.Int16:
		bb := b.(*array.Int32Builder)
		return func(p unsafe.Pointer) { bb.Append(int32(*(*int16)(p))) }
	case reflect.Uint8:
		bb := b.(*array.Int32Builder)
		return func(p unsafe.Pointer) { bb.Append(int32(*(*uint8)(p))) }
	case reflect.Uint16:
		bb := b.(*array.Int32Builder)
		return func(p unsafe.Pointer) { bb.Append(int32(*(*uint16)(p))) }
	case reflect.Int32:
		if f.kind == "date" {
			bb := b.(*array.Date32Builder)
			return func(p unsafe.Pointer) { bb.Append(arrow.Date32(*(*int32)(p))) }
		}
		bb := b.(*array.Int32Builder)
		return func(p unsafe.Pointer) { bb.Append(*(*int32)(p)) }
	case reflect.Int64:
		if f.kind == "timestamp" || f.kind == "timestamptz" {
			bb := b.(*array.TimestampBuilder)
			return func(p unsafe.Pointer) { bb.Append(arrow.Timestamp(*(*int64)(p))) }
		}
		bb := b.(*array.Int64Builder)
		return func(p unsafe.Pointer) { bb.Append(*(*int64)(p)) }
	case reflect.Int:
		bb := b.(*array.Int64Builder)
		return func(p unsafe.Pointer) { bb.Append(int64(*(*int)(p))) }
	case reflect.Uint32:
		bb := b.(*array.Int64Builder)
		return func(p unsafe.Pointer) { bb.Append(int64(*(*uint32)(p))) }
	case reflect.Float32:
		bb := b.(*array.Float32Builder)
		return func(p unsafe.Pointer) { bb.Append(*(*float32)(p)) }
	case reflect.Float64:
		bb := b.(*array.Float64Builder)
		return func(p unsafe.Pointer) { bb.Append(*(*float64)(p)) }
	case reflect.String:
		bb := b.(*array.StringBuilder)
		return func(p unsafe.Pointer) { bb.Append(*(*string)(p)) }
	case reflect.Slice:
		if f.Elem == nil {
			bb := b.(*array.BinaryBuilder)
			return func(p unsafe.Pointer) { bb.Append(*(*[]byte)(p)) }
		}
		lb := b.(*array.ListBuilder)
		elem := bindAppender(f.Elem, lb.ValueBuilder())
		size := f.Elem.Type.Size()
		return func(p unsafe.Pointer) {
			h := (*sliceHeader)(p)
			lb.Append(true)
			for i := 0; i < h.len; i++ {
				elem(unsafe.Add(h.data, uintptr(i)*size))
			}
		}
	case reflect.Struct:
		sb := b.(*array.StructBuilder)
		apps := make([]appendFn, len(f.Children))
		offs := make([]uintptr, len(f.Children))
		for i := range f.Children {
			apps[i] = bindAppender(&f.Children[i], sb.FieldBuilder(i))
			offs[i] = f.Children[i].Offset
		}
		return func(p unsafe.Pointer) {
			sb.Append(true)
			for i, app := range apps {
				app(unsafe.Add(p, offs[i]))
			}
		}
	}
	panic("icebergio: unreachable kind " + t.String())
}

// FieldString returns a formatter for the top-level scalar field name, used
// by table templates.
func (rs *Schema) FieldString(name string) (func(p unsafe.Pointer) string, error) {
	for i := range rs.Fields {
		f := &rs.Fields[i]
		if f.Name != name {
			continue
		}
		off := f.Offset
		t := f.Type
		deref := func(p unsafe.Pointer) unsafe.Pointer { return unsafe.Add(p, off) }
		if t.Kind() == reflect.Pointer {
			t = t.Elem()
			deref = func(p unsafe.Pointer) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Add(p, off)) }
		}
		var format func(q unsafe.Pointer) string
		switch t.Kind() {
		case reflect.String:
			format = func(q unsafe.Pointer) string { return *(*string)(q) }
		case reflect.Bool:
			format = func(q unsafe.Pointer) string { return strconv.FormatBool(*(*bool)(q)) }
		case reflect.Int32:
			format = func(q unsafe.Pointer) string { return strconv.FormatInt(int64(*(*int32)(q)), 10) }
		case reflect.Int64:
			format = func(q unsafe.Pointer) string { return strconv.FormatInt(*(*int64)(q), 10) }
		case reflect.Int:
			format = func(q unsafe.Pointer) string { return strconv.Itoa(*(*int)(q)) }
		default:
			return nil, fmt.Errorf("icebergio: table template field %q has type %v; want string, bool, int, int32 or int64", name, f.Type)
		}
		return func(p unsafe.Pointer) string {
			q := deref(p)
			if q == nil {
				return "null"
			}
			return format(q)
		}, nil
	}
	return nil, fmt.Errorf("icebergio: table template field %q is not a top-level field of %v", name, rs.GoType)
}
