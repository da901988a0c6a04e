package icebergio

// Sorted runs: how a row-level write spreads its work over the window.
//
// The encode step sorts each bundle's changes by key and keeps one change
// per key (the bundle's winner), before the shuffle, while the window is
// still open; its chunk holds those rows in key order as Arrow IPC, with
// whether each deletes its key. At the trigger the committer decodes
// little more than IPC buffers, computes the keys again (cheaper than
// shuffling them: runners move a pane's bytes slowly) and merges the
// pane's runs on every core, where it used to sort the whole pane. A write that names no Key
// (the key columns are the table's identifier fields, which the encode
// step does not load) sends its bundles unsorted, and the committer sorts
// each the same way.

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/uuid"
	"golang.org/x/sync/errgroup"

	"github.com/icebeam/icebeam/transforms/internal/arrowipc"
)

// rowChunkMagic starts a row chunk (as long as chunkMagic), which
// appendRowChunk lays out: a short header, then an Arrow IPC stream of one
// record batch.
const rowChunkMagic = "IBR2"

// The column a sorted run has after the rows' own (the Op column left
// out): whether the row deletes its key.
const deleteColumn = "_icebeam_delete"

// truncateMeta is the schema metadata key of a sorted run whose changes
// held a truncate: the Order value of the last one (decimal). The run's
// rows are those after it; the committer needs the value too, to drop
// the earlier changes of other chunks of the pane and to empty the table.
const truncateMeta = "icebeam.truncate"

// encodeWorkers is how many batches of changes the encode step sorts and
// encodes at once: that is most of a row-level write's CPU, and a
// source's bundle (a generator, a file's reader) otherwise runs it on the
// one core the bundle runs on. At most 8, which bounds what it buffers
// (encodeRecordsFn) to 8 batches.
var encodeWorkers = min(runtime.GOMAXPROCS(0), 8)

// encodeEachChanges appends encodeChanges of each of recs to out, in
// order, encoding up to encodeWorkers at once. It releases recs; after an
// error, the chunks the others staged are orphans, as after any failed
// encode bundle.
func (e *chunkEncoder) encodeEachChanges(ctx context.Context, dest string, recs []arrow.RecordBatch, sent int64, out [][]byte) ([][]byte, error) {
	chunks := make([][]byte, len(recs))
	var g errgroup.Group
	g.SetLimit(encodeWorkers)
	for i, rec := range recs {
		g.Go(func() (err error) {
			chunks[i], err = e.encodeChanges(ctx, dest, rec, sent)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return out, err
	}
	return append(out, chunks...), nil
}

// encodeChanges encodes a bundle's rows of a row-level write to table dest
// as one chunk, sorted and collapsed when the write names its key columns,
// and staged when it is large (staging.go). It releases rec.
func (e *chunkEncoder) encodeChanges(ctx context.Context, dest string, rec arrow.RecordBatch, sent int64) ([]byte, error) {
	defer rec.Release()
	h := chunkHeader{ID: chunkID(uuid.New()), SentMS: sent, Rows: rec.NumRows()}
	if len(e.cfg.Key) > 0 {
		sorted, err := sortChanges(ctx, rec, e.cfg.Key, e.cfg.Op, e.cfg.Order)
		if err != nil {
			return nil, err
		}
		defer sorted.Release()
		rec, h.Keys = sorted, e.cfg.Key
	}
	if e.stage != nil && e.cfg.StagingThreshold >= 0 && arrowipc.Size(rec) >= e.cfg.StagingThreshold {
		// A staged file is not compressed: its bytes go to storage, which
		// charges little for them, and compressing them with LZ4 took a
		// fifth of a flat-out row-level write's CPU (docs/benchmarks.md).
		path, size := e.stage.put(ctx, dest, h.ID, func(w io.Writer) (int64, error) { return arrowipc.Write(w, rec) })
		if path != "" {
			heldRuns.hold(path, rec)
			return appendRowChunk(h, rowBodyStaged, append(binary.AppendUvarint(nil, uint64(size)), path...)), nil
		}
	}
	// Bytes the runner's shuffle carries, and copies, are LZ4: the cheapest
	// codec to undo when the committer decodes a pane's worth at the trigger.
	b, err := arrowipc.EncodeLZ4(rec)
	if err != nil {
		return nil, fmt.Errorf("encoding changes: %w", err)
	}
	return appendRowChunk(h, rowBodyIPC, b), nil
}

// sortChanges is rec's changes sorted by key, one per key (the one that
// wins: the highest Order value, then the last row), without update
// before-images, as rec's columns but the Op column followed by
// deleteColumn.
func sortChanges(ctx context.Context, rec arrow.RecordBatch, keys []string, opName, orderName string) (arrow.RecordBatch, error) {
	cols, err := rowLevelColumns(rec, keys, opName, orderName)
	if err != nil {
		return nil, err
	}
	n := int(rec.NumRows())
	rowKeys, err := keysOf(rec, keys)
	if err != nil {
		return nil, err
	}
	rows := make([]int32, 0, n) // the changes: rows but before-images and truncates
	dels := make([]bool, n)     // by row
	cut := int64(noTruncate)
	for r := range n {
		op, err := cols.opOf(r)
		if err != nil {
			return nil, err
		}
		switch op {
		case opIgnore:
		case opTruncate:
			if cols.order == nil {
				return nil, fmt.Errorf("a truncate (row with key %s) needs the Order column, to place it among the changes", cols.keyString(r))
			}
			cut = max(cut, cols.order[r])
		default:
			rows = append(rows, int32(r))
			dels[r] = op == opDelete
		}
	}
	if cut != noTruncate {
		// A change at the truncate's own position goes with it: the
		// truncate wins ties, whatever order the rows came in.
		rows = slices.DeleteFunc(rows, func(r int32) bool { return cols.order[r] <= cut })
	}
	take, del := winnersByIntKey(rowKeys, rows, cols.order, dels)
	if take == nil {
		take, del = winnersByKey(rowKeys, rows, cols.order, dels)
	}
	db := array.NewBooleanBuilder(memory.DefaultAllocator)
	defer db.Release()
	db.AppendValues(del, nil)
	indices := int32Array(take)
	defer indices.Release()
	var fields []arrow.Field
	var arrays []arrow.Array
	for i, f := range rec.Schema().Fields() {
		if f.Name == opName {
			continue
		}
		a, err := takeRows(ctx, rec.Column(i), indices)
		if err != nil {
			for _, a := range arrays {
				a.Release()
			}
			return nil, fmt.Errorf("sorting changes by key: %w", err)
		}
		fields = append(fields, f)
		arrays = append(arrays, a)
	}
	fields = append(fields, arrow.Field{Name: deleteColumn, Type: arrow.FixedWidthTypes.Boolean})
	arrays = append(arrays, db.NewArray())
	var meta *arrow.Metadata
	if cut != noTruncate {
		m := arrow.NewMetadata([]string{truncateMeta}, []string{strconv.FormatInt(cut, 10)})
		meta = &m
	}
	out := array.NewRecordBatch(arrow.NewSchema(fields, meta), arrays, int64(indices.Len()))
	for _, a := range arrays {
		a.Release()
	}
	return out, nil
}

// int32Array is an Arrow array over v, not a copy.
func int32Array(v []int32) *array.Int32 {
	return array.NewInt32Data(array.NewData(arrow.PrimitiveTypes.Int32, len(v),
		[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(v))}, nil, 0, 0))
}

// takeRows is a's rows at indices (in a's bounds): by hand for the
// columns of a change log (integers, timestamps, floats, strings), where
// Arrow's take kernel checked every index of every column against its
// bounds (a twentieth of a flat-out cdc run's CPU); by that kernel for
// other types.
func takeRows(ctx context.Context, a arrow.Array, indices *array.Int32) (arrow.Array, error) {
	idx := indices.Int32Values()
	var nulls *memory.Buffer
	nullN := 0
	if a.NullN() > 0 {
		nulls = memory.NewResizableBuffer(memory.DefaultAllocator)
		nulls.Resize(int(bitutil.BytesForBits(int64(len(idx)))))
		bits := nulls.Bytes()
		for i, r := range idx {
			valid := a.IsValid(int(r))
			bitutil.SetBitTo(bits, i, valid)
			if !valid {
				nullN++
			}
		}
	}
	release := func(bufs ...*memory.Buffer) {
		for _, b := range bufs {
			if b != nil {
				b.Release()
			}
		}
	}
	var bufs []*memory.Buffer
	switch w := fixedWidth(a.DataType()); {
	case w == 8:
		bufs = []*memory.Buffer{nulls, takeWords[uint64](a.Data(), idx)}
	case w == 4:
		bufs = []*memory.Buffer{nulls, takeWords[uint32](a.Data(), idx)}
	case a.DataType().ID() == arrow.STRING:
		s := a.(*array.String)
		offs := memory.NewResizableBuffer(memory.DefaultAllocator)
		offs.Resize(4 * (len(idx) + 1))
		o := arrow.Int32Traits.CastFromBytes(offs.Bytes())
		size := 0
		for i, r := range idx {
			o[i] = int32(size)
			size += s.ValueLen(int(r))
		}
		if size > math.MaxInt32 {
			release(nulls, offs)
			return compute.TakeArray(ctx, a, indices)
		}
		o[len(idx)] = int32(size)
		data := memory.NewResizableBuffer(memory.DefaultAllocator)
		data.Resize(size)
		b := data.Bytes()
		for i, r := range idx {
			copy(b[o[i]:o[i+1]], s.Value(int(r)))
		}
		bufs = []*memory.Buffer{nulls, offs, data}
	default:
		release(nulls)
		return compute.TakeArray(ctx, a, indices)
	}
	out := array.NewData(a.DataType(), len(idx), bufs, nil, nullN, 0)
	release(bufs...)
	defer out.Release()
	return array.MakeFromData(out), nil
}

// takeWords is the values buffer of d's rows at idx, d's values being
// words of T's width.
func takeWords[T uint32 | uint64](d arrow.ArrayData, idx []int32) *memory.Buffer {
	out := memory.NewResizableBuffer(memory.DefaultAllocator)
	out.Resize(int(unsafe.Sizeof(T(0))) * len(idx))
	src := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(d.Buffers()[1].Bytes()))), d.Offset()+d.Len())[d.Offset():]
	dst := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(out.Bytes()))), len(idx))
	for i, r := range idx {
		dst[i] = src[r]
	}
	return out
}

// fixedWidth is the bytes of a value of t when takeRows copies t's values
// as words of that width, else 0.
func fixedWidth(t arrow.DataType) int {
	switch t.ID() {
	case arrow.INT64, arrow.UINT64, arrow.FLOAT64, arrow.TIMESTAMP, arrow.DATE64, arrow.DURATION, arrow.TIME64:
		return 8
	case arrow.INT32, arrow.UINT32, arrow.FLOAT32, arrow.DATE32, arrow.TIME32:
		return 4
	}
	return 0
}

// winnersByKey is, of the changes at rows (ascending), the winner of each
// key in key order: its row and whether it deletes. The winner is the
// highest Order value (order, by row; nil: all equal), then the last row.
func winnersByKey(keys []rowKey, rows []int32, order []int64, dels []bool) (take []int32, del []bool) {
	type change struct {
		key   rowKey
		order int64
		row   int32
	}
	changes := make([]change, len(rows))
	for i, r := range rows {
		changes[i] = change{key: keys[r], row: r}
		if order != nil {
			changes[i].order = order[r]
		}
	}
	changes = sortByKey(changes, func(c *change) rowKey { return c.key })
	for i := 0; i < len(changes); {
		best, j := i, i+1
		for ; j < len(changes) && changes[j].key == changes[i].key; j++ {
			if changes[j].order >= changes[best].order { // the stable sort kept row order
				best = j
			}
		}
		take = append(take, changes[best].row)
		del = append(del, dels[changes[best].row])
		i = j
	}
	return take, del
}

// winnersByIntKey is winnersByKey for integer keys (one integer key
// column: rowKey's low word is the same for all) that span less than
// 2^(64 - the bits of a row number), the common case of a database's ids:
// each change is a uint64, its key's offset from the least above its row,
// radix sorted on the key bits alone (stable, so rows stay in order within
// a key) in 11-bit digits whose counts stay in L1. nil when the keys are
// not such.
func winnersByIntKey(keys []rowKey, rows []int32, order []int64, dels []bool) (take []int32, del []bool) {
	if len(rows) == 0 {
		return nil, nil
	}
	lo, least, most := keys[rows[0]].lo, keys[rows[0]].hi, keys[rows[0]].hi
	for _, r := range rows {
		k := keys[r]
		if k.lo != lo {
			return nil, nil
		}
		least, most = min(least, k.hi), max(most, k.hi)
	}
	rowBits := uint(bits.Len32(uint32(rows[len(rows)-1])))
	keyBits := uint(bits.Len64(most - least))
	if keyBits+rowBits > 64 {
		return nil, nil
	}
	packed := make([]uint64, len(rows))
	for i, r := range rows {
		packed[i] = (keys[r].hi-least)<<rowBits | uint64(r)
	}
	tmp := make([]uint64, len(packed))
	const digit = 11
	var count [1 << digit]int
	for shift := rowBits; shift < rowBits+keyBits; shift += digit {
		clear(count[:])
		for _, v := range packed {
			count[(v>>shift)&(1<<digit-1)]++
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, v := range packed {
			d := (v >> shift) & (1<<digit - 1)
			tmp[count[d]] = v
			count[d]++
		}
		packed, tmp = tmp, packed
	}
	take = make([]int32, 0, len(packed))
	del = make([]bool, 0, len(packed))
	rowMask := uint64(1)<<rowBits - 1
	for i := 0; i < len(packed); {
		key := packed[i] >> rowBits
		best := int32(packed[i] & rowMask)
		j := i + 1
		for ; j < len(packed) && packed[j]>>rowBits == key; j++ {
			r := int32(packed[j] & rowMask)
			if order == nil || order[r] >= order[best] {
				best = r
			}
		}
		take = append(take, best)
		del = append(del, dels[best])
		i = j
	}
	return take, del
}

// changeRun is one chunk of a pane, decoded: its rows sorted by key, one
// per key, and the columns merging reads.
type changeRun struct {
	rec   arrow.RecordBatch // the rows' columns but Op, then deleteColumn
	keys  []rowKey          // each row's
	del   *array.Boolean    // whether the row deletes its key
	order []int64           // each row's Order value; nil without one
	// truncate is the Order value of the chunk's last truncate (noTruncate:
	// none); its rows are the changes after it.
	truncate int64
}

// keep is the run of r's rows at rows, ascending: r itself when that is
// all of them, nil when none.
func (r *changeRun) keep(ctx context.Context, rows []int32) (*changeRun, error) {
	switch len(rows) {
	case 0:
		return nil, nil
	case len(r.keys):
		return r, nil
	}
	indices := int32Array(rows)
	defer indices.Release()
	cols := make([]arrow.Array, 0, r.rec.NumCols())
	defer func() {
		for _, a := range cols {
			a.Release()
		}
	}()
	for _, a := range r.rec.Columns() {
		t, err := takeRows(ctx, a, indices)
		if err != nil {
			return nil, fmt.Errorf("keeping a pane's winning changes: %w", err)
		}
		cols = append(cols, t)
	}
	k := &changeRun{
		rec:      array.NewRecordBatch(r.rec.Schema(), cols, int64(len(rows))),
		keys:     make([]rowKey, len(rows)),
		truncate: r.truncate,
	}
	k.del = k.rec.Column(int(k.rec.NumCols()) - 1).(*array.Boolean)
	for i, x := range rows {
		k.keys[i] = r.keys[x]
	}
	if r.order != nil {
		k.order = make([]int64, len(rows))
		for i, x := range rows {
			k.order[i] = r.order[x]
		}
	}
	return k, nil
}

// rowColumns is how many of the run's columns are the rows'.
func (r *changeRun) rowColumns() int { return int(r.rec.NumCols()) - 1 }

// decodeRun decodes a row-level chunk, sorting it first if the encode step
// did not; rec, when not nil, is the chunk already decoded (heldRuns), which
// the run takes over.
func decodeRun(ctx context.Context, c *chunk, rec arrow.RecordBatch, keys []string, opName, orderName string) (*changeRun, error) {
	if rec == nil {
		if c.ipc == nil || c.bare {
			return nil, fmt.Errorf("a chunk of a row-level write is not one (%d bytes of rows to append): a pipeline of another icebeam version?", len(c.parquet)+len(c.ipc))
		}
		var err error
		if rec, err = arrowipc.Decode(c.ipc); err != nil {
			return nil, fmt.Errorf("decoding a chunk of changes: %w", err)
		}
	}
	switch {
	case c.Keys == nil:
		sorted, err := sortChanges(ctx, rec, keys, opName, orderName)
		rec.Release()
		if err != nil {
			return nil, err
		}
		rec = sorted
	case !slices.Equal(c.Keys, keys):
		rec.Release()
		return nil, fmt.Errorf("a chunk of changes is sorted by key columns %v, and the table's are %v", c.Keys, keys)
	}
	run := &changeRun{rec: rec, truncate: noTruncate}
	if v, ok := rec.Schema().Metadata().GetValue(truncateMeta); ok {
		t, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			rec.Release()
			return nil, fmt.Errorf("a chunk of changes has truncate %q in its schema's %s: %w", v, truncateMeta, err)
		}
		run.truncate = t
	}
	del, ok := rec.Column(int(rec.NumCols()) - 1).(*array.Boolean)
	if !ok || rec.Schema().Field(int(rec.NumCols())-1).Name != deleteColumn {
		rec.Release()
		return nil, fmt.Errorf("a chunk of changes lacks its column %s (schema %s)", deleteColumn, rec.Schema())
	}
	run.del = del
	var err error
	if run.keys, err = keysOf(rec, keys); err != nil {
		rec.Release()
		return nil, err
	}
	if orderName != "" {
		idx := rec.Schema().FieldIndices(orderName)
		if len(idx) == 0 {
			rec.Release()
			return nil, fmt.Errorf("a chunk of changes has no column %s", orderName)
		}
		if run.order, err = int64Values(rec.Column(idx[0])); err != nil {
			rec.Release()
			return nil, fmt.Errorf("order column %s: %w", orderName, err)
		}
	}
	return run, nil
}

// keysOf is each row's key: as appendKeyOf and makeRowKey make it, and
// without them for the common key of one integer column.
func keysOf(rec arrow.RecordBatch, names []string) ([]rowKey, error) {
	cols := make([]arrow.Array, len(names))
	for i, k := range names {
		idx := rec.Schema().FieldIndices(k)
		if len(idx) == 0 {
			return nil, fmt.Errorf("a chunk of changes has no key column %s", k)
		}
		cols[i] = rec.Column(idx[0])
	}
	keys := make([]rowKey, rec.NumRows())
	if len(cols) == 1 && cols[0].NullN() == 0 {
		// An integer's encoding is its 8 big-endian bytes as a long.
		switch a := cols[0].(type) {
		case *array.Int64:
			for i, v := range a.Int64Values() {
				keys[i] = rowKey{hi: uint64(v)}
			}
			return keys, nil
		case *array.Int32:
			for i, v := range a.Int32Values() {
				keys[i] = rowKey{hi: uint64(int64(v))}
			}
			return keys, nil
		}
	}
	var kb []byte
	for i := range keys {
		var err error
		if kb, err = appendKeyOf(kb[:0], cols, names, i); err != nil {
			return nil, err
		}
		keys[i] = makeRowKey(kb)
	}
	return keys, nil
}

// mergeRuns merges runs, each sorted by key with one row per key, into the
// winner of each key, sorted by key: the highest Order value, then the
// later run (runs are in the order their chunks were encoded).
func mergeRuns(runs []*changeRun) []winner {
	total := 0
	for _, r := range runs {
		total += len(r.keys)
	}
	if wins, ok := mergeDense(runs, total); ok {
		return wins
	}
	return mergeTree(runs, total)
}

// mergeDense merges runs whose keys are dense integers (a database's
// sequence-assigned ids: one integer column, so every key's low word is
// the same and its high word is the value) by addressing a slot per value
// between the least and the greatest key: one pass over the changes in
// run order, then one over the slots, where a tree of losers pays a
// comparison per level for each change. ok is false, and nothing done,
// when the keys are not such or too sparse: more slots than twice the
// changes.
func mergeDense(runs []*changeRun, total int) (wins []winner, ok bool) {
	var lo, least, most uint64
	first := true
	for _, r := range runs {
		if len(r.keys) == 0 {
			continue
		}
		a, b := r.keys[0], r.keys[len(r.keys)-1]
		if first {
			lo, least, most, first = a.lo, a.hi, b.hi, false
		}
		if a.lo != lo || b.lo != lo {
			return nil, false
		}
		least, most = min(least, a.hi), max(most, b.hi)
	}
	if first || most-least >= uint64(2*total) {
		return nil, false
	}
	span := int(most-least) + 1
	// Per slot: the run and row of the change that wins it so far (run
	// -1: none), and that change's Order value.
	run, row := make([]int32, span), make([]int32, span)
	order := make([]int64, span)
	for i := range run {
		run[i] = -1
	}
	for ri, r := range runs {
		for p, k := range r.keys {
			if k.lo != lo {
				return nil, false
			}
			var o int64
			if r.order != nil {
				o = r.order[p]
			}
			s := k.hi - least
			if run[s] < 0 || o >= order[s] { // a later run wins a tie
				run[s], row[s], order[s] = int32(ri), int32(p), o
			}
		}
	}
	n := 0
	for _, ri := range run {
		if ri >= 0 {
			n++
		}
	}
	wins = make([]winner, 0, n)
	for s, ri := range run {
		if ri < 0 {
			continue
		}
		w := winner{key: rowKey{hi: least + uint64(s), lo: lo}, batch: ri, row: row[s], order: order[s], op: opUpsert}
		if runs[ri].del.Value(int(row[s])) {
			w.op = opDelete
		}
		wins = append(wins, w)
	}
	return wins, true
}

// mergeTree merges runs of any keys with trees of losers, the key space
// split into ranges merged on every core.
func mergeTree(runs []*changeRun, total int) []winner {
	parts := min(runtime.GOMAXPROCS(0), max(total>>16, 1))
	splits := splitKeys(runs, parts)
	out := make([][]winner, len(splits)+1)
	var wg sync.WaitGroup
	for p := range out {
		wg.Go(func() {
			var from, to *rowKey
			if p > 0 {
				from = &splits[p-1]
			}
			if p < len(splits) {
				to = &splits[p]
			}
			out[p] = mergeRange(runs, from, to)
		})
	}
	wg.Wait()
	return slices.Concat(out...)
}

// splitKeys picks up to parts-1 keys that split the runs' keys into ranges
// of about equal size, from a sample.
func splitKeys(runs []*changeRun, parts int) []rowKey {
	if parts < 2 {
		return nil
	}
	var sample []rowKey
	for _, r := range runs {
		for i := 0; i < len(r.keys); i += 256 {
			sample = append(sample, r.keys[i])
		}
	}
	slices.SortFunc(sample, rowKey.compare)
	var splits []rowKey
	for p := 1; p < parts; p++ {
		k := sample[p*len(sample)/parts]
		if len(splits) == 0 || splits[len(splits)-1] != k {
			splits = append(splits, k)
		}
	}
	return splits
}

// mergeRange merges the runs' keys k with from <= k < to (nil: unbounded)
// with a tree of losers: each key taken costs one comparison per level of
// a tree over the runs.
func mergeRange(runs []*changeRun, from, to *rowKey) []winner {
	bound := func(r *changeRun, k *rowKey, none int) int {
		if k == nil {
			return none
		}
		return sort.Search(len(r.keys), func(i int) bool { return r.keys[i].compare(*k) >= 0 })
	}
	k := len(runs)
	if k == 0 {
		return nil
	}
	pos, end := make([]int, k), make([]int, k)
	keys := make([]rowKey, k)
	done := make([]bool, k)
	n := 0
	for i, r := range runs {
		pos[i], end[i] = bound(r, from, 0), bound(r, to, len(r.keys))
		if done[i] = pos[i] >= end[i]; !done[i] {
			keys[i] = r.keys[pos[i]]
			n += end[i] - pos[i]
		}
	}
	// less orders runs by their current key; a finished run is last.
	less := func(a, b int) bool {
		if done[a] || done[b] {
			return !done[a]
		}
		ka, kb := keys[a], keys[b]
		return ka.hi < kb.hi || (ka.hi == kb.hi && ka.lo < kb.lo)
	}
	// tree[0] is the run with the least key; tree[1:k] hold the losers
	// of the matches at each node (leaf i's parent is (i+k)/2).
	tree := make([]int, k)
	var play func(node int) int
	play = func(node int) int {
		if node >= k {
			return node - k
		}
		a, b := play(2*node), play(2*node+1)
		if less(b, a) {
			a, b = b, a
		}
		tree[node] = b
		return a
	}
	if k > 1 {
		tree[0] = play(1)
	}
	at := func(ri int) winner {
		r, p := runs[ri], pos[ri]
		w := winner{key: keys[ri], batch: int32(ri), row: int32(p), op: opUpsert}
		if r.del.Value(p) {
			w.op = opDelete
		}
		if r.order != nil {
			w.order = r.order[p]
		}
		return w
	}
	wins := make([]winner, 0, n)
	var best winner
	have := false
	for ri := tree[0]; !done[ri]; ri = tree[0] {
		w := at(ri)
		switch {
		case !have:
			best, have = w, true
		case w.key != best.key:
			wins = append(wins, best)
			best = w
		case w.order > best.order || (w.order == best.order && w.batch > best.batch):
			best = w
		}
		if pos[ri]++; pos[ri] == end[ri] {
			done[ri] = true
		} else {
			keys[ri] = runs[ri].keys[pos[ri]]
		}
		for node := (ri + k) / 2; node > 0; node /= 2 {
			if less(tree[node], ri) {
				tree[node], ri = ri, tree[node]
			}
		}
		tree[0] = ri
	}
	if have {
		wins = append(wins, best)
	}
	return wins
}

// longKey is the 128-bit digest of an encoded key longer than rowKey
// holds. It is SHA-256's, not a keyed hash's: the encode step and the
// committer compute keys in different processes, which must agree, and a
// key an attacker chose must not collide with another.
func longKey(enc []byte) rowKey {
	sum := sha256.Sum256(enc)
	return rowKey{binary.BigEndian.Uint64(sum[:8]), binary.BigEndian.Uint64(sum[8:16])}
}
