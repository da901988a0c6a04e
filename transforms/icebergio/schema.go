package icebergio

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

// rowSchema is everything derived once from a row struct type: the Iceberg
// schema, its Arrow form and the field layout used to copy rows into Arrow
// builders without per-row reflection.
type rowSchema struct {
	goType  reflect.Type // the struct type (never a pointer)
	byPtr   bool         // rows arrive as *struct
	direct  bool         // the struct is pointer-shaped: an interface holds it inline
	iceberg *iceberg.Schema
	arrow   *arrow.Schema
	fields  []goField // top-level fields, in schema order
}

// goField is one struct field mapped to an Iceberg field.
type goField struct {
	name     string
	goName   string
	offset   uintptr
	typ      reflect.Type // the field's Go type, pointer included
	optional bool         // a pointer, or tagged iceberg:"optional"
	kind     string       // "", "date", "timestamp", "timestamptz" from the iceberg tag
	children []goField
	elem     *goField // list element
}

// newRowSchema derives the Iceberg schema of rows of type t (a struct or a
// pointer to one). Field names come from `beam:"name"` tags (else the Go
// name). Pointer fields are optional columns, others required. The iceberg
// tag is a comma-separated list: date, timestamp or timestamptz refine
// int32/int64, and optional makes the column optional although the Go field
// is never NULL, so that the schema can match a table other engines write
// (Spark makes every aggregate column optional), e.g.
// `iceberg:"date,optional"`.
func newRowSchema(t reflect.Type) (*rowSchema, error) {
	rs := &rowSchema{goType: t}
	if t.Kind() == reflect.Pointer {
		rs.byPtr = true
		rs.goType = t.Elem()
	}
	if rs.goType.Kind() != reflect.Struct {
		return nil, fmt.Errorf("icebergio: row type %v is not a struct", t)
	}
	rs.direct = !rs.byPtr && pointerShaped(rs.goType)
	fields, err := structFields(rs.goType, rs.goType.String())
	if err != nil {
		return nil, err
	}
	if len(fields) == 0 {
		return nil, fmt.Errorf("icebergio: row type %v has no exported fields", t)
	}
	rs.fields = fields
	nested := make([]iceberg.NestedField, len(fields))
	ids := 0
	for i := range fields {
		nested[i] = fields[i].nestedField(&ids)
	}
	rs.iceberg = iceberg.NewSchema(0, nested...)
	rs.arrow, err = table.SchemaToArrowSchema(rs.iceberg, nil, false, false)
	if err != nil {
		return nil, fmt.Errorf("icebergio: arrow schema for %v: %w", t, err)
	}
	return rs, nil
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

func structFields(t reflect.Type, where string) ([]goField, error) {
	var out []goField
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
		f.goName = sf.Name
		f.offset = sf.Offset
		out = append(out, f)
	}
	return out, nil
}

func newGoField(t reflect.Type, name, where, tag string) (goField, error) {
	f := goField{name: name, typ: t}
	base := t
	if t.Kind() == reflect.Pointer {
		f.optional = true
		base = t.Elem()
	}
	bad := func(why string) (goField, error) {
		return goField{}, fmt.Errorf("icebergio: field %s (%v): %s", where, t, why)
	}
	if tag != "" {
		for opt := range strings.SplitSeq(tag, ",") {
			switch opt = strings.TrimSpace(opt); opt {
			case "optional":
				f.optional = true
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
			return goField{}, err
		}
		if len(children) == 0 {
			return bad("nested struct has no exported fields")
		}
		f.children = children
	case reflect.Slice:
		if base.Elem().Kind() == reflect.Uint8 {
			break // []byte: binary
		}
		if t.Kind() == reflect.Pointer {
			return bad("pointer to slice is not supported; a nil slice already means an empty list")
		}
		elem, err := newGoField(base.Elem(), "element", where+"[]", "")
		if err != nil {
			return goField{}, err
		}
		f.elem = &elem
	default:
		return bad("unsupported type (want string, bool, ints, floats, []byte, struct, slice or pointers to them)")
	}
	if t.Kind() == reflect.Pointer && base.Kind() == reflect.Slice && base.Elem().Kind() == reflect.Uint8 {
		return bad("use []byte for binary; a nil []byte is written as empty, not null")
	}
	return f, nil
}

// nestedField assigns ids depth first; CreateTable renumbers them anyway.
func (f *goField) nestedField(ids *int) iceberg.NestedField {
	*ids++
	nf := iceberg.NestedField{ID: *ids, Name: f.name, Required: !f.optional}
	nf.Type = f.icebergType(ids)
	return nf
}

func (f *goField) icebergType(ids *int) iceberg.Type {
	base := f.typ
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
		if f.elem == nil {
			return iceberg.PrimitiveTypes.Binary
		}
		*ids++
		lt := &iceberg.ListType{ElementID: *ids, ElementRequired: !f.elem.optional}
		lt.Element = f.elem.icebergType(ids)
		return lt
	case reflect.Struct:
		st := &iceberg.StructType{FieldList: make([]iceberg.NestedField, len(f.children))}
		for i := range f.children {
			st.FieldList[i] = f.children[i].nestedField(ids)
		}
		return st
	}
	panic("icebergio: unreachable type " + base.String())
}

// rowPointer returns the address of the struct held in v, which must hold a
// value of the row type. Reading through the interface's data word avoids
// reflect.Value on the per-row path.
func (rs *rowSchema) rowPointer(v *any) unsafe.Pointer {
	e := (*[2]unsafe.Pointer)(unsafe.Pointer(v))
	if rs.direct {
		return unsafe.Pointer(&e[1])
	}
	return e[1]
}

// appendFn copies the Go value at p into a bound Arrow builder.
type appendFn func(p unsafe.Pointer)

// batchBuilder accumulates rows of one schema into Arrow columns.
type batchBuilder struct {
	rb   *array.RecordBuilder
	apps []appendFn
	offs []uintptr
	rows int
}

func (rs *rowSchema) newBatchBuilder(mem memory.Allocator) *batchBuilder {
	rb := array.NewRecordBuilder(mem, rs.arrow)
	bb := &batchBuilder{rb: rb}
	for i := range rs.fields {
		bb.apps = append(bb.apps, bindAppender(&rs.fields[i], rb.Field(i)))
		bb.offs = append(bb.offs, rs.fields[i].offset)
	}
	return bb
}

// add appends the row at p.
func (bb *batchBuilder) add(p unsafe.Pointer) {
	for i, app := range bb.apps {
		app(unsafe.Add(p, bb.offs[i]))
	}
	bb.rows++
}

// batch returns the rows added so far as a record batch and resets.
func (bb *batchBuilder) batch() arrow.RecordBatch {
	bb.rows = 0
	return bb.rb.NewRecordBatch()
}

func (bb *batchBuilder) release() { bb.rb.Release() }

func bindAppender(f *goField, b array.Builder) appendFn {
	if f.typ.Kind() == reflect.Pointer {
		inner := bindValue(f, f.typ.Elem(), b)
		return func(p unsafe.Pointer) {
			if q := *(*unsafe.Pointer)(p); q != nil {
				inner(q)
			} else {
				b.AppendNull()
			}
		}
	}
	return bindValue(f, f.typ, b)
}

type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

func bindValue(f *goField, t reflect.Type, b array.Builder) appendFn {
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
		if f.elem == nil {
			bb := b.(*array.BinaryBuilder)
			return func(p unsafe.Pointer) { bb.Append(*(*[]byte)(p)) }
		}
		lb := b.(*array.ListBuilder)
		elem := bindAppender(f.elem, lb.ValueBuilder())
		size := f.elem.typ.Size()
		return func(p unsafe.Pointer) {
			h := (*sliceHeader)(p)
			lb.Append(true)
			for i := 0; i < h.len; i++ {
				elem(unsafe.Add(h.data, uintptr(i)*size))
			}
		}
	case reflect.Struct:
		sb := b.(*array.StructBuilder)
		apps := make([]appendFn, len(f.children))
		offs := make([]uintptr, len(f.children))
		for i := range f.children {
			apps[i] = bindAppender(&f.children[i], sb.FieldBuilder(i))
			offs[i] = f.children[i].offset
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

// fieldString returns a formatter for the top-level scalar field name, used
// by table templates.
func (rs *rowSchema) fieldString(name string) (func(p unsafe.Pointer) string, error) {
	for i := range rs.fields {
		f := &rs.fields[i]
		if f.name != name {
			continue
		}
		off := f.offset
		t := f.typ
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
			return nil, fmt.Errorf("icebergio: table template field %q has type %v; want string, bool, int, int32 or int64", name, f.typ)
		}
		return func(p unsafe.Pointer) string {
			q := deref(p)
			if q == nil {
				return "null"
			}
			return format(q)
		}, nil
	}
	return nil, fmt.Errorf("icebergio: table template field %q is not a top-level field of %v", name, rs.goType)
}
