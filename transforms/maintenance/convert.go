package maintenance

// Converting equality deletes into position deletes (format v2) or
// deletion vectors (v3), without changing a row: Flink's
// ConvertEqualityDeletes, for the equality deletes our sink's Upsert and
// Changes modes write on v2 tables (apache/iceberg#9363: every reader
// otherwise joins each older data file against all of them).

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	iceio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
	"github.com/apache/iceberg-go/table/dv"
	"github.com/google/uuid"

	"github.com/icebeam/icebeam/transforms/internal/commit"
)

// Snapshot summary entries of a conversion's snapshots (with RunIDKey).
const (
	ConvertedRowsKey     = "icebeam.convert.deleted-rows"
	ConvertedEqFilesKey  = "icebeam.convert.removed-equality-deletes"
	ConvertedDataFileKey = "icebeam.convert.data-files"
)

// ErrTableChanged marks a conversion not committed because another writer
// committed to the table after it was planned. Nothing was changed and its
// files were deleted; run it again.
var ErrTableChanged = errors.New("the table changed while converting equality deletes")

// ConvertReport says what ConvertEqualityDeletes did, or would do.
type ConvertReport struct {
	Planned    bool  // dry run: nothing written or committed
	Replayed   bool  // the run id had committed before: nothing done now
	DVs        bool  // format v3: deletion vectors rather than position delete files
	SnapshotID int64 // planned on; after a commit, the conversion's snapshot

	EqDeleteFiles      int   // live equality delete files before
	EqFilesRemoved     int   // of those, removed (or to remove)
	DataFiles          int   // data files equality deletes apply to
	DataFilesTouched   int   // data files given new position deletes / a DV
	DeleteFilesWritten int   // position delete files, or DVs (one per data file)
	DVsReplaced        int   // existing DVs merged into new ones and removed
	RowsDeleted        int64 // positions written (may include rows deleted before)
	// Skipped names data files that could not be converted, with why;
	// the equality delete files applying to them are kept.
	Skipped []string
}

// ConvertEqualityDeletes rewrites the equality deletes of the table's
// current snapshot as position deletes (format v2) or deletion vectors
// (v3, merged with the DV a data file has: at most one per data file),
// and removes the equality delete files, in one atomic catalog commit: the
// table reads the same rows before and after. With dryRun it only counts.
//
// Planning relies on iceberg-go's scan planning (table/scanner.go
// fileScanTaskForDataEntry, table/equality_delete_index.go forDataFile,
// checked in v0.7.0): each FileScanTask lists the equality delete files
// whose data sequence number is strictly greater than the data file's, of
// the data file's partition (same spec and partition tuple) or global
// (unpartitioned spec), minus those whose column bounds prove they cannot
// match; so a task's EqualityDeleteFiles are exactly those that apply to it.
//
// An equality delete file is removed only when every data file it applies
// to was converted (one that cannot be, such as a non-Parquet file, keeps
// the equality deletes that apply to it). The run id goes in the snapshot
// summary (RunIDKey): a retried run finds its commit and does not convert
// again. A commit by anyone else after planning aborts the conversion
// (ErrTableChanged: the positions were computed against the planned
// snapshot, and a concurrent rewrite or delete could make them wrong);
// nothing is committed and its files are deleted.
//
// iceberg-go 0.7 has no single operation that both adds position deletes
// and removes equality deletes (RowDelta only removes DVs; RewriteFiles
// refuses to rewrite equality deletes as position deletes), so the
// transaction holds two snapshots, committed together: a row delta adding
// the position deletes or DVs (and removing the DVs they replace), then a
// rewrite removing the equality delete files. The first reads the same
// rows as both (rows deleted twice), so no reader sees a difference.
func ConvertEqualityDeletes(ctx context.Context, cat icecatalog.Catalog, ident table.Identifier, runID string, dryRun bool) (*ConvertReport, error) {
	name := strings.Join(ident, ".")
	rep := &ConvertReport{Planned: dryRun}
	tbl, err := cat.LoadTable(ctx, ident)
	if err != nil {
		return rep, fmt.Errorf("converting the equality deletes of %s: loading the table: %w", name, err)
	}
	if snap := landed(tbl, runID); snap != nil {
		rep.Replayed, rep.SnapshotID = true, snap.SnapshotID
		return rep, nil
	}
	snap := tbl.CurrentSnapshot()
	if snap == nil {
		return rep, nil
	}
	rep.SnapshotID = snap.SnapshotID
	rep.DVs = tbl.Metadata().Version() >= 3
	fail := func(err error) (*ConvertReport, error) {
		return rep, fmt.Errorf("converting the equality deletes of %s: %w", name, err)
	}
	fs, err := tbl.FS(ctx)
	if err != nil {
		return fail(err)
	}
	liveEq, err := liveEqualityDeletes(fs, snap)
	if err != nil {
		return fail(err)
	}
	rep.EqDeleteFiles = len(liveEq)
	if len(liveEq) == 0 {
		return rep, nil
	}
	tasks, err := tbl.Scan(table.WithSnapshotID(snap.SnapshotID)).PlanFiles(ctx)
	if err != nil {
		return fail(fmt.Errorf("planning: %w", err))
	}

	c := &converter{tbl: tbl, fs: fs, schema: tbl.Schema(), eqSets: map[string]*eqSet{}}
	kept := map[string]bool{} // equality delete files that must stay
	var work []table.FileScanTask
	for _, t := range tasks {
		if len(t.EqualityDeleteFiles) == 0 {
			continue
		}
		rep.DataFiles++
		if why := c.unsupported(t); why != "" {
			rep.Skipped = append(rep.Skipped, t.File.FilePath()+": "+why)
			for _, eq := range t.EqualityDeleteFiles {
				kept[eq.FilePath()] = true
			}
			continue
		}
		work = append(work, t)
	}
	var remove []iceberg.DataFile
	for _, eq := range liveEq {
		if !kept[eq.FilePath()] {
			remove = append(remove, eq)
		}
	}
	rep.EqFilesRemoved = len(remove)
	if dryRun {
		rep.DataFilesTouched = len(work)
		return rep, nil
	}

	// The positions of each data file's rows its equality deletes match.
	type found struct {
		task table.FileScanTask
		pos  []int64
	}
	var hits []found
	for _, t := range work {
		pos, err := c.matches(ctx, t)
		if err != nil {
			return fail(err)
		}
		if len(pos) > 0 {
			hits = append(hits, found{t, pos})
			rep.RowsDeleted += int64(len(pos))
		}
	}
	if len(hits) == 0 && len(remove) == 0 {
		return rep, nil
	}

	var added, replaced []iceberg.DataFile
	discard := func(ctx context.Context) { removeDataFiles(ctx, tbl, added) }
	if rep.DVs {
		wfs, ok := fs.(iceio.WriteFileIO)
		if !ok {
			return fail(errors.New("the table's file IO cannot write files"))
		}
		meta := tbl.Metadata()
		dw := dv.NewDVWriter(wfs, func(id int32) *iceberg.PartitionSpec { return meta.PartitionSpecByID(int(id)) })
		for _, h := range hits {
			df := h.task.File
			// One DV per data file: the new one holds the old one's
			// positions too, and replaces it in the same commit.
			if len(h.task.DeletionVectorFiles) == 1 {
				old, err := dv.ReadDV(fs, h.task.DeletionVectorFiles[0])
				if err != nil {
					return fail(fmt.Errorf("reading the deletion vector of %s: %w", df.FilePath(), err))
				}
				dw.Load(df.FilePath(), old, df.SpecID(), df.Partition())
				replaced = append(replaced, h.task.DeletionVectorFiles[0])
			}
			if err := dw.Add(df.FilePath(), h.pos, df.SpecID(), df.Partition()); err != nil {
				return fail(fmt.Errorf("deletion vector of %s: %w", df.FilePath(), err))
			}
		}
		if len(hits) > 0 {
			loc, err := c.newLocation("dv.puffin", runID)
			if err != nil {
				return fail(err)
			}
			if added, err = dw.Flush(ctx, loc); err != nil {
				_ = wfs.Remove(loc) // if partly written
				return fail(fmt.Errorf("writing deletion vectors %s: %w", loc, err))
			}
		}
	} else {
		for _, h := range hits {
			df, err := c.writePositionDeletes(ctx, h.task.File, h.pos, runID)
			if err != nil {
				discard(ctx)
				return fail(err)
			}
			added = append(added, df)
		}
	}
	rep.DataFilesTouched = len(hits)
	rep.DeleteFilesWritten = len(added)
	rep.DVsReplaced = len(replaced)

	props := iceberg.Properties{
		RunIDKey:             runID,
		ConvertedRowsKey:     strconv.FormatInt(rep.RowsDeleted, 10),
		ConvertedEqFilesKey:  strconv.Itoa(len(remove)),
		ConvertedDataFileKey: strconv.Itoa(len(hits)),
	}
	planned := snap.SnapshotID
	var changed error
	done, err := commit.Commit(ctx, cat, commit.Request{
		Ident: ident,
		Name:  "converting the equality deletes of " + name,
		Base:  tbl,
		Lookup: func(tbl *table.Table) (int64, bool) {
			if snap := landed(tbl, runID); snap != nil {
				return snap.SnapshotID, true
			}
			return 0, false
		},
		Stage: func(ctx context.Context, tbl *table.Table, tx *table.Transaction, _ int) error {
			// The positions were found in the planned snapshot; any
			// commit since (a compaction, a delete, another DV) may
			// invalidate them. Re-run rather than reason about it.
			if cur := tbl.CurrentSnapshot(); cur == nil || cur.SnapshotID != planned {
				changed = fmt.Errorf("%w: planned on snapshot %d, the current one is %s; nothing was committed, run it again", ErrTableChanged, planned, snapshotName(cur))
				return changed
			}
			if len(added) > 0 {
				rd := tx.NewRowDelta(props)
				rd.AddDeletes(added...)
				rd.RemoveDeletes(replaced...)
				if err := rd.Commit(ctx); err != nil {
					return fmt.Errorf("staging the new deletes: %w", err)
				}
			}
			if len(remove) > 0 {
				rw := tx.NewRewrite(props)
				for _, eq := range remove {
					rw.DeleteFile(eq)
				}
				if err := rw.Commit(ctx); err != nil {
					return fmt.Errorf("staging the removal of the equality deletes: %w", err)
				}
			}
			return nil
		},
		Deadline:      time.Now().Add(commitRetryFor),
		Window:        commitRetryFor,
		Discard:       func(ctx context.Context, _ *table.Table) { discard(ctx) },
		BeforeAttempt: beforeConvertAttempt,
	})
	if err != nil {
		if changed != nil {
			return rep, fmt.Errorf("converting the equality deletes of %s: %w", name, changed)
		}
		return rep, err
	}
	if done.Replayed {
		// Landed before this call (another process with the same run
		// id): this call's files are not part of it.
		discard(ctx)
		rep.Replayed = true
	}
	rep.SnapshotID = done.SnapshotID
	return rep, nil
}

// beforeConvertAttempt, when set (by tests), runs before each commit
// attempt of a conversion: a concurrent writer's moment.
var beforeConvertAttempt func(ctx context.Context, attempt int)

func snapshotName(s *table.Snapshot) string {
	if s == nil {
		return "none"
	}
	return strconv.FormatInt(s.SnapshotID, 10)
}

// liveEqualityDeletes lists the equality delete files snap references.
func liveEqualityDeletes(fs iceio.IO, snap *table.Snapshot) ([]iceberg.DataFile, error) {
	ms, err := snap.Manifests(fs)
	if err != nil {
		return nil, err
	}
	var out []iceberg.DataFile
	seen := map[string]bool{}
	for _, m := range ms {
		if m.ManifestContent() != iceberg.ManifestContentDeletes {
			continue
		}
		for e, err := range m.Entries(fs, true) {
			if err != nil {
				return nil, fmt.Errorf("reading manifest %s: %w", m.FilePath(), err)
			}
			df := e.DataFile()
			if df.ContentType() == iceberg.EntryContentEqDeletes && !seen[df.FilePath()] {
				seen[df.FilePath()] = true
				out = append(out, df)
			}
		}
	}
	return out, nil
}

// converter reads equality delete sets and matches data files against
// them, for one table snapshot.
type converter struct {
	tbl    *table.Table
	fs     iceio.IO
	schema *iceberg.Schema
	eqSets map[string]*eqSet // by equality delete file path
}

// eqSet is the rows of one equality delete file, each encoded by keyOf
// over its equality field ids in the file's order.
type eqSet struct {
	ids  []int
	keys map[string]struct{}
}

// unsupported says why task's data file cannot be converted, or "".
func (c *converter) unsupported(t table.FileScanTask) string {
	if t.File.FileFormat() != iceberg.ParquetFile {
		return "not a Parquet file"
	}
	if c.tbl.Metadata().Version() >= 3 && len(t.DeleteFiles) > 0 {
		// A DV supersedes position delete files: the new DV would have
		// to carry their positions too. Rewrite the data file instead.
		return "has position delete files, which a deletion vector would have to absorb"
	}
	if len(t.DeletionVectorFiles) > 1 {
		return fmt.Sprintf("has %d deletion vectors (at most one is allowed)", len(t.DeletionVectorFiles))
	}
	for _, eq := range t.EqualityDeleteFiles {
		if eq.FileFormat() != iceberg.ParquetFile {
			return "equality delete file " + eq.FilePath() + " is not a Parquet file"
		}
		for _, id := range eq.EqualityFieldIDs() {
			f, ok := c.schema.FindFieldByID(id)
			if !ok {
				return fmt.Sprintf("equality delete file %s names field %d, not in the current schema", eq.FilePath(), id)
			}
			if _, ok := f.Type.(iceberg.PrimitiveType); !ok {
				return fmt.Sprintf("equality delete file %s names field %s, not a primitive", eq.FilePath(), f.Name)
			}
			if f.InitialDefault != nil {
				// Files written before the column existed read as the
				// default, not null: not worth the special case.
				return fmt.Sprintf("equality field %s has an initial default", f.Name)
			}
		}
	}
	return ""
}

// matches returns the positions, ascending, of the rows of t's data file
// that one of t's equality delete files matches. Positions already deleted
// (by position deletes or a DV) may be among them: deleting a row twice
// reads the same.
func (c *converter) matches(ctx context.Context, t table.FileScanTask) ([]int64, error) {
	var sets []*eqSet
	var ids []int // union of the equality fields, data file columns to read
	for _, eq := range t.EqualityDeleteFiles {
		s, err := c.eqSet(ctx, eq)
		if err != nil {
			return nil, err
		}
		if len(s.keys) == 0 {
			continue
		}
		sets = append(sets, s)
		for _, id := range s.ids {
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
	}
	if len(sets) == 0 {
		return nil, nil
	}
	var out []int64
	var key []byte
	var pos int64
	err := readColumns(ctx, c.fs, t.File.FilePath(), ids, func(cols map[int]arrow.Array, n int) error {
		for r := range n {
			for _, s := range sets {
				key = key[:0]
				for _, id := range s.ids {
					key = appendValue(key, cols[id], r)
				}
				if _, ok := s.keys[string(key)]; ok {
					out = append(out, pos+int64(r))
					break
				}
			}
		}
		pos += int64(n)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("matching data file %s: %w", t.File.FilePath(), err)
	}
	if pos != t.File.Count() {
		return nil, fmt.Errorf("data file %s: read %d rows, its metadata says %d", t.File.FilePath(), pos, t.File.Count())
	}
	return out, nil
}

// eqSet reads an equality delete file once.
func (c *converter) eqSet(ctx context.Context, eq iceberg.DataFile) (*eqSet, error) {
	if s, ok := c.eqSets[eq.FilePath()]; ok {
		return s, nil
	}
	s := &eqSet{ids: eq.EqualityFieldIDs(), keys: map[string]struct{}{}}
	var key []byte
	err := readColumns(ctx, c.fs, eq.FilePath(), s.ids, func(cols map[int]arrow.Array, n int) error {
		for r := range n {
			key = key[:0]
			for _, id := range s.ids {
				key = appendValue(key, cols[id], r)
			}
			s.keys[string(key)] = struct{}{}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading equality delete file %s: %w", eq.FilePath(), err)
	}
	c.eqSets[eq.FilePath()] = s
	return s, nil
}

// readColumns reads the top-level columns of a Parquet file with the given
// Iceberg field ids, batch by batch, in row order. Columns are matched by
// the field ids written in the file, never by name: a column renamed since
// keeps its id, and a column added since is missing from older files, whose
// rows then hold null in it (a nil array).
func readColumns(ctx context.Context, fs iceio.IO, path string, ids []int, each func(cols map[int]arrow.Array, n int) error) error {
	f, err := fs.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	pf, err := file.NewParquetReader(f)
	if err != nil {
		return err
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 64 << 10}, memory.DefaultAllocator)
	if err != nil {
		return err
	}
	byID := map[int]int{} // field id -> leaf column index
	anyID := false
	for _, sf := range fr.Manifest.Fields {
		if !sf.IsLeaf() {
			continue
		}
		if id := pf.MetaData().Schema.Column(sf.ColIndex).SchemaNode().FieldID(); id >= 0 {
			byID[int(id)] = sf.ColIndex
			anyID = true
		}
	}
	if !anyID {
		return errors.New("its columns carry no Iceberg field ids")
	}
	var leaves []int
	var want []int // ids present, in leaves' order
	for _, id := range ids {
		if col, ok := byID[id]; ok {
			leaves = append(leaves, col)
			want = append(want, id)
		}
	}
	if len(leaves) == 0 {
		// None of the columns exist in this file: every row is null in
		// all of them.
		n := pf.NumRows()
		return each(map[int]arrow.Array{}, int(n))
	}
	rr, err := fr.GetRecordReader(ctx, leaves, nil)
	if err != nil {
		return err
	}
	defer rr.Release()
	for rr.Next() {
		rec := rr.RecordBatch()
		cols := make(map[int]arrow.Array, len(want))
		for i, fld := range rec.Schema().Fields() {
			if v, ok := fld.Metadata.GetValue("PARQUET:field_id"); ok {
				if id, err := strconv.Atoi(v); err == nil && slices.Contains(want, id) {
					cols[id] = rec.Column(i)
				}
			}
		}
		if len(cols) != len(want) {
			return fmt.Errorf("read %d of the %d columns with field ids %v", len(cols), len(want), want)
		}
		if err := each(cols, int(rec.NumRows())); err != nil {
			return err
		}
	}
	if err := rr.Err(); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}

// appendValue appends row r of a (nil: a column the file lacks, all null)
// to key, encoded so that values equal in Iceberg encode the same across
// files written before and after a type promotion (int to long, float to
// double, decimal precision), and null equals null as equality deletes
// require.
func appendValue(key []byte, a arrow.Array, r int) []byte {
	if a == nil || a.IsNull(r) {
		return append(key, 0)
	}
	key = append(key, 1)
	num := func(tag byte, v uint64) []byte {
		key = append(key, tag)
		return binary.BigEndian.AppendUint64(key, v)
	}
	bytes := func(b []byte) []byte {
		key = append(key, 's')
		key = binary.BigEndian.AppendUint32(key, uint32(len(b)))
		return append(key, b...)
	}
	switch a := a.(type) {
	case *array.Int8:
		return num('i', uint64(int64(a.Value(r))))
	case *array.Int16:
		return num('i', uint64(int64(a.Value(r))))
	case *array.Int32:
		return num('i', uint64(int64(a.Value(r))))
	case *array.Int64:
		return num('i', uint64(a.Value(r)))
	case *array.Uint8:
		return num('i', uint64(a.Value(r)))
	case *array.Uint16:
		return num('i', uint64(a.Value(r)))
	case *array.Uint32:
		return num('i', uint64(a.Value(r)))
	case *array.Uint64:
		return num('i', a.Value(r))
	case *array.Date32:
		return num('i', uint64(int64(a.Value(r))))
	case *array.Time32:
		return num('i', uint64(int64(a.Value(r))))
	case *array.Time64:
		return num('i', uint64(int64(a.Value(r))))
	case *array.Timestamp:
		return num('i', uint64(int64(a.Value(r))))
	case *array.Float32:
		return num('f', math.Float64bits(float64(a.Value(r))))
	case *array.Float64:
		return num('f', math.Float64bits(a.Value(r)))
	case *array.Boolean:
		if a.Value(r) {
			return append(key, 'b', 1)
		}
		return append(key, 'b', 0)
	case *array.String:
		return bytes([]byte(a.Value(r)))
	case *array.LargeString:
		return bytes([]byte(a.Value(r)))
	case *array.StringView:
		return bytes([]byte(a.Value(r)))
	case *array.Binary:
		return bytes(a.Value(r))
	case *array.LargeBinary:
		return bytes(a.Value(r))
	case *array.BinaryView:
		return bytes(a.Value(r))
	case *array.FixedSizeBinary:
		return bytes(a.Value(r))
	case *array.Decimal128:
		v := a.Value(r)
		key = append(key, 'd')
		key = binary.BigEndian.AppendUint64(key, uint64(v.HighBits()))
		return binary.BigEndian.AppendUint64(key, v.LowBits())
	}
	s := a.ValueStr(r)
	key = append(key, 'v')
	key = binary.BigEndian.AppendUint32(key, uint32(len(s)))
	return append(key, s...)
}

// newLocation names a new delete file in the table's data location.
func (c *converter) newLocation(suffix, runID string) (string, error) {
	lp, err := c.tbl.LocationProvider()
	if err != nil {
		return "", err
	}
	return lp.NewDataLocation(fmt.Sprintf("convert-%s-%s-%s", shortID(runID), uuid.NewString(), suffix)), nil
}

func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// writePositionDeletes writes the positions of one data file as a
// position delete file of the spec's schema (file_path, pos; field ids
// 2147483546, 2147483545), sorted by position, in the data file's
// partition and spec, recording the data file it references so readers
// skip it for every other file. iceberg-go 0.7 writes position deletes
// only inside Transaction.Delete, so this writes the Parquet file itself.
func (c *converter) writePositionDeletes(ctx context.Context, df iceberg.DataFile, pos []int64, runID string) (iceberg.DataFile, error) {
	wfs, ok := c.fs.(iceio.WriteFileIO)
	if !ok {
		return nil, errors.New("the table's file IO cannot write files")
	}
	spec := c.tbl.Metadata().PartitionSpecByID(int(df.SpecID()))
	if spec == nil {
		return nil, fmt.Errorf("data file %s has unknown partition spec %d", df.FilePath(), df.SpecID())
	}
	loc, err := c.newLocation("deletes.parquet", runID)
	if err != nil {
		return nil, err
	}
	sc := table.PositionalDeleteArrowSchema
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	paths, positions := b.Field(0).(*array.StringBuilder), b.Field(1).(*array.Int64Builder)
	for _, p := range pos {
		paths.Append(df.FilePath())
		positions.Append(p)
	}
	rec := b.NewRecordBatch()
	defer rec.Release()

	out, err := wfs.Create(loc)
	if err != nil {
		return nil, fmt.Errorf("creating %s: %w", loc, err)
	}
	cw := &countingWriter{w: out}
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Zstd), parquet.WithStats(true))
	pw, err := pqarrow.NewFileWriter(sc, cw, props, pqarrow.NewArrowWriterProperties())
	if err == nil {
		err = pw.Write(rec)
		if cerr := pw.Close(); err == nil {
			err = cerr
		}
	} else {
		out.Close()
	}
	if err != nil {
		_ = wfs.Remove(loc)
		return nil, fmt.Errorf("writing position deletes %s for %s: %w", loc, df.FilePath(), err)
	}
	const pathID, posID = 2147483546, 2147483545
	lo := binary.LittleEndian.AppendUint64(nil, uint64(pos[0]))
	hi := binary.LittleEndian.AppendUint64(nil, uint64(pos[len(pos)-1]))
	bld, err := iceberg.NewDataFileBuilder(*spec, iceberg.EntryContentPosDeletes, loc, iceberg.ParquetFile, df.Partition(), nil, nil, int64(len(pos)), cw.n)
	if err != nil {
		_ = wfs.Remove(loc)
		return nil, fmt.Errorf("describing %s: %w", loc, err)
	}
	bld.ReferencedDataFile(df.FilePath()).
		ValueCounts(map[int]int64{pathID: int64(len(pos)), posID: int64(len(pos))}).
		NullValueCounts(map[int]int64{pathID: 0, posID: 0}).
		LowerBoundValues(map[int][]byte{pathID: []byte(df.FilePath()), posID: lo}).
		UpperBoundValues(map[int][]byte{pathID: []byte(df.FilePath()), posID: hi})
	return bld.Build(), nil
}

type countingWriter struct {
	w io.WriteCloser
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func (c *countingWriter) Close() error { return c.w.Close() }

// write prints the report as Summary.Write's convert_equality_deletes line.
func (r *ConvertReport) write(line func(action, format string, args ...any), w io.Writer) {
	const action = "convert_equality_deletes"
	kind := "position delete files"
	if r.DVs {
		kind = "deletion vectors"
	}
	switch {
	case r.Replayed:
		line(action, "run already committed as snapshot %d: nothing done", r.SnapshotID)
	case r.EqDeleteFiles == 0:
		line(action, "nothing to convert: no equality delete files")
	case r.Planned:
		line(action, "would convert %d of %d equality delete files applying to %d data files into %s",
			r.EqFilesRemoved, r.EqDeleteFiles, r.DataFilesTouched, kind)
	default:
		line(action, "%d of %d equality delete files removed; %d rows marked in %d data files by %d new %s (%d replaced), in snapshot %d",
			r.EqFilesRemoved, r.EqDeleteFiles, r.RowsDeleted, r.DataFilesTouched, r.DeleteFilesWritten, kind, r.DVsReplaced, r.SnapshotID)
	}
	for _, s := range r.Skipped {
		fmt.Fprintf(w, "      kept for %s\n", s)
	}
}
