package maintenance_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/transforms/icebergio"
	"github.com/icebeam/icebeam/transforms/maintenance"
	mt "github.com/icebeam/icebeam/transforms/maintenance/maintenancetest"
)

// account is a change row of the sink's Changes mode.
type account struct {
	Op      string `beam:"op"`
	LSN     int64  `beam:"lsn"`
	ID      int64  `beam:"id"`
	Balance int64  `beam:"balance"`
}

func init() { beam.RegisterType(reflect.TypeFor[account]()) }

// The equality deletes our own sink writes on a v2 table (Changes mode,
// keyed on id, one pipeline run per commit): the conversion leaves
// position deletes only and the table reads what the changes say.
func TestConvertEqualityDeletesFromSink(t *testing.T) {
	ctx := context.Background()
	cfg, cat := mt.Catalog(t)
	write := func(changes []account) {
		t.Helper()
		p, s := beam.NewPipelineWithRoot()
		var rows []any
		for _, c := range changes {
			rows = append(rows, c)
		}
		icebergio.Write(s, icebergio.Config{
			Catalog: cfg, Table: "cdc.accounts", Mode: icebergio.Changes,
			Key: []string{"id"}, Op: "op", Order: "lsn", WriterID: "test",
			Properties: map[string]string{"format-version": "2"},
		}, beam.Create(s, rows...))
		require.NoError(t, ptest.Run(p))
	}
	want := map[int64]int64{} // id -> balance
	lsn := int64(0)
	var batch []account
	change := func(op string, id, balance int64) {
		lsn++
		batch = append(batch, account{Op: op, LSN: lsn, ID: id, Balance: balance})
		if op == "d" {
			delete(want, id)
		} else {
			want[id] = balance
		}
	}
	for id := range int64(20) {
		change("c", id, 100*id)
	}
	write(batch)
	batch = nil
	for id := int64(0); id < 20; id += 3 {
		change("u", id, 100*id+1)
	}
	change("d", 4, 0)
	change("d", 7, 0)
	write(batch)
	batch = nil
	change("d", 0, 0)
	change("u", 5, 555)
	change("c", 30, 3000)
	write(batch)

	id, err := catalog.ParseTable("cdc.accounts")
	require.NoError(t, err)
	tbl, err := cat.LoadTable(ctx, id)
	require.NoError(t, err)
	require.Equal(t, 2, tbl.Metadata().Version())
	eq, _, _ := mt.DeleteFiles(t, tbl)
	require.NotEmpty(t, eq, "the sink wrote no equality deletes")
	before := balances(t, tbl)
	require.Equal(t, want, before, "the sink's table against the changes")

	rep, err := maintenance.ConvertEqualityDeletes(ctx, cat, id, "sink-run", false)
	require.NoError(t, err)
	require.Equal(t, len(eq), rep.EqFilesRemoved)
	require.NotZero(t, rep.RowsDeleted)

	tbl, err = cat.LoadTable(ctx, id)
	require.NoError(t, err)
	require.Equal(t, want, balances(t, tbl), "after the conversion")
	eq, pos, dvs := mt.DeleteFiles(t, tbl)
	require.Empty(t, eq)
	require.Empty(t, dvs)
	require.Len(t, pos, rep.DeleteFilesWritten)

	// The sink keeps writing on top of the converted table.
	batch = nil
	change("u", 1, 111)
	change("d", 2, 0)
	write(batch)
	tbl, err = cat.LoadTable(ctx, id)
	require.NoError(t, err)
	require.Equal(t, want, balances(t, tbl), "after writing on the converted table")
}

// balances reads the table as id -> balance, failing on a key twice.
func balances(t *testing.T, tbl *table.Table) map[int64]int64 {
	t.Helper()
	at, err := tbl.Scan(table.WithSelectedFields("id", "balance")).ToArrowTable(context.Background())
	require.NoError(t, err)
	defer at.Release()
	tr := array.NewTableReader(at, 1<<16)
	defer tr.Release()
	out := map[int64]int64{}
	for tr.Next() {
		rec := tr.RecordBatch()
		ids := rec.Column(int(rec.Schema().FieldIndices("id")[0])).(*array.Int64)
		bal := rec.Column(int(rec.Schema().FieldIndices("balance")[0])).(*array.Int64)
		for r := range int(rec.NumRows()) {
			if _, dup := out[ids.Value(r)]; dup {
				t.Fatalf("id %d read twice", ids.Value(r))
			}
			out[ids.Value(r)] = bal.Value(r)
		}
	}
	return out
}
