package icebergio

// The key index of a format v3 row-level table: where each live row is, by
// key, so that a change finds the row it replaces without reading the
// table. It is a sorted array, not a hash map: a pane's changes are sorted
// by key too (a radix sort, a few sequential passes), and then finding
// every changed key's row is one merge of two sorted lists, and updating
// the index one more. A map spends a cache miss on each of a pane's
// millions of lookups; the arrays are read front to back. Memory: 32 bytes
// per live row (indexEntry), twice that while a commit merges.
//
// With an Order column the index also remembers, for a while, the Order
// value of changes that left no row for it to point at: on v3 the keys
// deleted, and on v2, whose index holds no rows, every key changed (32
// bytes a key). A pane that lands after a later pane of its keys (two
// bundles committing one table at once, a replay) would otherwise find no
// row and bring back a deleted key, or on v2 overwrite the later change.
// They are kept for keepChanges of the table's commits after their own, in
// the process that made them.

import (
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/iceberg-go"
	iceio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
	"github.com/apache/iceberg-go/table/dv"
	"github.com/google/uuid"
)

// rowKey is a row's key as the index sorts and compares it. An encoded
// key (appendKeyOf) of up to 16 bytes is held as it is, zero-padded: the
// encoding is prefix-free for a table's key columns (fixed-width numbers,
// length-prefixed strings), so padding keeps distinct keys distinct.
// Longer keys are a 128-bit digest (longKey): two distinct long keys, or a
// long and a short one, are taken for one with a probability of 2^-128 per
// pair.
type rowKey struct{ hi, lo uint64 }

func makeRowKey(enc []byte) rowKey {
	if len(enc) <= 16 {
		var b [16]byte
		copy(b[:], enc)
		return rowKey{binary.BigEndian.Uint64(b[:8]), binary.BigEndian.Uint64(b[8:])}
	}
	return longKey(enc)
}

func (k rowKey) compare(o rowKey) int {
	return cmp.Or(cmp.Compare(k.hi, o.hi), cmp.Compare(k.lo, o.lo))
}

// sortByKey sorts s by key, stably, and returns the sorted slice, which is
// s or a buffer of its length: an LSD radix sort in 16-bit digits that
// skips the digits all keys share (an integer key of ids below 2^48 takes
// three passes).
func sortByKey[T any](s []T, key func(*T) rowKey) []T {
	if len(s) < 1<<12 {
		slices.SortStableFunc(s, func(a, b T) int { return key(&a).compare(key(&b)) })
		return s
	}
	var or, and rowKey
	and = rowKey{math.MaxUint64, math.MaxUint64}
	for i := range s {
		k := key(&s[i])
		or.hi, or.lo = or.hi|k.hi, or.lo|k.lo
		and.hi, and.lo = and.hi&k.hi, and.lo&k.lo
	}
	tmp := make([]T, len(s))
	var count [1 << 16]int
	for d := range 8 {
		word := func(k rowKey) uint64 { return k.lo }
		mask := or.lo ^ and.lo
		if d >= 4 {
			word = func(k rowKey) uint64 { return k.hi }
			mask = or.hi ^ and.hi
		}
		shift := uint(d%4) * 16
		if (mask>>shift)&0xffff == 0 {
			continue
		}
		clear(count[:])
		for i := range s {
			count[(word(key(&s[i]))>>shift)&0xffff]++
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for i := range s {
			digit := (word(key(&s[i])) >> shift) & 0xffff
			tmp[count[digit]] = s[i]
			count[digit]++
		}
		s, tmp = tmp, s
	}
	return s
}

// keyIndex is where each live row of a table is, by key: see the top of
// this file and of rowlevel.go.
type keyIndex struct {
	table    uuid.UUID    // the table it indexes: a table made again under its name starts afresh
	snapshot int64        // the snapshot the index reflects; -1: none yet
	entries  []indexEntry // one per live row or change without one, sorted by key, keys unique
	files    []fileInfo
	byPath   map[string]int32
	commits  uint32 // the pane commits applied, which date changes without a row
	// truncated says a commit of this process truncated the table, at
	// Order value floor: a change at or below it, in a pane that lands
	// later (out of order, or formed again from replayed rows), happened
	// before that truncate and is dropped, whatever its key. It stands in
	// for the entries of every key, which the truncate clears.
	truncated bool
	floor     int64
}

// indexEntry is a live row: its key, where it is, and its Order value
// (math.MinInt64 without one). An entry of file noRow is a change that
// left no row to point at (see the top of this file): its key, its Order
// value, and in pos the index's commits when it was made.
type indexEntry struct {
	key   rowKey
	file  int32
	pos   uint32
	order int64
}

// noRow is the file of a change without a row.
const noRow = -1

// keepChanges is how many of a table's commits a change without a row
// outlives: a pane that lands later than that after a later pane of its
// keys is not one of the bundles that commit together.
const keepChanges = 256

func (e *indexEntry) live() bool { return e.file != noRow }

func entryKey(e *indexEntry) rowKey { return e.key }

// mergeByKey merges two lists sorted by key; of a key in both, a's entry
// is kept.
func mergeByKey(a, b []indexEntry) []indexEntry {
	if len(b) == 0 {
		return a
	}
	out := make([]indexEntry, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch c := a[i].key.compare(b[j].key); {
		case c < 0:
			out = append(out, a[i])
			i++
		case c > 0:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i, j = i+1, j+1
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

type fileInfo struct {
	file iceberg.DataFile
	dv   iceberg.DataFile // its deletion vector; nil when it has none
	live int64            // its rows the index holds live
	gone bool             // rewritten away: no longer in the table
}

// keyIndexes holds the key indexes of the process, by catalog, table name,
// key and order columns: one per table however many DoFn instances the
// runner makes (a runner that starts the next pane's bundle on a new
// instance while the last commit runs would otherwise rebuild it), and one
// per name, so that a table dropped and made again replaces its
// predecessor's index instead of keeping it alive. Commits use an index
// under lockTable.
var keyIndexes sync.Map

// keyIndex is tbl's index; the caller holds dest's lockTable.
func (s *sink) keyIndex(dest string, tbl *table.Table, keys []string) *keyIndex {
	id := strings.Join(append([]string{s.cfg.Catalog.URI, dest, s.cfg.Order}, keys...), "\x00")
	v, _ := keyIndexes.LoadOrStore(id, &keyIndex{snapshot: -1})
	idx := v.(*keyIndex)
	if u := tbl.Metadata().TableUUID(); idx.table != u {
		*idx = keyIndex{table: u, snapshot: -1}
	}
	return idx
}

func (idx *keyIndex) invalidate() { idx.snapshot = -1 }

// find is the position of the entry (a live row or a change without one) with key
// k, from position from on, or the position it would take and false.
func (idx *keyIndex) find(k rowKey, from int) (int, bool) {
	e := idx.entries
	for from < len(e) && e[from].key.compare(k) < 0 {
		from++
	}
	return from, from < len(e) && e[from].key == k
}

// sync makes idx reflect tbl's current snapshot, rebuilding it unless it
// does already.
func (idx *keyIndex) sync(ctx context.Context, tbl *table.Table, keys []string, order string) error {
	cur := int64(0)
	if snap := tbl.CurrentSnapshot(); snap != nil {
		cur = snap.SnapshotID
	}
	if idx.snapshot == cur {
		return nil
	}
	start := time.Now()
	// The deletes this process made stay known, also past a rebuild that
	// fails: the rebuilt index keeps those of keys the table does not
	// hold again.
	deleted := slices.DeleteFunc(idx.entries, func(e indexEntry) bool { return e.live() })
	idx.entries, idx.files, idx.byPath = deleted, nil, map[string]int32{}
	idx.snapshot = -1
	if cur == 0 {
		idx.snapshot = 0
		return nil
	}
	tasks, err := tbl.Scan().PlanFiles(ctx)
	if err != nil {
		return fmt.Errorf("listing the table's files: %w", err)
	}
	fs, err := tbl.FS(ctx)
	if err != nil {
		return err
	}
	var rows int64
	for _, t := range tasks {
		rows += t.File.Count()
	}
	entries := make([]indexEntry, 0, rows)
	for _, t := range tasks {
		path := t.File.FilePath()
		if _, seen := idx.byPath[path]; seen {
			continue
		}
		info := fileInfo{file: t.File}
		switch {
		case len(t.EqualityDeleteFiles) > 0:
			return fmt.Errorf("data file %s has equality deletes, which a format v3 table's upserts do not write: convert them to deletion vectors first", path)
		case len(t.DeleteFiles) > 0:
			return fmt.Errorf("data file %s has position delete files, not a deletion vector: rewrite the table's data files first", path)
		case len(t.DeletionVectorFiles) > 1:
			return fmt.Errorf("data file %s has %d deletion vectors (at most one is allowed)", path, len(t.DeletionVectorFiles))
		case len(t.DeletionVectorFiles) == 1:
			info.dv = t.DeletionVectorFiles[0]
		}
		var deleted func(int64) bool
		if info.dv != nil {
			bm, err := dv.ReadDV(fs, info.dv)
			if err != nil {
				return fmt.Errorf("reading the deletion vector of %s: %w", path, err)
			}
			deleted = func(pos int64) bool { return bm.Contains(uint64(pos)) }
		}
		if entries, err = idx.readKeys(ctx, fs, entries, idx.add(info), keys, order, deleted); err != nil {
			return err
		}
	}
	entries = sortByKey(entries, entryKey)
	for i := 1; i < len(entries); i++ {
		if a, b := entries[i-1], entries[i]; a.key == b.key {
			return fmt.Errorf("a key is live twice: in %s row %d and %s row %d", idx.files[a.file].file.FilePath(), a.pos, idx.files[b.file].file.FilePath(), b.pos)
		}
	}
	live := len(entries)
	idx.entries = mergeByKey(entries, deleted)
	idx.snapshot = cur
	log.Infof(ctx, "icebergio: table %s: key index of %d live rows in %d files built in %v",
		strings.Join(tbl.Identifier(), "."), live, len(idx.files), time.Since(start).Round(time.Millisecond))
	return nil
}

func (idx *keyIndex) add(info fileInfo) int32 {
	fi := int32(len(idx.files))
	idx.files = append(idx.files, info)
	idx.byPath[info.file.FilePath()] = fi
	return fi
}

// readKeys appends the live rows of data file fi to entries, in file
// order, and counts them as the file's live rows.
func (idx *keyIndex) readKeys(ctx context.Context, fs iceio.IO, entries []indexEntry, fi int32, keys []string, order string, deleted func(int64) bool) ([]indexEntry, error) {
	path := idx.files[fi].file.FilePath()
	if n := idx.files[fi].file.Count(); n > math.MaxUint32 {
		return entries, fmt.Errorf("data file %s has %d rows, more than the key index can point into (2^32)", path, n)
	}
	f, err := fs.Open(path)
	if err != nil {
		return entries, fmt.Errorf("opening %s: %w", path, err)
	}
	defer f.Close()
	pf, err := file.NewParquetReader(f)
	if err != nil {
		return entries, fmt.Errorf("reading %s: %w", path, err)
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: maxBatchRows}, memory.DefaultAllocator)
	if err != nil {
		return entries, fmt.Errorf("reading %s: %w", path, err)
	}
	sc, err := fr.Schema()
	if err != nil {
		return entries, fmt.Errorf("reading %s: %w", path, err)
	}
	want := append(slices.Clone(keys), order)
	if order == "" {
		want = keys
	}
	var cols []int
	for _, name := range want {
		idxs := sc.FieldIndices(name)
		if len(idxs) == 0 {
			return entries, fmt.Errorf("data file %s has no column %s", path, name)
		}
		cols = append(cols, idxs[0])
	}
	rr, err := fr.GetRecordReader(ctx, cols, nil)
	if err != nil {
		return entries, fmt.Errorf("reading %s: %w", path, err)
	}
	defer rr.Release()
	var pos int64
	var kb []byte
	for rr.Next() {
		rec := rr.RecordBatch()
		keyCols := make([]arrow.Array, len(keys))
		for i := range keys {
			keyCols[i] = rec.Column(i)
		}
		var orders []int64
		if order != "" {
			if orders, err = int64Values(rec.Column(len(keys))); err != nil {
				return entries, fmt.Errorf("data file %s, column %s: %w", path, order, err)
			}
		}
		for r := 0; r < int(rec.NumRows()); r++ {
			p := pos + int64(r)
			if deleted != nil && deleted(p) {
				continue
			}
			if kb, err = appendKeyOf(kb[:0], keyCols, keys, r); err != nil {
				return entries, fmt.Errorf("data file %s, row %d: %w", path, p, err)
			}
			e := indexEntry{key: makeRowKey(kb), file: fi, pos: uint32(p), order: math.MinInt64}
			if orders != nil {
				e.order = orders[r]
			}
			entries = append(entries, e)
			idx.files[fi].live++
		}
		pos += rec.NumRows()
	}
	return entries, rr.Err()
}

// readFiles adds new data files to the index's files and returns the
// entries of their rows, sorted by key.
func (idx *keyIndex) readFiles(ctx context.Context, tbl *table.Table, files []iceberg.DataFile, keys []string, order string) ([]indexEntry, error) {
	fs, err := tbl.FS(ctx)
	if err != nil {
		return nil, err
	}
	var added []indexEntry
	for _, f := range files {
		if added, err = idx.readKeys(ctx, fs, added, idx.add(fileInfo{file: f}), keys, order, nil); err != nil {
			return nil, err
		}
	}
	return sortByKey(added, entryKey), nil
}

// merge merges added, sorted by key, into the index, without the entries
// drop reports true for and the changes without a row past keepChanges:
// one pass over the index.
func (idx *keyIndex) merge(added []indexEntry, drop func(i int) bool) error {
	merged := make([]indexEntry, 0, len(idx.entries)+len(added))
	old, j := idx.entries, 0
	for i := range old {
		if drop(i) || !old[i].live() && idx.commits-old[i].pos > keepChanges {
			continue
		}
		for j < len(added) && added[j].key.compare(old[i].key) < 0 {
			merged = append(merged, added[j])
			j++
		}
		if j < len(added) && added[j].key == old[i].key {
			return fmt.Errorf("a key would be in the index twice: %s and %s", idx.where(old[i]), idx.where(added[j]))
		}
		merged = append(merged, old[i])
	}
	merged = append(merged, added[j:]...)
	for i := 1; i < len(added); i++ {
		if added[i-1].key == added[i].key {
			return fmt.Errorf("a key is twice in what the commit adds: %s and %s", idx.where(added[i-1]), idx.where(added[i]))
		}
	}
	idx.entries = merged
	return nil
}

// where names e's row for messages.
func (idx *keyIndex) where(e indexEntry) string {
	if !e.live() {
		return fmt.Sprintf("a change with order %d", e.order)
	}
	return fmt.Sprintf("%s row %d", idx.files[e.file].file.FilePath(), e.pos)
}

// applyCommit brings idx from the snapshot it reflected to the one w's
// commit made: the rows the plan deleted or replaced go, and the changes
// without a row it superseded; the written rows and the plan's deletes
// come in; and the data files with new deletion vectors point at them.
func (idx *keyIndex) applyCommit(ctx context.Context, tbl *table.Table, snapshot int64, p *rowPlan, w *rowWrite) error {
	snap := tbl.Metadata().SnapshotByID(snapshot)
	if snap == nil || snap.ParentSnapshotID == nil && idx.snapshot != 0 || snap.ParentSnapshotID != nil && *snap.ParentSnapshotID != idx.snapshot {
		return fmt.Errorf("snapshot %d does not follow the indexed snapshot %d", snapshot, idx.snapshot)
	}
	idx.snapshot = -1
	for _, d := range w.dvs {
		ref := d.ReferencedDataFile()
		if ref == nil {
			return fmt.Errorf("deletion vector %s names no data file", d.FilePath())
		}
		fi, ok := idx.byPath[*ref]
		if !ok {
			return fmt.Errorf("deletion vector for unknown data file %s", *ref)
		}
		idx.files[fi].dv = d
	}
	for _, i := range p.replaced {
		if e := &idx.entries[i]; e.live() {
			idx.files[e.file].live--
		}
	}
	var added []indexEntry
	var err error
	if w.dataSorted {
		// The writer sorted each batch by the table's sort order: where
		// a row landed is in the files only.
		added, err = idx.readFiles(ctx, tbl, w.data, w.keys, w.s.cfg.Order)
	} else {
		added, err = idx.written(w.data, p, w.pane.wins, w.s.cfg.Order != "")
	}
	if err != nil {
		return err
	}
	if err := idx.remember(mergeByKey(added, p.noRow), p.replaced); err != nil {
		return err
	}
	idx.snapshot = snapshot
	return nil
}

// truncate brings idx past a commit that truncated the table at Order
// value at and then applied p: the table's rows and the changes without a
// row at or below at are forgotten, p's changes without a row are
// remembered, and the live rows p wrote are left for the next sync to
// read (v3: the index is invalidated; the table holds those files only).
func (idx *keyIndex) truncate(at int64, p *rowPlan, v3 bool) error {
	err := idx.remember(p.noRow, p.replaced)
	idx.entries = slices.DeleteFunc(idx.entries, func(e indexEntry) bool { return e.live() || e.order <= at })
	idx.files, idx.byPath = nil, map[string]int32{}
	if !idx.truncated || at > idx.floor {
		idx.truncated, idx.floor = true, at
	}
	if v3 {
		idx.invalidate()
	}
	return err
}

// dropped reports whether a change at Order value order happened before a
// truncate this process committed.
func (idx *keyIndex) dropped(order int64) bool { return idx.truncated && order <= idx.floor }

// remember merges a commit's entries into the index, dated by the commit,
// without the entries replaced (ascending) that they supersede.
func (idx *keyIndex) remember(added []indexEntry, replaced []int) error {
	idx.commits++
	for i := range added {
		if !added[i].live() {
			added[i].pos = idx.commits
		}
	}
	r := 0
	return idx.merge(added, func(i int) bool {
		if r < len(replaced) && replaced[r] == i {
			r++
			return true
		}
		return false
	})
}

// written is the index entries of the rows a pane wrote, sorted by key,
// without reading them back: the plan's winners to insert, at the
// positions writeRows gave them (the order of p.insert, file after file;
// so only for a table without a sort order, by which iceberg-go's writer
// reorders each batch).
func (idx *keyIndex) written(files []iceberg.DataFile, p *rowPlan, wins []winner, ordered bool) ([]indexEntry, error) {
	var stored int64
	first := make([]int64, len(files)) // each file's first row, counted over the files
	fis := make([]int32, len(files))
	for i, f := range files {
		if f.Count() > math.MaxUint32 {
			return nil, fmt.Errorf("data file %s has %d rows, more than the key index can point into (2^32)", f.FilePath(), f.Count())
		}
		first[i], stored = stored, stored+f.Count()
		fis[i] = idx.add(fileInfo{file: f})
	}
	if stored != p.insertN {
		return nil, fmt.Errorf("the pane's data files hold %d rows, and it wrote %d", stored, p.insertN)
	}
	rank := make([]int64, len(p.insert))
	n := int64(0)
	for g, in := range p.insert {
		if in {
			rank[g] = n
			n++
		}
	}
	added := make([]indexEntry, 0, p.insertN)
	for i := range wins {
		win := &wins[i]
		g := p.batchStart[win.batch] + int(win.row)
		if !p.insert[g] {
			continue
		}
		pos := rank[g]
		f := sort.Search(len(files), func(j int) bool { return first[j] > pos }) - 1
		e := indexEntry{key: win.key, file: fis[f], pos: uint32(pos - first[f]), order: win.order}
		if !ordered {
			e.order = math.MinInt64
		}
		added = append(added, e)
		idx.files[fis[f]].live++
	}
	return added, nil
}
