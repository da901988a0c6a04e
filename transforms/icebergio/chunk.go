package icebergio

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/iceberg-go"
	iceio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
	"github.com/google/uuid"

	"github.com/icebeam/icebeam/transforms/icebergio/internal/rowcodec"
	"github.com/icebeam/icebeam/transforms/internal/arrowipc"
)

// A chunk is one bundle's rows of one table and partition, encoded as a
// small Parquet file: the unit the encode step sends through the shuffle.
// Encoding in the bundle spreads the Parquet work over the window and makes
// the shuffled pane a fraction of its Arrow size (a pane of 20M generated
// clicks is under 1 MB, against about 400 MB of Arrow); at the trigger the
// committer only concatenates the pane's row groups into data files (see
// package stitch).
//
// On the wire: chunkMagic, the header's length (uvarint), the gob-encoded
// chunkHeader, then the Parquet file.
type chunk struct {
	chunkHeader
	parquet    []byte
	ipc        []byte                 // a row chunk's Arrow IPC stream instead: row-level changes (runs.go), a small bundle's rows (rowChunkRows)
	bare       bool                   // ipc is without its schema (arrowipc.Batches): a small bundle's rows
	staged     string                 // where ipc was staged (staging.go)
	stagedSize int64                  // and its length
	file       *file.Reader           // over parquet, its footer parsed
	meta       *metadata.FileMetaData // file's footer
	// columns is the Arrow schema (EncodeSchema) of the rows when they
	// are not the sink's: a WriteRecords batch with columns its schema
	// lacks, which the table takes by schema evolution (see
	// sink.columnsSink). nil for the sink's own columns.
	columns []byte
}

// chunkHeader is what the committer needs besides the Parquet bytes.
type chunkHeader struct {
	// ID is random, drawn when the chunk is encoded: a pane's commit id
	// is derived from its chunks' ids (see paneCommitID), so a replayed
	// pane is recognised by what it holds, and two panes of equal rows
	// are not mistaken for one another.
	ID            chunkID
	SentMS        int64            // wall clock when the encode step sent it, unix ms
	PartitionPath string           // e.g. "user_id_bucket=3"; "" when unpartitioned
	Partition     []partitionValue // transform results by partition field id
	// Row-level chunks (runs.go): the rows the encode step received, and
	// the key columns it sorted them by (nil: unsorted).
	Rows int64
	Keys []string
	// Columns is chunk.columns, for a Parquet chunk.
	Columns []byte
}

type chunkID [16]byte

type partitionValue struct {
	FieldID int
	Value   any
}

const chunkMagic = "IBC2"

func init() {
	// The Go types iceberg-go gives partition values of the column types
	// rows can have (package rowcodec).
	for _, v := range []any{iceberg.Date(0), iceberg.Time(0), iceberg.Timestamp(0), iceberg.TimestampNano(0)} {
		gob.Register(v)
	}
}

func (c *chunk) sent() time.Time { return time.UnixMilli(c.SentMS) }

func (c *chunk) partitionValues() map[int]any {
	if len(c.Partition) == 0 {
		return nil
	}
	m := make(map[int]any, len(c.Partition))
	for _, p := range c.Partition {
		m[p.FieldID] = p.Value
	}
	return m
}

func appendChunk(dst []byte, h chunkHeader, parquet []byte) ([]byte, error) {
	var hb bytes.Buffer
	if err := gob.NewEncoder(&hb).Encode(h); err != nil {
		return nil, fmt.Errorf("encoding chunk header (partition %q): %w", h.PartitionPath, err)
	}
	dst = append(dst, chunkMagic...)
	dst = binary.AppendUvarint(dst, uint64(hb.Len()))
	dst = append(dst, hb.Bytes()...)
	return append(dst, parquet...), nil
}

// How a row chunk's body is laid out, the byte after its header.
const (
	rowBodyIPC    = 0 // an Arrow IPC stream
	rowBodyBare   = 1 // an Arrow IPC stream without its schema (arrowipc.Batches)
	rowBodyStaged = 2 // the size (uvarint) and location of a file holding an Arrow IPC stream (staging.go)
	// rowBodyColumns is rowBodyBare for rows of other columns than the
	// sink's (chunk.columns): the length (uvarint) and bytes of their
	// Arrow schema, then the stream without it.
	rowBodyColumns = 3
)

// appendRowChunk is a row chunk: rowChunkMagic, then h's ID, SentMS, Rows
// and Keys in a few bytes rather than as gob, whose type descriptions
// (about 200 bytes) outweighed the few rows of a table a bundle sends when
// a stream is spread over many tables; then how the body is laid out (a
// rowBody constant), and the body.
func appendRowChunk(h chunkHeader, body byte, b []byte) []byte {
	dst := make([]byte, 0, len(rowChunkMagic)+len(h.ID)+32+len(b))
	dst = append(dst, rowChunkMagic...)
	dst = append(dst, h.ID[:]...)
	dst = binary.AppendVarint(dst, h.SentMS)
	dst = binary.AppendVarint(dst, h.Rows)
	dst = binary.AppendUvarint(dst, uint64(len(h.Keys)))
	for _, k := range h.Keys {
		dst = binary.AppendUvarint(dst, uint64(len(k)))
		dst = append(dst, k...)
	}
	dst = append(dst, body)
	return append(dst, b...)
}

// decodeRowChunk parses the rest of a row chunk after its magic.
func decodeRowChunk(b []byte) (*chunk, error) {
	truncated := errors.New("decoding a shuffled chunk of rows: truncated header")
	c := &chunk{}
	if len(b) < len(c.ID) {
		return nil, truncated
	}
	b = b[copy(c.ID[:], b):]
	varint := func() int64 {
		v, k := binary.Varint(b)
		if k <= 0 {
			b = nil
			return 0
		}
		b = b[k:]
		return v
	}
	c.SentMS, c.Rows = varint(), varint()
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return nil, truncated
	}
	b = b[k:]
	for range n {
		l, k := binary.Uvarint(b)
		if k <= 0 || uint64(len(b)-k) < l {
			return nil, truncated
		}
		c.Keys = append(c.Keys, string(b[k:k+int(l)]))
		b = b[k+int(l):]
	}
	if len(b) == 0 {
		return nil, truncated
	}
	switch b[0] {
	case rowBodyIPC:
		c.ipc = b[1:]
	case rowBodyBare:
		c.bare, c.ipc = true, b[1:]
	case rowBodyColumns:
		n, k := binary.Uvarint(b[1:])
		if k <= 0 || n > uint64(len(b)-1-k) {
			return nil, truncated
		}
		b = b[1+k:]
		c.bare, c.columns, c.ipc = true, b[:n], b[n:]
	case rowBodyStaged:
		n, k := binary.Uvarint(b[1:])
		if k <= 0 {
			return nil, truncated
		}
		c.stagedSize, c.staged = int64(n), string(b[1+k:])
	default:
		return nil, fmt.Errorf("decoding a shuffled chunk of rows: unknown body layout %d (a pipeline of another icebeam version?)", b[0])
	}
	return c, nil
}

// decodeChunk parses b (which the chunk keeps referencing).
func decodeChunk(b []byte) (*chunk, error) {
	if bytes.HasPrefix(b, []byte(rowChunkMagic)) {
		return decodeRowChunk(b[len(rowChunkMagic):])
	}
	if !bytes.HasPrefix(b, []byte(chunkMagic)) {
		return nil, fmt.Errorf("decoding a shuffled chunk: %d bytes without the %q or %q prefix (a pipeline of another icebeam version?)", len(b), chunkMagic, rowChunkMagic)
	}
	rest := b[len(chunkMagic):]
	n, k := binary.Uvarint(rest)
	if k <= 0 || uint64(len(rest)-k) < n {
		return nil, errors.New("decoding a shuffled chunk: truncated header")
	}
	c := &chunk{}
	if err := gob.NewDecoder(bytes.NewReader(rest[k : k+int(n)])).Decode(&c.chunkHeader); err != nil {
		return nil, fmt.Errorf("decoding a shuffled chunk's header: %w", err)
	}
	c.parquet = rest[k+int(n):]
	c.columns = c.Columns
	var err error
	if c.file, err = file.NewParquetReader(bytes.NewReader(c.parquet)); err != nil {
		return nil, fmt.Errorf("decoding a shuffled chunk (partition %q): %w", c.PartitionPath, err)
	}
	c.meta = c.file.MetaData()
	return c, nil
}

// decodeChunks yields the chunks next returns, one at a time, so a pane is
// never held in memory as a whole, and records their send times, and the
// source ranges sent beside them, in sent.
func decodeChunks(next func(*[]byte) bool, sent *sentTimes) iter.Seq2[*chunk, error] {
	return func(yield func(*chunk, error) bool) {
		var b []byte
		for next(&b) {
			if isRangesElement(b) {
				r, err := decodeRangesElement(b)
				if err != nil {
					yield(nil, err)
					return
				}
				sent.addRanges(r)
				continue
			}
			c, err := decodeChunk(b)
			if err != nil {
				yield(nil, err)
				return
			}
			sent.add(c.sent())
			if !yield(c, nil) {
				return
			}
		}
	}
}

// sentTimes is the range of send times of a pane's chunks, and the source
// ranges of their rows (EncodeRecordsFrom).
type sentTimes struct {
	first, last time.Time
	ranges      sourceRanges
}

func (s *sentTimes) addRanges(r sourceRanges) {
	if s.ranges == nil {
		s.ranges = sourceRanges{}
	}
	s.ranges.add(r)
}

func (s *sentTimes) add(t time.Time) {
	if s.first.IsZero() || t.Before(s.first) {
		s.first = t
	}
	if t.After(s.last) {
		s.last = t
	}
}

// chunkEncoder encodes record batches into chunks with iceberg-go's own
// writer, so partitioning, Parquet settings and field ids are the ones
// iceberg-go would use, against an in-memory table that has the row schema,
// the configured partition spec and table properties. Committers map its
// field ids onto the real table's by name.
type chunkEncoder struct {
	tbl    *table.Table
	fs     *memIO
	schema *arrow.Schema // the rows' Arrow schema, without field ids
	// columns is schema, encoded, when the rows are not the sink's own
	// (chunk.columns): the chunks carry it.
	columns []byte
	rows    *arrowipc.Batches // row chunks' batches, of schema
	cfg     Config
	stage   *stager  // row-level writes: stages large chunks
	out     [][]byte // emit's chunks, reused
	next    int      // the shard of the next chunk, round robin from a random start
}

// memLocation is the in-memory table's location; its data files are at
// memLocation/data/<partition path>/<name>.
const memLocation = "mem://icebeam"

// newChunkEncoder encodes rows as tables cfg creates are laid out: with
// spec, cfg's partition spec (derived once by the DoFn that encodes or
// commits), and cfg's table properties.
func newChunkEncoder(rows *rowcodec.Schema, spec iceberg.PartitionSpec, cfg Config) (*chunkEncoder, error) {
	props := cfg.tableProperties()
	meta, err := table.NewMetadata(rows.Iceberg, &spec, table.UnsortedSortOrder, memLocation, props)
	if err != nil {
		return nil, fmt.Errorf("icebergio: encoding table for %s: %w", rows.Iceberg, err)
	}
	m := &memIO{files: map[string][]byte{}}
	tbl := table.New(table.Identifier{"icebeam", "encode"}, meta, memLocation+"/metadata/00000.metadata.json",
		func(context.Context) (iceio.IO, error) { return m, nil }, nil)
	e := &chunkEncoder{tbl: tbl, fs: m, schema: rows.Arrow, rows: arrowipc.NewBatches(rows.Arrow), cfg: cfg, next: rand.IntN(max(cfg.Shards, 1))}
	if cfg.Mode.rowLevel() {
		created, err := cfg.tableSchema(rows)
		if err != nil {
			return nil, err
		}
		e.stage = newStager(cfg.Catalog, newTable{schema: created, spec: spec, props: props})
	}
	return e, nil
}

// newColumnsEncoder encodes rows of sc, columns other than the sink's
// (chunk.columns), as newChunkEncoder does the sink's.
func newColumnsEncoder(sc *arrow.Schema, cfg Config) (*chunkEncoder, error) {
	rows, err := rowcodec.FromArrow(sc)
	if err != nil {
		return nil, err
	}
	spec, err := partitionSpec(cfg.PartitionBy, rows.Iceberg)
	if err != nil {
		return nil, err
	}
	e, err := newChunkEncoder(rows, spec, cfg)
	if err != nil {
		return nil, err
	}
	if e.columns, err = EncodeSchema(sc); err != nil {
		return nil, err
	}
	return e, nil
}

// emit encodes batches as chunks of table dest and emits them keyed by
// dest, or with Shards by one of dest's shards in turn.
func (e *chunkEncoder) emit(ctx context.Context, dest string, batches iter.Seq2[arrow.RecordBatch, error], emit func(string, []byte)) error {
	var err error
	e.out, err = e.encode(ctx, dest, batches, time.Now(), e.out[:0])
	if err != nil {
		return fmt.Errorf("icebergio: table %s: encoding rows: %w", dest, err)
	}
	key := dest
	for _, b := range e.out {
		if e.cfg.Shards > 1 {
			key = shardKey(dest, e.next)
			e.next = (e.next + 1) % e.cfg.Shards
		}
		emit(key, b)
	}
	clear(e.out)
	return nil
}

// encode turns batches into chunks, one per partition (or, fewer than
// rowChunkRows rows, row chunks), appended to out.
// Rows of one call share a row group; a row-level write's batches are
// each one chunk of changes (runs.go). It releases the batches.
func (e *chunkEncoder) encode(ctx context.Context, dest string, batches iter.Seq2[arrow.RecordBatch, error], sent time.Time, out [][]byte) ([][]byte, error) {
	recs, rows, err := collectBatches(batches)
	if err != nil {
		return out, err
	}
	if e.cfg.Mode.rowLevel() {
		return e.encodeEachChanges(ctx, dest, recs, sent.UnixMilli(), out)
	}
	if rows < rowChunkRows {
		for _, rec := range recs {
			b, err := e.encodeRows(rec, sent.UnixMilli())
			if err != nil {
				return out, err
			}
			out = append(out, b)
		}
		return out, nil
	}
	return e.encodeParquet(ctx, recs, sent, out)
}

// encodeParquet is encode's Parquet chunks of recs, one per partition.
func (e *chunkEncoder) encodeParquet(ctx context.Context, recs []arrow.RecordBatch, sent time.Time, out [][]byte) ([][]byte, error) {
	for df, err := range table.WriteRecords(ctx, e.tbl, e.schema, batchSeq(recs...), table.WithMaxWriteWorkers(1)) {
		if err != nil {
			return out, err
		}
		h := chunkHeader{ID: chunkID(uuid.New()), SentMS: sent.UnixMilli(), PartitionPath: partitionPath(df.FilePath()), Columns: e.columns}
		for id, v := range df.Partition() {
			h.Partition = append(h.Partition, partitionValue{FieldID: id, Value: v})
		}
		b, err := appendChunk(nil, h, e.fs.take(df.FilePath()))
		if err != nil {
			return out, err
		}
		out = append(out, b)
	}
	return out, nil
}

// rowChunkRows: a bundle's rows of one table fewer than this travel as
// Arrow IPC (a row chunk), not Parquet. A Parquet file costs the encode step
// about half a millisecond whatever its size, and the committer re-encodes
// chunks this small anyway (see stitch.MinRowGroupRows): a stream spread
// over a thousand tables, a few rows a table a bundle, spent most of its
// CPU there. The committer encodes a pane's row chunks together
// (stitch.Stitcher.AddRows).
const rowChunkRows = 1024

// encodeRows is rec as a row chunk of an appending sink: its rows as they
// are, unpartitioned. It releases rec.
func (e *chunkEncoder) encodeRows(rec arrow.RecordBatch, sent int64) ([]byte, error) {
	defer rec.Release()
	b, err := e.rows.Encode(rec)
	if err != nil {
		return nil, err
	}
	h := chunkHeader{ID: chunkID(uuid.New()), SentMS: sent, Rows: rec.NumRows()}
	if e.columns != nil {
		body := binary.AppendUvarint(make([]byte, 0, 10+len(e.columns)+len(b)), uint64(len(e.columns)))
		body = append(append(body, e.columns...), b...)
		return appendRowChunk(h, rowBodyColumns, body), nil
	}
	return appendRowChunk(h, rowBodyBare, b), nil
}

// rowsOf decodes a row chunk's batch, of the row schema.
func (e *chunkEncoder) rowsOf(c *chunk) (arrow.RecordBatch, error) {
	if !c.bare {
		return nil, errors.New("a chunk of row-level changes where rows to append were expected (a pipeline of another version?)")
	}
	rec, err := e.rows.Decode(c.ipc)
	if err != nil {
		return nil, fmt.Errorf("decoding a chunk of rows (a pipeline of another version?): %w", err)
	}
	return rec, nil
}

// collectBatches is the batches of seq and their rows.
func collectBatches(seq iter.Seq2[arrow.RecordBatch, error]) ([]arrow.RecordBatch, int64, error) {
	var recs []arrow.RecordBatch
	var rows int64
	for rec, err := range seq {
		if err != nil {
			for _, r := range recs {
				r.Release()
			}
			return nil, 0, err
		}
		recs, rows = append(recs, rec), rows+rec.NumRows()
	}
	return recs, rows, nil
}

// batchSeq yields recs.
func batchSeq(recs ...arrow.RecordBatch) iter.Seq2[arrow.RecordBatch, error] {
	return func(yield func(arrow.RecordBatch, error) bool) {
		for i, r := range recs {
			if !yield(r, nil) {
				for _, r := range recs[i+1:] {
					r.Release()
				}
				return
			}
		}
	}
}

// decode yields the rows of chunks as record batches of the row schema.
func (e *chunkEncoder) decode(ctx context.Context, chunks iter.Seq2[*chunk, error]) iter.Seq2[arrow.RecordBatch, error] {
	return func(yield func(arrow.RecordBatch, error) bool) {
		for c, err := range chunks {
			if err != nil {
				yield(nil, err)
				return
			}
			if c.ipc != nil {
				rec, err := e.rowsOf(c)
				if !yield(rec, err) || err != nil {
					return
				}
				continue
			}
			// Batches as large as the chunk: the reader allocates whole
			// batches up front.
			batch := min(max(c.meta.NumRows, 1), maxBatchRows)
			fr, err := pqarrow.NewFileReader(c.file, pqarrow.ArrowReadProperties{BatchSize: batch}, memory.DefaultAllocator)
			if err == nil {
				err = e.yieldRecords(ctx, fr, yield)
			}
			if err == errStopped {
				return
			}
			if err != nil {
				yield(nil, fmt.Errorf("decoding a chunk of partition %q: %w", c.PartitionPath, err))
				return
			}
		}
	}
}

var errStopped = errors.New("stopped")

func (e *chunkEncoder) yieldRecords(ctx context.Context, fr *pqarrow.FileReader, yield func(arrow.RecordBatch, error) bool) error {
	rr, err := fr.GetRecordReader(ctx, nil, nil)
	if err != nil {
		return err
	}
	defer rr.Release()
	for rr.Next() {
		rec := rr.RecordBatch()
		// The same columns under the row schema, without the encode
		// table's field ids.
		if !yield(array.NewRecordBatch(e.schema, rec.Columns(), rec.NumRows()), nil) {
			return errStopped
		}
	}
	return rr.Err()
}

// partitionPath is the partition directory of a data file of the in-memory
// table.
func partitionPath(dataFile string) string {
	p := strings.TrimPrefix(dataFile, memLocation+"/data/")
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

// memIO is the in-memory table's file system: files written are held
// until taken.
type memIO struct {
	mu    sync.Mutex
	files map[string][]byte
}

func (m *memIO) take(name string) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	b := m.files[name]
	delete(m.files, name)
	return b
}

func (m *memIO) Open(name string) (iceio.File, error) {
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

func (m *memIO) Remove(name string) error { m.take(name); return nil }

func (m *memIO) WriteFile(name string, p []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.files[name] = bytes.Clone(p)
	return nil
}

func (m *memIO) Create(name string) (iceio.FileWriter, error) {
	return &memFile{io: m, name: name}, nil
}

type memFile struct {
	io   *memIO
	name string
	buf  bytes.Buffer
}

func (f *memFile) Write(p []byte) (int, error)         { return f.buf.Write(p) }
func (f *memFile) ReadFrom(r io.Reader) (int64, error) { return f.buf.ReadFrom(r) }

func (f *memFile) Close() error {
	f.io.mu.Lock()
	defer f.io.mu.Unlock()
	f.io.files[f.name] = f.buf.Bytes()
	return nil
}
