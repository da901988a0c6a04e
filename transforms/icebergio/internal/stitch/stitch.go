// Package stitch turns a pane's chunks (small Parquet files of one table's
// rows, as the encode step wrote them) into the table's data files by
// copying their row groups, without decoding a page: one open file per
// partition, rolled at the target size, its footer rewritten with the
// table's field ids. It decides whether a table can take chunks so
// (LayoutFor) and re-encodes chunks too small to be row groups of their
// own through the encode step's Codec. It knows nothing of Beam, catalogs
// or commits.
package stitch

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"iter"
	"maps"
	"math"
	"path"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/iceberg-go"
	iceio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
	"github.com/google/uuid"
)

// A Parquet file is "PAR1", column chunks, the Thrift footer, the footer's
// length (4 bytes, little-endian) and "PAR1" again. Column chunks are
// addressed by absolute offsets in the footer, so row groups of several
// files concatenate into one file by copying their bytes and shifting
// those offsets: no page is decoded or re-encoded.
const parquetMagic = "PAR1"

// Chunks of fewer than MinRowGroupRows rows (a runner's bundles can hold a
// handful of rows) are decoded and re-encoded together, Config.RowGroupRows
// rows per row group, so that a pane of many small bundles does not make a file
// of thousands of tiny row groups, which readers pay for in footer size and
// per-row-group overhead. Re-encoding costs about 1 µs a row after the
// trigger, latency every commit pays, so a pane re-encodes at most
// maxReencodedRows rows (under a tenth of a second); chunks past that are
// copied as they are, and compaction merges their row groups later.
const (
	MinRowGroupRows  = 8192
	maxReencodedRows = 1 << 16
)

// Chunk is one chunk of a pane: a Parquet file of rows of one partition.
type Chunk struct {
	PartitionPath string      // e.g. "user_id_bucket=3"; "" when unpartitioned
	Partition     map[int]any // partition values by partition field id
	Parquet       []byte
	File          *file.Reader           // over Parquet, its footer parsed
	Meta          *metadata.FileMetaData // File's footer
}

// Codec decodes and encodes chunks as the encode step does, so that small
// chunks' rows are encoded again together.
type Codec interface {
	// Decode yields the rows of c.
	Decode(ctx context.Context, c *Chunk) iter.Seq2[arrow.RecordBatch, error]
	// Encode encodes the rows of one partition as chunks and releases
	// the batches.
	Encode(ctx context.Context, recs []arrow.RecordBatch) ([]*Chunk, error)
}

// Config says how a Stitcher writes a table's data files.
type Config struct {
	Layout *Layout
	Codec  Codec
	// TargetFileSize is where files roll over.
	TargetFileSize int64
	// RowGroupRows is how many rows of small chunks a re-encoded row
	// group gathers.
	RowGroupRows int64
	// ReencodeRows bounds the rows of small chunks a pane re-encodes
	// (default 1<<16).
	ReencodeRows int64
	// Tag starts the names of the files: <Tag><uuid>-<n>.parquet.
	Tag string
}

// Stitcher writes a pane's chunks into data files of tbl, one open file
// per partition, rolling at the target size.
type Stitcher struct {
	tbl    *table.Table
	cfg    Config
	fs     iceio.WriteFileIO
	loc    table.LocationProvider
	prefix string // file names: <prefix>-<n>.parquet

	open     map[string]*stitchedFile // by partition path
	pending  map[string]*pendingRows  // small chunks' rows, by partition path
	reencode int64                    // rows the pane may still re-encode
	closing  bool                     // Close is flushing the pending rows
	n        int
	files    []iceberg.DataFile
	paths    []string // every file created, for cleanup on failure
}

// pendingRows are rows of small chunks waiting to fill a row group.
type pendingRows struct {
	recs []arrow.RecordBatch
	rows int64
}

// New returns a Stitcher of tbl's data files.
func New(ctx context.Context, tbl *table.Table, cfg Config) (*Stitcher, error) {
	fsys, err := tbl.FS(ctx)
	if err != nil {
		return nil, err
	}
	wfs, ok := fsys.(iceio.WriteFileIO)
	if !ok {
		return nil, fmt.Errorf("the table's file IO (%T) cannot write", fsys)
	}
	loc, err := tbl.LocationProvider()
	if err != nil {
		return nil, err
	}
	if cfg.ReencodeRows <= 0 {
		cfg.ReencodeRows = maxReencodedRows
	}
	return &Stitcher{tbl: tbl, cfg: cfg, fs: wfs, loc: loc,
		prefix: cfg.Tag + uuid.NewString(), open: map[string]*stitchedFile{}, pending: map[string]*pendingRows{},
		reencode: cfg.ReencodeRows}, nil
}

// Add adds c's rows to the files of its partition.
func (s *Stitcher) Add(ctx context.Context, c *Chunk) error {
	if c.Meta.NumRows >= MinRowGroupRows || c.Meta.NumRows > s.reencode {
		return s.copy(ctx, c)
	}
	s.reencode -= c.Meta.NumRows
	p := s.pending[c.PartitionPath]
	if p == nil {
		p = &pendingRows{}
		s.pending[c.PartitionPath] = p
	}
	for rec, err := range s.cfg.Codec.Decode(ctx, c) {
		if err != nil {
			return err
		}
		p.recs = append(p.recs, rec)
		p.rows += rec.NumRows()
	}
	if p.rows >= s.cfg.RowGroupRows {
		return s.flushPending(ctx, c.PartitionPath)
	}
	return nil
}

// unencoded is the pending key of rows that came unencoded, of any
// partition: no partition path starts with a NUL.
const unencoded = "\x00rows"

// AddRows adds rows that were never encoded (a small bundle's, sent as they
// are), of any partition: they are encoded with Config.Codec, RowGroupRows
// at a time, whatever ReencodeRows allows, and the chunks of each partition
// that makes are added as chunks are.
func (s *Stitcher) AddRows(ctx context.Context, rec arrow.RecordBatch) error {
	p := s.pending[unencoded]
	if p == nil {
		p = &pendingRows{}
		s.pending[unencoded] = p
	}
	p.recs = append(p.recs, rec)
	p.rows += rec.NumRows()
	if p.rows >= s.cfg.RowGroupRows {
		return s.flushPending(ctx, unencoded)
	}
	return nil
}

// flushPending encodes a partition's pending rows as one chunk and copies it.
func (s *Stitcher) flushPending(ctx context.Context, partition string) error {
	p := s.pending[partition]
	delete(s.pending, partition)
	chunks, err := s.cfg.Codec.Encode(ctx, p.recs)
	if err != nil {
		return fmt.Errorf("re-encoding small chunks of partition %q: %w", partition, err)
	}
	for _, c := range chunks {
		if partition == unencoded && (s.pending[c.PartitionPath] != nil || !s.closing) {
			// Encoded for the first time: a small chunk of a partition
			// waits for more rows as other small chunks do, unless
			// nothing else is left to come.
			err = s.Add(ctx, c)
		} else {
			err = s.copy(ctx, c)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// copy appends c's row groups to its partition's open file.
func (s *Stitcher) copy(ctx context.Context, c *Chunk) error {
	f := s.open[c.PartitionPath]
	if f == nil {
		s.n++
		p := s.loc.NewDataLocation(path.Join(c.PartitionPath, fmt.Sprintf("%s-%05d.parquet", s.prefix, s.n)))
		w, err := s.fs.Create(p)
		if err != nil {
			return fmt.Errorf("creating data file %s: %w", p, err)
		}
		s.paths = append(s.paths, p)
		if _, err := w.Write([]byte(parquetMagic)); err != nil {
			w.Close()
			return fmt.Errorf("writing data file %s: %w", p, err)
		}
		f = &stitchedFile{path: p, w: w, off: int64(len(parquetMagic)), partition: c.Partition}
		s.open[c.PartitionPath] = f
	}
	if err := f.append(c); err != nil {
		return err
	}
	if f.off >= s.cfg.TargetFileSize {
		delete(s.open, c.PartitionPath)
		return s.finish(ctx, f)
	}
	return nil
}

// Close finishes every open file and returns the data files written.
func (s *Stitcher) Close(ctx context.Context) ([]iceberg.DataFile, error) {
	// Unencoded rows first (they sort first): their small chunks join
	// their partitions' pending rows, if any.
	// Flushing the unencoded rows adds to other partitions' pending rows
	// (later in the order) but, closing, starts none: one sorted pass
	// flushes all, and the loop is there should that ever change.
	s.closing = true
	for len(s.pending) > 0 {
		for _, k := range slices.Sorted(maps.Keys(s.pending)) {
			if s.pending[k] == nil {
				continue
			}
			if err := s.flushPending(ctx, k); err != nil {
				return nil, err
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(s.open)) {
		f := s.open[k]
		delete(s.open, k)
		if err := s.finish(ctx, f); err != nil {
			return nil, err
		}
	}
	return s.files, nil
}

// Abort closes open files and removes every file written: they were never
// committed. Removal is best effort; what remains is left to orphan cleanup.
func (s *Stitcher) Abort() {
	for _, p := range s.pending {
		for _, r := range p.recs {
			r.Release()
		}
	}
	for _, f := range s.open {
		f.w.Close()
	}
	for _, p := range s.paths {
		_ = s.fs.Remove(p)
	}
}

func (s *Stitcher) finish(ctx context.Context, f *stitchedFile) error {
	df, err := f.close(ctx, s.tbl, s.cfg.Layout)
	if err != nil {
		return fmt.Errorf("writing data file %s: %w", f.path, err)
	}
	s.files = append(s.files, df)
	return nil
}

// stitchedFile is a data file being assembled from chunks.
type stitchedFile struct {
	path      string
	w         iceio.FileWriter
	off       int64                  // bytes written
	meta      *metadata.FileMetaData // footer so far: the first chunk's, with later row groups appended
	partition map[int]any
}

func (f *stitchedFile) append(c *Chunk) error {
	end := int64(len(parquetMagic))
	for _, rg := range c.Meta.RowGroups {
		for _, cc := range rg.Columns {
			md := cc.MetaData
			start := md.DataPageOffset
			if d := md.DictionaryPageOffset; d != nil && *d > 0 && *d < start {
				start = *d
			}
			end = max(end, start+md.TotalCompressedSize)
		}
	}
	if end > int64(len(c.Parquet)) {
		return fmt.Errorf("chunk of partition %q: column chunks end at byte %d of %d", c.PartitionPath, end, len(c.Parquet))
	}
	if _, err := f.w.Write(c.Parquet[len(parquetMagic):end]); err != nil {
		return err
	}
	shift := f.off - int64(len(parquetMagic))
	f.off += end - int64(len(parquetMagic))
	for _, rg := range c.Meta.RowGroups {
		if rg.FileOffset != nil {
			*rg.FileOffset += shift
		}
		for _, cc := range rg.Columns {
			cc.FilePath = nil
			cc.FileOffset += shift
			md := cc.MetaData
			md.DataPageOffset += shift
			for _, p := range []*int64{md.DictionaryPageOffset, md.IndexPageOffset} {
				if p != nil && *p > 0 {
					*p += shift
				}
			}
			// Page indexes hold absolute page offsets of their own: they
			// are left behind, and readers do without them.
			cc.OffsetIndexOffset, cc.OffsetIndexLength = nil, nil
			cc.ColumnIndexOffset, cc.ColumnIndexLength = nil, nil
			// Bloom filters (write.parquet.bloom-filter-enabled.column.*)
			// are self-contained: they follow the column data.
			if err := f.copyBloomFilter(c, &md.BloomFilterOffset, &md.BloomFilterLength); err != nil {
				return err
			}
		}
	}
	if f.meta == nil {
		f.meta = c.Meta
	} else if err := f.meta.AppendRowGroups(c.Meta); err != nil {
		return fmt.Errorf("chunk of partition %q: %w", c.PartitionPath, err)
	}
	return nil
}

// copyBloomFilter appends the bloom filter found at *off in c (*n bytes)
// and points *off at the copy. A filter without both is dropped.
func (f *stitchedFile) copyBloomFilter(c *Chunk, off **int64, n **int32) error {
	if *off == nil || *n == nil || **off <= 0 || **off+int64(**n) > int64(len(c.Parquet)) {
		*off, *n = nil, nil
		return nil
	}
	if _, err := f.w.Write(c.Parquet[**off : **off+int64(**n)]); err != nil {
		return err
	}
	at := f.off
	*off = &at
	f.off += int64(**n)
	return nil
}

// close writes the footer, with the table's field ids, and describes the
// file as an Iceberg data file of tbl.
func (f *stitchedFile) close(ctx context.Context, tbl *table.Table, layout *Layout) (iceberg.DataFile, error) {
	m := f.meta.FileMetaData
	for i, rg := range m.RowGroups {
		if i <= math.MaxInt16 {
			ord := int16(i)
			rg.Ordinal = &ord
		} else {
			rg.Ordinal = nil
		}
	}
	if layout.remapped {
		for _, el := range m.Schema {
			if el.FieldID == nil {
				continue
			}
			id, ok := layout.ids[*el.FieldID]
			if !ok {
				return nil, fmt.Errorf("column %s: no field id %d in the table", el.Name, *el.FieldID)
			}
			el.FieldID = &id
		}
		// The stored Arrow schema repeats the old ids; readers derive the
		// same Arrow types from the Parquet schema.
		kvs := m.KeyValueMetadata[:0]
		for _, kv := range m.KeyValueMetadata {
			if kv.Key != "ARROW:schema" {
				kvs = append(kvs, kv)
			}
		}
		m.KeyValueMetadata = kvs
	}
	footer, err := f.meta.Serialize(ctx)
	if err != nil {
		return nil, err
	}
	var tail bytes.Buffer
	tail.Write(footer)
	tail.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(footer))))
	tail.WriteString(parquetMagic)
	if _, err := f.w.Write(tail.Bytes()); err != nil {
		f.w.Close()
		return nil, err
	}
	if err := f.w.Close(); err != nil {
		return nil, err
	}
	size := f.off + int64(tail.Len())
	meta, err := metadata.NewFileMetaData(footer, nil)
	if err != nil {
		return nil, err
	}
	return table.DataFileFromMetadata(table.DataFileArgs{
		Schema:          tbl.Schema(),
		Spec:            tbl.Spec(),
		Format:          iceberg.ParquetFile,
		Metadata:        meta,
		FilePath:        f.path,
		FileSize:        size,
		Content:         iceberg.EntryContentData,
		PartitionValues: f.partition,
		Properties:      tbl.Properties(),
		FormatVersion:   tbl.Metadata().Version(),
	})
}
