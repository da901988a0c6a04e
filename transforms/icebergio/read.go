package icebergio

import (
	"context"
	"fmt"
	"iter"
	"reflect"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/rtrackers/offsetrange"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/transforms/icebergio/internal/rowcodec"
	"github.com/icebeam/icebeam/transforms/internal/arrowipc"
	"github.com/icebeam/icebeam/transforms/internal/filecodec"
)

// ReadConfig configures Read.
type ReadConfig struct {
	Catalog catalog.Config
	// Table is "namespace.table".
	Table string
	// Columns are the columns to read; empty reads the column of every
	// field of the row struct. Struct fields outside Columns keep their
	// zero value.
	Columns []string
	// Filter selects rows; see ParseFilter for the grammar. It prunes
	// partitions and data files (from column statistics) when the scan is
	// planned and Parquet row groups when they are read; the rows that
	// remain are filtered exactly.
	Filter string
	// At most one of SnapshotID, Ref and AsOf picks what to read (time
	// travel); none reads the current snapshot of the main branch.
	// SnapshotID and AsOf (the snapshot that was current at that time) and
	// a tag Ref read with the schema of their snapshot; a branch Ref reads
	// its latest snapshot with the table's current schema, as Iceberg
	// prescribes.
	SnapshotID int64
	Ref        string
	AsOf       time.Time
}

func (c ReadConfig) check(rs *rowcodec.Schema) error {
	if _, err := parseIdent(c.Table); err != nil {
		return err
	}
	if _, err := ParseFilter(c.Filter); err != nil {
		return err
	}
	n := 0
	for _, set := range []bool{c.SnapshotID != 0, c.Ref != "", !c.AsOf.IsZero()} {
		if set {
			n++
		}
	}
	if n > 1 {
		return fmt.Errorf("icebergio: table %s: set at most one of SnapshotID, Ref and AsOf", c.Table)
	}
	if c.Catalog.Embedded() {
		return fmt.Errorf("icebergio: table %s: no catalog URI (set Catalog.URI or a preset such as catalog.PresetBigLake)", c.Table)
	}
	seen := map[string]bool{}
	for _, col := range c.Columns {
		if col == "" || seen[col] {
			return fmt.Errorf("icebergio: table %s: column %q is empty or listed twice", c.Table, col)
		}
		seen[col] = true
		if rs != nil && rs.Field(col) == nil {
			return fmt.Errorf("icebergio: table %s: column %q is selected but row type %v has no field tagged beam:%q", c.Table, col, rs.GoType, col)
		}
	}
	return nil
}

// Read reads an Iceberg table (at its current snapshot, or as cfg says)
// into rows of rowType, a struct (or pointer to one) with `beam` tags as for
// Write. It is a batch source: the scan is planned once, on a worker, by
// iceberg-go (partition, file-statistics pruning from cfg.Filter; delete
// files matched to data files), and each data file (or byte range of a large
// one) becomes an element whose restriction is the file's Parquet row
// groups, so runners can spread and split the reading. Only the selected
// columns are decoded; position, equality and deletion-vector deletes
// apply; files written under older schemas read as the current one (missing
// columns are null, promoted types widen). Rows are filled column by column.
//
// The row struct must fit the table: a field whose column the table lacks
// must be a pointer (it stays nil), a column must widen to its field's type,
// and a column holding nulls needs a pointer field. Violations fail at
// planning, naming table, column and types (CheckRead reports them at
// construction). Invalid configuration panics at construction. Register
// rowType with beam.RegisterType in an init function, as for Write: an
// unregistered struct reaches the next stage as an anonymous struct type.
func Read(s beam.Scope, cfg ReadConfig, rowType reflect.Type) beam.PCollection {
	s = s.Scope("icebergio.Read")
	rs, err := rowcodec.New(rowType)
	if err != nil {
		panic(err)
	}
	if err := cfg.check(rs); err != nil {
		panic(err)
	}
	tasks := beam.ParDo(s, &planReadFn{Cfg: cfg, RowType: beam.EncodedType{T: rowType}}, beam.Impulse(s))
	tasks = beam.Reshuffle(s, tasks)
	return beam.ParDo(s, &readFn{Cfg: cfg, RowType: beam.EncodedType{T: rowType}}, tasks,
		beam.TypeDefinition{Var: beam.XType, T: rowType})
}

// ReadRecords is Read for columnar consumers: it emits the table's rows as
// Arrow record batches, each serialized as an Arrow IPC stream ([]byte; see
// DecodeRecords), with cfg.Columns (empty: all columns) in the table's
// schema, as iceberg-go's scan returns them (deletes applied, evolved
// schemas read as the current one). Batches hold up to the table's
// read.parquet.batch-size rows. OriginOf says where each batch was read.
func ReadRecords(s beam.Scope, cfg ReadConfig) beam.PCollection {
	s = s.Scope("icebergio.ReadRecords")
	if err := cfg.check(nil); err != nil {
		panic(err)
	}
	bytesType := beam.EncodedType{T: reflect.TypeFor[[]byte]()}
	tasks := beam.ParDo(s, &planReadFn{Cfg: cfg, RowType: bytesType, Records: true}, beam.Impulse(s))
	tasks = beam.Reshuffle(s, tasks)
	return beam.ParDo(s, &readFn{Cfg: cfg, RowType: bytesType, Records: true}, tasks,
		beam.TypeDefinition{Var: beam.XType, T: reflect.TypeFor[[]byte]()})
}

// CheckRead connects to the catalog and reports what planning Read would
// fail on: a missing table, snapshot or ref, an invalid filter, or a row
// type that does not fit the table. A launcher calls it to fail before
// submitting a job.
func CheckRead(ctx context.Context, cfg ReadConfig, rowType reflect.Type) error {
	rs, err := rowcodec.New(rowType)
	if err != nil {
		return err
	}
	if err := cfg.check(rs); err != nil {
		return err
	}
	cat, err := catalog.Open(ctx, cfg.Catalog)
	if err != nil {
		return err
	}
	_, err = planRead(ctx, cat, cfg, rs)
	return err
}

// readTask is one element of a Read: a planned file scan task, its files
// encoded as manifest entries, and the byte ranges of its row groups.
type readTask struct {
	Table string
	// SnapshotID is the snapshot planned; SnapshotSchema says whether it is
	// read with its own schema (time travel) or the table's current one.
	SnapshotID     int64
	SnapshotSchema bool
	// Columns are the top-level columns selected.
	Columns []string
	// Task is the file scan task: its files, byte range and row lineage.
	filecodec.Task
	// Units are the byte offsets where the task's units of work (row
	// groups) start; unit i ends where unit i+1 starts, the last at
	// Start+Length. The first starts at Start.
	Units []int64
}

// encode is t as the bytes Read's shuffle carries. A task crosses the
// runner between planning and reading, and again between splitting and
// reading its restrictions: as a Beam schema row it is decoded by the Java
// runners, and Spark's could not decode it ("reached end of stream"); as
// bytes no runner looks inside.
func (t *readTask) encode() ([]byte, error) {
	b, err := filecodec.Marshal(t)
	if err != nil {
		return nil, fmt.Errorf("icebergio: encoding the read task of %s: %w", t.Table, err)
	}
	return b, nil
}

func decodeTask(b []byte) (readTask, error) {
	var t readTask
	if err := filecodec.Unmarshal(b, &t); err != nil {
		return t, fmt.Errorf("icebergio: decoding a read task: %w", err)
	}
	return t, nil
}

// mustDecodeTask is decodeTask for the restriction methods, which cannot
// return an error; the bytes are always what encode made.
func mustDecodeTask(b []byte) readTask {
	t, err := decodeTask(b)
	if err != nil {
		panic(err)
	}
	return t
}

func (t *readTask) units() int64 { return int64(len(t.Units)) }

// unitRange is the byte range of units [from, to).
func (t *readTask) unitRange(from, to int64) (start, length int64) {
	start = t.Units[from]
	end := t.Start + t.Length
	if to < t.units() {
		end = t.Units[to]
	}
	return start, end - start
}

func (t *readTask) hasDeletes() bool {
	return len(t.PosDeletes)+len(t.EqDeletes)+len(t.DVs) > 0
}

// readPlan is a planned Read.
type readPlan struct {
	snapshot *table.Snapshot // nil: the table has no snapshot
	schema   *iceberg.Schema // the schema rows are read with
	columns  []string
	tasks    []readTask
	files    int // distinct data files among the tasks
}

// scanOptions are the options of a Read's scan, without the snapshot.
func scanOptions(columns []string, filter iceberg.BooleanExpression) []table.ScanOption {
	return []table.ScanOption{table.WithSelectedFields(columns...), table.WithRowFilter(filter), table.WithCaseSensitive(true)}
}

// planRead plans cfg's scan: it resolves the snapshot, checks the row type
// and the filter against the schema it reads with, and plans the files.
func planRead(ctx context.Context, cat icecatalog.Catalog, cfg ReadConfig, rs *rowcodec.Schema) (*readPlan, error) {
	ident, err := parseIdent(cfg.Table)
	if err != nil {
		return nil, err
	}
	filter, err := ParseFilter(cfg.Filter)
	if err != nil {
		return nil, err
	}
	tbl, err := cat.LoadTable(ctx, ident)
	if err != nil {
		return nil, fmt.Errorf("icebergio: loading table %s: %w", cfg.Table, err)
	}
	meta := tbl.Metadata()
	p := &readPlan{schema: meta.CurrentSchema()}
	snapshotSchema := false
	switch {
	case cfg.SnapshotID != 0:
		if p.snapshot = meta.SnapshotByID(cfg.SnapshotID); p.snapshot == nil {
			return nil, fmt.Errorf("icebergio: table %s has no snapshot %d", cfg.Table, cfg.SnapshotID)
		}
		snapshotSchema = true
	case cfg.Ref != "":
		if p.snapshot = meta.SnapshotByName(cfg.Ref); p.snapshot == nil {
			var refs []string
			for name := range meta.Refs() {
				refs = append(refs, name)
			}
			return nil, fmt.Errorf("icebergio: table %s has no branch or tag %q (refs: %v)", cfg.Table, cfg.Ref, refs)
		}
		for name, ref := range meta.Refs() {
			if name == cfg.Ref && ref.SnapshotRefType == table.TagRef {
				snapshotSchema = true
			}
		}
	case !cfg.AsOf.IsZero():
		snap, err := tbl.Scan(table.WithSnapshotAsOf(cfg.AsOf.UnixMilli())).ResolveSnapshot()
		if err != nil || snap == nil {
			first := "none"
			if snaps := meta.Snapshots(); len(snaps) > 0 {
				first = time.UnixMilli(snaps[0].TimestampMs).UTC().Format(time.RFC3339Nano)
			}
			return nil, fmt.Errorf("icebergio: table %s had no snapshot at %s (its first: %s)", cfg.Table, cfg.AsOf.UTC().Format(time.RFC3339Nano), first)
		}
		p.snapshot = snap
		snapshotSchema = true
	default:
		p.snapshot = meta.CurrentSnapshot()
	}
	if snapshotSchema && p.snapshot.SchemaID != nil {
		for _, sc := range meta.Schemas() {
			if sc.ID == *p.snapshot.SchemaID {
				p.schema = sc
			}
		}
	}
	if rs == nil {
		// Arrow records: the columns asked for, else all.
		for _, c := range cfg.Columns {
			if _, ok := rowcodec.TopLevelColumn(p.schema, c); !ok {
				return nil, fmt.Errorf("icebergio: table %s has no column %q (columns: %s)", cfg.Table, c, rowcodec.ColumnNames(p.schema))
			}
		}
		p.columns = cfg.Columns
	} else if p.columns, err = rowcodec.ReadColumns(cfg.Table, rs, p.schema, cfg.Columns); err != nil {
		return nil, err
	}
	if rs != nil && len(p.columns) == 0 {
		// No field has a column: every row reads as nil fields, but the
		// rows must still be counted, so read the narrowest column.
		p.columns = []string{p.schema.Fields()[0].Name}
	}
	if _, err := iceberg.BindExpr(p.schema, filter, true); err != nil {
		return nil, fmt.Errorf("icebergio: table %s: filter %q: %w", cfg.Table, cfg.Filter, err)
	}
	if p.snapshot == nil {
		return p, nil // an empty table
	}
	scan := tbl.Scan(append(scanOptions(p.columns, filter), table.WithSnapshotID(p.snapshot.SnapshotID))...)
	if !snapshotSchema {
		// Planning with the snapshot id would bind the filter to the
		// snapshot's schema; a branch or the main branch reads with the
		// current one.
		scan = tbl.Scan(scanOptions(p.columns, filter)...)
		if cfg.Ref != "" {
			if scan, err = scan.UseRef(cfg.Ref); err != nil {
				return nil, fmt.Errorf("icebergio: table %s: ref %s: %w", cfg.Table, cfg.Ref, err)
			}
		}
	}
	defer scan.Close()
	planned, err := scan.PlanFiles(ctx)
	if err != nil {
		return nil, fmt.Errorf("icebergio: table %s: planning the scan of snapshot %d: %w", cfg.Table, p.snapshot.SnapshotID, err)
	}
	encSchema := meta.CurrentSchema()
	files := map[string]bool{}
	for _, ft := range planned {
		files[ft.File.FilePath()] = true
		t, err := newReadTask(meta, encSchema, ft)
		if err != nil {
			return nil, fmt.Errorf("icebergio: table %s: %w", cfg.Table, err)
		}
		t.Table = cfg.Table
		t.SnapshotID = p.snapshot.SnapshotID
		t.SnapshotSchema = snapshotSchema
		t.Columns = p.columns
		p.tasks = append(p.tasks, t)
	}
	p.files = len(files)
	return p, nil
}

func newReadTask(meta table.Metadata, sc *iceberg.Schema, ft table.FileScanTask) (readTask, error) {
	var t readTask
	if ft.Length == 0 {
		ft.Start, ft.Length = 0, ft.File.FileSizeBytes()
	}
	var err error
	if t.Task, err = filecodec.EncodeTask(meta, sc, ft); err != nil {
		return t, err
	}
	t.Units = rowGroupUnits(ft.File, t.Start, t.Length)
	return t, nil
}

// rowGroupUnits splits the byte range [start, start+length) of a data file
// at the row groups its manifest entry records (split offsets): the row
// groups whose offsets fall in the range, the first unit starting at start.
// The units cover the range whatever the offsets are, and iceberg-go reads
// the row groups whose offsets fall in a unit's range, so every row group
// of the range is read once. Without usable offsets the range is one unit.
func rowGroupUnits(f iceberg.DataFile, start, length int64) []int64 {
	end := start + length
	units := []int64{start}
	prev := int64(-1)
	if f.FileFormat() != iceberg.ParquetFile {
		return units
	}
	first := true
	for _, off := range f.SplitOffsets() {
		if off <= prev || off >= f.FileSizeBytes() {
			return []int64{start} // unusable offsets
		}
		prev = off
		if off < start || off >= end {
			continue
		}
		if first {
			first = false // the first row group of the range starts the first unit
			continue
		}
		units = append(units, off)
	}
	return units
}

// planReadFn plans a Read and emits its tasks.
type planReadFn struct {
	Cfg     ReadConfig
	RowType beam.EncodedType
	Records bool // plan ReadRecords: no row type

	rs    *rowcodec.Schema
	cat   icecatalog.Catalog
	files beam.Counter
}

// openRead derives the row schema (none for records) and opens the
// catalog, as each read DoFn does once in its Setup.
func openRead(ctx context.Context, cfg ReadConfig, rowType beam.EncodedType, records bool) (rs *rowcodec.Schema, cat icecatalog.Catalog, err error) {
	if !records {
		if rs, err = rowcodec.New(rowType.T); err != nil {
			return nil, nil, err
		}
	}
	cat, err = catalog.Open(ctx, cfg.Catalog)
	return rs, cat, err
}

func (f *planReadFn) Setup(ctx context.Context) (err error) {
	f.rs, f.cat, err = openRead(ctx, f.Cfg, f.RowType, f.Records)
	f.files = beam.NewCounter("icebergio", "read_files_planned")
	return err
}

func (f *planReadFn) ProcessElement(ctx context.Context, _ []byte, emit func([]byte)) error {
	p, err := planRead(ctx, f.cat, f.Cfg, f.rs)
	if err != nil {
		return err
	}
	for _, t := range p.tasks {
		b, err := t.encode()
		if err != nil {
			return err
		}
		emit(b)
	}
	f.files.Inc(ctx, int64(p.files))
	return nil
}

// readFn reads the row groups of a task's restriction into rows.
type readFn struct {
	Cfg     ReadConfig
	RowType beam.EncodedType
	// Records emits each record batch as an Arrow IPC stream (ReadRecords)
	// instead of rows.
	Records bool

	rs        *rowcodec.Schema
	cat       icecatalog.Catalog
	mu        sync.Mutex
	tables    map[int64]*table.Table // by snapshot read
	readers   map[string]*taskReader
	rowGroups beam.Counter
	rows      beam.Counter
}

func (f *readFn) Setup(ctx context.Context) (err error) {
	f.rs, f.cat, err = openRead(ctx, f.Cfg, f.RowType, f.Records)
	f.tables = map[int64]*table.Table{}
	f.readers = map[string]*taskReader{}
	f.rowGroups = beam.NewCounter("icebergio", "read_row_groups")
	f.rows = beam.NewCounter("icebergio", "read_rows")
	return err
}

func (f *readFn) CreateInitialRestriction(b []byte) offsetrange.Restriction {
	t := mustDecodeTask(b)
	return offsetrange.Restriction{Start: 0, End: t.units()}
}

// SplitRestriction splits a task into its row groups, unless delete files
// apply to it: each read of a split would read them again.
func (f *readFn) SplitRestriction(b []byte, r offsetrange.Restriction) []offsetrange.Restriction {
	if t := mustDecodeTask(b); t.hasDeletes() {
		return []offsetrange.Restriction{r}
	}
	return r.EvenSplits(r.End - r.Start)
}

// RestrictionSize is the restriction's size in bytes.
func (f *readFn) RestrictionSize(b []byte, r offsetrange.Restriction) float64 {
	if r.End <= r.Start {
		return 0
	}
	t := mustDecodeTask(b)
	_, n := t.unitRange(r.Start, r.End)
	return float64(n)
}

func (f *readFn) CreateTracker(r offsetrange.Restriction) *sdf.LockRTracker {
	return sdf.NewLockRTracker(offsetrange.NewTracker(r))
}

func (f *readFn) ProcessElement(ctx context.Context, rt *sdf.LockRTracker, b []byte, emit func(beam.X)) error {
	t, err := decodeTask(b)
	if err != nil {
		return err
	}
	r := rt.GetRestriction().(offsetrange.Restriction)
	tr, err := f.reader(ctx, t)
	if err != nil {
		return err
	}
	if t.hasDeletes() {
		// One read of the whole restriction, so that the delete files are
		// read once: claim it all first.
		i := r.Start
		for ; rt.TryClaim(i); i++ {
		}
		if i == r.Start {
			return nil
		}
		f.rowGroups.Inc(ctx, i-r.Start)
		return f.readRange(ctx, tr, t, r.Start, i, emit)
	}
	for i := r.Start; rt.TryClaim(i); i++ {
		f.rowGroups.Inc(ctx, 1)
		if err := f.readRange(ctx, tr, t, i, i+1, emit); err != nil {
			return err
		}
	}
	return nil
}

func (f *readFn) readRange(ctx context.Context, tr *taskReader, t readTask, from, to int64, emit func(beam.X)) error {
	ft := tr.task
	ft.Start, ft.Length = t.unitRange(from, to)
	var n int64
	var err error
	if f.Records {
		n, err = tr.readRecords(ctx, ft, func(b []byte) { emit(b) })
	} else {
		n, err = tr.read(ctx, ft, func(row any) { emit(row) })
	}
	f.rows.Inc(ctx, n)
	if err != nil {
		return fmt.Errorf("icebergio: table %s: reading %s: %w", t.Table, ft.File.FilePath(), err)
	}
	return nil
}

// taskReader reads one planned task.
type taskReader struct {
	scan   *table.Scan
	task   table.FileScanTask
	rs     *rowcodec.Schema
	conv   *rowcodec.Converter
	schema *arrow.Schema // of the batches conv is bound to
}

// read reads task's rows, converts and yields them; it returns how many.
func (tr *taskReader) read(ctx context.Context, task table.FileScanTask, yield func(any)) (int64, error) {
	_, recs, err := tr.scan.ReadTasks(ctx, []table.FileScanTask{task})
	if err != nil {
		return 0, err
	}
	return tr.emitRecords(recs, yield)
}

// readRecords reads task's record batches and yields each as an Arrow IPC
// stream; it returns how many rows.
func (tr *taskReader) readRecords(ctx context.Context, task table.FileScanTask, yield func([]byte)) (int64, error) {
	_, recs, err := tr.scan.ReadTasks(ctx, []table.FileScanTask{task})
	if err != nil {
		return 0, err
	}
	var n int64
	origin := Origin{File: task.File.FilePath(), Offset: task.Start}
	for rec, rerr := range recs {
		if rerr != nil {
			return n, rerr
		}
		if rec.NumRows() == 0 {
			rec.Release()
			continue
		}
		stamped := withOrigin(rec, origin)
		rec.Release()
		origin.Batch++
		b, err := EncodeRecords(stamped)
		n += stamped.NumRows()
		stamped.Release()
		if err != nil {
			return n, err
		}
		yield(b)
	}
	return n, nil
}

// DecodeRecords decodes an element of ReadRecords: one Arrow record batch
// (the caller releases it), which shares b's bytes where they are not
// compressed: b must not change while the batch is in use.
func DecodeRecords(b []byte) (arrow.RecordBatch, error) {
	rec, err := arrowipc.Decode(b)
	if err != nil {
		return nil, fmt.Errorf("icebergio: %w", err)
	}
	return rec, nil
}

// emitRecords converts batches into rows and yields them; it returns how
// many. The rows of a batch share one slice; each yielded interface value
// points into it, which keeps it alive.
func (tr *taskReader) emitRecords(recs iter.Seq2[arrow.RecordBatch, error], yield func(any)) (int64, error) {
	var n int64
	var err error
	for rec, rerr := range recs {
		if rerr != nil {
			err = rerr
			break
		}
		if tr.conv == nil || !tr.schema.Equal(rec.Schema()) {
			tr.schema = rec.Schema()
			if tr.conv, err = rowcodec.NewConverter(tr.rs, rec.Schema()); err != nil {
				rec.Release()
				break
			}
		}
		base, rows, cerr := tr.conv.Convert(rec)
		rec.Release()
		if cerr != nil {
			err = cerr
			break
		}
		for i := 0; i < rows; i++ {
			yield(tr.conv.Row(base, i))
		}
		n += int64(rows)
	}
	return n, err
}

// reader returns the reader of t's file, building (and caching) the scan
// it is read through and decoding its files.
func (f *readFn) reader(ctx context.Context, t readTask) (*taskReader, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	key := string(t.File.Avro)
	if tr, ok := f.readers[key]; ok {
		return tr, nil
	}
	tbl, err := f.table(ctx, t)
	if err != nil {
		return nil, err
	}
	filter, err := ParseFilter(f.Cfg.Filter)
	if err != nil {
		return nil, err
	}
	opts := scanOptions(t.Columns, filter)
	if t.SnapshotSchema {
		opts = append(opts, table.WithSnapshotID(t.SnapshotID))
	}
	scan := tbl.Scan(opts...)
	proj, err := scan.Projection()
	if err != nil {
		return nil, fmt.Errorf("icebergio: table %s: %w", t.Table, err)
	}
	// The table may have changed since planning (a branch read uses the
	// current schema): check the row type again.
	if f.rs != nil {
		if err := rowcodec.CheckProjection(t.Table, f.rs, proj); err != nil {
			return nil, err
		}
	}
	ft, err := t.Decode(tbl.Metadata())
	if err != nil {
		return nil, fmt.Errorf("icebergio: table %s: %w", t.Table, err)
	}
	tr := &taskReader{scan: scan, task: ft, rs: f.rs}
	clear(f.readers) // one task at a time is enough
	f.readers[key] = tr
	return tr, nil
}

func (f *readFn) table(ctx context.Context, t readTask) (*table.Table, error) {
	if tbl, ok := f.tables[t.SnapshotID]; ok {
		return tbl, nil
	}
	ident, err := parseIdent(t.Table)
	if err != nil {
		return nil, err
	}
	tbl, err := f.cat.LoadTable(ctx, ident)
	if err != nil {
		return nil, fmt.Errorf("icebergio: loading table %s: %w", t.Table, err)
	}
	if tbl.Metadata().SnapshotByID(t.SnapshotID) == nil {
		return nil, fmt.Errorf("icebergio: table %s no longer has snapshot %d (expired while it was read?)", t.Table, t.SnapshotID)
	}
	f.tables[t.SnapshotID] = tbl
	return tbl, nil
}

func init() {
	register.DoFn3x1[context.Context, []byte, func([]byte), error](&planReadFn{})
	register.DoFn4x1[context.Context, *sdf.LockRTracker, []byte, func(beam.X), error](&readFn{})
	register.Emitter1[[]byte]()
	register.Emitter1[beam.X]()
}
