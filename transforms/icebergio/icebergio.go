// Package icebergio is Apache Iceberg for Beam Go pipelines, through any
// Iceberg REST catalog. Write is an exactly-once sink: it appends rows
// (structs with `beam:"column"` tags) to a fixed or templated table,
// replaces a table's content (CreateOrReplace), or applies row-level
// changes (Upsert, Changes: deletion vectors on format v3 tables, equality
// deletes on v2), one commit per table and triggering period (or, with
// Config.CommitTogether, one multi-table transaction of the tables a pane
// touched), under a commit id derived from the pane's contents, so that a
// pane a runner replays is never committed twice. Rows become Arrow
// batches and Parquet row groups where they are produced; one worker per
// table (or several with Config.Shards) turns a pane's row groups into
// data files and commits them. WriteRecords is the same sink for Arrow
// record batches, WriteTables for record batches of several tables of
// different columns.
// Read and ReadRecords read a table (deletes applied, as of
// any snapshot), ReadChanges what is appended to it, as a stream.
//
// A pipeline that writes runs with plain beamx.Run. On Beam's portable
// Flink runner exactly once needs checkpointing and stable input for the
// commit step, which the Go SDK cannot ask for: a program's main that
// imports package github.com/icebeam/icebeam/transforms/portable gets them, and Write
// refuses --runner=flink, spark, universal or portable in a program that
// does not (see docs/dataflow.md).
//
// # Rows and Iceberg types
//
// A row is a struct (or a pointer to one). Each exported field is a column,
// named by its beam tag (`beam:"user_id"`; else the Go name; `beam:"-"`
// leaves it out), of the Iceberg type its Go type maps to:
//
//	Go field                               Iceberg type
//	bool                                   boolean
//	int8, int16, int32, uint8, uint16      int
//	int, int64, uint32                     long
//	float32                                float
//	float64                                double
//	string                                 string
//	[]byte                                 binary
//	int32 `iceberg:"date"`                 date: days since 1970-01-01
//	int64 `iceberg:"timestamp"`            timestamp: microseconds since the epoch
//	int64 `iceberg:"timestamptz"`          timestamptz: microseconds since the epoch
//	[]int32, []string, []T                 list of the element's type
//	struct                                 struct of its exported fields, mapped alike
//
// A pointer field (*T) is an optional column, nil writing null; any other
// field is a required column. The tag `iceberg:"optional"` makes a
// non-pointer field's column optional, to match a table other engines
// made (Spark makes every aggregate column optional); it combines with a
// type, as `iceberg:"date,optional"`. A list's element is required unless
// it is a pointer; a nil slice is written as an empty list, and a nil
// []byte as empty binary. Other Go types (uint, uint64, maps, arrays,
// complex numbers, interfaces, pointers to slices) are refused when the
// pipeline is built, naming the field. Read takes the same structs: a
// field the table lacks must be a pointer (it stays nil), and a column
// must widen to its field's type (int into an int64 field, float into a
// float64 one).
package icebergio

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/graph"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/graph/window"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/graph/window/trigger"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
	"github.com/google/uuid"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/transforms/icebergio/internal/rowcodec"
	"github.com/icebeam/icebeam/transforms/portable/hint"
)

// Mode says what a commit does to the table's existing data.
type Mode string

const (
	// Append adds the pane's rows to the table (a fast append).
	Append Mode = "append"
	// CreateOrReplace makes the pane's rows the table's whole content in one
	// commit: the row schema becomes current and every existing data file is
	// replaced. Readers never see an empty or partial table; older snapshots
	// stay readable for time travel.
	CreateOrReplace Mode = "createOrReplace"
	// Upsert makes each row the table's row for its key (Config.Key):
	// the row it replaces, if any, is deleted in the same commit. Of
	// several rows with one key in a pane, the one with the highest Order
	// value wins, else the one encoded last.
	Upsert Mode = "upsert"
	// Changes applies a change stream, a database's change log: each row
	// carries its operation in the Op field (insert, update or delete;
	// Debezium's c, r, u and d) and its position in the log in the Order
	// field, which decides which change to a key wins, within a pane and
	// across panes (a change older than the table's row is dropped). The
	// Op field is not written to the table.
	//
	// A row whose op is t (Debezium's truncate; also "truncate") empties
	// the table at its Order value: the pane's changes at or below it are
	// dropped, the pane's commit removes every row the table holds then
	// (all its data and delete files), and the changes after it apply
	// onto the empty table, all in the pane's one commit (v2: one
	// snapshot; v3: an overwrite and a row delta in one transaction), so
	// no reader sees the table half-truncated. A truncate row's key and
	// other columns are not read, and it is not written. A pane that
	// lands after a truncate of the same worker process, with changes or
	// a truncate older than it, applies none of those.
	Changes Mode = "changes"
)

// Config configures Write.
type Config struct {
	Catalog catalog.Config
	// Table is "namespace.table", or a template filled from top-level row
	// fields such as "clicks.user_{user_id}" (values keep [A-Za-z0-9_];
	// other bytes become '_').
	Table string
	// Mode defaults to Append.
	Mode Mode
	// TriggeringFrequency is how often an unbounded input commits; default
	// 20s. Bounded input commits once per table at the end.
	TriggeringFrequency time.Duration
	// TargetFileSize is where data files roll over when the table does not
	// say (write.target-file-size-bytes, which wins); default 128 MiB.
	TargetFileSize int64
	// PartitionBy is the partition spec of tables the sink creates:
	// "day(ts)", "hour(ts)", "bucket(user_id, 16)", "truncate(s, 4)",
	// "user_id" (identity), also year/month.
	PartitionBy []string
	// Properties are set on tables the sink creates. The sink adds
	// commit.manifest-merge.enabled=true unless overridden here.
	Properties map[string]string
	// WriterID names this pipeline as a writer: commit ids start with it
	// and the table property "icebeam.commits."+WriterID holds its recent
	// commits. Give concurrent pipelines on one table different ids, and a
	// resubmitted pipeline the same one. Default: random per construction.
	WriterID string
	// Expire, when set, expires old snapshots after commits.
	Expire Expiry
	// Shards, when above 1, spreads the writing of each table's pane over
	// this many workers: each writes data files from its share of the
	// pane's rows and sends their description to the table's single
	// committer, which still commits one snapshot per pane. Use it when
	// one worker cannot write a table's pane within the triggering
	// frequency (see docs/dataflow.md). A sharded stream's panes end on
	// clock boundaries (multiples of the frequency) and commit a moment
	// later (a quarter of the frequency, at most 2 s), once every shard
	// has written its part.
	// Default 1: one worker writes and commits each pane.
	Shards int
	// Key names the key columns of Upsert and Changes: rows with equal
	// values in them are the same row. Key columns are required
	// primitives: integers, decimals, dates, times, timestamps (with or
	// without zone), booleans, strings, uuids (Arrow's arrow.uuid
	// extension), binary or fixed. Default: the table's identifier
	// fields. Tables the sink creates get the key columns as identifier
	// fields; a table with neither is refused, by name.
	Key []string
	// Op names the string field holding each row's operation (Changes).
	Op string
	// Order names the integer field holding each row's position in its
	// change log (a sequence number, LSN or offset): of several changes to
	// one key the highest wins, in a pane and, on format v3 tables, also
	// against the row the table holds. Against a pane that landed before
	// it, a change loses too when older: on v3 to a delete, on v2 (whose
	// equality deletes say nothing of the row they delete) to any change,
	// within the last 256 commits of the worker process (docs/sink.md).
	// Required by Changes; optional for Upsert.
	Order string
	// MaxDeletedShare bounds, on format v3 tables of Upsert and Changes,
	// the share of the rows in the table's data files that deletion
	// vectors mark deleted, which readers read and skip: after a pane's
	// commit leaves more, the committer rewrites the data files with the
	// most deleted rows (their live rows only) in a replace snapshot of its
	// own until at most half the share is left, so reads stay within
	// 1/(1-share) of a compacted table's. Default 1/3 (within 1.5x);
	// negative never compacts. See docs/sink.md.
	MaxDeletedShare float64
	// StagingThreshold: Upsert and Changes send a bundle's changes of a
	// table that hold at least this many bytes as Arrow buffers
	// (uncompressed) as a file under the table's location (deleted once
	// its pane has landed), and only its location through the runner's
	// shuffle, which moves large panes slowly. Default 64 KiB; negative
	// never stages. See docs/sink.md.
	StagingThreshold int64
	// ConcurrentCommits is how many panes of different tables a worker
	// commits at once (default 16): a template's tables each commit a
	// small pane per trigger, a few round trips to the catalog apiece, and
	// one at a time a worker gets through a few tens a second. A pane up to
	// 4 MiB is held in memory while it waits its turn, so the committer's
	// memory stays under ConcurrentCommits * 4 MiB beyond what a commit
	// itself takes; larger panes are committed one at a time, as they
	// stream from the runner. Panes of one table in a bundle commit in
	// order.
	ConcurrentCommits int
	// SchemaEvolution says which existing tables an appending sink may
	// change to fit the rows (see SchemaEvolution); default
	// EvolveCreatedTables. CreateOrReplace always makes the row schema the
	// table's.
	SchemaEvolution SchemaEvolution
	// CommitTogether makes the tables a pane touched (a template's, or
	// WriteTables') commit together: in one multi-table transaction
	// (POST /v1/{prefix}/transactions/commit) where the catalog serves
	// it, so that a reader sees all of a pane's tables change or none;
	// else one by one, each still exactly once (CommitResult.Together
	// says which; see docs/sink.md for the catalogs that serve it). It
	// costs parallelism: one worker commits each pane, every table of it,
	// instead of one worker per table. Upsert and Changes only.
	CommitTogether bool
}

// Expiry bounds the snapshots a long stream keeps. Snapshots are expired
// only when both rules allow it.
type Expiry struct {
	RetainLast int           // keep at least this many snapshots (>= 1)
	OlderThan  time.Duration // expire only snapshots older than this
}

const (
	defaultTriggeringFrequency = 20 * time.Second
	defaultTargetFileSize      = 128 << 20
	defaultMaxDeletedShare     = 1.0 / 3
	defaultStagingThreshold    = 64 << 10
	defaultConcurrentCommits   = 16
	// maxBatchRows bounds the rows buffered per destination in a bundle
	// before they are encoded as one Parquet row group.
	maxBatchRows = 1 << 16
	// maxBufferedRows bounds the rows buffered in a bundle over all
	// destinations: past it the destination with the most is encoded. With
	// a template, maxBatchRows a destination alone would allow a thousand
	// tables 65 M rows.
	maxBufferedRows = 1 << 18
	// maxShards bounds Config.Shards: the committer of a pane holds the
	// descriptions of all its parts.
	maxShards = 1024
)

func (c Config) withDefaults() Config {
	if c.Mode == "" {
		c.Mode = Append
	}
	if c.TriggeringFrequency <= 0 {
		c.TriggeringFrequency = defaultTriggeringFrequency
	}
	if c.TargetFileSize <= 0 {
		c.TargetFileSize = defaultTargetFileSize
	}
	// Only the row-level modes get their own settings' defaults, so that
	// check finds them unset in the others.
	if c.Mode.rowLevel() && c.MaxDeletedShare == 0 {
		c.MaxDeletedShare = defaultMaxDeletedShare
	}
	if c.Mode.rowLevel() && c.StagingThreshold == 0 {
		c.StagingThreshold = defaultStagingThreshold
	}
	if c.WriterID == "" {
		c.WriterID = uuid.NewString()
	}
	if c.ConcurrentCommits == 0 {
		c.ConcurrentCommits = defaultConcurrentCommits
	}
	return c
}

// Check reports what Write would panic on for rows of type t, short of an
// unresolved catalog: the row type, the table name or template, the
// partition spec, mode, writer id, shards and expiry. A launcher calls it
// to refuse bad flags in one line before any work.
func Check(cfg Config, t reflect.Type) error {
	rs, err := rowcodec.New(t)
	if err != nil {
		return err
	}
	return cfg.withDefaults().check(rs)
}

func (c Config) validate(rows *rowcodec.Schema) error {
	if c.Catalog.Embedded() {
		return fmt.Errorf("icebergio: table %s: no catalog URI (set Catalog.URI or a preset such as catalog.PresetBigLake)", c.Table)
	}
	// After beam.Init, package portable's hook has routed every portable
	// runner through itself; one still named as given runs on Beam's own
	// runner, which takes no checkpoints and replays a restarted job's
	// input into commits made already.
	if r := *runners.Runner; hint.PortableRunners[r] && beam.Initialized() {
		return fmt.Errorf("icebergio: table %s: --runner=%s commits exactly once only through package github.com/icebeam/icebeam/transforms/portable: import it in the program's main (import _ \"github.com/icebeam/icebeam/transforms/portable\")", c.Table, r)
	}
	return c.check(rows)
}

func (c Config) check(rows *rowcodec.Schema) error {
	switch c.Mode {
	case Append, CreateOrReplace, Upsert, Changes:
	default:
		return fmt.Errorf("icebergio: mode %q (want %q, %q, %q or %q)", c.Mode, Append, CreateOrReplace, Upsert, Changes)
	}
	if c.CommitTogether && !c.Mode.rowLevel() {
		return fmt.Errorf("icebergio: table %s: CommitTogether applies to the modes %q and %q, not %q", c.Table, Upsert, Changes, c.Mode)
	}
	if c.Mode == CreateOrReplace && c.SchemaEvolution != EvolveCreatedTables {
		return fmt.Errorf("icebergio: table %s: mode %q takes no SchemaEvolution: it always makes the row schema the table's", c.Table, c.Mode)
	}
	if c.Mode == Changes && c.Order == "" {
		return fmt.Errorf("icebergio: table %s: mode %q needs Order, the row field holding each change's position in its log", c.Table, c.Mode)
	}
	if err := c.checkRowLevel(rows); err != nil {
		return err
	}
	if !validWriterID.MatchString(c.WriterID) {
		return fmt.Errorf("icebergio: table %s: writer id %q must match %s", c.Table, c.WriterID, validWriterID)
	}
	if c.ConcurrentCommits < 0 {
		return fmt.Errorf("icebergio: table %s: ConcurrentCommits %d (want 0 for the default, or more)", c.Table, c.ConcurrentCommits)
	}
	if c.Shards < 0 || c.Shards > maxShards {
		return fmt.Errorf("icebergio: table %s: %d shards (want 0 to %d)", c.Table, c.Shards, maxShards)
	}
	switch c.SchemaEvolution {
	case EvolveCreatedTables, EvolveAlways, EvolveNever:
	default:
		return fmt.Errorf("icebergio: table %s: schema evolution %q (want %q, %q or empty)", c.Table, c.SchemaEvolution, EvolveAlways, EvolveNever)
	}
	if c.MaxDeletedShare >= 1 || math.IsNaN(c.MaxDeletedShare) {
		return fmt.Errorf("icebergio: table %s: MaxDeletedShare %v (want below 1; negative never compacts)", c.Table, c.MaxDeletedShare)
	}
	if c.Expire.RetainLast < 0 || c.Expire.OlderThan < 0 {
		return fmt.Errorf("icebergio: table %s: negative snapshot expiry settings", c.Table)
	}
	if _, err := newDestination(c.Table, rows); err != nil {
		return err
	}
	_, err := partitionSpec(c.PartitionBy, rows.Iceberg)
	return err
}

// tableProperties are the properties of tables the sink creates.
func (c Config) tableProperties() iceberg.Properties {
	props := iceberg.Properties{table.ManifestMergeEnabledKey: "true", CreatedByKey: "icebeam icebergio"}
	if c.Mode.rowLevel() {
		// Deletion vectors, which every v3 reader applies at scan speed.
		props[table.PropertyFormatVersion] = "3"
	}
	for k, v := range c.Properties {
		props[k] = v
	}
	return props
}

var validWriterID = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

func init() {
	register.DoFn3x1[context.Context, beam.X, func(string, []byte), error](&encodeFn{})
	register.DoFn5x1[context.Context, beam.PaneInfo, string, func(*[]byte) bool, func(CommitResult), error](&commitFn{})
	register.DoFn4x1[context.Context, string, func(*[]byte) bool, func(string, []byte), error](&writeShardFn{})
	register.Emitter2[string, []byte]()
	register.Emitter1[CommitResult]()
	register.Function2x0(passResult)
	register.Iter1[[]byte]()
	beam.RegisterType(reflect.TypeOf((*CommitResult)(nil)).Elem())
}

// Write writes rows (structs with `beam:"name"` tags) to Iceberg and returns
// one CommitResult per table and pane. Bounded input is committed once per
// table; unbounded input every TriggeringFrequency (GlobalWindow, repeated
// processing-time trigger, discarding panes). Invalid configuration or row
// types panic at construction, like Beam's own IOs.
//
// Rows are encoded as Parquet row groups in their bundle and shuffled keyed
// by table; one worker per table and pane concatenates them into data files
// and commits, so a pane is visible about as soon as it fires. With
// cfg.Shards > 1, several workers write a table's pane and one commits it.
func Write(s beam.Scope, cfg Config, rows beam.PCollection) beam.PCollection {
	s = s.Scope("icebergio.Write")
	cfg = cfg.withDefaults()
	t := rows.Type().Type()
	rs, err := rowcodec.New(t)
	if err != nil {
		panic(err)
	}
	if err := cfg.validate(rs); err != nil {
		panic(err)
	}
	rowType := beam.EncodedType{T: t}
	return writeChunks(s, cfg, rows, &encodeFn{Cfg: cfg, RowType: rowType}, sinkRows{Type: rowType})
}

// sinkRows is what the sink's DoFns need to know of the rows: their Go
// type, or for WriteRecords the records' Arrow schema (an IPC stream), when
// Type is only the []byte of their elements.
type sinkRows struct {
	Type  beam.EncodedType
	Arrow []byte
}

func (r sinkRows) schema() (*rowcodec.Schema, error) {
	if r.Arrow == nil {
		return rowcodec.New(r.Type.T)
	}
	sc, err := DecodeSchema(r.Arrow)
	if err != nil {
		return nil, err
	}
	return rowcodec.FromArrow(sc)
}

// writeChunks is the sink after its inputs' differences: rows windowed into
// panes, encoded into chunks by encode (keyed by table, or by table shard),
// and the chunks of each table's pane written and committed; with
// CommitTogether, the chunks of a pane's tables committed together, those
// of tables listed in tables by their own configuration.
func writeChunks(s beam.Scope, cfg Config, rows beam.PCollection, encode any, sr sinkRows, tables ...tableRows) beam.PCollection {
	unbounded := !bounded(rows)
	sharded := cfg.Shards > 1
	var opts []beam.WindowIntoOption
	if unbounded {
		fire := trigger.AfterProcessingTime().PlusDelay(cfg.TriggeringFrequency)
		if sharded {
			fire = trigger.AfterProcessingTime().AlignedTo(cfg.TriggeringFrequency, time.Unix(0, 0))
		}
		opts = append(opts, beam.Trigger(trigger.Repeat(fire)), beam.PanesDiscard())
	}
	global := beam.WindowInto(s, window.NewGlobalWindows(), rows, opts...)
	chunks := beam.ParDo(s, encode, global)
	// The committer must see a pane again exactly as it was, or a replay
	// would be a new commit: on Flink that takes stable input.
	commit := hint.StableInput(s, "Commit")
	if cfg.CommitTogether {
		chunks = beam.ParDo(s, &tagDestFn{Key: cfg.WriterID}, chunks)
		return results(s, beam.ParDo(commit, &commitTogetherFn{Cfg: cfg, Rows: sr, Tables: tables, Unbounded: unbounded}, beam.GroupByKey(s, chunks)))
	}
	if !sharded {
		return results(s, beam.ParDo(commit, &commitFn{Cfg: cfg, Rows: sr, Unbounded: unbounded}, beam.GroupByKey(s, chunks)))
	}
	parts := beam.ParDo(s.Scope("WriteShards"), &writeShardFn{Cfg: cfg, Rows: sr}, beam.GroupByKey(s, chunks))
	if unbounded {
		parts = beam.WindowInto(s, window.NewGlobalWindows(), parts,
			beam.Trigger(trigger.Repeat(trigger.AfterProcessingTime().AlignedTo(cfg.TriggeringFrequency, time.Unix(0, 0).Add(gatherFor(cfg.TriggeringFrequency))))),
			beam.PanesDiscard())
	}
	return results(s, beam.ParDo(commit, &commitFn{Cfg: cfg, Rows: sr, Unbounded: unbounded, Sharded: true}, beam.GroupByKey(s, parts)))
}

// results hands the commit step's results on from a stage of their own,
// whether or not the pipeline reads them. Prism (Beam 2.77) keeps a core
// busy for as long as a bundle runs in a stage whose output no other stage
// reads (its progress loop selects on a channel closed from the start), and
// a commit bundle lasts a whole commit: that core was half of what a 2-core
// machine gave the committer, which works on every core.
func results(s beam.Scope, commits beam.PCollection) beam.PCollection {
	return beam.ParDo(s.Scope("Results"), passResult, beam.Reshuffle(s, commits))
}

func passResult(r CommitResult, emit func(CommitResult)) { emit(r) }

// bounded reports whether p is bounded. beam.PCollection does not export
// it, but its only field is the graph node, which does.
func bounded(p beam.PCollection) bool {
	type pcollection struct{ n *graph.Node }
	return (*pcollection)(unsafe.Pointer(&p)).n.Bounded()
}

// encodeFn turns rows into chunks: Parquet-encoded row groups, one per
// destination, partition and bundle (or per maxBatchRows rows), so the
// shuffle moves few small columnar elements instead of rows, and the Parquet
// work is done while the window is open rather than after it fires.
type encodeFn struct {
	Cfg     Config
	RowType beam.EncodedType

	rows *rowcodec.Schema
	dest *destination
	ops  *opChecker // Changes: the rows' operations, checked before anything is written
	enc  *chunkEncoder
	bufs map[string]*rowcodec.BatchBuilder
	held int // rows in bufs
}

func (f *encodeFn) Setup() error {
	var err error
	if f.rows, err = rowcodec.New(f.RowType.T); err != nil {
		return err
	}
	if f.dest, err = newDestination(f.Cfg.Table, f.rows); err != nil {
		return err
	}
	f.ops = newOpChecker(f.rows, f.Cfg)
	spec, err := partitionSpec(f.Cfg.PartitionBy, f.rows.Iceberg)
	if err != nil {
		return err
	}
	f.enc, err = newChunkEncoder(f.rows, spec, f.Cfg)
	return err
}

func (f *encodeFn) StartBundle(_ context.Context, _ func(string, []byte)) {
	f.bufs = map[string]*rowcodec.BatchBuilder{}
	f.held = 0
}

func (f *encodeFn) ProcessElement(ctx context.Context, row beam.X, emit func(string, []byte)) error {
	v := any(row)
	p := f.rows.RowPointer(&v)
	d := f.dest.of(p)
	if f.ops != nil {
		if why := f.ops.check(p); why != "" {
			return fmt.Errorf("icebergio: table %s: row %s: %s (WriteWithRejects sends such rows to a dead-letter output)", d, f.ops.rowJSON(p), why)
		}
	}
	bb := f.bufs[d]
	if bb == nil {
		bb = f.rows.NewBatchBuilder(memory.DefaultAllocator)
		f.bufs[d] = bb
	}
	bb.Add(p)
	f.held++
	if bb.Rows() >= maxBatchRows {
		return f.flush(ctx, d, bb, emit)
	}
	if f.held >= maxBufferedRows {
		// The largest holds at least held/len(bufs) rows, so the scan
		// costs each row O(1) amortised.
		var most *rowcodec.BatchBuilder
		for dd, b := range f.bufs {
			if most == nil || b.Rows() > most.Rows() {
				d, most = dd, b
			}
		}
		return f.flush(ctx, d, most, emit)
	}
	return nil
}

// FinishBundle emits into the GlobalWindow at timestamp 0, which is where
// Write already put the rows.
func (f *encodeFn) FinishBundle(ctx context.Context, emit func(string, []byte)) error {
	for d, bb := range f.bufs {
		if bb.Rows() > 0 {
			if err := f.flush(ctx, d, bb, emit); err != nil {
				return err
			}
		}
		bb.Release()
	}
	f.bufs = nil
	return nil
}

func (f *encodeFn) flush(ctx context.Context, dest string, bb *rowcodec.BatchBuilder, emit func(string, []byte)) error {
	f.held -= bb.Rows()
	return f.enc.emit(ctx, dest, batchSeq(bb.Batch()), emit)
}

// commitFn writes and commits one pane of one table, or with Sharded,
// commits the parts of it that shards wrote.
type commitFn struct {
	Cfg       Config
	Rows      sinkRows
	Unbounded bool
	Sharded   bool

	sink     *sink
	inflight *inflight // the bundle's commits
}

func (f *commitFn) Setup(ctx context.Context) (err error) {
	f.sink, err = openSink(ctx, f.Cfg, f.Rows)
	return err
}

func (f *commitFn) StartBundle(_ context.Context, _ func(CommitResult)) {
	f.inflight = newInflight(f.sink.cfg.ConcurrentCommits)
}

// ProcessElement commits a pane of dest beside the bundle's other panes
// (see inflight) when it is small enough to hold, else while the bundle
// waits. The results are emitted by FinishBundle, once all have landed.
func (f *commitFn) ProcessElement(ctx context.Context, pane beam.PaneInfo, dest string, elems func(*[]byte) bool, _ func(CommitResult)) error {
	if err := f.inflight.failed(); err != nil {
		return err
	}
	next, all := bufferPane(elems, paneBufferBytes)
	job := f.inflight.start(dest, func() (CommitResult, error) {
		var sent sentTimes
		summary := paneSummary(f.Unbounded, pane, &sent)
		switch {
		case f.Cfg.Mode.rowLevel():
			return f.sink.commitRows(ctx, dest, decodeChunks(next, &sent), summary)
		case f.Sharded:
			return f.sink.commitParts(ctx, dest, next, &sent, summary)
		default:
			return f.sink.commit(ctx, dest, decodeChunks(next, &sent), summary)
		}
	})
	// A large pane reads on from elems, valid only in this call. The
	// bundle's first pane also commits while the call waits, as every pane
	// did before: a runner learns of a failure returned here at once
	// (prism acted on one FinishBundle returned only once the next bundle
	// had failed too), and a bundle of one table's pane, the common case,
	// has nothing to commit beside it. The panes after it do.
	if !all || f.inflight.started == 1 {
		<-job.done
		return job.err
	}
	return nil
}

// FinishBundle emits into the GlobalWindow at timestamp 0, where the panes
// are.
func (f *commitFn) FinishBundle(_ context.Context, emit func(CommitResult)) error {
	results, err := f.inflight.wait()
	if err != nil {
		return err
	}
	for _, r := range results {
		emit(r)
	}
	return nil
}

// paneSummary returns the snapshot summary entries of a streaming pane,
// asked for once its chunks (and so their send times) have been read.
func paneSummary(unbounded bool, pane beam.PaneInfo, sent *sentTimes) func() iceberg.Properties {
	return func() iceberg.Properties {
		props := iceberg.Properties{}
		if len(sent.ranges) > 0 {
			props[SourceRangesKey] = sent.ranges.String()
		}
		if unbounded && !sent.first.IsZero() {
			props[batchesSentKey] = strconv.FormatInt(sent.first.UnixMilli(), 10) + "-" + strconv.FormatInt(sent.last.UnixMilli(), 10)
			props[paneTimingKey] = pane.Timing.String()
		}
		if len(props) == 0 {
			return nil
		}
		return props
	}
}
