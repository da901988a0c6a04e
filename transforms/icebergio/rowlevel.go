package icebergio

// Row-level writes (Upsert and Changes): each row replaces the table's row
// with the same key, or deletes it, instead of adding one.
//
// The committer of a table's pane decodes the pane's chunks, collapses the
// changes of each key to the one that wins (the highest Order value; the
// one encoded last without it), and commits one row-delta snapshot that
// adds the winners' rows and deletes the rows they replace:
//   - format v3: with deletion vectors. The committer keeps an index of the
//     table's live rows, key -> (data file, position, order value), built by
//     reading the key and order columns of the table's data files once and
//     then kept up to date from what it commits; a snapshot it did not make
//     rebuilds it (keyindex.go). A data file that already has a DV gets a
//     new one holding the old positions and the new, and the old one is
//     removed in the same commit. Memory, on the one worker that commits
//     the table: 32 bytes per live row, 64 while a commit merges into it,
//     whatever the key's length (BenchmarkCommitChanges reports it); 1M
//     keys take 32 MB; with an Order column, 32 more per key deleted in
//     the last 256 commits (keyindex.go). Past what one worker holds,
//     split the table's key space over tables (a template).
//   - format v2: with equality deletes on the key columns, one row per key
//     the pane changes, as Flink's upsert sink writes them. Readers then
//     join every data file older than a delete with it (Spark's and
//     iceberg-go's merge-on-read, DuckDB, BigQuery all do), which slows
//     reads as deletes pile up until the table is compacted. With an
//     Order column the committer keeps each key's Order value of the last
//     256 commits (32 bytes a key), so that a pane landing after a later
//     one does not overwrite it.

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"iter"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/iceberg-go"
	iceio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
	"github.com/apache/iceberg-go/table/dv"
	"github.com/google/uuid"

	"github.com/icebeam/icebeam/transforms/icebergio/internal/rowcodec"
	"github.com/icebeam/icebeam/transforms/internal/commit"
)

// rowOp is what a row does to its key.
type rowOp uint8

const (
	opUpsert   rowOp = iota // the row is the key's row from now on
	opDelete                // the key has no row from now on
	opIgnore                // an update's before image: the after image follows
	opTruncate              // the table has no rows from now on (Changes)
)

// parseOp reads an operation: Debezium's c, r, u, d, and the names Beam
// Java's CDC write and Flink use.
func parseOp(s string) (rowOp, bool) {
	if len(s) == 1 { // Debezium's, the common case
		switch s[0] {
		case 'c', 'r', 'u', 'i', 'C', 'R', 'U', 'I':
			return opUpsert, true
		case 'd', 'D':
			return opDelete, true
		case 't', 'T':
			return opTruncate, true
		}
		return 0, false
	}
	switch strings.ToLower(s) {
	case "c", "r", "u", "i", "insert", "create", "read", "update", "update_after", "upsert", "+i", "+u":
		return opUpsert, true
	case "d", "delete", "-d":
		return opDelete, true
	case "update_before", "-u":
		return opIgnore, true
	case "truncate":
		return opTruncate, true
	}
	return 0, false
}

// rowLevel reports whether the mode changes rows in place.
func (m Mode) rowLevel() bool { return m == Upsert || m == Changes }

// checkRowLevel checks the row-level settings against the rows' schema.
// It looks at Iceberg types, so Go rows and Arrow records are held to the
// same rules.
func (c Config) checkRowLevel(rows *rowcodec.Schema) error {
	field := func(name string) (iceberg.NestedField, bool) { return rowcodec.TopLevelColumn(rows.Iceberg, name) }
	if !c.Mode.rowLevel() {
		for _, f := range []struct {
			name, why string
			set       bool
		}{
			{"Key", "Key, Op and Order apply", len(c.Key) > 0},
			{"Op", "Key, Op and Order apply", c.Op != ""},
			{"Order", "Key, Op and Order apply", c.Order != ""},
			{"MaxDeletedShare", "it applies", c.MaxDeletedShare != 0},
			{"StagingThreshold", "it applies", c.StagingThreshold != 0},
		} {
			if f.set {
				return fmt.Errorf("icebergio: table %s: mode %q takes no %s: %s to the modes %q and %q", c.Table, c.Mode, f.name, f.why, Upsert, Changes)
			}
		}
		return nil
	}
	if c.Shards > 1 {
		return fmt.Errorf("icebergio: table %s: mode %q commits each table from one worker: Shards must be 1", c.Table, c.Mode)
	}
	if c.Mode == Changes && c.Op == "" {
		return fmt.Errorf("icebergio: table %s: mode %q needs Op, the row field holding each row's operation", c.Table, c.Mode)
	}
	if c.Mode == Upsert && c.Op != "" {
		return fmt.Errorf("icebergio: table %s: mode %q takes no Op (every row is an upsert); use %q", c.Table, c.Mode, Changes)
	}
	if c.Op != "" {
		if f, ok := field(c.Op); !ok || !f.Type.Equals(iceberg.PrimitiveTypes.String) {
			return fmt.Errorf("icebergio: table %s: Op %q is not a string field of %s", c.Table, c.Op, rows)
		}
	}
	if c.Order != "" {
		f, ok := field(c.Order)
		if !ok || !f.Required || !orderType(f.Type) {
			return fmt.Errorf("icebergio: table %s: Order %q is not a required (non-pointer) integer or timestamp field of %s", c.Table, c.Order, rows)
		}
	}
	for _, k := range c.Key {
		f, ok := field(k)
		if !ok {
			return fmt.Errorf("icebergio: table %s: key column %q is not a field of %s", c.Table, k, rows)
		}
		if k == c.Op {
			return fmt.Errorf("icebergio: table %s: key column %q is the Op field", c.Table, k)
		}
		if _, nested := f.Type.(iceberg.NestedType); nested || !f.Required {
			return fmt.Errorf("icebergio: table %s: key column %q must be a required primitive (a non-pointer field that is not a struct or list)", c.Table, k)
		}
	}
	return nil
}

// orderType reports whether an Order column of type t is one int64Values
// reads: integers, and timestamps as their integer count.
func orderType(t iceberg.Type) bool {
	switch t.(type) {
	case iceberg.Int32Type, iceberg.Int64Type, iceberg.TimestampType, iceberg.TimestampTzType:
		return true
	}
	return false
}

// tableSchema is the schema of tables the sink creates: the row's fields
// but the Op field, with the key columns as identifier fields.
func (c Config) tableSchema(rows *rowcodec.Schema) (*iceberg.Schema, error) {
	if !c.Mode.rowLevel() {
		return rows.Iceberg, nil
	}
	var fields []iceberg.NestedField
	var ids []int
	for _, f := range rows.Iceberg.Fields() {
		if f.Name == c.Op {
			continue
		}
		fields = append(fields, f)
		if slices.Contains(c.Key, f.Name) {
			ids = append(ids, f.ID)
		}
	}
	return iceberg.NewSchemaWithIdentifiers(rows.Iceberg.ID, ids, fields...), nil
}

// paneRows is a pane's changes collapsed to one per key.
type paneRows struct {
	runs []*changeRun // the pane's chunks in the order they were encoded
	wins []winner     // one per key the pane changes, sorted by key
	rows int64        // rows received
	sent sentTimes    // when its chunks were sent
	// truncate is the Order value of the pane's last truncate, noTruncate
	// without one: the pane's changes at or below it are dropped, and the
	// table's rows go in its commit.
	truncate int64
}

// noTruncate is paneRows.truncate and changeRun.truncate without a truncate.
const noTruncate = math.MinInt64

// winner is the change that wins for a key in a pane: row of runs[batch].
type winner struct {
	key        rowKey
	batch, row int32
	order      int64
	op         rowOp
}

func (p *paneRows) release() {
	for _, r := range p.runs {
		r.rec.Release()
	}
	p.runs = nil
}

// gatherChunks is a pane's chunks in the order they were encoded (send
// time, then id, so that ties of the clock do not depend on the order the
// runner delivers them in).
func gatherChunks(chunks iter.Seq2[*chunk, error]) ([]*chunk, error) {
	var all []*chunk
	for c, err := range chunks {
		if err != nil {
			return nil, err
		}
		all = append(all, c)
	}
	slices.SortStableFunc(all, func(a, b *chunk) int {
		return cmp.Or(cmp.Compare(a.SentMS, b.SentMS), bytes.Compare(a.ID[:], b.ID[:]))
	})
	return all, nil
}

// collapse decodes a pane's chunks (gatherChunks' order), reading those
// that were staged from tbl's storage, on every core, and merges their
// sorted runs (runs.go) into the change that wins for each key: the
// highest Order value, then the one encoded last.
//
// It takes the chunks s.collapseBytes at a time and, between those groups,
// keeps only the rows that still win (foldRuns), so a pane's commit holds
// the pane's winners and one group's changes, not the whole pane: a pane
// of 100 M changes to a million keys held 10 GB, and the page faults that
// first touched that memory were a third of a flat-out cdc run's CPU.
// Ties stay as they were: the kept rows came from earlier chunks than
// the next group's.
func (s *sink) collapse(ctx context.Context, dest string, tbl *table.Table, all []*chunk, keys []string) (*paneRows, error) {
	var fsys iceio.IO
	for _, c := range all {
		if c.staged != "" {
			var err error
			if fsys, err = tbl.FS(ctx); err != nil {
				return nil, fmt.Errorf("icebergio: table %s: reading staged chunks: %w", dest, err)
			}
			break
		}
	}
	p := &paneRows{truncate: noTruncate}
	for len(all) > 0 {
		n, size := 0, int64(0)
		for n < len(all) && (n == 0 || size < s.collapseBytes) {
			size += all[n].stagedSize + int64(len(all[n].ipc)+len(all[n].parquet))
			n++
		}
		group := all[:n]
		all = all[n:]
		runs, err := s.decodeRuns(ctx, fsys, group, keys)
		for _, c := range group {
			p.sent.add(c.sent())
			p.rows += c.Rows
		}
		p.runs = append(p.runs, runs...)
		for _, r := range runs {
			// Before foldRuns: a run left without rows still truncates.
			p.truncate = max(p.truncate, r.truncate)
		}
		if err != nil {
			p.release()
			return nil, fmt.Errorf("icebergio: table %s: %w", dest, err)
		}
		p.wins = mergeRuns(p.runs)
		if len(all) > 0 {
			if err := p.foldRuns(ctx); err != nil {
				p.release()
				return nil, fmt.Errorf("icebergio: table %s: %w", dest, err)
			}
		}
	}
	return p, nil
}

// defaultCollapseBytes is about how much of a pane's chunks, as sent,
// collapse decodes at once: some 10 M changes of a narrow table.
const defaultCollapseBytes = 512 << 20

// decodeRuns decodes chunks on every core: the runs of those it decoded,
// in their order, and the errors of the others.
func (s *sink) decodeRuns(ctx context.Context, fsys iceio.IO, chunks []*chunk, keys []string) ([]*changeRun, error) {
	runs := make([]*changeRun, len(chunks))
	errs := make([]error, len(chunks))
	onEveryCore(len(chunks), func(i int) {
		c := chunks[i]
		var held arrow.RecordBatch
		if c.staged != "" {
			if held = heldRuns.take(c.staged); held == nil {
				if errs[i] = readStaged(fsys, c); errs[i] != nil {
					return
				}
			}
		}
		runs[i], errs[i] = decodeRun(ctx, c, held, keys, s.cfg.Op, s.cfg.Order)
		c.ipc = nil // decoded: what the run needs, it references
	})
	return slices.DeleteFunc(runs, func(r *changeRun) bool { return r == nil }), errors.Join(errs...)
}

// foldRuns keeps, of each run, only its rows that p.wins names, dropping
// runs left empty, so that the runs hold one row per key the pane has
// changed so far.
func (p *paneRows) foldRuns(ctx context.Context) error {
	rows := make([][]int32, len(p.runs))
	for _, w := range p.wins { // by key, so each run's rows come in order
		rows[w.batch] = append(rows[w.batch], w.row)
	}
	kept := make([]*changeRun, len(p.runs))
	errs := make([]error, len(p.runs))
	onEveryCore(len(p.runs), func(i int) {
		kept[i], errs[i] = p.runs[i].keep(ctx, rows[i])
	})
	if err := errors.Join(errs...); err != nil {
		for i, k := range kept {
			if k != nil && k != p.runs[i] {
				k.rec.Release()
			}
		}
		return err
	}
	for i, r := range p.runs {
		if kept[i] != r {
			r.rec.Release()
		}
	}
	p.runs = slices.DeleteFunc(kept, func(r *changeRun) bool { return r == nil })
	p.wins = nil
	return nil
}

// onEveryCore calls f for 0 <= i < n, on as many goroutines as there are
// cores, and returns when all calls have.
func onEveryCore(n int, f func(i int)) {
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			for i := range jobs {
				f(i)
			}
		})
	}
	for i := range n {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
}

// rowColumns are the columns of a batch that row-level writes read.
type rowColumns struct {
	keys   []arrow.Array
	names  []string
	op     *array.String
	opName string
	order  []int64 // nil without an Order column
}

// opOf is row r's operation: an upsert when the rows have no Op column.
func (c *rowColumns) opOf(r int) (rowOp, error) {
	if c.op == nil {
		return opUpsert, nil
	}
	op, ok := parseOp(c.op.Value(r))
	if !ok {
		return 0, fmt.Errorf("row with key %s: unknown operation %q in %s (want c, r, u, d or t, or insert, update, delete or truncate)", c.keyString(r), c.op.Value(r), c.opName)
	}
	return op, nil
}

func rowLevelColumns(rec arrow.RecordBatch, keys []string, opName, orderName string) (*rowColumns, error) {
	col := func(name string) (arrow.Array, error) {
		idx := rec.Schema().FieldIndices(name)
		if len(idx) == 0 {
			return nil, fmt.Errorf("the rows have no column %s", name)
		}
		return rec.Column(idx[0]), nil
	}
	c := &rowColumns{names: keys}
	for _, k := range keys {
		a, err := col(k)
		if err != nil {
			return nil, err
		}
		c.keys = append(c.keys, a)
	}
	if opName != "" {
		a, err := col(opName)
		if err != nil {
			return nil, err
		}
		s, ok := a.(*array.String)
		if !ok {
			return nil, fmt.Errorf("operation column %s is %s, not a string", opName, a.DataType())
		}
		c.op, c.opName = s, opName
	}
	if orderName != "" {
		a, err := col(orderName)
		if err != nil {
			return nil, err
		}
		if c.order, err = int64Values(a); err != nil {
			return nil, fmt.Errorf("order column %s: %w", orderName, err)
		}
	}
	return c, nil
}

// int64Values is an integer column's values as int64s: a's own for an
// int64 column (read per change, a closure per value cost a tenth of the
// encode step), a copy for narrower ones.
func int64Values(a arrow.Array) ([]int64, error) {
	switch a := a.(type) {
	case *array.Int64:
		return a.Int64Values(), nil
	case *array.Int32:
		return widen(a.Int32Values()), nil
	case *array.Int16:
		return widen(a.Int16Values()), nil
	case *array.Int8:
		return widen(a.Int8Values()), nil
	case *array.Uint32:
		return widen(a.Uint32Values()), nil
	case *array.Timestamp:
		return widen(a.TimestampValues()), nil
	}
	return nil, fmt.Errorf("type %s is not an integer", a.DataType())
}

func widen[T ~int8 | ~int16 | ~int32 | ~uint32 | ~int64](v []T) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}

// appendKey appends row r's key to dst: each column's value in a form that
// is unique and compares equal only for equal values.
func (c *rowColumns) appendKey(dst []byte, r int) ([]byte, error) {
	return appendKeyOf(dst, c.keys, c.names, r)
}

func appendKeyOf(dst []byte, keys []arrow.Array, names []string, r int) ([]byte, error) {
	for i, a := range keys {
		if a.IsNull(r) {
			return dst, fmt.Errorf("a row has no value in key column %s", names[i])
		}
		switch a := a.(type) {
		case *array.Int64:
			dst = binary.BigEndian.AppendUint64(dst, uint64(a.Value(r)))
		case *array.Int32:
			// As a long: a key column promoted from int to long keeps
			// its keys.
			dst = binary.BigEndian.AppendUint64(dst, uint64(int64(a.Value(r))))
		case *array.Date32:
			dst = binary.BigEndian.AppendUint32(dst, uint32(a.Value(r)))
		case *array.Timestamp:
			dst = binary.BigEndian.AppendUint64(dst, uint64(a.Value(r)))
		case *array.Boolean:
			if a.Value(r) {
				dst = append(dst, 1)
			} else {
				dst = append(dst, 0)
			}
		case *array.String:
			v := a.Value(r)
			dst = binary.AppendUvarint(dst, uint64(len(v)))
			dst = append(dst, v...)
		case *array.LargeString:
			v := a.Value(r)
			dst = binary.AppendUvarint(dst, uint64(len(v)))
			dst = append(dst, v...)
		case *array.Binary:
			v := a.Value(r)
			dst = binary.AppendUvarint(dst, uint64(len(v)))
			dst = append(dst, v...)
		case *array.Time64:
			dst = binary.BigEndian.AppendUint64(dst, uint64(a.Value(r)))
		case *array.Decimal128, *array.Decimal64, *array.Decimal32:
			// The unscaled value as 16 bytes, whatever width holds it:
			// a column's scale is fixed, and a precision widened later
			// (or read back from a file as another width) keeps its keys.
			hi, lo := decimalWords(a, r)
			dst = binary.BigEndian.AppendUint64(dst, uint64(hi))
			dst = binary.BigEndian.AppendUint64(dst, lo)
		case *array.FixedSizeBinary:
			// Fixed width for the column: no length needed to keep the
			// encoding prefix-free.
			dst = append(dst, a.Value(r)...)
		case array.ExtensionArray:
			// A uuid is its 16 bytes, as incoming rows carry it (arrow.uuid)
			// and as a data file may read back (fixed_size_binary[16]
			// when the reader does not know the extension).
			st, ok := a.Storage().(*array.FixedSizeBinary)
			if !ok || a.ExtensionType().ExtensionName() != "arrow.uuid" {
				return dst, fmt.Errorf("key column %s has type %s; keys may be integers, decimals, dates, times, timestamps, booleans, strings, uuids, binary or fixed", names[i], a.DataType())
			}
			dst = append(dst, st.Value(r)...)
		default:
			return dst, fmt.Errorf("key column %s has type %s; keys may be integers, decimals, dates, times, timestamps, booleans, strings, uuids, binary or fixed", names[i], a.DataType())
		}
	}
	return dst, nil
}

// decimalWords is row r of a decimal array as a 128-bit two's complement
// unscaled value.
func decimalWords(a arrow.Array, r int) (hi int64, lo uint64) {
	switch a := a.(type) {
	case *array.Decimal128:
		v := a.Value(r)
		return v.HighBits(), v.LowBits()
	case *array.Decimal64:
		v := int64(a.Value(r))
		return v >> 63, uint64(v)
	case *array.Decimal32:
		v := int64(a.Value(r))
		return v >> 63, uint64(v)
	}
	panic(fmt.Sprintf("decimalWords: %s is not a decimal", a.DataType()))
}

// keyString is row r's key for messages.
func (c *rowColumns) keyString(r int) string {
	parts := make([]string, len(c.keys))
	for i, a := range c.keys {
		parts[i] = c.names[i] + "=" + a.ValueStr(r)
	}
	return strings.Join(parts, ",")
}

// keyColumns are the key columns of tbl for row-level writes: Config.Key,
// else the table's identifier fields.
func (s *sink) keyColumns(dest string, tbl *table.Table) ([]string, []int, error) {
	sc := tbl.Schema()
	names := s.cfg.Key
	if len(names) == 0 {
		for _, id := range sc.IdentifierFieldIDs {
			f, ok := sc.FindFieldByID(id)
			if !ok {
				return nil, nil, fmt.Errorf("icebergio: table %s: identifier field id %d is not in its schema", dest, id)
			}
			names = append(names, f.Name)
		}
	}
	if len(names) == 0 {
		return nil, nil, fmt.Errorf("icebergio: table %s has no identifier fields and Config.Key names no key columns: a %s write needs to know which rows are the same", dest, s.cfg.Mode)
	}
	ids := make([]int, len(names))
	for i, n := range names {
		f, ok := sc.FindFieldByName(n)
		if !ok {
			return nil, nil, fmt.Errorf("icebergio: table %s has no key column %s", dest, n)
		}
		ids[i] = f.ID
	}
	return names, ids, nil
}

// checkPartitioning refuses, for equality deletes, a partition spec whose
// source columns are not all key columns: an equality delete applies only
// within its partition, so a row that moved partition would stay live.
func checkPartitioning(dest string, tbl *table.Table, keyIDs []int) error {
	spec := tbl.Spec()
	var outside []string
	for _, f := range spec.Fields() {
		if !slices.Contains(keyIDs, f.SourceID()) {
			if c, ok := tbl.Schema().FindColumnName(f.SourceID()); ok {
				outside = append(outside, c)
			}
		}
	}
	if len(outside) > 0 {
		return fmt.Errorf("icebergio: table %s: format v2 upserts write equality deletes, which apply within a partition, and the table is partitioned by columns that are not key columns (%s): use a format v3 table (deletion vectors find the old row wherever it lives) or partition by key columns",
			dest, strings.Join(outside, ", "))
	}
	return nil
}

// commitRows commits a pane of row-level changes to dest once: see the top
// of this file.
func (s *sink) commitRows(ctx context.Context, dest string, chunks iter.Seq2[*chunk, error], summary func() iceberg.Properties) (CommitResult, error) {
	start := time.Now()
	all, err := gatherChunks(chunks)
	if err != nil {
		return CommitResult{Table: dest}, err
	}
	rc, res, err := s.prepareRows(ctx, start, dest, all, paneCommitID(s.cfg.WriterID, chunkIDs(all)), summary)
	if rc == nil || err != nil {
		return res, err
	}
	defer rc.release()
	defer lockTable(s.cfg.Catalog.URI + " " + dest)()
	done, err := commit.Commit(ctx, s.cat, rc.request())
	return rc.finish(ctx, done, err)
}

// chunkIDs is the ids of chunks.
func chunkIDs(chunks []*chunk) []chunkID {
	ids := make([]chunkID, len(chunks))
	for i, c := range chunks {
		ids[i] = c.ID
	}
	return ids
}

// rowCommit is a pane of row-level changes to one table, collapsed and
// ready to commit under its commit id, alone (commitRows) or with other
// tables' (commitTogether); its state across the commit's attempts.
type rowCommit struct {
	s          *sink
	dest       string
	ident      table.Identifier
	start      time.Time
	deadline   time.Time
	res        CommitResult
	tbl        *table.Table // as loaded before collapsing
	keys       []string
	keyIDs     []int
	v3         bool
	all        []*chunk
	p          *paneRows
	props      iceberg.Properties
	collapseMS int64

	idx  *keyIndex
	w    *rowWrite
	plan *rowPlan
	// The last attempt's time writing data files, and writing its deletes
	// and manifests (stage), for the commit log.
	writeTime, stageTime time.Duration
	truncated            int // data files the last attempt's truncate removes
}

// prepareRows loads (or creates) dest, fits its schema to the rows and
// collapses the pane's chunks all under commitID. It returns no rowCommit
// when there is nothing to commit: res then says why (a replay skipped, an
// empty pane).
func (s *sink) prepareRows(ctx context.Context, start time.Time, dest string, all []*chunk, commitID string, summary func() iceberg.Properties) (*rowCommit, CommitResult, error) {
	deadline := start.Add(s.retryFor())
	res := CommitResult{Table: dest, CommitID: commitID}
	ident, err := parseIdent(dest)
	if err != nil {
		return nil, res, err
	}
	var tbl *table.Table
	var created bool
	if err := s.retry(ctx, deadline, dest, "loading the table", func() (err error) {
		tbl, created, err = s.loadOrCreate(ctx, dest)
		return err
	}); err != nil {
		return nil, res, err
	}
	if !created {
		// Columns the source added since the table was made.
		if tbl, err = s.fitSchema(ctx, deadline, dest, tbl); err != nil {
			return nil, res, err
		}
	}
	keys, keyIDs, err := s.keyColumns(dest, tbl)
	if err != nil {
		return nil, res, err
	}
	v3 := tbl.Metadata().Version() >= 3
	if !v3 {
		if err := checkPartitioning(dest, tbl, keyIDs); err != nil {
			return nil, res, err
		}
	}
	if slices.ContainsFunc(all, func(c *chunk) bool { return c.staged != "" }) {
		// A replay of a pane that landed: its staged chunks may be gone.
		if id, ok := s.landed(tbl, commitID); ok {
			removeStaged(ctx, tbl, all)
			return nil, skippedRows(ctx, res, id), nil
		}
	}
	p, err := s.collapse(ctx, dest, tbl, all, keys)
	if err != nil {
		return nil, res, err
	}
	if p.rows == 0 {
		p.release()
		return nil, res, nil
	}
	props := iceberg.Properties{}
	if summary != nil {
		props = summary()
	}
	return &rowCommit{s: s, dest: dest, ident: ident, start: start, deadline: deadline, res: res, tbl: tbl,
		keys: keys, keyIDs: keyIDs, v3: v3, all: all, p: p, props: props,
		collapseMS: time.Since(start).Milliseconds()}, res, nil
}

func (rc *rowCommit) release() { rc.p.release() }

// request is the commit of the pane, staged anew on each attempt. The
// caller holds the table's lock (lockTable) until the commit has finished.
func (rc *rowCommit) request() commit.Request {
	s, p, v3, keys, commitID := rc.s, rc.p, rc.v3, rc.keys, rc.res.CommitID
	rc.idx = s.keyIndex(rc.dest, rc.tbl, keys)
	w := &rowWrite{s: s, dest: rc.dest, pane: p, keys: keys, keyIDs: rc.keyIDs}
	rc.w = w
	req := s.paneRequest(rc.ident, rc.dest, commitID, rc.props, rc.deadline, func(ctx context.Context, tbl *table.Table, tx *table.Transaction) error {
		// The last attempt's deletion vectors were staged against
		// a base that has moved on.
		w.removeDVs(ctx, tbl)
		if v3 {
			if err := rc.idx.sync(ctx, tbl, keys, s.cfg.Order); err != nil {
				return err
			}
		}
		plan := w.plan(rc.idx, v3)
		rc.plan = plan
		began := time.Now()
		if err := w.writeRows(ctx, tbl, plan); err != nil {
			return err
		}
		rc.writeTime = time.Since(began)
		began = time.Now()
		defer func() { rc.stageTime = time.Since(began) }()
		paneProps := withPaneProps(rc.props, commitID, p.rows, plan, v3)
		rc.truncated = 0
		if plan.truncate {
			data, deletes, err := liveFiles(ctx, tbl)
			if err != nil {
				return fmt.Errorf("listing the files a truncate removes: %w", err)
			}
			if len(data)+len(deletes) > 0 {
				rc.truncated = len(data)
				// One snapshot on v2. On v3 iceberg-go numbers the rows
				// of new files only through a row delta: an overwrite,
				// then the row delta, in the one commit.
				var add []iceberg.DataFile
				if !v3 {
					add = w.data
				}
				if err := tx.ReplaceFiles(ctx, data, add, deletes, paneProps); err != nil {
					return fmt.Errorf("removing the table's files: %w", err)
				}
				if !v3 || len(w.data) == 0 {
					return s.stageRecent(tx, tbl, commitID, dataRows(w.data), rc.props)
				}
			}
		}
		rd := tx.NewRowDelta(paneProps)
		rd.AddRows(w.data...)
		if v3 {
			if err := w.writeDVs(ctx, tbl, rc.idx, plan); err != nil {
				return err
			}
			rd.AddDeletes(w.dvs...)
			rd.RemoveDeletes(w.replacedDVs...)
		} else if len(plan.deleteKeys) > 0 {
			eq, err := tx.WriteEqualityDeletes(ctx, rc.keyIDs, w.keyBatches(ctx, tbl, plan))
			if err != nil {
				return fmt.Errorf("writing equality deletes: %w", err)
			}
			w.eq = eq
			rd.AddDeletes(eq...)
		}
		if len(w.data) == 0 && len(w.dvs) == 0 && len(w.eq) == 0 {
			return commit.ErrNothingToCommit
		}
		if err := rd.Commit(ctx); err != nil {
			return err
		}
		return s.stageRecent(tx, tbl, commitID, dataRows(w.data), rc.props)
	})
	req.Discard = func(ctx context.Context, cur *table.Table) {
		if cur == nil {
			cur = rc.tbl
		}
		w.discard(ctx, cur)
	}
	return req
}

// finish completes the commit after done, err: the counters, the log, the
// key index kept up to date, compaction.
func (rc *rowCommit) finish(ctx context.Context, done commit.Result, err error) (CommitResult, error) {
	s, dest, res, idx, w, plan, v3 := rc.s, rc.dest, rc.res, rc.idx, rc.w, rc.plan, rc.v3
	if done.Nothing {
		err = commit.ErrNothingToCommit
	}
	if errors.Is(err, commit.ErrNothingToCommit) {
		// Every change was older than what the table holds, or a
		// truncate found it empty and nothing came after. The staged
		// chunks stay: a replay, finding no commit, would read them.
		w.discard(ctx, done.Table)
		if plan != nil && plan.truncate {
			if err := idx.truncate(plan.truncateAt, plan, v3); err != nil {
				idx.entries = nil
			}
		}
		return res, nil
	}
	if err != nil {
		idx.invalidate()
		return res, err
	}
	defer removeStaged(ctx, done.Table, rc.all)
	if done.Replayed {
		idx.invalidate()
		w.discard(ctx, done.Table)
		return skippedRows(ctx, res, done.SnapshotID), nil
	}
	res.SnapshotID = done.SnapshotID
	for _, f := range w.data {
		res.Files++
		res.Rows += f.Count()
		res.Bytes += f.FileSizeBytes()
	}
	res.DeletedRows = plan.deleted + plan.updated
	res.DeleteFiles = int64(len(w.dvs) + len(w.eq))
	ms := countCommit(ctx, rc.start, res)
	upsertedCounter.Inc(ctx, plan.upserted)
	updatedCounter.Inc(ctx, plan.updated)
	deletedCounter.Inc(ctx, plan.deleted)
	staleCounter.Inc(ctx, plan.stale)
	dvCounter.Inc(ctx, int64(len(w.dvs)))
	eqDeleteCounter.Inc(ctx, int64(len(w.eq)))
	log.Infof(ctx, "icebergio: committed table=%s commit=%s snapshot=%d files=%d rows=%d deleted=%d delete_files=%d changes=%d chunks=%d ms=%d collapse_ms=%d write_ms=%d stage_ms=%d wait_ms=%d",
		dest, res.CommitID, res.SnapshotID, res.Files, res.Rows, res.DeletedRows, res.DeleteFiles, rc.p.rows, len(rc.all), ms, rc.collapseMS,
		rc.writeTime.Milliseconds(), rc.stageTime.Milliseconds(), rc.start.Sub(rc.p.sent.last).Milliseconds())
	if plan.truncate {
		log.Infof(ctx, "icebergio: table %s commit %s truncated the table at order %d: removed its %d data files; %d changes before the truncate dropped",
			dest, res.CommitID, plan.truncateAt, rc.truncated, plan.cut)
		// No compaction: the table holds only the pane's new files.
		if err := idx.truncate(plan.truncateAt, plan, v3); err != nil {
			log.Warnf(ctx, "icebergio: table %s: the recent changes are forgotten: %v", dest, err)
			idx.entries = nil
			idx.invalidate()
		}
		return res, nil
	}
	if v3 {
		// After the pane's commit, which does not wait for it.
		if err := idx.applyCommit(ctx, done.Table, done.SnapshotID, plan, w); err != nil {
			log.Warnf(ctx, "icebergio: table %s: the key index will be rebuilt: %v", dest, err)
			idx.invalidate()
		} else {
			s.compact(ctx, dest, rc.ident, done.Table, idx, rc.keys, res.CommitID)
		}
	} else if err := idx.remember(plan.noRow, plan.replaced); err != nil {
		log.Warnf(ctx, "icebergio: table %s: the recent changes are forgotten: %v", dest, err)
		idx.entries = nil
	}
	return res, nil
}

// dataRows is the rows files hold.
func dataRows(files []iceberg.DataFile) int64 {
	var n int64
	for _, f := range files {
		n += f.Count()
	}
	return n
}

// liveFiles lists the data files and the delete files of tbl's current
// snapshot, from its manifests: an equality delete that applies to no
// data file any more is still the table's, and a truncate removes it too.
func liveFiles(ctx context.Context, tbl *table.Table) (data, deletes []iceberg.DataFile, err error) {
	snap := tbl.CurrentSnapshot()
	if snap == nil {
		return nil, nil, nil
	}
	fs, err := tbl.FS(ctx)
	if err != nil {
		return nil, nil, err
	}
	manifests, err := snap.Manifests(fs)
	if err != nil {
		return nil, nil, err
	}
	for _, m := range manifests {
		for e, err := range m.Entries(fs, true) {
			if err != nil {
				return nil, nil, fmt.Errorf("reading manifest %s: %w", m.FilePath(), err)
			}
			if df := e.DataFile(); df.ContentType() == iceberg.EntryContentData {
				data = append(data, df)
			} else {
				deletes = append(deletes, df)
			}
		}
	}
	return data, deletes, nil
}

// skippedRows reports a pane of changes that had already landed, as
// snapshot id.
func skippedRows(ctx context.Context, res CommitResult, id int64) CommitResult {
	skippedCounter.Inc(ctx, 1)
	log.Infof(ctx, "icebergio: table %s commit %s had already landed (snapshot %d): skipped", res.Table, res.CommitID, id)
	res.SnapshotID, res.Skipped = id, true
	return res
}

// Snapshot summary entries of row-level commits. ChangeRowsKey counts the
// rows the pane received, before they collapse to one change per key; the
// others count the changes that took effect. UpsertedRowsKey counts rows written; on a v3 table
// UpdatedRowsKey counts those that replaced a live row, and DeletedRowsKey
// live rows that a delete removed. On a v2 table, whose equality deletes
// do not tell whether a key had a row, DeletedRowsKey counts the keys
// deleted.
const (
	ChangeRowsKey   = "icebeam.change-rows"
	UpsertedRowsKey = "icebeam.upserted-rows"
	UpdatedRowsKey  = "icebeam.updated-rows"
	DeletedRowsKey  = "icebeam.deleted-rows"
	// TruncatedAtKey is the Order value of the truncate a pane's commit
	// applied: the commit removed every row the table held before.
	TruncatedAtKey = "icebeam.truncated-at"
)

func withPaneProps(props iceberg.Properties, commitID string, received int64, plan *rowPlan, v3 bool) iceberg.Properties {
	out := iceberg.Properties{CommitIDKey: commitID, ChangeRowsKey: strconv.FormatInt(received, 10), UpsertedRowsKey: strconv.FormatInt(plan.upserted, 10),
		DeletedRowsKey: strconv.FormatInt(plan.deleted, 10)}
	if v3 {
		out[UpdatedRowsKey] = strconv.FormatInt(plan.updated, 10)
	}
	if plan.truncate {
		out[TruncatedAtKey] = strconv.FormatInt(plan.truncateAt, 10)
	}
	for k, v := range props {
		out[k] = v
	}
	return out
}

// rowPlan is what a pane does to a table in one attempt.
type rowPlan struct {
	insert     []bool          // per batch row: written as a new row
	insertN    int64           // rows to write
	deletes    map[int][]int64 // v3: data file index -> positions of rows replaced or deleted
	replaced   []int           // the key index entries superseded: v3's rows replaced or deleted, and changes without a row; ascending
	noRow      []indexEntry    // with an Order column, the changes the index keeps without a row (v3: deletes; v2: all), sorted by key
	deleteKeys []*winner       // v2: keys to delete older rows of, in the order of their rows
	upserted   int64           // winners written
	updated    int64           // v3: of those, rows that replaced a live row
	deleted    int64           // v3: live rows a delete removed; v2: keys deleted
	stale      int64           // changes older than the table's row
	batchStart []int           // offset of each batch's rows in insert
	// truncate: the commit removes every data and delete file of the
	// table, at Order value truncateAt; the winners it writes are the
	// changes after the last truncate of the pane.
	truncate   bool
	truncateAt int64
	cut        int64 // changes at or below a truncate, dropped
}

// rowWrite is the state of one pane's commit across its attempts.
type rowWrite struct {
	s      *sink
	dest   string
	pane   *paneRows
	keys   []string
	keyIDs []int

	data        []iceberg.DataFile // the winners' rows, written once per insert set
	dataFor     string             // the fingerprint of the insert set data holds
	dataSorted  bool               // data was written under a sort order, which reorders rows
	dvs         []iceberg.DataFile // this attempt's deletion vectors
	replacedDVs []iceberg.DataFile // the DVs they replace
	eq          []iceberg.DataFile
}

// plan decides, against idx, which rows to write and which to delete. On
// a v2 table idx holds only the recent changes (see keyindex.go).
func (w *rowWrite) plan(idx *keyIndex, v3 bool) *rowPlan {
	p := &rowPlan{deletes: map[int][]int64{}}
	total := 0
	for _, r := range w.pane.runs {
		p.batchStart = append(p.batchStart, total)
		total += int(r.rec.NumRows())
	}
	p.insert = make([]bool, total)
	ordered := w.s.cfg.Order != ""
	// A truncate older than one this process committed (a pane landing
	// out of order, or formed again from replayed rows) truncates nothing
	// more: the rows the table holds came after it.
	if t := w.pane.truncate; t != noTruncate && !idx.dropped(t) {
		p.truncate, p.truncateAt = true, t
	}
	at := 0 // the wins are sorted by key, as idx is
	for i := range w.pane.wins {
		win := &w.pane.wins[i]
		if w.pane.truncate != noTruncate && win.order <= w.pane.truncate || ordered && idx.dropped(win.order) {
			p.cut++
			continue
		}
		if ordered || v3 {
			var found bool
			if at, found = idx.find(win.key, at); found {
				e := idx.entries[at]
				if ordered && e.order > win.order && !(p.truncate && e.live()) {
					p.stale++
					continue
				}
				p.replaced = append(p.replaced, at)
				if e.live() && !p.truncate {
					p.deletes[int(e.file)] = append(p.deletes[int(e.file)], int64(e.pos))
					if win.op == opUpsert {
						p.updated++
					} else {
						p.deleted++
					}
				}
			}
			if ordered && (!v3 || win.op == opDelete) {
				p.noRow = append(p.noRow, indexEntry{key: win.key, file: noRow, order: win.order})
			}
		}
		if !v3 && !p.truncate {
			p.deleteKeys = append(p.deleteKeys, win)
			if win.op == opDelete {
				p.deleted++
			}
		}
		if win.op == opUpsert {
			p.insert[p.batchStart[win.batch]+int(win.row)] = true
			p.insertN++
			p.upserted++
		}
	}
	// Deterministic files: v2's deletes in the order of their rows.
	slices.SortFunc(p.deleteKeys, func(a, b *winner) int {
		return cmp.Or(cmp.Compare(a.batch, b.batch), cmp.Compare(a.row, b.row))
	})
	return p
}

// fingerprint identifies the rows an insert set selects.
func (p *rowPlan) fingerprint() string {
	b := make([]byte, 0, len(p.insert)/8+1)
	var cur byte
	for i, in := range p.insert {
		if in {
			cur |= 1 << (i % 8)
		}
		if i%8 == 7 {
			b = append(b, cur)
			cur = 0
		}
	}
	return string(append(b, cur))
}

// writeRows writes the plan's new rows as data files, unless the files of
// an earlier attempt hold the same rows.
func (w *rowWrite) writeRows(ctx context.Context, tbl *table.Table, p *rowPlan) error {
	fp := p.fingerprint()
	if w.dataFor == fp && w.data != nil {
		return nil
	}
	w.s.removeFiles(ctx, tbl, w.data)
	w.data, w.dataFor = nil, ""
	w.dataSorted = tbl.Metadata().DefaultSortOrder() != table.UnsortedSortOrderID
	if p.insertN == 0 {
		w.dataFor = fp
		return nil
	}
	want, err := w.s.tableWriteSchema(tbl)
	if err != nil {
		return err
	}
	// The pane's rows are written by several writers at once, each a
	// contiguous range of runs to its own files, so the files hold the
	// rows in the order of p.insert as one writer would (keyIndex.written
	// counts on it). The data files are most of a large pane's commit.
	ranges := w.runRanges(p, runtime.GOMAXPROCS(0))
	files := make([][]iceberg.DataFile, len(ranges))
	errs := make([]error, len(ranges))
	var wg sync.WaitGroup
	for g, r := range ranges {
		wg.Go(func() {
			conv, arrowSchema, err := w.s.tableColumnsOf(ctx, tbl, want, w.newRows(ctx, p, r[0], r[1]))
			if err != nil {
				errs[g] = err
				return
			}
			for f, err := range table.WriteRecords(ctx, tbl, arrowSchema, conv, table.WithTargetFileSize(w.s.targetFileSize(tbl))) {
				if err != nil {
					errs[g] = err
					return
				}
				files[g] = append(files[g], f)
			}
		})
	}
	wg.Wait()
	w.data = slices.Concat(files...)
	if err := errors.Join(errs...); err != nil {
		w.s.removeFiles(ctx, tbl, w.data)
		w.data = nil
		return fmt.Errorf("writing data files: %w", err)
	}
	w.dataFor = fp
	return nil
}

// minWriterRows is the fewest new rows a pane gives each of its parallel
// data-file writers: below it a second file costs more than it saves.
const minWriterRows = 256 << 10

// runRanges splits the pane's runs into at most n contiguous ranges
// [from, to) of about equal rows to write.
func (w *rowWrite) runRanges(p *rowPlan, n int) [][2]int {
	runs := len(w.pane.runs)
	n = min(n, int(p.insertN/minWriterRows), runs)
	if n <= 1 {
		return [][2]int{{0, runs}}
	}
	var out [][2]int
	from, done := 0, int64(0)
	for i, run := range w.pane.runs {
		for _, in := range p.insert[p.batchStart[i] : p.batchStart[i]+int(run.rec.NumRows())] {
			if in {
				done++
			}
		}
		if done*int64(n) >= p.insertN*int64(len(out)+1) && len(out) < n-1 {
			out = append(out, [2]int{from, i + 1})
			from = i + 1
		}
	}
	if from < runs {
		out = append(out, [2]int{from, runs})
	}
	return out
}

// newRows are the plan's new rows of runs [from, to), run by run.
func (w *rowWrite) newRows(ctx context.Context, p *rowPlan, from, to int) iter.Seq2[arrow.RecordBatch, error] {
	return func(yield func(arrow.RecordBatch, error) bool) {
		for i := from; i < to; i++ {
			run := w.pane.runs[i]
			sel := p.insert[p.batchStart[i] : p.batchStart[i]+int(run.rec.NumRows())]
			out, err := selectRows(ctx, run.rec, sel, run.rowColumns())
			if err != nil {
				yield(nil, err)
				return
			}
			if out == nil {
				continue
			}
			if !yield(out, nil) {
				return
			}
		}
	}
}

// selectRows is rec's selected rows of its first cols columns; nil when
// none is selected.
func selectRows(ctx context.Context, rec arrow.RecordBatch, sel []bool, cols int) (arrow.RecordBatch, error) {
	n := 0
	for _, in := range sel {
		if in {
			n++
		}
	}
	if n == 0 {
		return nil, nil
	}
	proj := array.NewRecordBatch(arrow.NewSchema(rec.Schema().Fields()[:cols], nil), rec.Columns()[:cols], rec.NumRows())
	defer proj.Release()
	if n == len(sel) {
		proj.Retain()
		return proj, nil
	}
	mb := array.NewBooleanBuilder(memory.DefaultAllocator)
	defer mb.Release()
	mb.AppendValues(sel, nil)
	mask := mb.NewBooleanArray()
	defer mask.Release()
	return compute.FilterRecordBatch(ctx, proj, mask, compute.DefaultFilterOptions())
}

// writeDVs writes the plan's deletes as deletion vectors, one per data
// file, each holding also the positions of the DV it replaces.
func (w *rowWrite) writeDVs(ctx context.Context, tbl *table.Table, idx *keyIndex, p *rowPlan) error {
	w.dvs, w.replacedDVs = nil, nil
	if len(p.deletes) == 0 {
		return nil
	}
	wfs, err := writableFS(ctx, tbl)
	if err != nil {
		return err
	}
	meta := tbl.Metadata()
	dw := dv.NewDVWriter(wfs, func(id int32) *iceberg.PartitionSpec { return meta.PartitionSpecByID(int(id)) })
	files := slices.Sorted(func(yield func(int) bool) {
		for f := range p.deletes {
			if !yield(f) {
				return
			}
		}
	})
	for _, fi := range files {
		info := idx.files[fi]
		df := info.file
		if info.dv != nil {
			old, err := dv.ReadDV(wfs, info.dv)
			if err != nil {
				return fmt.Errorf("reading the deletion vector of %s: %w", df.FilePath(), err)
			}
			dw.Load(df.FilePath(), old, df.SpecID(), df.Partition())
			w.replacedDVs = append(w.replacedDVs, info.dv)
		}
		if err := dw.Add(df.FilePath(), p.deletes[fi], df.SpecID(), df.Partition()); err != nil {
			return err
		}
	}
	loc := strings.TrimSuffix(tbl.Location(), "/") + "/data/" + w.s.fileTag(ctx) + "-" + uuid.NewString() + "-dv.puffin"
	w.dvs, err = dw.Flush(ctx, loc)
	if err != nil {
		return fmt.Errorf("writing deletion vectors: %w", err)
	}
	return nil
}

// keyBatches are the key columns of every key the pane changes, for
// equality deletes.
func (w *rowWrite) keyBatches(ctx context.Context, tbl *table.Table, p *rowPlan) iter.Seq2[arrow.RecordBatch, error] {
	return func(yield func(arrow.RecordBatch, error) bool) {
		sel := make([][]bool, len(w.pane.runs))
		for i, r := range w.pane.runs {
			sel[i] = make([]bool, r.rec.NumRows())
		}
		for _, win := range p.deleteKeys {
			sel[win.batch][win.row] = true
		}
		want := tbl.Schema()
		for i, run := range w.pane.runs {
			rec := run.rec
			var cols []arrow.Array
			var fields []arrow.Field
			for _, k := range w.keys {
				j := rec.Schema().FieldIndices(k)[0]
				cols = append(cols, rec.Column(j))
				fields = append(fields, rec.Schema().Field(j))
			}
			keysOnly := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, rec.NumRows())
			out, err := selectRows(ctx, keysOnly, sel[i], len(cols))
			keysOnly.Release()
			if err != nil {
				yield(nil, err)
				return
			}
			if out == nil {
				continue
			}
			conv, err := toKeySchema(ctx, want, w.keyIDs, out)
			out.Release()
			if !yield(conv, err) || err != nil {
				return
			}
		}
	}
}

// toKeySchema converts a batch of key columns to the table's types.
func toKeySchema(ctx context.Context, sc *iceberg.Schema, keyIDs []int, rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	var fields []iceberg.NestedField
	for _, id := range keyIDs {
		f, _ := sc.FindFieldByID(id)
		fields = append(fields, f)
	}
	keySchema := iceberg.NewSchema(sc.ID, fields...)
	return table.ToRequestedSchema(ctx, keySchema, keySchema, rec, table.SchemaOptions{})
}

// removeDVs deletes the deletion vectors of the last attempt.
func (w *rowWrite) removeDVs(ctx context.Context, tbl *table.Table) {
	w.s.removeFiles(ctx, tbl, w.dvs)
	w.s.removeFiles(ctx, tbl, w.eq)
	w.dvs, w.replacedDVs, w.eq = nil, nil, nil
}

// discard deletes every file the pane's commit wrote.
func (w *rowWrite) discard(ctx context.Context, tbl *table.Table) {
	w.removeDVs(ctx, tbl)
	w.s.removeFiles(ctx, tbl, w.data)
	w.data, w.dataFor = nil, ""
}

// tableWriteSchema is the rows' schema without the Op field, as tbl's
// columns of the same names.
func (s *sink) tableWriteSchema(tbl *table.Table) (*iceberg.Schema, error) {
	var fields []iceberg.NestedField
	for _, f := range s.rows.Iceberg.Fields() {
		if f.Name != s.cfg.Op {
			fields = append(fields, f)
		}
	}
	return withTableIDs(iceberg.NewSchema(s.rows.Iceberg.ID, fields...), tbl.Schema())
}

// tableColumnsOf converts batches of rows (with rows' Arrow schema minus
// the Op field) into batches of tbl's schema.
func (s *sink) tableColumnsOf(ctx context.Context, tbl *table.Table, rows *iceberg.Schema, batches iter.Seq2[arrow.RecordBatch, error]) (iter.Seq2[arrow.RecordBatch, error], *arrow.Schema, error) {
	want := tbl.Schema()
	arrowSchema, err := table.SchemaToArrowSchema(want, nil, false, false)
	if err != nil {
		return nil, nil, err
	}
	opts := table.SchemaOptions{FormatVersion: tbl.Metadata().Version(), TableProperties: tbl.Properties()}
	return func(yield func(arrow.RecordBatch, error) bool) {
		for rec, err := range batches {
			if err != nil {
				yield(nil, err)
				return
			}
			out, err := table.ToRequestedSchema(ctx, want, rows, rec, opts)
			rec.Release()
			if err != nil {
				err = fmt.Errorf("converting rows to the table's columns: %w", err)
			}
			if !yield(out, err) || err != nil {
				return
			}
		}
	}, arrowSchema, nil
}
