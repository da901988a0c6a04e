package rowcodec

import (
	"slices"

	"github.com/apache/iceberg-go"
)

// Match pairs the fields of the rows' Iceberg schema with a table's of the
// same names, at every level: struct fields by name, list elements, map
// keys and values. What a difference means is its users' to say through
// its callbacks (a nil one accepts everything): stitching needs the two to
// agree, schema evolution turns differences into schema changes, and
// writing the rows as the table's columns only needs the table's ids.
// Row schemas have no maps; maps are matched as lists are, for tables'.
type Match struct {
	// Missing is called for a row field the table lacks.
	Missing func(path []string, row iceberg.NestedField) error
	// Unwritten is called for a required table field the rows lack.
	Unwritten func(path []string, tbl iceberg.NestedField) error
	// Pair is called for each row field, list element, map key and value
	// and the table's.
	Pair func(path []string, row, tbl iceberg.NestedField) error
	// Leaf is called for two types that are not both structs, lists or
	// maps.
	Leaf func(path []string, row, tbl iceberg.Type) error
}

// Fields matches rows with tbl and returns rows with the ids of the
// table's fields (a field the table lacks keeps its own).
func (m Match) Fields(rows, tbl []iceberg.NestedField) ([]iceberg.NestedField, error) {
	return m.fields(nil, rows, tbl)
}

func (m Match) fields(path []string, rows, tbl []iceberg.NestedField) ([]iceberg.NestedField, error) {
	out := make([]iceberg.NestedField, len(rows))
	for i, rf := range rows {
		p := append(slices.Clone(path), rf.Name)
		j := slices.IndexFunc(tbl, func(tf iceberg.NestedField) bool { return tf.Name == rf.Name })
		if j < 0 {
			if err := call(m.Missing, p, rf); err != nil {
				return nil, err
			}
			out[i] = rf
			continue
		}
		typ, err := m.pair(p, rf, tbl[j])
		if err != nil {
			return nil, err
		}
		rf.ID, rf.Type = tbl[j].ID, typ
		out[i] = rf
	}
	for _, tf := range tbl {
		if tf.Required && !slices.ContainsFunc(rows, func(rf iceberg.NestedField) bool { return rf.Name == tf.Name }) {
			if err := call(m.Unwritten, append(slices.Clone(path), tf.Name), tf); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// pair matches a row field with the table's and returns its type with the
// table's ids.
func (m Match) pair(path []string, row, tbl iceberg.NestedField) (iceberg.Type, error) {
	if m.Pair != nil {
		if err := m.Pair(path, row, tbl); err != nil {
			return nil, err
		}
	}
	switch r := row.Type.(type) {
	case *iceberg.StructType:
		if t, ok := tbl.Type.(*iceberg.StructType); ok {
			fields, err := m.fields(path, r.FieldList, t.FieldList)
			return &iceberg.StructType{FieldList: fields}, err
		}
	case *iceberg.ListType:
		if t, ok := tbl.Type.(*iceberg.ListType); ok {
			elem, err := m.pair(append(slices.Clone(path), "element"),
				iceberg.NestedField{ID: r.ElementID, Name: "element", Type: r.Element, Required: r.ElementRequired},
				iceberg.NestedField{ID: t.ElementID, Name: "element", Type: t.Element, Required: t.ElementRequired})
			return &iceberg.ListType{ElementID: t.ElementID, Element: elem, ElementRequired: r.ElementRequired}, err
		}
	case *iceberg.MapType:
		if t, ok := tbl.Type.(*iceberg.MapType); ok {
			key, err := m.pair(append(slices.Clone(path), "key"),
				iceberg.NestedField{ID: r.KeyID, Name: "key", Type: r.KeyType, Required: true},
				iceberg.NestedField{ID: t.KeyID, Name: "key", Type: t.KeyType, Required: true})
			if err != nil {
				return nil, err
			}
			val, err := m.pair(append(slices.Clone(path), "value"),
				iceberg.NestedField{ID: r.ValueID, Name: "value", Type: r.ValueType, Required: r.ValueRequired},
				iceberg.NestedField{ID: t.ValueID, Name: "value", Type: t.ValueType, Required: t.ValueRequired})
			return &iceberg.MapType{KeyID: t.KeyID, KeyType: key, ValueID: t.ValueID, ValueType: val, ValueRequired: r.ValueRequired}, err
		}
	}
	if m.Leaf != nil {
		if err := m.Leaf(path, row.Type, tbl.Type); err != nil {
			return nil, err
		}
	}
	return row.Type, nil
}

func call(f func([]string, iceberg.NestedField) error, path []string, field iceberg.NestedField) error {
	if f == nil {
		return nil
	}
	return f(path, field)
}
