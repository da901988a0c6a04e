package icebergio

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"
)

// The radix sort orders as a stable comparison sort does, for keys that
// share most digits (small integer ids, many repeated), keys that share
// none, and a mix; small inputs take the comparison sort itself.
func TestSortByKeyIsAStableSort(t *testing.T) {
	type item struct {
		k   rowKey
		seq int
	}
	r := rand.New(rand.NewPCG(3, 4))
	for name, gen := range map[string]func() rowKey{
		"small ids":   func() rowKey { return makeRowKey(fmt.Appendf(nil, "%08d", r.IntN(5000))) },
		"random":      func() rowKey { return rowKey{r.Uint64(), r.Uint64()} },
		"high digits": func() rowKey { return rowKey{uint64(r.IntN(4)) << 60, uint64(r.IntN(3)) << 50} },
	} {
		for _, n := range []int{0, 1, 100, 1 << 12, 100_000} {
			items := make([]item, n)
			for i := range items {
				items[i] = item{gen(), i}
			}
			want := slices.Clone(items)
			slices.SortStableFunc(want, func(a, b item) int { return cmp.Or(cmp.Compare(a.k.hi, b.k.hi), cmp.Compare(a.k.lo, b.k.lo)) })
			got := sortByKey(items, func(it *item) rowKey { return it.k })
			require.Equal(t, want, got, "%s, %d items", name, n)
		}
	}
}

// Distinct encoded keys give distinct row keys, across the 16-byte line
// where they stop being held as they are; equal ones give equal.
func TestRowKeysKeepKeysApart(t *testing.T) {
	encodings := map[string]bool{}
	for n := range 40 {
		s := strings.Repeat("k", n)
		// As appendKeyOf encodes a string column: length, then bytes.
		encodings[string(append([]byte{byte(n)}, s...))] = true
		encodings[string(append([]byte{byte(n + 1)}, s+"\x00"...))] = true
	}
	for i := range int64(1000) {
		encodings[fmt.Sprintf("%016x", i)] = true // 16 bytes: held as they are
		encodings[fmt.Sprintf("%017x", i)] = true // 17: hashed
	}
	seen := map[rowKey]string{}
	for enc := range encodings {
		k := makeRowKey([]byte(enc))
		require.Equal(t, k, makeRowKey([]byte(enc)), "one key, one row key")
		prev, dup := seen[k]
		require.False(t, dup, "keys %q and %q share a row key", prev, enc)
		seen[k] = enc
	}
	require.Len(t, seen, 2080)
}

// Upserts keyed by strings longer than the inline row key (so the index
// holds their hashes) replace the right rows, across commits and an index
// rebuilt from the table.
func TestUpsertLongKeys(t *testing.T) {
	type named struct {
		Name  string `beam:"name"`
		Seq   int64  `beam:"seq"`
		Value int64  `beam:"value"`
	}
	ctx := context.Background()
	dest := "cdc.long_keys"
	cfg := Config{Catalog: launch(t), Table: dest, WriterID: "w", Mode: Upsert, Key: []string{"name"}, Order: "seq"}
	s := newTestSink[named](t, cfg)
	want := map[string]int64{}
	r := rand.New(rand.NewPCG(5, 6))
	seq := int64(0)
	for pane := range 4 {
		if pane == 2 {
			s.keyIndex(dest, loadTable(t, s.cat, dest), cfg.Key).invalidate() // as a restarted worker: rebuilt from the table
		}
		var rows []named
		for range 3000 {
			seq++
			n := named{fmt.Sprintf("customer-account-%06d", r.IntN(2000)), seq, r.Int64N(1e6)}
			rows = append(rows, n)
			want[n.Name] = n.Value // the highest seq wins
		}
		_, err := s.commitRows(ctx, dest, chunksOf(t, s, rows, 500), nil)
		require.NoError(t, err)
	}
	got := map[string]int64{}
	for _, row := range readRows[named](t, loadTable(t, s.cat, dest)) {
		_, dup := got[row.Name]
		require.False(t, dup, "key %s is live twice", row.Name)
		got[row.Name] = row.Value
	}
	require.Equal(t, want, got)
}

// A table dropped and made again under its name gets a fresh index, which
// takes the place of its predecessor's: a long-lived worker that recreates
// tables does not keep every old table's index.
func TestKeyIndexOfARecreatedTable(t *testing.T) {
	type acct struct {
		ID  int64 `beam:"id"`
		Seq int64 `beam:"seq"`
		Bal int64 `beam:"bal"`
	}
	ctx := context.Background()
	dest := "cdc.recreated"
	cfg := Config{Catalog: launch(t), Table: dest, WriterID: "w", Mode: Upsert, Key: []string{"id"}, Order: "seq"}
	s := newTestSink[acct](t, cfg)
	indexes := func() (n int) {
		keyIndexes.Range(func(k, _ any) bool {
			if strings.Contains(k.(string), cfg.Catalog.URI+"\x00"+dest+"\x00") {
				n++
			}
			return true
		})
		return n
	}
	_, err := s.commitRows(ctx, dest, chunksOf(t, s, []acct{{1, 1, 10}, {2, 2, 20}}, 10), nil)
	require.NoError(t, err)
	ident, _ := parseIdent(dest)
	require.NoError(t, s.cat.DropTable(ctx, ident))
	_, err = s.commitRows(ctx, dest, chunksOf(t, s, []acct{{2, 1, 21}, {3, 2, 30}}, 10), nil)
	require.NoError(t, err)
	tbl := loadTable(t, s.cat, dest)
	require.Equal(t, 1, indexes(), "indexes of %s in the process", dest)
	idx := s.keyIndex(dest, tbl, cfg.Key)
	require.Equal(t, tbl.Metadata().TableUUID(), idx.table)
	require.Len(t, idx.entries, 2, "the new table's live rows")
	got := map[int64]int64{}
	for _, r := range readRows[acct](t, tbl) {
		got[r.ID] = r.Bal
	}
	require.Equal(t, map[int64]int64{2: 21, 3: 30}, got)
}

// A table with a sort order, by which iceberg-go's writer reorders the
// rows of each batch it writes: upserts still replace the right rows,
// pane after pane, so the key index must learn where rows landed from the
// files, not from the order they were handed to the writer in.
func TestUpsertIntoASortedTable(t *testing.T) {
	type acct struct {
		ID  int64 `beam:"id"`
		Seq int64 `beam:"seq"`
		Bal int64 `beam:"bal"`
	}
	ctx := context.Background()
	dest := "cdc.sorted"
	cfg := Config{Catalog: launch(t), Table: dest, WriterID: "w", Mode: Upsert, Key: []string{"id"}, Order: "seq"}
	s := newTestSink[acct](t, cfg)
	sc := iceberg.NewSchemaWithIdentifiers(0, []int{1},
		iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.PrimitiveTypes.Int64, Required: true},
		iceberg.NestedField{ID: 2, Name: "seq", Type: iceberg.PrimitiveTypes.Int64, Required: true},
		iceberg.NestedField{ID: 3, Name: "bal", Type: iceberg.PrimitiveTypes.Int64, Required: true})
	order, err := table.NewSortOrder(1, []table.SortField{{SourceIDs: []int{3}, Transform: iceberg.IdentityTransform{}, Direction: table.SortDESC, NullOrder: table.NullsLast}})
	require.NoError(t, err)
	ident, _ := parseIdent(dest)
	require.NoError(t, s.cat.CreateNamespace(ctx, ident[:1], nil))
	_, err = s.cat.CreateTable(ctx, ident, sc, icecatalog.WithSortOrder(order), icecatalog.WithProperties(iceberg.Properties{table.PropertyFormatVersion: "3"}))
	require.NoError(t, err)
	want := map[int64]int64{}
	r := rand.New(rand.NewPCG(7, 8))
	seq := int64(0)
	for range 4 {
		var rows []acct
		for range 2000 {
			seq++
			a := acct{int64(r.IntN(500)), seq, r.Int64N(1e6)}
			rows = append(rows, a)
			want[a.ID] = a.Bal // the highest seq wins
		}
		_, err := s.commitRows(ctx, dest, chunksOf(t, s, rows, 700), nil)
		require.NoError(t, err)
	}
	got := map[int64]int64{}
	for _, row := range readRows[acct](t, loadTable(t, s.cat, dest)) {
		_, dup := got[row.ID]
		require.False(t, dup, "key %d is live twice", row.ID)
		got[row.ID] = row.Bal
	}
	require.Equal(t, want, got)
}

// Changes without a row last keepChanges commits after their own, then go
// with the next merge; live rows stay.
func TestChangesWithoutRowExpire(t *testing.T) {
	for _, age := range []uint32{keepChanges, keepChanges + 1} {
		idx := &keyIndex{commits: 1000, files: []fileInfo{{}}, entries: []indexEntry{
			{key: rowKey{lo: 1}, file: 0, pos: 0},
			{key: rowKey{lo: 2}, file: noRow, pos: 1000 - age, order: 7},
		}}
		require.NoError(t, idx.merge([]indexEntry{{key: rowKey{lo: 3}, file: 0, pos: 1}}, func(int) bool { return false }))
		keys := []uint64{}
		for _, e := range idx.entries {
			keys = append(keys, e.key.lo)
		}
		if age <= keepChanges {
			require.Equal(t, []uint64{1, 2, 3}, keys, "a change %d commits old stays", age)
		} else {
			require.Equal(t, []uint64{1, 3}, keys, "a change %d commits old goes", age)
		}
	}
}
