package icebergio

import (
	"context"
	"fmt"
	"iter"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/graph/mtime"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/transforms/icebergio/internal/changelog"
	"github.com/icebeam/icebeam/transforms/icebergio/internal/rowcodec"
	"github.com/icebeam/icebeam/transforms/portable/hint"
)

// StartKind says where ReadChanges starts.
type StartKind string

const (
	// StartEarliest starts before the oldest snapshot of the main branch:
	// every append still in the table's history is emitted.
	StartEarliest StartKind = "earliest"
	// StartLatest starts after the snapshot that is current when the
	// source first runs: only later appends are emitted.
	StartLatest StartKind = "latest"
	// StartAtSnapshot starts at a snapshot, which is emitted (if it is an
	// append), then follows its descendants on the main branch.
	StartAtSnapshot StartKind = "snapshot"
	// StartAtTime starts at the first snapshot of the main branch
	// committed at or after a time (snapshots that have expired count as
	// older).
	StartAtTime StartKind = "time"
)

// Start is ChangesConfig.From: Earliest, Latest, FromSnapshot(id) or
// FromTime(t).
type Start struct {
	Kind       StartKind
	SnapshotID int64     // with StartAtSnapshot
	Time       time.Time // with StartAtTime
}

var (
	// Earliest is Start{Kind: StartEarliest}, the default.
	Earliest = Start{Kind: StartEarliest}
	// Latest is Start{Kind: StartLatest}.
	Latest = Start{Kind: StartLatest}
)

// FromSnapshot starts at snapshot id, inclusive.
func FromSnapshot(id int64) Start { return Start{Kind: StartAtSnapshot, SnapshotID: id} }

// FromTime starts at the first snapshot committed (timestamp-ms) at or
// after t.
func FromTime(t time.Time) Start { return Start{Kind: StartAtTime, Time: t} }

// NonAppend says what ReadChanges does with overwrite and delete snapshots,
// which change or remove rows already emitted: an append-only change stream
// cannot express them.
type NonAppend string

const (
	// FailOnNonAppend fails the pipeline, naming the snapshot (the default).
	FailOnNonAppend NonAppend = "fail"
	// SkipNonAppend skips them (logged and counted): rows they add are not
	// emitted, rows they delete are not retracted.
	SkipNonAppend NonAppend = "skip"
)

// ChangesMode says what ReadChanges emits.
type ChangesMode string

const (
	// AppendedRows emits the rows each append snapshot adds (the default);
	// other snapshots are handled as OnNonAppend says.
	AppendedRows ChangesMode = "appends"
	// RowChanges emits the row-level changes of every snapshot, as Spark's
	// changelog view (create_changelog_view) reports them: rows inserted
	// and deleted by appends, overwrites (copy-on-write rewrites), deletes
	// and row deltas (position deletes, deletion vectors, equality
	// deletes), with a key deleted once and inserted once in a snapshot as
	// an UPDATE_BEFORE and UPDATE_AFTER pair (keys are
	// ChangesConfig.Identifier, else the table's identifier fields).
	// Replace snapshots (compactions) emit nothing. A row identical before
	// and after a snapshot (a copy-on-write rewrite carries it over) is no
	// change. The row type receives each change's metadata in fields
	// tagged with these names:
	//   - _change_type (string, required): INSERT, DELETE, UPDATE_BEFORE
	//     or UPDATE_AFTER;
	//   - _change_ordinal (int64): the snapshot's position among the
	//     snapshots the stream read, from 0, replace snapshots not
	//     counted: from Earliest, Spark's _change_ordinal;
	//   - _commit_snapshot_id (int64);
	//   - _commit_timestamp (int64): the commit time, microseconds since
	//     the epoch.
	// Within a snapshot, deletes and update-befores come before inserts and
	// update-afters. A snapshot's changes are computed from the data files
	// whose deletes changed or that it added or removed: each is read as
	// the parent snapshot saw it and as the snapshot does (an equality
	// delete changes every older file of its partition), so a row-level
	// stream reads more than an append stream.
	RowChanges ChangesMode = "rows"
)

// ChangesConfig configures ReadChanges.
type ChangesConfig struct {
	Catalog catalog.Config
	// Table is "namespace.table".
	Table string
	// From is where the stream starts (default Earliest).
	From Start
	// PollInterval is how often the table is checked for new snapshots
	// (default 10s).
	PollInterval time.Duration
	// Columns and Filter are as in ReadConfig: they select the columns read
	// and the rows emitted (Filter also prunes the files of each snapshot).
	Columns []string
	Filter  string
	// TimestampColumn, when set, names a timestamp, timestamptz or date
	// column whose value is each row's event time (rows where it is null
	// take their snapshot's commit time). After each snapshot the watermark
	// moves to the earliest event time among its rows (never back): rows of
	// a later snapshot older than that are late.
	//
	// Without it each row's event time is its snapshot's commit time
	// (timestamp-ms) and the watermark follows the commit times; when a
	// poll finds nothing new it moves to the poll's time minus
	// MaxCommitDelay.
	TimestampColumn string
	// MaxCommitDelay is how long a writer may take between stamping a
	// snapshot and committing it (default 1m): see TimestampColumn.
	// Negative: the watermark does not move while the table is idle.
	MaxCommitDelay time.Duration
	// OnNonAppend: FailOnNonAppend (default) or SkipNonAppend. Replace
	// snapshots (compaction, manifest rewrites) change no content and are
	// always skipped. RowChanges emits every snapshot's changes and
	// ignores it.
	OnNonAppend NonAppend
	// Mode is AppendedRows (default) or RowChanges.
	Mode ChangesMode
	// Identifier, with RowChanges, names the columns whose equal values
	// pair a delete and an insert of one snapshot into an update (default:
	// the table's identifier fields; none: no updates). They are read
	// whatever Columns says.
	Identifier []string
	// MaxSnapshots, when positive, ends the stream after this many append
	// snapshots (with RowChanges: snapshots other than replace ones) have
	// been emitted.
	MaxSnapshots int
	// StopAt, when set, ends the stream at the first snapshot committed at
	// or after it (not emitted), or at the first poll at or after it that
	// finds nothing new. A snapshot stamped before StopAt but committed
	// after that poll is not emitted.
	StopAt time.Time
}

const (
	defaultPollInterval   = 10 * time.Second
	defaultMaxCommitDelay = time.Minute
	// changesBundle is how long the source processes snapshots before it
	// checkpoints, so that a backlog's rows move on before all of it is read.
	changesBundle = 2 * time.Second
)

func (c ChangesConfig) withDefaults() ChangesConfig {
	if c.From.Kind == "" {
		c.From = Earliest
	}
	if c.PollInterval <= 0 {
		c.PollInterval = defaultPollInterval
	}
	if c.MaxCommitDelay == 0 {
		c.MaxCommitDelay = defaultMaxCommitDelay
	}
	if c.OnNonAppend == "" {
		c.OnNonAppend = FailOnNonAppend
	}
	if c.Mode == "" {
		c.Mode = AppendedRows
	}
	return c
}

func (c ChangesConfig) check(rs *rowcodec.Schema) error {
	rc := ReadConfig{Catalog: c.Catalog, Table: c.Table, Columns: c.Columns, Filter: c.Filter}
	if err := rc.check(rs); err != nil {
		return err
	}
	switch c.Mode {
	case AppendedRows:
		if len(c.Identifier) > 0 {
			return fmt.Errorf("icebergio: table %s: Identifier is for Mode %q", c.Table, RowChanges)
		}
	case RowChanges:
		if err := checkChangeFields(c.Table, rs); err != nil {
			return err
		}
		for _, col := range c.Columns {
			if changelog.IsMetadataColumn(col) {
				return fmt.Errorf("icebergio: table %s: column %s is change metadata, not a column to read", c.Table, col)
			}
		}
	default:
		return fmt.Errorf("icebergio: table %s: changes mode %q (want %q or %q)", c.Table, c.Mode, AppendedRows, RowChanges)
	}
	switch c.From.Kind {
	case StartEarliest, StartLatest:
	case StartAtSnapshot:
		if c.From.SnapshotID == 0 {
			return fmt.Errorf("icebergio: table %s: FromSnapshot needs a snapshot id", c.Table)
		}
	case StartAtTime:
		if c.From.Time.IsZero() {
			return fmt.Errorf("icebergio: table %s: FromTime needs a time", c.Table)
		}
	default:
		return fmt.Errorf("icebergio: table %s: start %q (want earliest, latest, snapshot or time)", c.Table, c.From.Kind)
	}
	if c.OnNonAppend != FailOnNonAppend && c.OnNonAppend != SkipNonAppend {
		return fmt.Errorf("icebergio: table %s: OnNonAppend %q (want %q or %q)", c.Table, c.OnNonAppend, FailOnNonAppend, SkipNonAppend)
	}
	if c.MaxSnapshots < 0 {
		return fmt.Errorf("icebergio: table %s: negative MaxSnapshots", c.Table)
	}
	return nil
}

// checkChangeFields checks the fields of rs that receive change metadata
// (RowChanges).
func checkChangeFields(tableName string, rs *rowcodec.Schema) error {
	want := map[string]reflect.Type{
		changelog.ChangeTypeColumn:    reflect.TypeFor[string](),
		changelog.ChangeOrdinalColumn: reflect.TypeFor[int64](),
		changelog.SnapshotIDColumn:    reflect.TypeFor[int64](),
		changelog.CommitTimeColumn:    reflect.TypeFor[int64](),
	}
	for _, f := range rs.Fields {
		if t, ok := want[f.Name]; ok && f.Type != t {
			return fmt.Errorf("icebergio: table %s: field %s.%s (beam:%q) is %v, want %v", tableName, rs.GoType, f.GoName, f.Name, f.Type, t)
		}
	}
	if rs.Field(changelog.ChangeTypeColumn) == nil {
		return fmt.Errorf("icebergio: table %s: row changes need a string field tagged beam:%q in %v to say what each row's change is", tableName, changelog.ChangeTypeColumn, rs.GoType)
	}
	return nil
}

// tableFields is rs without the fields that receive change metadata: the
// fields read from the table's columns.
func tableFields(rs *rowcodec.Schema) *rowcodec.Schema {
	out := *rs
	out.Fields = slices.DeleteFunc(slices.Clone(rs.Fields), func(f rowcodec.Field) bool { return changelog.IsMetadataColumn(f.Name) })
	return &out
}

// ReadChanges is an unbounded source of the rows each append snapshot adds
// to the main branch of an Iceberg table, in commit order: the rows of the
// data files the snapshot added (manifest entries ADDED by it), read as Read
// reads (projection, filter, schema evolution), into rows of rowType.
// Replace snapshots (compactions) are skipped; overwrite and delete
// snapshots fail the pipeline or are skipped (cfg.OnNonAppend). With
// cfg.Mode RowChanges it emits instead the row-level changes of every
// snapshot, each row with its change's metadata (see RowChanges). Rows
// carry event times and a watermark (see ChangesConfig.TimestampColumn).
//
// Its position, the last snapshot fully emitted, lives in the source's
// restriction, which the runner checkpoints with the rows emitted before
// it: a restarted or retried source resumes after that snapshot, so each
// row is emitted once. Ancestry decides what comes next: if the main branch
// is rolled back past that snapshot, or the snapshots after it expire
// before they are read, the source fails rather than skip rows.
//
// MaxSnapshots or StopAt end the stream (for tests, backfills, or jobs that
// must finish); otherwise it runs until cancelled or drained (a drain ends
// it at once). Invalid configuration panics at construction. Each poll that
// finds nothing new is a self-checkpoint of the splittable DoFn: Beam's
// portable Flink runner (2.70) keeps state for each (apache/beam#27648) and
// its Spark runner runs no self-checkpointing DoFn, so long streams belong
// on prism or Dataflow. Register rowType with beam.RegisterType in an init
// function, as for Write.
func ReadChanges(s beam.Scope, cfg ChangesConfig, rowType reflect.Type) beam.PCollection {
	s = s.Scope("icebergio.ReadChanges")
	cfg = cfg.withDefaults()
	rs, err := rowcodec.New(rowType)
	if err != nil {
		panic(err)
	}
	if err := cfg.check(rs); err != nil {
		panic(err)
	}
	if !cfg.StopAt.IsZero() {
		s = hint.StreamEndsAt(s, cfg.StopAt)
	}
	return beam.ParDo(s, &changesFn{Cfg: cfg, RowType: beam.EncodedType{T: rowType}}, beam.Impulse(s),
		beam.TypeDefinition{Var: beam.XType, T: rowType})
}

// changesRestriction is ReadChanges' position.
type changesRestriction struct {
	// Started says that the start has been resolved into After.
	Started bool
	// After is the last snapshot processed (emitted or skipped); 0 is
	// before the first snapshot of the branch.
	After int64
	// Appends counts the append snapshots emitted (with RowChanges: the
	// snapshots other than replace ones).
	Appends int64
	// Ordinal is the _change_ordinal of the next snapshot (RowChanges):
	// the snapshots other than replace ones processed so far.
	Ordinal int64
	// Done: the stream has ended (or this restriction was checkpointed
	// and its rest handed on).
	Done bool
}

// changesTracker tracks a changesRestriction: a claim moves the position
// to a new value; a checkpoint ends the primary where it stands and hands
// the same position to the residual.
type changesTracker struct {
	mu      sync.Mutex
	rest    changesRestriction
	stopped bool
	err     error
}

// TryClaim claims the move to the restriction given.
func (t *changesTracker) TryClaim(pos any) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	next, ok := pos.(changesRestriction)
	switch {
	case !ok:
		t.err = fmt.Errorf("icebergio: changes tracker: claim of %T", pos)
		return false
	case t.stopped || t.rest.Done:
		return false
	}
	t.rest = next
	return true
}

// finish ends the stream.
func (t *changesTracker) finish() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.rest.Done = true
	t.stopped = true
}

func (t *changesTracker) position() changesRestriction {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.rest
}

func (t *changesTracker) GetError() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.err
}

// TrySplit only checkpoints (fraction 0): the primary is what has been
// claimed, the residual continues from there. Splits at other fractions
// are declined: a change stream is one sequence.
func (t *changesTracker) TrySplit(fraction float64) (primary, residual any, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped || t.rest.Done || fraction > 0 {
		return t.rest, nil, nil
	}
	res := t.rest
	t.rest.Done = true
	t.stopped = true
	return t.rest, res, nil
}

func (t *changesTracker) GetProgress() (done, remaining float64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.rest.Done {
		return float64(t.rest.Appends), 0
	}
	return float64(t.rest.Appends), 1
}

func (t *changesTracker) IsDone() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.err == nil && (t.rest.Done || t.stopped)
}

func (t *changesTracker) GetRestriction() any { return t.position() }

func (t *changesTracker) IsBounded() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.rest.Done
}

// changesWatermark is a watermark estimator whose state (milliseconds)
// survives checkpoints, so that an idle stream's watermark stays where it
// was.
type changesWatermark struct{ ms int64 }

func (e *changesWatermark) CurrentWatermark() time.Time { return mtime.Time(e.ms).ToTime() }

// advance moves the watermark to t unless it is already later.
func (e *changesWatermark) advance(t mtime.Time) {
	if int64(t) > e.ms {
		e.ms = int64(t)
	}
}

// changesFn is ReadChanges' splittable DoFn.
type changesFn struct {
	Cfg     ChangesConfig
	RowType beam.EncodedType

	rs       *rowcodec.Schema
	cat      icecatalog.Catalog
	filter   iceberg.BooleanExpression
	checked  map[int]changesRead // by schema id
	conv     *rowcodec.Converter
	convFor  *arrow.Schema
	changes  *changelog.Reader // RowChanges
	appends  beam.Counter
	skipped  beam.Counter
	rowCount beam.Counter
}

// changesRead is how the rows of snapshots are read under one table schema.
type changesRead struct {
	columns []string // selected, the timestamp column included
}

func (f *changesFn) Setup(ctx context.Context) (err error) {
	if f.rs, err = rowcodec.New(f.RowType.T); err != nil {
		return err
	}
	if f.filter, err = ParseFilter(f.Cfg.Filter); err != nil {
		return err
	}
	f.cat, err = catalog.Open(ctx, f.Cfg.Catalog)
	f.checked = map[int]changesRead{}
	f.changes = changelog.NewReader()
	f.appends = beam.NewCounter("icebergio", "changes_snapshots")
	f.skipped = beam.NewCounter("icebergio", "changes_snapshots_skipped")
	f.rowCount = beam.NewCounter("icebergio", "changes_rows")
	return err
}

func (f *changesFn) CreateInitialRestriction(_ []byte) changesRestriction {
	return changesRestriction{}
}

func (f *changesFn) SplitRestriction(_ []byte, r changesRestriction) []changesRestriction {
	return []changesRestriction{r}
}

func (f *changesFn) RestrictionSize(_ []byte, r changesRestriction) float64 {
	if r.Done {
		return 0
	}
	return 1
}

func (f *changesFn) CreateTracker(r changesRestriction) *changesTracker {
	return &changesTracker{rest: r}
}

// TruncateRestriction ends the stream when a job drains.
func (f *changesFn) TruncateRestriction(rt *changesTracker, _ []byte) changesRestriction {
	r := rt.position()
	r.Done = true
	return r
}

func (f *changesFn) InitialWatermarkEstimatorState(et beam.EventTime, _ changesRestriction, _ []byte) int64 {
	return int64(et)
}

func (f *changesFn) CreateWatermarkEstimator(ms int64) *changesWatermark {
	return &changesWatermark{ms: ms}
}

func (f *changesFn) WatermarkEstimatorState(we *changesWatermark) int64 { return we.ms }

func (f *changesFn) ProcessElement(ctx context.Context, we *changesWatermark, rt *changesTracker, _ []byte, emit func(beam.EventTime, beam.X)) (sdf.ProcessContinuation, error) {
	began := time.Now()
	pos := rt.position()
	if pos.Done {
		return sdf.StopProcessing(), nil
	}
	if f.Cfg.MaxSnapshots > 0 && pos.Appends >= int64(f.Cfg.MaxSnapshots) {
		rt.finish()
		return sdf.StopProcessing(), nil
	}
	polled := time.Now()
	tbl, err := f.load(ctx)
	if err != nil {
		return nil, err
	}
	if !pos.Started {
		after, err := f.start(tbl)
		if err != nil {
			return nil, err
		}
		pos = changesRestriction{Started: true, After: after}
		if !rt.TryClaim(pos) {
			return sdf.StopProcessing(), nil
		}
	}
	pending, err := f.pending(tbl, pos.After)
	if err != nil {
		return nil, err
	}
	for _, snap := range pending {
		if !f.Cfg.StopAt.IsZero() && snap.TimestampMs >= f.Cfg.StopAt.UnixMilli() {
			rt.finish()
			return sdf.StopProcessing(), nil
		}
		next := changesRestriction{Started: true, After: snap.SnapshotID, Appends: pos.Appends, Ordinal: pos.Ordinal}
		op := table.Operation("")
		if snap.Summary != nil {
			op = snap.Summary.Operation
		}
		switch {
		case f.Cfg.Mode == RowChanges && op != table.OpReplace:
			next.Appends++
			next.Ordinal++
			if !rt.TryClaim(next) {
				return sdf.StopProcessing(), nil
			}
			if err := f.emitRowChanges(ctx, tbl, snap, pos.Ordinal, we, emit); err != nil {
				return nil, err
			}
			f.appends.Inc(ctx, 1)
		case op == table.OpAppend && f.Cfg.Mode == AppendedRows:
			next.Appends++
			if !rt.TryClaim(next) {
				return sdf.StopProcessing(), nil
			}
			if err := f.emitSnapshot(ctx, tbl, snap, we, emit); err != nil {
				return nil, err
			}
			f.appends.Inc(ctx, 1)
		case op == table.OpReplace:
			// A compaction or manifest rewrite: the same rows.
			if !rt.TryClaim(next) {
				return sdf.StopProcessing(), nil
			}
		case f.Cfg.OnNonAppend == SkipNonAppend:
			if !rt.TryClaim(next) {
				return sdf.StopProcessing(), nil
			}
			f.skipped.Inc(ctx, 1)
			log.Warnf(ctx, "icebergio: table %s: skipping %s snapshot %d (committed %s): its changes are not emitted",
				f.Cfg.Table, opName(op), snap.SnapshotID, time.UnixMilli(snap.TimestampMs).UTC().Format(time.RFC3339Nano))
		default:
			return nil, fmt.Errorf("icebergio: table %s: snapshot %d (committed %s) is %s, not an append: a change stream cannot express it (set OnNonAppend to %q to skip such snapshots)",
				f.Cfg.Table, snap.SnapshotID, time.UnixMilli(snap.TimestampMs).UTC().Format(time.RFC3339Nano), withArticle(opName(op)), SkipNonAppend)
		}
		if f.Cfg.TimestampColumn == "" {
			we.advance(mtime.FromMilliseconds(snap.TimestampMs))
		}
		pos = next
		if f.Cfg.MaxSnapshots > 0 && pos.Appends >= int64(f.Cfg.MaxSnapshots) {
			rt.finish()
			return sdf.StopProcessing(), nil
		}
		if time.Since(began) > changesBundle {
			return sdf.ResumeProcessingIn(0), nil
		}
	}
	if !f.Cfg.StopAt.IsZero() && !polled.Before(f.Cfg.StopAt) {
		rt.finish()
		return sdf.StopProcessing(), nil
	}
	if f.Cfg.TimestampColumn == "" && f.Cfg.MaxCommitDelay > 0 {
		we.advance(mtime.FromTime(polled.Add(-f.Cfg.MaxCommitDelay)))
	}
	return sdf.ResumeProcessingIn(f.Cfg.PollInterval), nil
}

func opName(op table.Operation) string {
	if op == "" {
		return "snapshot of unknown operation"
	}
	return string(op)
}

func withArticle(s string) string {
	if s != "" && strings.ContainsRune("aeiou", rune(s[0])) {
		return "an " + s
	}
	return "a " + s
}

func (f *changesFn) load(ctx context.Context) (*table.Table, error) {
	ident, err := parseIdent(f.Cfg.Table)
	if err != nil {
		return nil, err
	}
	tbl, err := f.cat.LoadTable(ctx, ident)
	if err != nil {
		return nil, fmt.Errorf("icebergio: loading table %s: %w", f.Cfg.Table, err)
	}
	return tbl, nil
}

// start resolves cfg.From into the snapshot to start after.
func (f *changesFn) start(tbl *table.Table) (int64, error) {
	meta := tbl.Metadata()
	switch f.Cfg.From.Kind {
	case StartLatest:
		if cur := meta.SnapshotByName(table.MainBranch); cur != nil {
			return cur.SnapshotID, nil
		}
		return 0, nil
	case StartAtSnapshot:
		id := f.Cfg.From.SnapshotID
		snap := meta.SnapshotByID(id)
		if snap == nil {
			return 0, fmt.Errorf("icebergio: table %s has no snapshot %d to start from", f.Cfg.Table, id)
		}
		if cur := meta.SnapshotByName(table.MainBranch); cur == nil || !table.IsAncestorOf(cur.SnapshotID, id, meta.SnapshotByID) {
			return 0, fmt.Errorf("icebergio: table %s: snapshot %d to start from is not on the main branch", f.Cfg.Table, id)
		}
		if snap.ParentSnapshotID == nil {
			return 0, nil
		}
		return *snap.ParentSnapshotID, nil
	case StartAtTime:
		// After the newest snapshot committed before the time.
		at := f.Cfg.From.Time.UnixMilli()
		for s := meta.SnapshotByName(table.MainBranch); s != nil; {
			if s.TimestampMs < at {
				return s.SnapshotID, nil
			}
			if s.ParentSnapshotID == nil {
				return 0, nil
			}
			parent := *s.ParentSnapshotID
			if s = meta.SnapshotByID(parent); s == nil {
				return parent, nil // expired: older
			}
		}
		return 0, nil
	}
	return 0, nil
}

// pending returns the snapshots of the main branch after the snapshot
// after (0: from the first), oldest first.
func (f *changesFn) pending(tbl *table.Table, after int64) ([]table.Snapshot, error) {
	meta := tbl.Metadata()
	var chain []table.Snapshot
	for s := meta.SnapshotByName(table.MainBranch); s != nil; {
		if after != 0 && s.SnapshotID == after {
			break
		}
		chain = append(chain, *s)
		if s.ParentSnapshotID == nil {
			if after != 0 {
				return nil, fmt.Errorf("icebergio: table %s: snapshot %d, the last one read, is no longer an ancestor of the main branch (rolled back?): rows may have been removed",
					f.Cfg.Table, after)
			}
			break
		}
		parent := *s.ParentSnapshotID
		if after != 0 && parent == after {
			break
		}
		if s = meta.SnapshotByID(parent); s == nil {
			if after == 0 {
				return nil, fmt.Errorf("icebergio: table %s: the history of the main branch starts at snapshot %d, whose parent %d has expired: reading from the earliest snapshot would miss rows (start FromSnapshot(%d) or Latest)",
					f.Cfg.Table, chain[len(chain)-1].SnapshotID, parent, chain[len(chain)-1].SnapshotID)
			}
			return nil, fmt.Errorf("icebergio: table %s: snapshot %d, the last one read, is not an ancestor of the main branch any more (rolled back, or snapshots after it expired before they were read)",
				f.Cfg.Table, after)
		}
	}
	slices.Reverse(chain)
	return chain, nil
}

// columns returns what snapshots are read with under tbl's current schema,
// checking the row type against it.
func (f *changesFn) columns(tbl *table.Table) (changesRead, error) {
	sc := tbl.Schema()
	if cr, ok := f.checked[sc.ID]; ok {
		return cr, nil
	}
	rs := f.rs
	if f.Cfg.Mode == RowChanges {
		rs = tableFields(rs)
	}
	cols, err := rowcodec.ReadColumns(f.Cfg.Table, rs, sc, f.Cfg.Columns)
	if err != nil {
		return changesRead{}, err
	}
	if _, err := iceberg.BindExpr(sc, f.filter, true); err != nil {
		return changesRead{}, fmt.Errorf("icebergio: table %s: filter %q: %w", f.Cfg.Table, f.Cfg.Filter, err)
	}
	if ts := f.Cfg.TimestampColumn; ts != "" {
		col, ok := rowcodec.TopLevelColumn(sc, ts)
		if !ok {
			return changesRead{}, fmt.Errorf("icebergio: table %s has no timestamp column %q (columns: %s)", f.Cfg.Table, ts, rowcodec.ColumnNames(sc))
		}
		switch col.Type.(type) {
		case iceberg.TimestampType, iceberg.TimestampTzType, iceberg.DateType, iceberg.TimestampNsType, iceberg.TimestampTzNsType:
		default:
			return changesRead{}, fmt.Errorf("icebergio: table %s: timestamp column %s is %s (want timestamp, timestamptz or date)", f.Cfg.Table, ts, col.Type)
		}
		if !slices.Contains(cols, ts) {
			cols = append(cols, ts)
		}
	}
	if len(cols) == 0 {
		cols = []string{sc.Fields()[0].Name}
	}
	cr := changesRead{columns: cols}
	f.checked[sc.ID] = cr
	return cr, nil
}

// emitSnapshot emits the rows of the data files snap added.
func (f *changesFn) emitSnapshot(ctx context.Context, tbl *table.Table, snap table.Snapshot, we *changesWatermark, emit func(beam.EventTime, beam.X)) error {
	cr, err := f.columns(tbl)
	if err != nil {
		return err
	}
	tasks, err := tbl.NewIncrementalAppendScan(table.WithRowFilter(f.filter), table.WithCaseSensitive(true)).
		FromSnapshotInclusive(snap.SnapshotID).ToSnapshot(snap.SnapshotID).PlanFiles(ctx)
	if err != nil {
		return fmt.Errorf("icebergio: table %s: planning the files of snapshot %d: %w", f.Cfg.Table, snap.SnapshotID, err)
	}
	if len(tasks) == 0 {
		return nil
	}
	scan := tbl.Scan(scanOptions(cr.columns, f.filter)...)
	defer scan.Close()
	_, recs, err := scan.ReadTasks(ctx, tasks)
	if err != nil {
		return fmt.Errorf("icebergio: table %s: reading snapshot %d: %w", f.Cfg.Table, snap.SnapshotID, err)
	}
	return f.emitAll(ctx, snap, recs, we, emit)
}

// emitRowChanges emits the row-level changes of snap, whose ordinal is
// ordinal.
func (f *changesFn) emitRowChanges(ctx context.Context, tbl *table.Table, snap table.Snapshot, ordinal int64, we *changesWatermark, emit func(beam.EventTime, beam.X)) error {
	cr, err := f.columns(tbl)
	if err != nil {
		return err
	}
	batches, err := f.changes.Changes(ctx, tbl, &snap, changelog.Options{Columns: cr.columns, Filter: f.filter, Identifier: f.Cfg.Identifier, Ordinal: ordinal})
	if err != nil {
		return fmt.Errorf("icebergio: table %s: the changes of snapshot %d: %w", f.Cfg.Table, snap.SnapshotID, err)
	}
	return f.emitAll(ctx, snap, func(yield func(arrow.RecordBatch, error) bool) {
		for i, rec := range batches {
			if !yield(rec, nil) {
				for _, r := range batches[i+1:] {
					r.Release()
				}
				return
			}
		}
	}, we, emit)
}

// emitAll emits the rows of recs, batches of snap, releasing each, with
// the snapshot's commit time as event time (or the rows' own), and moves
// the watermark to the earliest row's time when rows carry their own.
func (f *changesFn) emitAll(ctx context.Context, snap table.Snapshot, recs iter.Seq2[arrow.RecordBatch, error], we *changesWatermark, emit func(beam.EventTime, beam.X)) error {
	commit := mtime.FromMilliseconds(snap.TimestampMs)
	earliest := mtime.MaxTimestamp
	var n int64
	for rec, err := range recs {
		if err != nil {
			return fmt.Errorf("icebergio: table %s: reading snapshot %d: %w", f.Cfg.Table, snap.SnapshotID, err)
		}
		err := f.emitBatch(rec, commit, &earliest, emit)
		n += rec.NumRows()
		rec.Release()
		if err != nil {
			return fmt.Errorf("icebergio: table %s: snapshot %d: %w", f.Cfg.Table, snap.SnapshotID, err)
		}
	}
	f.rowCount.Inc(ctx, n)
	if f.Cfg.TimestampColumn != "" && earliest != mtime.MaxTimestamp {
		we.advance(earliest)
	}
	return nil
}

func (f *changesFn) emitBatch(rec arrow.RecordBatch, commit mtime.Time, earliest *mtime.Time, emit func(beam.EventTime, beam.X)) error {
	if f.conv == nil || !f.convFor.Equal(rec.Schema()) {
		conv, err := rowcodec.NewConverter(f.rs, rec.Schema())
		if err != nil {
			return err
		}
		f.conv, f.convFor = conv, rec.Schema()
	}
	base, rows, err := f.conv.Convert(rec)
	if err != nil {
		return err
	}
	times, err := eventTimes(rec, f.Cfg.TimestampColumn, commit)
	if err != nil {
		return err
	}
	for i := 0; i < rows; i++ {
		ts := commit
		if times != nil {
			ts = times[i]
			*earliest = min(*earliest, ts)
		}
		emit(ts, f.conv.Row(base, i))
	}
	return nil
}

// eventTimes returns the event time of each row from column name (nil when
// name is empty); nulls take the commit time.
func eventTimes(rec arrow.RecordBatch, name string, commit mtime.Time) ([]mtime.Time, error) {
	if name == "" {
		return nil, nil
	}
	idx := rec.Schema().FieldIndices(name)
	if len(idx) == 0 {
		return nil, fmt.Errorf("timestamp column %s was not read", name)
	}
	out := make([]mtime.Time, rec.NumRows())
	clamp := func(ms int64) mtime.Time {
		return mtime.Time(max(min(ms, int64(mtime.MaxTimestamp)), int64(mtime.MinTimestamp)))
	}
	switch a := rec.Column(idx[0]).(type) {
	case *array.Timestamp:
		toMillis := func(v int64) int64 { return v } // milliseconds
		switch a.DataType().(*arrow.TimestampType).Unit {
		case arrow.Second:
			toMillis = func(v int64) int64 { return v * 1000 }
		case arrow.Microsecond:
			toMillis = func(v int64) int64 { return floorDiv(v, 1000) }
		case arrow.Nanosecond:
			toMillis = func(v int64) int64 { return floorDiv(v, 1_000_000) }
		}
		for i, v := range a.TimestampValues() {
			if a.IsNull(i) {
				out[i] = commit
			} else {
				out[i] = clamp(toMillis(int64(v)))
			}
		}
	case *array.Date32:
		for i, v := range a.Date32Values() {
			if a.IsNull(i) {
				out[i] = commit
			} else {
				out[i] = clamp(int64(v) * 86_400_000)
			}
		}
	default:
		return nil, fmt.Errorf("timestamp column %s is %s", name, a.DataType())
	}
	return out, nil
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b < 0 {
		q--
	}
	return q
}

func init() {
	register.DoFn5x2[context.Context, *changesWatermark, *changesTracker, []byte, func(beam.EventTime, beam.X), sdf.ProcessContinuation, error](&changesFn{})
	register.Emitter2[beam.EventTime, beam.X]()
	beam.RegisterType(reflect.TypeOf((*changesRestriction)(nil)).Elem())
}
