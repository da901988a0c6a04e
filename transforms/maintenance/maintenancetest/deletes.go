package maintenancetest

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// EqDeletes commits equality deletes on fields (named) of tbl, one
// map per deleted key (a missing or nil value is null), as our sink does
// on a v2 table: WriteEqualityDeletes and a row delta.
func EqDeletes(t testing.TB, tbl *table.Table, names []string, keys []map[string]any) *table.Table {
	t.Helper()
	ctx := context.Background()
	sel, err := tbl.Schema().Select(true, names...)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int
	for _, n := range names {
		f, ok := tbl.Schema().FindFieldByName(n)
		if !ok {
			t.Fatalf("EqDeletes: no column %s", n)
		}
		ids = append(ids, f.ID)
	}
	rec := record(t, sel, len(keys), func(i int, f arrow.Field, fb array.Builder) {
		v := keys[i][f.Name]
		switch fb := fb.(type) {
		case *array.Int64Builder:
			if v == nil {
				fb.AppendNull()
			} else {
				fb.Append(v.(int64))
			}
		case *array.StringBuilder:
			if v == nil {
				fb.AppendNull()
			} else {
				fb.Append(v.(string))
			}
		default:
			t.Fatalf("EqDeletes: column %s of type %s", f.Name, f.Type)
		}
	})
	defer rec.Release()
	tx := tbl.NewTransaction()
	files, err := tx.WriteEqualityDeletes(ctx, ids, func(yield func(arrow.RecordBatch, error) bool) { yield(rec, nil) })
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.NewRowDelta(nil).AddDeletes(files...).Commit(ctx); err != nil {
		t.Fatal(err)
	}
	tbl, err = tx.Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// DeleteFiles lists the live delete files of tbl's current snapshot.
func DeleteFiles(t testing.TB, tbl *table.Table) (eq, pos, dvs []iceberg.DataFile) {
	t.Helper()
	for _, df := range liveFiles(t, tbl, iceberg.ManifestContentDeletes) {
		switch {
		case df.ContentType() == iceberg.EntryContentEqDeletes:
			eq = append(eq, df)
		case table.IsDeletionVector(df):
			dvs = append(dvs, df)
		default:
			pos = append(pos, df)
		}
	}
	return eq, pos, dvs
}
