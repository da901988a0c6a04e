// Package cdctest is what the tests of change-stream pipelines share: the
// table a generated change stream leaves, computed by cdc.Replay
// independently of the sink, and the table the sink left, read back with
// iceberg-go's own scan.
package cdctest

import (
	"context"
	"slices"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/transforms/cdc"
	"github.com/icebeam/icebeam/transforms/icebergio"
)

// Generated is the table the first n changes of a generated stream over
// keys accounts leave (change is cdc.Generated or cdc.Mixed), by
// cdc.Replay, sorted by id.
func Generated(n, keys int64, change func(i, keys int64) cdc.Change) []cdc.Account {
	var changes []cdc.Change
	for i := range n {
		changes = append(changes, change(i, keys))
	}
	var want []cdc.Account
	for _, a := range cdc.Replay(changes) {
		want = append(want, a)
	}
	Sort(want)
	return want
}

// Sort sorts rows by id.
func Sort(rows []cdc.Account) {
	slices.SortFunc(rows, func(a, b cdc.Account) int { return int(a.ID - b.ID) })
}

// ReadRows reads the accounts table tbl with iceberg-go's scan, deletes
// applied, sorted by id, and returns them with the table's format version
// and the delete files the scan applied (LiveDeletes).
func ReadRows(t testing.TB, tbl *table.Table) (rows []cdc.Account, version int, deleteKinds map[string]int) {
	t.Helper()
	ctx := context.Background()
	at, err := tbl.Scan(table.WithSelectedFields("id", "owner", "balance_cents", "updated_at")).ToArrowTable(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer at.Release()
	tr := array.NewTableReader(at, 1<<16)
	defer tr.Release()
	for tr.Next() {
		rec := tr.RecordBatch()
		col := func(name string) int { return rec.Schema().FieldIndices(name)[0] }
		ids := rec.Column(col("id")).(*array.Int64)
		owners := rec.Column(col("owner")).(*array.String)
		bals := rec.Column(col("balance_cents")).(*array.Int64)
		upd := rec.Column(col("updated_at")).(*array.Timestamp)
		for i := 0; i < int(rec.NumRows()); i++ {
			rows = append(rows, cdc.Account{ID: ids.Value(i), Owner: owners.Value(i), BalanceCents: bals.Value(i), UpdatedAt: int64(upd.Value(i))})
		}
	}
	Sort(rows)
	return rows, tbl.Metadata().Version(), LiveDeletes(t, tbl)
}

// LiveDeletes are the delete files a scan of tbl applies, by kind: "dv",
// "equality", "position".
func LiveDeletes(t testing.TB, tbl *table.Table) map[string]int {
	t.Helper()
	tasks, err := tbl.Scan().PlanFiles(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, task := range tasks {
		kinds["dv"] += len(task.DeletionVectorFiles)
		kinds["equality"] += len(task.EqualityDeleteFiles)
		kinds["position"] += len(task.DeleteFiles)
	}
	return kinds
}

// RequireRows fails t unless got, rows sorted by id, are want.
func RequireRows(t testing.TB, got, want []cdc.Account) {
	t.Helper()
	if !slices.Equal(got, want) {
		head := func(rows []cdc.Account) []cdc.Account { return rows[:min(5, len(rows))] }
		t.Errorf("the table holds %d rows, the change log leaves %d:\n got %v\nwant %v", len(got), len(want), head(got), head(want))
	}
}

// Written is what the snapshots of tbl added, from their summaries: delete
// files written as deletion vectors (on format v3, where position deletes
// are deletion vectors) and as equality deletes. A table's live delete
// files can be fewer: the sink compacts row-level tables as it goes.
func Written(tbl *table.Table) (deletionVectors, equalityDeletes int64) {
	for _, snap := range tbl.Metadata().Snapshots() {
		if snap.Summary == nil {
			continue
		}
		num := func(k string) int64 { n, _ := strconv.ParseInt(snap.Summary.Properties[k], 10, 64); return n }
		deletionVectors += num("added-position-delete-files")
		equalityDeletes += num("added-equality-delete-files")
	}
	return deletionVectors, equalityDeletes
}

// RequireDeleteKind fails t unless tbl is format version and its deletes
// are of the kind the sink writes there: deletion vectors only on v3,
// equality deletes only on v2, both in what its snapshots added and in the
// delete files a scan applies now.
func RequireDeleteKind(t testing.TB, tbl *table.Table, version int) {
	t.Helper()
	v, live := tbl.Metadata().Version(), LiveDeletes(t, tbl)
	dvs, eq := Written(tbl)
	switch {
	case v != version:
		t.Errorf("format v%d, want v%d", v, version)
	case v == 3 && (dvs == 0 || eq > 0 || live["equality"]+live["position"] > 0):
		t.Errorf("v3 table: wrote %d deletion vectors and %d equality delete files; live delete files %v: want deletion vectors only", dvs, eq, live)
	case v == 2 && (dvs > 0 || eq == 0 || live["dv"] > 0):
		t.Errorf("v2 table: wrote %d deletion vectors and %d equality delete files; live delete files %v: want equality deletes only", dvs, eq, live)
	}
}

// Applied is what the sink's row-level commits to tbl say they applied,
// from their snapshot summaries: the changes their panes received, before
// they collapsed to one per key (icebergio.ChangeRowsKey), and the number
// of such commits. A stream of n changes applied exactly once sums to n: a
// pane committed twice counts twice, a lost one not at all, though the
// table's final rows may not show either.
func Applied(tbl *table.Table) (changes int64, commits int) {
	for _, snap := range tbl.Metadata().Snapshots() {
		if snap.Summary == nil {
			continue
		}
		if v, ok := snap.Summary.Properties[icebergio.ChangeRowsKey]; ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			changes += n
			commits++
		}
	}
	return changes, commits
}
