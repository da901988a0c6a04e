// Package changelog computes the row-level changes of an Iceberg snapshot:
// the rows it inserted and deleted, whatever it was made of (appended or
// removed data files, position deletes, deletion vectors, equality
// deletes), with a delete and an insert of the same key paired into an
// update, as Spark's create_changelog_view reports them.
//
// iceberg-go 0.7's IncrementalChangelogScan fails as soon as a delete file
// falls in its range (so does Iceberg Java 1.10's, behind Spark's view), so
// the changes are derived here from what iceberg-go does support: planning
// a snapshot's scan (which matches every kind of delete file to the data
// files it applies to) and reading planned tasks. A snapshot's changes are
// those of the data files whose planned task differs from its parent's: a
// file added or removed, or one whose set of delete files changed. Such a
// file's rows are read as the parent saw them and as the snapshot sees
// them, through the same scan, and the two multisets of rows are
// subtracted. Subtracting over all the snapshot's files at once removes
// carry-overs (a copy-on-write rewrite deletes a file and inserts its
// unchanged rows again) as Spark does. Rows are compared by value over the
// columns read, so a changed column that is not read is no change.
package changelog

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/transforms/internal/batches"
)

// Kind is a row's change, named as in Spark's changelog view.
type Kind string

const (
	Insert       Kind = "INSERT"
	Delete       Kind = "DELETE"
	UpdateBefore Kind = "UPDATE_BEFORE"
	UpdateAfter  Kind = "UPDATE_AFTER"
)

// The change metadata columns each output batch ends with. The first three
// are named as Spark's changelog view names them.
const (
	ChangeTypeColumn    = "_change_type"        // string: a Kind
	ChangeOrdinalColumn = "_change_ordinal"     // int64: Options.Ordinal
	SnapshotIDColumn    = "_commit_snapshot_id" // int64
	CommitTimeColumn    = "_commit_timestamp"   // timestamp, microseconds, UTC
)

// IsMetadataColumn reports whether name is one of the change metadata
// columns.
func IsMetadataColumn(name string) bool {
	switch name {
	case ChangeTypeColumn, ChangeOrdinalColumn, SnapshotIDColumn, CommitTimeColumn:
		return true
	}
	return false
}

// Options say what is read and how changes are reported.
type Options struct {
	// Columns are the top-level columns read (empty: all). Identifier
	// columns are read too.
	Columns []string
	// Filter selects rows (nil: all).
	Filter iceberg.BooleanExpression
	// Identifier are the columns whose equal values make a delete and an
	// insert of one snapshot an update (nil: the table's identifier
	// fields; without any, there are no updates).
	Identifier []string
	// Ordinal is the snapshot's _change_ordinal.
	Ordinal int64
}

// Reader computes the changes of the snapshots of one table, one after
// another: the plan of a snapshot is kept as the parent plan of the next.
type Reader struct {
	last  *plan
	alloc memory.Allocator
}

// NewReader returns a Reader.
func NewReader() *Reader {
	return &Reader{alloc: memory.DefaultAllocator}
}

// plan is a snapshot's planned scan, its tasks by data file.
type plan struct {
	snapshot int64
	key      string // the options planned with
	files    map[string][]table.FileScanTask
}

// Changes computes the changes snap made to tbl (which must still hold its
// parent, unless it has none) as record batches: the columns read, then
// the metadata columns. Deletes and update-befores come first, then
// inserts and update-afters, an update's two halves at the same index of
// their halves. Replace snapshots (compactions, which keep the rows) have
// no changes, as in Spark's changelog. The caller releases the batches.
func (r *Reader) Changes(ctx context.Context, tbl *table.Table, snap *table.Snapshot, opts Options) ([]arrow.RecordBatch, error) {
	if snap.Summary != nil && snap.Summary.Operation == table.OpReplace {
		return nil, nil
	}
	cols, ident, err := columns(tbl.Schema(), opts)
	if err != nil {
		return nil, err
	}
	filter := opts.Filter
	if filter == nil {
		filter = iceberg.AlwaysTrue{}
	}
	meta := Meta{SnapshotID: snap.SnapshotID, CommitMillis: snap.TimestampMs, Ordinal: opts.Ordinal}
	scan := tbl.Scan(table.WithSelectedFields(cols...), table.WithRowFilter(filter), table.WithCaseSensitive(true))
	defer scan.Close()
	if snap.Summary != nil && snap.Summary.Operation == table.OpAppend {
		// An append adds data files and nothing else (no delete file,
		// equality deletes included, applies to a file of its own
		// snapshot): its rows are inserts. Planning only what it added
		// keeps a stream of appends from planning the whole table each
		// time.
		r.last = nil
		tasks, err := tbl.NewIncrementalAppendScan(table.WithRowFilter(filter), table.WithCaseSensitive(true)).
			FromSnapshotInclusive(snap.SnapshotID).ToSnapshot(snap.SnapshotID).PlanFiles(ctx)
		if err != nil {
			return nil, fmt.Errorf("changelog: planning the files snapshot %d added: %w", snap.SnapshotID, err)
		}
		rows, err := readTasks(ctx, scan, tasks)
		if err != nil {
			return nil, fmt.Errorf("changelog: reading the files snapshot %d added: %w", snap.SnapshotID, err)
		}
		defer release(rows)
		return Diff(ctx, r.alloc, nil, rows, ident, meta)
	}
	key := strings.Join(cols, "\x00") + "\x01" + filter.String()
	after, err := r.plan(ctx, tbl, snap.SnapshotID, cols, filter, key)
	if err != nil {
		return nil, err
	}
	var before *plan
	if snap.ParentSnapshotID != nil {
		if before, err = r.plan(ctx, tbl, *snap.ParentSnapshotID, cols, filter, key); err != nil {
			return nil, err
		}
	}
	r.last = after

	// The files whose planned task changed: as the parent read them, and
	// as the snapshot does.
	var oldTasks, newTasks []table.FileScanTask
	for path, tasks := range after.files {
		var prev []table.FileScanTask
		if before != nil {
			prev = before.files[path]
		}
		if prev != nil && sameDeletes(prev[0], tasks[0]) {
			continue
		}
		newTasks = append(newTasks, tasks...)
		oldTasks = append(oldTasks, prev...)
	}
	if before != nil {
		for path, tasks := range before.files {
			if _, ok := after.files[path]; !ok {
				oldTasks = append(oldTasks, tasks...)
			}
		}
	}
	if len(oldTasks)+len(newTasks) == 0 {
		return nil, nil
	}
	oldRows, err := readTasks(ctx, scan, oldTasks)
	if err != nil {
		return nil, fmt.Errorf("changelog: reading the files snapshot %d changed, as snapshot %d saw them: %w", snap.SnapshotID, before.snapshot, err)
	}
	defer release(oldRows)
	newRows, err := readTasks(ctx, scan, newTasks)
	if err != nil {
		return nil, fmt.Errorf("changelog: reading the files snapshot %d changed: %w", snap.SnapshotID, err)
	}
	defer release(newRows)
	return Diff(ctx, r.alloc, oldRows, newRows, ident, meta)
}

// columns returns the columns to read (the identifier columns included)
// and the identifier columns.
func columns(sc *iceberg.Schema, opts Options) (cols, ident []string, err error) {
	ident = opts.Identifier
	if ident == nil {
		for _, id := range sc.IdentifierFieldIDs {
			name, ok := sc.FindColumnName(id)
			if !ok {
				return nil, nil, fmt.Errorf("changelog: identifier field %d is not in the schema", id)
			}
			ident = append(ident, name)
		}
	}
	cols = slices.Clone(opts.Columns)
	if len(cols) == 0 {
		for _, f := range sc.Fields() {
			cols = append(cols, f.Name)
		}
	}
	for _, c := range cols {
		if IsMetadataColumn(c) {
			return nil, nil, fmt.Errorf("changelog: column %s is a change metadata column", c)
		}
	}
	for _, c := range ident {
		if _, ok := sc.FindFieldByName(c); !ok {
			return nil, nil, fmt.Errorf("changelog: identifier column %s is not in the table", c)
		}
		if !slices.Contains(cols, c) {
			cols = append(cols, c)
		}
	}
	return cols, ident, nil
}

// plan plans the scan of snapshot id, or returns the last plan if it was
// of that snapshot with the same options.
func (r *Reader) plan(ctx context.Context, tbl *table.Table, id int64, cols []string, filter iceberg.BooleanExpression, key string) (*plan, error) {
	if r.last != nil && r.last.snapshot == id && r.last.key == key {
		return r.last, nil
	}
	if tbl.Metadata().SnapshotByID(id) == nil {
		return nil, fmt.Errorf("changelog: the table no longer has snapshot %d (expired?)", id)
	}
	scan := tbl.Scan(table.WithSnapshotID(id), table.WithSelectedFields(cols...), table.WithRowFilter(filter), table.WithCaseSensitive(true))
	defer scan.Close()
	tasks, err := scan.PlanFiles(ctx)
	if err != nil {
		return nil, fmt.Errorf("changelog: planning the scan of snapshot %d: %w", id, err)
	}
	p := &plan{snapshot: id, key: key, files: map[string][]table.FileScanTask{}}
	for _, t := range tasks {
		p.files[t.File.FilePath()] = append(p.files[t.File.FilePath()], t)
	}
	return p, nil
}

// sameDeletes reports whether two tasks of a data file apply the same
// delete files. A deletion vector is a blob of a Puffin file: its path
// and offset name it.
func sameDeletes(a, b table.FileScanTask) bool {
	names := func(t table.FileScanTask) []string {
		var out []string
		for _, set := range [][]iceberg.DataFile{t.DeleteFiles, t.EqualityDeleteFiles, t.DeletionVectorFiles} {
			for _, f := range set {
				name := f.FilePath()
				if off := f.ContentOffset(); off != nil {
					name += fmt.Sprintf("@%d", *off)
				}
				out = append(out, name)
			}
		}
		slices.Sort(out)
		return out
	}
	return slices.Equal(names(a), names(b))
}

// readTasks reads tasks through scan (deletes applied, projected to the
// scan's columns).
func readTasks(ctx context.Context, scan *table.Scan, tasks []table.FileScanTask) ([]arrow.RecordBatch, error) {
	if len(tasks) == 0 {
		return nil, nil
	}
	_, recs, err := scan.ReadTasks(ctx, tasks)
	if err != nil {
		return nil, err
	}
	var out []arrow.RecordBatch
	for rec, err := range recs {
		if err != nil {
			release(out)
			return nil, err
		}
		if rec.NumRows() == 0 {
			rec.Release()
			continue
		}
		out = append(out, rec)
	}
	return out, nil
}

func release(recs []arrow.RecordBatch) {
	for _, r := range recs {
		r.Release()
	}
}

// Meta is what every change of a snapshot carries.
type Meta struct {
	SnapshotID   int64
	CommitMillis int64
	Ordinal      int64
}

// rowRef is a row of one of the batches Diff was given.
type rowRef struct {
	batch int // index into the concatenation of old then new batches
	row   int
}

// Diff returns the changes from the rows of old to the rows of new (each
// a multiset of rows of one schema): rows of old not in new are deleted,
// rows of new not in old inserted; with identifier columns, a key deleted
// once and inserted once is updated. The output is as Reader.Changes
// describes.
func Diff(ctx context.Context, mem memory.Allocator, old, new []arrow.RecordBatch, ident []string, meta Meta) ([]arrow.RecordBatch, error) {
	all := append(slices.Clip(old), new...)
	if len(all) == 0 {
		return nil, nil
	}
	sc := all[0].Schema()
	for _, b := range all[1:] {
		if !b.Schema().Equal(sc) {
			return nil, fmt.Errorf("changelog: batches of different schemas: %s and %s", sc, b.Schema())
		}
	}
	var identIdx []int
	for _, c := range ident {
		idx := sc.FieldIndices(c)
		if len(idx) == 0 {
			return nil, fmt.Errorf("changelog: identifier column %s was not read", c)
		}
		identIdx = append(identIdx, idx[0])
	}
	allIdx := make([]int, sc.NumFields())
	for i := range allIdx {
		allIdx[i] = i
	}

	// Net count of each distinct row: old occurrences count down, new up.
	type group struct {
		net  int
		old  []rowRef
		new  []rowRef
		once bool
	}
	groups := map[string]*group{}
	var order []string // first-seen order, so that output does not depend on map order
	var buf []byte
	for bi, b := range all {
		isNew := bi >= len(old)
		for r := 0; r < int(b.NumRows()); r++ {
			buf = appendRow(buf[:0], b, allIdx, r)
			g, ok := groups[string(buf)]
			if !ok {
				g = &group{}
				groups[string(buf)] = g
				order = append(order, string(buf))
			}
			if isNew {
				g.net++
				g.new = append(g.new, rowRef{bi, r})
			} else {
				g.net--
				g.old = append(g.old, rowRef{bi, r})
			}
		}
	}
	var deletes, inserts []rowRef
	for _, k := range order {
		g := groups[k]
		switch {
		case g.net < 0:
			deletes = append(deletes, g.old[:-g.net]...)
		case g.net > 0:
			inserts = append(inserts, g.new[:g.net]...)
		}
	}

	// Pair a key's single delete with its single insert.
	kinds := map[rowRef]Kind{}
	var before, after []rowRef
	if len(identIdx) > 0 && len(deletes) > 0 && len(inserts) > 0 {
		type pair struct{ dels, ins []rowRef }
		keys := map[string]*pair{}
		var keyOrder []string
		for _, side := range []struct {
			refs []rowRef
			ins  bool
		}{{deletes, false}, {inserts, true}} {
			for _, ref := range side.refs {
				buf = appendRow(buf[:0], all[ref.batch], identIdx, ref.row)
				p, ok := keys[string(buf)]
				if !ok {
					p = &pair{}
					keys[string(buf)] = p
					keyOrder = append(keyOrder, string(buf))
				}
				if side.ins {
					p.ins = append(p.ins, ref)
				} else {
					p.dels = append(p.dels, ref)
				}
			}
		}
		for _, k := range keyOrder {
			p := keys[k]
			if len(p.dels) == 1 && len(p.ins) == 1 {
				kinds[p.dels[0]], kinds[p.ins[0]] = UpdateBefore, UpdateAfter
				before = append(before, p.dels[0])
				after = append(after, p.ins[0])
			}
		}
	}
	// Updates first, so that the halves of an update share an index.
	for _, ref := range deletes {
		if _, ok := kinds[ref]; !ok {
			kinds[ref] = Delete
			before = append(before, ref)
		}
	}
	for _, ref := range inserts {
		if _, ok := kinds[ref]; !ok {
			kinds[ref] = Insert
			after = append(after, ref)
		}
	}
	var out []arrow.RecordBatch
	for _, refs := range [][]rowRef{before, after} {
		b, err := gather(ctx, mem, all, refs, kinds, meta)
		if err != nil {
			release(out)
			return nil, err
		}
		if b != nil {
			out = append(out, b)
		}
	}
	return out, nil
}

// appendRow appends an encoding of row r's columns idx of b that is equal
// for rows of equal values: per column a null flag, then the value's
// length and text. ValueStr covers every Arrow type, nested ones too.
func appendRow(dst []byte, b arrow.RecordBatch, idx []int, r int) []byte {
	for _, c := range idx {
		col := b.Column(c)
		if col.IsNull(r) {
			dst = append(dst, 0)
			continue
		}
		dst = append(dst, 1)
		s := col.ValueStr(r)
		dst = binary.AppendUvarint(dst, uint64(len(s)))
		dst = append(dst, s...)
	}
	return dst
}

// gather builds one batch of the rows refs, in that order, with the
// metadata columns.
func gather(ctx context.Context, mem memory.Allocator, all []arrow.RecordBatch, refs []rowRef, kinds map[rowRef]Kind, meta Meta) (arrow.RecordBatch, error) {
	if len(refs) == 0 {
		return nil, nil
	}
	// Take the rows of each batch, then put them in order with one more
	// take over their concatenation.
	byBatch := map[int][]int{}
	for _, ref := range refs {
		byBatch[ref.batch] = append(byBatch[ref.batch], ref.row)
	}
	used := slices.Sorted(func(yield func(int) bool) {
		for b := range byBatch {
			if !yield(b) {
				return
			}
		}
	})
	pos := map[rowRef]int{}
	var parts []arrow.RecordBatch
	defer func() { release(parts) }()
	n := 0
	for _, bi := range used {
		rows := byBatch[bi]
		ib := array.NewInt64Builder(mem)
		for _, r := range rows {
			ib.Append(int64(r))
			pos[rowRef{bi, r}] = n
			n++
		}
		idx := ib.NewArray()
		ib.Release()
		part, err := takeRows(ctx, all[bi], idx)
		idx.Release()
		if err != nil {
			return nil, err
		}
		parts = append(parts, part)
	}
	sc := all[0].Schema()
	joined, err := batches.Concat(mem, sc, parts)
	if err != nil {
		return nil, fmt.Errorf("changelog: %w", err)
	}
	defer joined.Release()
	ib := array.NewInt64Builder(mem)
	for _, ref := range refs {
		ib.Append(int64(pos[ref]))
	}
	idx := ib.NewArray()
	ib.Release()
	defer idx.Release()
	rows, err := takeRows(ctx, joined, idx)
	if err != nil {
		return nil, err
	}
	defer rows.Release()

	kb := array.NewStringBuilder(mem)
	ob := array.NewInt64Builder(mem)
	sb := array.NewInt64Builder(mem)
	tb := array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"})
	for _, ref := range refs {
		kb.Append(string(kinds[ref]))
		ob.Append(meta.Ordinal)
		sb.Append(meta.SnapshotID)
		tb.Append(arrow.Timestamp(meta.CommitMillis * 1000))
	}
	cols := append(slices.Clone(rows.Columns()), kb.NewArray(), ob.NewArray(), sb.NewArray(), tb.NewArray())
	for _, b := range []array.Builder{kb, ob, sb, tb} {
		b.Release()
	}
	fields := append(slices.Clone(sc.Fields()),
		arrow.Field{Name: ChangeTypeColumn, Type: arrow.BinaryTypes.String},
		arrow.Field{Name: ChangeOrdinalColumn, Type: arrow.PrimitiveTypes.Int64},
		arrow.Field{Name: SnapshotIDColumn, Type: arrow.PrimitiveTypes.Int64},
		arrow.Field{Name: CommitTimeColumn, Type: cols[len(cols)-1].DataType()})
	md := sc.Metadata()
	out := array.NewRecordBatch(arrow.NewSchema(fields, &md), cols, int64(len(refs)))
	for _, c := range cols[len(cols)-4:] {
		c.Release()
	}
	return out, nil
}

func takeRows(ctx context.Context, b arrow.RecordBatch, idx arrow.Array) (arrow.RecordBatch, error) {
	// Datums hold a reference to what they wrap.
	bd, id := compute.NewDatum(b), compute.NewDatum(idx)
	defer bd.Release()
	defer id.Release()
	d, err := compute.Take(ctx, *compute.DefaultTakeOptions(), bd, id)
	if err != nil {
		return nil, fmt.Errorf("changelog: selecting rows: %w", err)
	}
	return d.(*compute.RecordDatum).Value, nil
}
