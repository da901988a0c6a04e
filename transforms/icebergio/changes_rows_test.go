package icebergio

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/graph/mtime"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/transforms/icebergio/internal/rowcodec"
)

// accountChange is an account row of a row-level change stream.
type accountChange struct {
	LSN        int64  `beam:"lsn"`
	ID         int64  `beam:"id"`
	Owner      string `beam:"owner"`
	Bal        int64  `beam:"balance_cents"`
	Kind       string `beam:"_change_type"`
	Ordinal    int64  `beam:"_change_ordinal"`
	SnapshotID int64  `beam:"_commit_snapshot_id"`
	CommitTime int64  `beam:"_commit_timestamp"`
}

// kv is a row of a table without identifier fields.
type kv struct {
	K string `beam:"k"`
	V string `beam:"v"`
}

type kvChange struct {
	K          string `beam:"k"`
	V          string `beam:"v"`
	Kind       string `beam:"_change_type"`
	Ordinal    int64  `beam:"_change_ordinal"`
	SnapshotID int64  `beam:"_commit_snapshot_id"`
}

func init() {
	beam.RegisterType(reflect.TypeOf(accountChange{}))
	beam.RegisterType(reflect.TypeOf(kv{}))
	beam.RegisterType(reflect.TypeOf(kvChange{}))
}

// wantChange is an expected change: the index of its snapshot among the
// table's snapshots, its kind and its row as text.
type wantChange struct {
	Snap int
	Kind string
	Row  string
}

// runRowChanges streams the row-level changes of table cfg.Table from its
// first snapshot until MaxSnapshots have been read.
func runRowChanges[T any](t *testing.T, cfg ChangesConfig) []timedRow {
	t.Helper()
	cfg.Mode = RowChanges
	cfg.PollInterval = 50 * time.Millisecond
	cfg.StopAt = time.Now().Add(60 * time.Second) // a bound, should the test go wrong
	p, s := beam.NewPipelineWithRoot()
	got := collectTimed(s, ReadChanges(s, cfg, reflect.TypeFor[T]()))
	require.NoError(t, ptest.Run(p))
	return got()
}

// requireChanges checks the changes got against want, by snapshot: each
// row's snapshot id, ordinal (its snapshot's position, replace snapshots
// not counted), commit time and event time must be its snapshot's; rows
// are compared as sets per (snapshot, kind).
func requireChanges(t *testing.T, snaps []table.Snapshot, got []timedRow, want []wantChange, row func(any) (text, kind string, ordinal, snapshot, commitMicros int64)) {
	t.Helper()
	index := map[int64]int{}
	ordinals := map[int]int64{}
	var n int64
	for i, s := range snaps {
		index[s.SnapshotID] = i
		if s.Summary.Operation != table.OpReplace {
			ordinals[i] = n
			n++
		}
	}
	var have []wantChange
	for _, g := range got {
		text, kind, ordinal, id, commit := row(g.Row)
		i, ok := index[id]
		require.True(t, ok, "row %s of an unknown snapshot %d", text, id)
		require.Equal(t, ordinals[i], ordinal, "ordinal of %s", text)
		if commit >= 0 {
			require.Equal(t, snaps[i].TimestampMs*1000, commit, "commit time of %s", text)
		}
		require.Equal(t, mtime.FromMilliseconds(snaps[i].TimestampMs), g.At, "event time of %s", text)
		have = append(have, wantChange{Snap: i, Kind: kind, Row: text})
	}
	less := func(a, b wantChange) int {
		return strings.Compare(fmt.Sprint(a.Snap, a.Kind, a.Row), fmt.Sprint(b.Snap, b.Kind, b.Row))
	}
	slices.SortFunc(have, less)
	slices.SortFunc(want, less)
	require.Equal(t, want, have)

	// Deletes and update-befores before inserts and update-afters, per
	// snapshot.
	seenAfter := map[int64]bool{}
	for _, g := range got {
		_, kind, _, id, _ := row(g.Row)
		switch kind {
		case "INSERT", "UPDATE_AFTER":
			seenAfter[id] = true
		default:
			require.False(t, seenAfter[id], "a %s after an insert in snapshot %d", kind, id)
		}
	}
}

func accountRow(v any) (string, string, int64, int64, int64) {
	c := v.(accountChange)
	return fmt.Sprintf("%d/%d/%s/%d", c.ID, c.LSN, c.Owner, c.Bal), c.Kind, c.Ordinal, c.SnapshotID, c.CommitTime
}

func acct(id, lsn int64, owner string, bal int64) string {
	return fmt.Sprintf("%d/%d/%s/%d", id, lsn, owner, bal)
}

// Row-level changes of the sink's own row-level commits: on format v3
// (deletion vectors, one replacing an older one of the same file) and v2
// (equality deletes), with a compaction between them that emits nothing.
// The expected changes are written out by hand from the log.
func TestRowChangesOfRowLevelCommits(t *testing.T) {
	for _, version := range []string{"3", "2"} {
		t.Run("v"+version, func(t *testing.T) {
			ctx := context.Background()
			dest := "cdc.accounts"
			cfg := Config{Catalog: launch(t), Table: dest, WriterID: "w", Mode: Changes, MaxDeletedShare: -1,
				Key: []string{"id"}, Op: "op", Order: "lsn", Properties: map[string]string{table.PropertyFormatVersion: version}}
			s := newTestSink[change](t, cfg)
			panes := [][]change{
				{{"c", 1, 1, "ann", 100}, {"c", 2, 2, "bob", 200}, {"c", 3, 3, "cid", 300}, {"c", 4, 4, "dan", 400}},
				{{"u", 5, 2, "bob", 250}, {"d", 6, 3, "", 0}, {"c", 7, 5, "eve", 500}},
				// The same data file again: a DV holding the old positions
				// and the new replaces the old one.
				{{"u", 8, 1, "ann", 150}, {"d", 9, 4, "", 0}},
				{{"c", 10, 6, "fay", 600}, {"u", 11, 6, "fay", 650}}, // collapsed by the sink: one insert
			}
			for i, p := range panes {
				_, err := s.commitRows(ctx, dest, chunksOf(t, s, p, 10), nil)
				require.NoError(t, err, "pane %d", i)
			}
			tbl := compact(t, loadTable(t, s.cat, dest))
			s = newTestSink[change](t, cfg) // its index is built from the compacted table
			_, err := s.commitRows(ctx, dest, chunksOf(t, s, []change{{"d", 12, 2, "", 0}, {"u", 13, 5, "eve", 550}}, 10), nil)
			require.NoError(t, err)

			snaps := snapshotsOf(t, s.cat, dest)
			var ops []string
			for _, sn := range snaps {
				ops = append(ops, string(sn.Summary.Operation))
			}
			t.Logf("snapshots: %v", ops)
			require.Len(t, snaps, 6)
			require.Equal(t, table.OpReplace, snaps[4].Summary.Operation)
			if version == "3" {
				require.Equal(t, "1", snaps[2].Summary.Properties["removed-delete-files"], "pane 2 replaces a deletion vector: %v", snaps[2].Summary.Properties)
			} else {
				require.NotEmpty(t, snaps[1].Summary.Properties["added-equality-deletes"], "%v", snaps[1].Summary.Properties)
			}
			_ = tbl

			got := runRowChanges[accountChange](t, ChangesConfig{Catalog: cfg.Catalog, Table: dest, MaxSnapshots: 5})
			requireChanges(t, snaps, got, []wantChange{
				{0, "INSERT", acct(1, 1, "ann", 100)},
				{0, "INSERT", acct(2, 2, "bob", 200)},
				{0, "INSERT", acct(3, 3, "cid", 300)},
				{0, "INSERT", acct(4, 4, "dan", 400)},
				{1, "UPDATE_BEFORE", acct(2, 2, "bob", 200)},
				{1, "UPDATE_AFTER", acct(2, 5, "bob", 250)},
				{1, "DELETE", acct(3, 3, "cid", 300)},
				{1, "INSERT", acct(5, 7, "eve", 500)},
				{2, "UPDATE_BEFORE", acct(1, 1, "ann", 100)},
				{2, "UPDATE_AFTER", acct(1, 8, "ann", 150)},
				{2, "DELETE", acct(4, 4, "dan", 400)},
				{3, "INSERT", acct(6, 11, "fay", 650)},
				// snapshot 4: the compaction: nothing
				{5, "DELETE", acct(2, 5, "bob", 250)},
				{5, "UPDATE_BEFORE", acct(5, 7, "eve", 500)},
				{5, "UPDATE_AFTER", acct(5, 13, "eve", 550)},
			}, accountRow)

			// Without pairing (Identifier names a column no two rows
			// share... here: every column), an update is a delete and an
			// insert.
			got = runRowChanges[accountChange](t, ChangesConfig{Catalog: cfg.Catalog, Table: dest,
				From: FromSnapshot(snaps[2].SnapshotID), Identifier: []string{"id", "lsn"}, MaxSnapshots: 3})
			for i := range got {
				c := got[i].Row.(accountChange)
				c.Ordinal += 2 // the stream started at snapshot 2
				got[i].Row = c
			}
			requireChanges(t, snaps, got, []wantChange{
				{2, "DELETE", acct(1, 1, "ann", 100)},
				{2, "INSERT", acct(1, 8, "ann", 150)},
				{2, "DELETE", acct(4, 4, "dan", 400)},
				{3, "INSERT", acct(6, 11, "fay", 650)},
				{5, "DELETE", acct(2, 5, "bob", 250)},
				{5, "DELETE", acct(5, 7, "eve", 500)},
				{5, "INSERT", acct(5, 13, "eve", 550)},
			}, accountRow)
		})
	}
}

// Row-level changes of copy-on-write commits: CreateOrReplace (an
// overwrite that removes every file and adds the new content) and
// iceberg-go's delete (which rewrites the files that keep rows). Rows
// carried over unchanged are no change; the table has no identifier
// fields, so updates come as a delete and an insert unless Identifier
// names the key.
func TestRowChangesOfCopyOnWrite(t *testing.T) {
	ctx := context.Background()
	cfg := Config{Catalog: launch(t), Table: "cow.kv", WriterID: "w", Mode: CreateOrReplace}
	s := newTestSink[kv](t, cfg)
	commitKV := func(rows ...kv) {
		t.Helper()
		_, err := s.commit(ctx, cfg.Table, chunksOf(t, s, rows, 10), nil)
		require.NoError(t, err)
	}
	commitKV(kv{"a", "1"}, kv{"b", "2"}, kv{"c", "3"})
	commitKV(kv{"a", "1"}, kv{"b", "22"}, kv{"c", "3"}, kv{"d", "4"})
	deleteEvents(t, loadTable(t, s.cat, cfg.Table), iceberg.EqualTo(iceberg.Reference("k"), "c"))
	commitKV(kv{"a", "1"}, kv{"b", "22"}, kv{"d", "4"}) // the same rows: nothing

	snaps := snapshotsOf(t, s.cat, cfg.Table)
	var ops []string
	for _, sn := range snaps {
		ops = append(ops, string(sn.Summary.Operation))
	}
	t.Logf("snapshots: %v", ops)
	require.Len(t, snaps, 4)
	require.NotEqual(t, table.OpAppend, snaps[1].Summary.Operation)

	row := func(v any) (string, string, int64, int64, int64) {
		c := v.(kvChange)
		return c.K + "=" + c.V, c.Kind, c.Ordinal, c.SnapshotID, -1
	}
	got := runRowChanges[kvChange](t, ChangesConfig{Catalog: cfg.Catalog, Table: cfg.Table, MaxSnapshots: 4})
	requireChanges(t, snaps, got, []wantChange{
		{0, "INSERT", "a=1"}, {0, "INSERT", "b=2"}, {0, "INSERT", "c=3"},
		{1, "DELETE", "b=2"}, {1, "INSERT", "b=22"}, {1, "INSERT", "d=4"},
		{2, "DELETE", "c=3"},
	}, row)

	got = runRowChanges[kvChange](t, ChangesConfig{Catalog: cfg.Catalog, Table: cfg.Table, MaxSnapshots: 4, Identifier: []string{"k"}})
	requireChanges(t, snaps, got, []wantChange{
		{0, "INSERT", "a=1"}, {0, "INSERT", "b=2"}, {0, "INSERT", "c=3"},
		{1, "UPDATE_BEFORE", "b=2"}, {1, "UPDATE_AFTER", "b=22"}, {1, "INSERT", "d=4"},
		{2, "DELETE", "c=3"},
	}, row)

	// A column and a filter: the changes of the rows it selects, with
	// the columns read.
	got = runRowChanges[kvChange](t, ChangesConfig{Catalog: cfg.Catalog, Table: cfg.Table, MaxSnapshots: 4,
		Filter: "k >= 'b'", Columns: []string{"k"}})
	requireChanges(t, snaps, got, []wantChange{
		{0, "INSERT", "b="}, {0, "INSERT", "c="},
		{1, "INSERT", "d="},
		{2, "DELETE", "c="},
	}, row)
}

// Bad row-change configurations are refused at construction.
func TestRowChangesConfig(t *testing.T) {
	for _, bad := range []struct {
		cfg     ChangesConfig
		rowType reflect.Type
		want    string
	}{
		{ChangesConfig{Mode: RowChanges}, reflect.TypeFor[kv](), `row changes need a string field tagged beam:"_change_type"`},
		{ChangesConfig{Mode: "diff"}, reflect.TypeFor[kvChange](), `changes mode "diff"`},
		{ChangesConfig{Identifier: []string{"k"}}, reflect.TypeFor[kv](), `Identifier is for Mode "rows"`},
		{ChangesConfig{Mode: RowChanges}, reflect.TypeFor[struct {
			K    string `beam:"k"`
			Kind string `beam:"_change_type"`
			Snap int32  `beam:"_commit_snapshot_id"`
		}](), "is int32, want int64"},
	} {
		bad.cfg.Catalog.URI = "http://localhost:1"
		bad.cfg.Table = "a.b"
		rs, err := rowcodec.New(bad.rowType)
		require.NoError(t, err)
		require.ErrorContains(t, bad.cfg.withDefaults().check(rs), bad.want)
	}
}
