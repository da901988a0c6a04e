package icebergio

import (
	"reflect"
	"testing"

	"github.com/icebeam/icebeam/transforms/cdc"
	"github.com/icebeam/icebeam/transforms/icebergio/internal/rowcodec"
)

// The generated stream's batches (cdc.Schema) and the Change rows
// Debezium input becomes make the same Iceberg table.
func TestCDCSchemaMatchesChange(t *testing.T) {
	fromArrow, err := rowcodec.FromArrow(cdc.Schema())
	if err != nil {
		t.Fatal(err)
	}
	fromRows, err := rowcodec.New(reflect.TypeFor[cdc.Change]())
	if err != nil {
		t.Fatal(err)
	}
	a, r := fromArrow.Iceberg.Fields(), fromRows.Iceberg.Fields()
	if len(a) != len(r) {
		t.Fatalf("%d fields from cdc.Schema, %d from cdc.Change", len(a), len(r))
	}
	for i := range a {
		if a[i].Name != r[i].Name || !a[i].Type.Equals(r[i].Type) || a[i].Required != r[i].Required {
			t.Errorf("field %d: %s %s required=%v from cdc.Schema, %s %s required=%v from cdc.Change",
				i, a[i].Name, a[i].Type, a[i].Required, r[i].Name, r[i].Type, r[i].Required)
		}
	}
}
