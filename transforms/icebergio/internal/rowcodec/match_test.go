package rowcodec

import (
	"strings"
	"testing"

	"github.com/apache/iceberg-go"
	"github.com/stretchr/testify/require"
)

// Match pairs fields by name at every level, hands each difference to its
// callback with the field's path, and gives the rows the table's ids.
func TestMatch(t *testing.T) {
	str := iceberg.PrimitiveTypes.String
	rows := []iceberg.NestedField{
		{ID: 1, Name: "a", Type: str, Required: true},
		{ID: 2, Name: "s", Type: &iceberg.StructType{FieldList: []iceberg.NestedField{{ID: 4, Name: "x", Type: iceberg.PrimitiveTypes.Int32}}}},
		{ID: 3, Name: "l", Type: &iceberg.ListType{ElementID: 5, Element: str}},
		{ID: 6, Name: "new", Type: str},
	}
	tbl := []iceberg.NestedField{
		{ID: 10, Name: "l", Type: &iceberg.ListType{ElementID: 11, Element: str, ElementRequired: true}},
		{ID: 12, Name: "s", Type: &iceberg.StructType{FieldList: []iceberg.NestedField{
			{ID: 13, Name: "x", Type: iceberg.PrimitiveTypes.Int64},
			{ID: 14, Name: "req", Type: str, Required: true},
		}}},
		{ID: 15, Name: "a", Type: str},
	}
	var got []string
	note := func(what string, path []string) { got = append(got, what+" "+strings.Join(path, ".")) }
	fields, err := Match{
		Missing:   func(p []string, _ iceberg.NestedField) error { note("missing", p); return nil },
		Unwritten: func(p []string, _ iceberg.NestedField) error { note("unwritten", p); return nil },
		Pair: func(p []string, r, t iceberg.NestedField) error {
			if t.Required && !r.Required {
				note("optional", p)
			}
			return nil
		},
		Leaf: func(p []string, r, t iceberg.Type) error {
			if !r.Equals(t) {
				note("leaf", p)
			}
			return nil
		},
	}.Fields(rows, tbl)
	require.NoError(t, err)
	require.Equal(t, []string{"leaf s.x", "unwritten s.req", "optional l.element", "missing new"}, got)
	require.Equal(t, []int{15, 12, 10, 6}, []int{fields[0].ID, fields[1].ID, fields[2].ID, fields[3].ID})
	require.Equal(t, 13, fields[1].Type.(*iceberg.StructType).FieldList[0].ID)
	l := fields[2].Type.(*iceberg.ListType)
	require.Equal(t, 11, l.ElementID)
	require.False(t, l.ElementRequired, "the rows' nullability is kept")
	require.Equal(t, 5, rows[2].Type.(*iceberg.ListType).ElementID, "the rows' schema is left alone")
}
