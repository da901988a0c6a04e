package rowcodec

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/iceberg-go"
)

// This file is the reading half of schema.go: it checks that a row struct
// can hold a table's columns and copies Arrow record batches into slices of
// row structs column by column, through field offsets, as bindAppender does
// the other way.

// ReadColumns checks the row struct described by rs against the table
// schema sc it will be read with, and returns the top-level columns to
// select. Struct fields are matched to columns by their beam tag names (at
// every level). A field the table lacks must be a pointer, which stays nil;
// a column must widen to its field's type (int to long, float to double);
// columns names the columns to read (empty: every field's column), and
// fields outside it keep their zero value.
func ReadColumns(tableName string, rs *Schema, sc *iceberg.Schema, columns []string) ([]string, error) {
	want := map[string]bool{}
	for _, c := range columns {
		if _, ok := sc.FindFieldByName(c); !ok {
			return nil, fmt.Errorf("icebergio: table %s has no column %q (columns: %s)", tableName, c, ColumnNames(sc))
		}
		if !slices.ContainsFunc(rs.Fields, func(f Field) bool { return f.Name == c }) {
			return nil, fmt.Errorf("icebergio: table %s: column %q is selected but row type %v has no field tagged beam:%q", tableName, c, rs.GoType, c)
		}
		want[c] = true
	}
	var selected []string
	for i := range rs.Fields {
		f := &rs.Fields[i]
		if len(want) > 0 && !want[f.Name] {
			continue
		}
		col, ok := TopLevelColumn(sc, f.Name)
		if !ok {
			if f.Type.Kind() != reflect.Pointer {
				return nil, fmt.Errorf("icebergio: table %s has no column %q for field %s.%s (%v); make the field a pointer to read it as nil (columns: %s)",
					tableName, f.Name, rs.GoType, f.GoName, f.Type, ColumnNames(sc))
			}
			continue
		}
		if err := readableAs(tableName, f.Name, rs.GoType.String()+"."+f.GoName, f, col.Type); err != nil {
			return nil, err
		}
		selected = append(selected, f.Name)
	}
	return selected, nil
}

// CheckProjection checks the row type against the columns a worker's scan
// projects (the table may have changed since planning): fields without a
// projected column were either left out or checked when planning.
func CheckProjection(tableName string, rs *Schema, proj *iceberg.Schema) error {
	for i := range rs.Fields {
		f := &rs.Fields[i]
		if col, ok := TopLevelColumn(proj, f.Name); ok {
			if err := readableAs(tableName, f.Name, rs.GoType.String()+"."+f.GoName, f, col.Type); err != nil {
				return err
			}
		}
	}
	return nil
}

// TopLevelColumn finds a top-level column by name; FindFieldByName would
// also take a dotted path into a struct.
func TopLevelColumn(sc *iceberg.Schema, name string) (iceberg.NestedField, bool) {
	for _, f := range sc.Fields() {
		if f.Name == name {
			return f, true
		}
	}
	return iceberg.NestedField{}, false
}

// ColumnNames lists sc's top-level columns and their types, for errors.
func ColumnNames(sc *iceberg.Schema) string {
	var names []string
	for _, f := range sc.Fields() {
		names = append(names, f.Name+" "+f.Type.String())
	}
	return fmt.Sprint(names)
}

// readableAs reports whether values of the table type t fit field f. It
// walks the Go fields rather than going through Match: whether a missing
// column is allowed depends on the Go field (a pointer), and widening runs
// the other way (a table's int reads into a row's int64).
func readableAs(tableName, column, where string, f *Field, t iceberg.Type) error {
	bad := func(hint string) error {
		if hint != "" {
			hint = "; " + hint
		}
		return fmt.Errorf("icebergio: table %s: column %s is %s, which field %s (%v) cannot hold%s", tableName, column, t, where, f.Type, hint)
	}
	base := f.Type
	if base.Kind() == reflect.Pointer {
		base = base.Elem()
	}
	switch tt := t.(type) {
	case *iceberg.StructType:
		if base.Kind() != reflect.Struct {
			return bad("a struct column needs a struct field")
		}
		for i := range f.Children {
			c := &f.Children[i]
			var col *iceberg.NestedField
			for j := range tt.FieldList {
				if tt.FieldList[j].Name == c.Name {
					col = &tt.FieldList[j]
				}
			}
			if col == nil {
				if c.Type.Kind() != reflect.Pointer {
					return fmt.Errorf("icebergio: table %s has no column %s.%s for field %s.%s (%v); make the field a pointer to read it as nil",
						tableName, column, c.Name, where, c.GoName, c.Type)
				}
				continue
			}
			if err := readableAs(tableName, column+"."+c.Name, where+"."+c.GoName, c, col.Type); err != nil {
				return err
			}
		}
		return nil
	case *iceberg.ListType:
		if base.Kind() != reflect.Slice || f.Elem == nil {
			return bad("a list column needs a slice field")
		}
		return readableAs(tableName, column+".element", where+"[]", f.Elem, tt.Element)
	}
	var ids int
	ft := f.icebergType(&ids)
	if ft.Equals(t) {
		return nil
	}
	switch {
	case t.Equals(iceberg.PrimitiveTypes.Int32) && ft.Equals(iceberg.PrimitiveTypes.Int64) && f.kind == "",
		t.Equals(iceberg.PrimitiveTypes.Float32) && ft.Equals(iceberg.PrimitiveTypes.Float64):
		return nil // widened as read
	}
	hint := ""
	switch {
	case t.Equals(iceberg.PrimitiveTypes.Date):
		hint = `dates read into an int32 tagged iceberg:"date" (days since 1970-01-01)`
	case t.Equals(iceberg.PrimitiveTypes.Timestamp):
		hint = `timestamps read into an int64 tagged iceberg:"timestamp" (microseconds)`
	case t.Equals(iceberg.PrimitiveTypes.TimestampTz):
		hint = `timestamptz columns read into an int64 tagged iceberg:"timestamptz" (microseconds)`
	case t.Equals(iceberg.PrimitiveTypes.Int64):
		hint = "a long reads into an int64, int or uint32 field"
	case t.Equals(iceberg.PrimitiveTypes.Float64):
		hint = "a double reads into a float64 field"
	default:
		switch t.(type) {
		case iceberg.DecimalType, iceberg.UUIDType, iceberg.FixedType, *iceberg.MapType, iceberg.TimeType:
			hint = "row structs do not support this type yet: leave the column out of the struct"
		}
	}
	return bad(hint)
}

// colSetter copies the values of arr (one row per element) into the field at
// base + i*stride for each row i. Null slots are left as they are (zero
// values in a fresh slice); callers check nulls where a field cannot hold
// them.
type colSetter func(arr arrow.Array, base unsafe.Pointer, stride uintptr) error

// Converter turns record batches into row structs.
type Converter struct {
	rs     *Schema
	sliceT reflect.Type // []struct
	cols   []boundColumn
	ifType unsafe.Pointer // the type word of an interface holding a row
}

type boundColumn struct {
	index    int // column in the record batch
	offset   uintptr
	set      colSetter
	required bool   // the field cannot hold a null
	name     string // the column's path, for errors
	where    string // the field
	typ      reflect.Type
	checks   []nullCheck // required nested fields
}

// nullCheck is a required field inside a nested struct column: path leads
// from the column to it.
type nullCheck struct {
	path  []int
	name  string
	where string
	typ   reflect.Type
}

type eface struct {
	typ, data unsafe.Pointer
}

// NewConverter binds rs's fields to the columns of batches with schema
// sc. Fields without a column stay zero (or nil).
func NewConverter(rs *Schema, sc *arrow.Schema) (*Converter, error) {
	rc := &Converter{rs: rs, sliceT: reflect.SliceOf(rs.GoType)}
	zero := reflect.Zero(rs.GoType)
	if rs.byPtr {
		zero = reflect.Zero(reflect.PointerTo(rs.GoType))
	}
	iface := zero.Interface()
	rc.ifType = (*eface)(unsafe.Pointer(&iface)).typ
	for i := range rs.Fields {
		f := &rs.Fields[i]
		idx := sc.FieldIndices(f.Name)
		if len(idx) == 0 {
			continue
		}
		af := sc.Field(idx[0])
		set, err := bindSetter(f, af.Type)
		if err != nil {
			return nil, fmt.Errorf("icebergio: column %s (%s) into field %s.%s (%v): %w", f.Name, af.Type, rs.GoType, f.GoName, f.Type, err)
		}
		bc := boundColumn{index: idx[0], offset: f.Offset, set: set, required: !holdsNull(f.Type),
			name: f.Name, where: rs.GoType.String() + "." + f.GoName, typ: f.Type}
		bc.checks = requiredChildren(f, af.Type, nil, f.Name, bc.where)
		rc.cols = append(rc.cols, bc)
	}
	return rc, nil
}

// holdsNull reports whether a field of type t can hold a null: pointers
// (nil) and slices (a null list or binary reads as a nil slice).
func holdsNull(t reflect.Type) bool {
	return t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice
}

// requiredChildren lists the non-pointer fields inside a struct column,
// whose nulls (where their parents are present) cannot be held.
func requiredChildren(f *Field, dt arrow.DataType, path []int, name, where string) []nullCheck {
	st, ok := dt.(*arrow.StructType)
	if !ok || len(f.Children) == 0 {
		return nil
	}
	var out []nullCheck
	for i := range f.Children {
		c := &f.Children[i]
		j, ok := st.FieldIdx(c.Name)
		if !ok {
			continue
		}
		p := append(slices.Clone(path), j)
		if !holdsNull(c.Type) {
			out = append(out, nullCheck{path: p, name: name + "." + c.Name, where: where + "." + c.GoName, typ: c.Type})
		}
		out = append(out, requiredChildren(c, st.Field(j).Type, p, name+"."+c.Name, where+"."+c.GoName)...)
	}
	return out
}

// Convert copies rec into a new slice of rows and returns a pointer to its
// first element (nil for no rows), which keeps the slice alive.
func (rc *Converter) Convert(rec arrow.RecordBatch) (base unsafe.Pointer, n int, err error) {
	n = int(rec.NumRows())
	if n == 0 {
		return nil, 0, nil
	}
	base = reflect.MakeSlice(rc.sliceT, n, n).UnsafePointer()
	stride := rc.rs.GoType.Size()
	for _, c := range rc.cols {
		arr := rec.Column(c.index)
		if c.required && arr.NullN() > 0 {
			return nil, 0, nullError(arr, c.name, c.where, c.typ)
		}
		for _, chk := range c.checks {
			if err := checkNestedNulls(arr, chk); err != nil {
				return nil, 0, err
			}
		}
		if err := c.set(arr, unsafe.Add(base, c.offset), stride); err != nil {
			return nil, 0, fmt.Errorf("column %s into %s: %w", c.name, c.where, err)
		}
	}
	return base, n, nil
}

func nullError(arr arrow.Array, name, where string, t reflect.Type) error {
	row := 0
	for row < arr.Len() && arr.IsValid(row) {
		row++
	}
	return fmt.Errorf("column %s holds a null (row %d of a batch), which field %s (%v) cannot hold; make the field a pointer", name, row, where, t)
}

// checkNestedNulls fails when a required nested field is null in a row
// whose enclosing structs are all present.
func checkNestedNulls(arr arrow.Array, chk nullCheck) error {
	leaf := arr
	for _, j := range chk.path {
		leaf = leaf.(*array.Struct).Field(j)
	}
	if leaf.NullN() == 0 {
		return nil
	}
	valid := make([]bool, arr.Len())
	for i := range valid {
		valid[i] = arr.IsValid(i)
	}
	cur := arr
	for depth, j := range chk.path {
		cur = cur.(*array.Struct).Field(j)
		for i := range valid {
			if valid[i] && cur.IsNull(i) {
				if depth == len(chk.path)-1 {
					return fmt.Errorf("column %s holds a null (row %d of a batch), which field %s (%v) cannot hold; make the field a pointer", chk.name, i, chk.where, chk.typ)
				}
				valid[i] = false
			}
		}
	}
	return nil
}

// Row returns row i of a converted batch as an interface value of the row
// type (the struct, or a pointer to it), without copying the struct.
func (rc *Converter) Row(base unsafe.Pointer, i int) any {
	p := unsafe.Add(base, uintptr(i)*rc.rs.GoType.Size())
	var v any
	e := (*eface)(unsafe.Pointer(&v))
	e.typ = rc.ifType
	if rc.rs.direct {
		e.data = *(*unsafe.Pointer)(p)
	} else {
		e.data = p
	}
	return v
}

func bindSetter(f *Field, dt arrow.DataType) (colSetter, error) {
	if f.Type.Kind() != reflect.Pointer {
		return bindValueSetter(f, f.Type, dt)
	}
	elem := f.Type.Elem()
	inner, err := bindValueSetter(f, elem, dt)
	if err != nil {
		return nil, err
	}
	sliceT := reflect.SliceOf(elem)
	size := elem.Size()
	return func(arr arrow.Array, base unsafe.Pointer, stride uintptr) error {
		n := arr.Len()
		if arr.NullN() == n {
			return nil
		}
		// One allocation per column and batch: the values live in a slice
		// the rows point into.
		backing := reflect.MakeSlice(sliceT, n, n).UnsafePointer()
		if err := inner(arr, backing, size); err != nil {
			return err
		}
		for i := 0; i < n; i++ {
			if arr.IsValid(i) {
				*(*unsafe.Pointer)(unsafe.Add(base, uintptr(i)*stride)) = unsafe.Add(backing, uintptr(i)*size)
			}
		}
		return nil
	}, nil
}

type number interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~int | ~uint8 | ~uint16 | ~uint32 | ~float32 | ~float64
}

// setNumbers copies vals into fields of type D, converting; no range check.
func setNumbers[S, D number](arr arrow.Array, vals []S, base unsafe.Pointer, stride uintptr) {
	if arr.NullN() == 0 {
		for i, v := range vals {
			*(*D)(unsafe.Add(base, uintptr(i)*stride)) = D(v)
		}
		return
	}
	for i, v := range vals {
		if arr.IsValid(i) {
			*(*D)(unsafe.Add(base, uintptr(i)*stride)) = D(v)
		}
	}
}

// setIntsChecked copies integers into a narrower field type, failing on a
// value the field cannot hold.
func setIntsChecked[S ~int32 | ~int64, D ~int8 | ~int16 | ~uint8 | ~uint16 | ~uint32](arr arrow.Array, vals []S, base unsafe.Pointer, stride uintptr, lo, hi int64) error {
	for i, v := range vals {
		if !arr.IsValid(i) {
			continue
		}
		if int64(v) < lo || int64(v) > hi {
			return fmt.Errorf("value %d (row %d of a batch) is out of the field's range [%d, %d]", v, i, lo, hi)
		}
		*(*D)(unsafe.Add(base, uintptr(i)*stride)) = D(v)
	}
	return nil
}

func bindValueSetter(f *Field, t reflect.Type, dt arrow.DataType) (colSetter, error) {
	mismatch := func() (colSetter, error) {
		return nil, fmt.Errorf("arrow type %s does not fit %v", dt, t)
	}
	switch t.Kind() {
	case reflect.Bool:
		if dt.ID() != arrow.BOOL {
			return mismatch()
		}
		return func(arr arrow.Array, base unsafe.Pointer, stride uintptr) error {
			a := arr.(*array.Boolean)
			for i := 0; i < a.Len(); i++ {
				if a.IsValid(i) {
					*(*bool)(unsafe.Add(base, uintptr(i)*stride)) = a.Value(i)
				}
			}
			return nil
		}, nil
	case reflect.Int8, reflect.Int16, reflect.Uint8, reflect.Uint16:
		if dt.ID() != arrow.INT32 {
			return mismatch()
		}
		switch t.Kind() {
		case reflect.Int8:
			return checkedInt32[int8](math.MinInt8, math.MaxInt8), nil
		case reflect.Int16:
			return checkedInt32[int16](math.MinInt16, math.MaxInt16), nil
		case reflect.Uint8:
			return checkedInt32[uint8](0, math.MaxUint8), nil
		default:
			return checkedInt32[uint16](0, math.MaxUint16), nil
		}
	case reflect.Int32:
		switch dt.ID() {
		case arrow.INT32:
			return func(arr arrow.Array, base unsafe.Pointer, stride uintptr) error {
				setNumbers[int32, int32](arr, arr.(*array.Int32).Int32Values(), base, stride)
				return nil
			}, nil
		case arrow.DATE32:
			return func(arr arrow.Array, base unsafe.Pointer, stride uintptr) error {
				setNumbers[arrow.Date32, int32](arr, arr.(*array.Date32).Date32Values(), base, stride)
				return nil
			}, nil
		}
		return mismatch()
	case reflect.Int64, reflect.Int:
		switch dt.ID() {
		case arrow.INT32:
			if t.Kind() == reflect.Int {
				return func(arr arrow.Array, base unsafe.Pointer, stride uintptr) error {
					setNumbers[int32, int](arr, arr.(*array.Int32).Int32Values(), base, stride)
					return nil
				}, nil
			}
			return func(arr arrow.Array, base unsafe.Pointer, stride uintptr) error {
				setNumbers[int32, int64](arr, arr.(*array.Int32).Int32Values(), base, stride)
				return nil
			}, nil
		case arrow.INT64:
			return func(arr arrow.Array, base unsafe.Pointer, stride uintptr) error {
				// int and int64 have the same layout on 64-bit platforms.
				setNumbers[int64, int64](arr, arr.(*array.Int64).Int64Values(), base, stride)
				return nil
			}, nil
		case arrow.TIMESTAMP:
			unit := dt.(*arrow.TimestampType).Unit
			if unit != arrow.Microsecond {
				return nil, fmt.Errorf("timestamp unit %s: want microseconds", unit)
			}
			return func(arr arrow.Array, base unsafe.Pointer, stride uintptr) error {
				setNumbers[arrow.Timestamp, int64](arr, arr.(*array.Timestamp).TimestampValues(), base, stride)
				return nil
			}, nil
		}
		return mismatch()
	case reflect.Uint32:
		switch dt.ID() {
		case arrow.INT64:
			return func(arr arrow.Array, base unsafe.Pointer, stride uintptr) error {
				return setIntsChecked[int64, uint32](arr, arr.(*array.Int64).Int64Values(), base, stride, 0, math.MaxUint32)
			}, nil
		case arrow.INT32:
			return func(arr arrow.Array, base unsafe.Pointer, stride uintptr) error {
				return setIntsChecked[int32, uint32](arr, arr.(*array.Int32).Int32Values(), base, stride, 0, math.MaxUint32)
			}, nil
		}
		return mismatch()
	case reflect.Float32:
		if dt.ID() != arrow.FLOAT32 {
			return mismatch()
		}
		return func(arr arrow.Array, base unsafe.Pointer, stride uintptr) error {
			setNumbers[float32, float32](arr, arr.(*array.Float32).Float32Values(), base, stride)
			return nil
		}, nil
	case reflect.Float64:
		switch dt.ID() {
		case arrow.FLOAT32:
			return func(arr arrow.Array, base unsafe.Pointer, stride uintptr) error {
				setNumbers[float32, float64](arr, arr.(*array.Float32).Float32Values(), base, stride)
				return nil
			}, nil
		case arrow.FLOAT64:
			return func(arr arrow.Array, base unsafe.Pointer, stride uintptr) error {
				setNumbers[float64, float64](arr, arr.(*array.Float64).Float64Values(), base, stride)
				return nil
			}, nil
		}
		return mismatch()
	case reflect.String:
		switch dt.ID() {
		case arrow.STRING:
			return func(arr arrow.Array, base unsafe.Pointer, stride uintptr) error {
				a := arr.(*array.String)
				setStrings(a, a.ValueOffsets(), a.ValueBytes(), base, stride)
				return nil
			}, nil
		case arrow.LARGE_STRING:
			return func(arr arrow.Array, base unsafe.Pointer, stride uintptr) error {
				a := arr.(*array.LargeString)
				setStrings(a, a.ValueOffsets(), a.ValueBytes(), base, stride)
				return nil
			}, nil
		}
		return mismatch()
	case reflect.Slice:
		if f.Elem == nil { // []byte
			switch dt.ID() {
			case arrow.BINARY:
				return func(arr arrow.Array, base unsafe.Pointer, stride uintptr) error {
					a := arr.(*array.Binary)
					setBytes(a, a.ValueOffsets(), a.ValueBytes(), base, stride)
					return nil
				}, nil
			case arrow.LARGE_BINARY:
				return func(arr arrow.Array, base unsafe.Pointer, stride uintptr) error {
					a := arr.(*array.LargeBinary)
					setBytes(a, a.ValueOffsets(), a.ValueBytes(), base, stride)
					return nil
				}, nil
			}
			return mismatch()
		}
		var elemDT arrow.DataType
		switch lt := dt.(type) {
		case *arrow.ListType:
			elemDT = lt.Elem()
		case *arrow.LargeListType:
			elemDT = lt.Elem()
		default:
			return mismatch()
		}
		elem, err := bindSetter(f.Elem, elemDT)
		if err != nil {
			return nil, fmt.Errorf("list element: %w", err)
		}
		elemT := t.Elem()
		required := !holdsNull(elemT)
		return func(arr arrow.Array, base unsafe.Pointer, stride uintptr) error {
			switch a := arr.(type) {
			case *array.List:
				off := a.Data().Offset()
				return setLists(a, a.Offsets()[off:off+a.Len()+1], a.ListValues(), elem, elemT, required, base, stride)
			case *array.LargeList:
				off := a.Data().Offset()
				return setLists(a, a.Offsets()[off:off+a.Len()+1], a.ListValues(), elem, elemT, required, base, stride)
			}
			return fmt.Errorf("unexpected list array %T", arr)
		}, nil
	case reflect.Struct:
		st, ok := dt.(*arrow.StructType)
		if !ok {
			return mismatch()
		}
		type child struct {
			idx    int
			offset uintptr
			set    colSetter
		}
		var children []child
		for i := range f.Children {
			c := &f.Children[i]
			j, ok := st.FieldIdx(c.Name)
			if !ok {
				continue
			}
			set, err := bindSetter(c, st.Field(j).Type)
			if err != nil {
				return nil, fmt.Errorf("field %s: %w", c.Name, err)
			}
			children = append(children, child{idx: j, offset: c.Offset, set: set})
		}
		return func(arr arrow.Array, base unsafe.Pointer, stride uintptr) error {
			a := arr.(*array.Struct)
			for _, c := range children {
				if err := c.set(a.Field(c.idx), unsafe.Add(base, c.offset), stride); err != nil {
					return err
				}
			}
			return nil
		}, nil
	}
	return mismatch()
}

func checkedInt32[D ~int8 | ~int16 | ~uint8 | ~uint16](lo, hi int64) colSetter {
	return func(arr arrow.Array, base unsafe.Pointer, stride uintptr) error {
		return setIntsChecked[int32, D](arr, arr.(*array.Int32).Int32Values(), base, stride, lo, hi)
	}
}

// setStrings copies the column's bytes once into one string and points
// each row's string into it: no allocation per row.
func setStrings[O int32 | int64](arr arrow.Array, offs []O, data []byte, base unsafe.Pointer, stride uintptr) {
	all := string(data)
	first := offs[0]
	nulls := arr.NullN() > 0
	for i := 0; i < arr.Len(); i++ {
		if !nulls || arr.IsValid(i) {
			*(*string)(unsafe.Add(base, uintptr(i)*stride)) = all[offs[i]-first : offs[i+1]-first]
		}
	}
}

// setBytes copies the column's bytes once and gives each row a slice of
// them whose capacity ends where the row does.
func setBytes[O int32 | int64](arr arrow.Array, offs []O, data []byte, base unsafe.Pointer, stride uintptr) {
	all := slices.Clone(data)
	if all == nil {
		all = []byte{}
	}
	first := offs[0]
	nulls := arr.NullN() > 0
	for i := 0; i < arr.Len(); i++ {
		if !nulls || arr.IsValid(i) {
			lo, hi := offs[i]-first, offs[i+1]-first
			*(*[]byte)(unsafe.Add(base, uintptr(i)*stride)) = all[lo:hi:hi]
		}
	}
}

// setLists fills each row's slice from one backing array holding every
// element of the batch's lists (capacity clipped, so an append by the user
// copies instead of overwriting the next row's elements).
func setLists[O int32 | int64](arr arrow.Array, offs []O, values arrow.Array, elem colSetter, elemT reflect.Type, required bool, base unsafe.Pointer, stride uintptr) error {
	n := arr.Len()
	first, last := int64(offs[0]), int64(offs[n])
	count := int(last - first)
	vals := array.NewSlice(values, first, last)
	defer vals.Release()
	if required && vals.NullN() > 0 {
		return fmt.Errorf("a list holds a null element, which %v cannot hold; make the element type a pointer", elemT)
	}
	size := elemT.Size()
	var backing unsafe.Pointer
	if count > 0 {
		backing = reflect.MakeSlice(reflect.SliceOf(elemT), count, count).UnsafePointer()
		if err := elem(vals, backing, size); err != nil {
			return err
		}
	}
	for i := 0; i < n; i++ {
		if !arr.IsValid(i) {
			continue // a null list reads as a nil slice
		}
		lo, hi := int64(offs[i])-first, int64(offs[i+1])-first
		h := (*sliceHeader)(unsafe.Add(base, uintptr(i)*stride))
		h.len, h.cap = int(hi-lo), int(hi-lo)
		if hi > lo {
			h.data = unsafe.Add(backing, uintptr(lo)*size)
		} else {
			h.data = unsafe.Pointer(&emptyList) // empty, not nil
		}
	}
	return nil
}

// emptyList is where empty (non-null) lists point: a non-nil slice of
// length and capacity zero is never read through.
var emptyList [8]byte
