// Package clicks generates the click stream of Google's "streaming write to
// Iceberg with a REST catalog" example: row i (i = 0, 1, 2, ...) has user_id
// "user-" + i%10 and click_count i%100, one row every Interval (Users widens
// the user ids, to spread rows over many tables). It is the Go
// counterpart of Java's GenerateSequence.from(0).withRate(1, 5s), and fast
// enough at tiny intervals to load-test a sink.
package clicks

import (
	"context"
	"reflect"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/graph/mtime"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/icebeam/icebeam/transforms/internal/blocks"
)

// Click is one generated row; its beam tags are the Iceberg column names.
type Click struct {
	UserID     string `beam:"user_id"`
	ClickCount int64  `beam:"click_count"`
}

// SequencedClick is a Click with its position in the stream, so that a
// reader can check delivery: every Seq 0..n-1 exactly once.
type SequencedClick struct {
	Seq        int64  `beam:"seq"`
	UserID     string `beam:"user_id"`
	ClickCount int64  `beam:"click_count"`
}

// ForIndex is the row the example generates for sequence number i.
func ForIndex(i int64) Click {
	return forIndex(i, exampleUsers)
}

// forIndex is row i of a stream of len(users) user ids.
func forIndex(i int64, users []string) Click {
	return Click{UserID: users[i%int64(len(users))], ClickCount: i % 100}
}

// exampleUsers are the example's ten user ids.
var exampleUsers = userIDs(10)

// userIDs are "user-0" .. "user-(n-1)".
func userIDs(n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = "user-" + strconv.Itoa(i)
	}
	return ids
}

// Config shapes the stream.
type Config struct {
	// Interval is the time between rows (default 5s, the example's rate).
	// Rows that fall due while the source sleeps are emitted together at its
	// next wake-up, so a microsecond interval gives a fast stream, not a
	// bundle per row. A source that cannot keep up falls behind and still
	// emits every row, each timestamped when it fell due.
	Interval time.Duration
	// Duration bounds the stream to the rows due in [Start, Start+Duration):
	// once they are emitted the source stops and the pipeline can finish.
	// Zero runs until the job is cancelled.
	Duration time.Duration
	// Start is when row 0 is due; zero means now.
	Start time.Time
	// Users is the number of distinct user ids: row i's is "user-" +
	// i%Users (default 10, the example's). Written through a table
	// template such as clicks.user_{user_id}, it is the number of tables.
	Users int
	// Sequenced emits SequencedClick rows instead of Click.
	Sequenced bool
	// Records emits the rows as Arrow record batches of Schema(Sequenced),
	// each an Arrow IPC stream ([]byte) for icebergio.WriteRecords, of up
	// to 65,536 rows due together, instead of one element per row: what
	// lets a pipeline carry millions of rows a second (see docs/sink.md).
	Records bool
	// BundleLength is how long the generator emits, sleeping between due
	// rows, before it ends a bundle (default 100ms; 1s on portable runners,
	// see below). Bundles must end:
	// prism passes a bundle's output on only when it ends, and Flink
	// checkpoints between bundles. On Beam's portable Flink runner they
	// must not end often: its 2.70 release keeps a state name for every
	// self-checkpoint of a splittable DoFn and fails past 32,767 of them
	// (apache/beam#27648), and it rounds the requested wait down to whole
	// seconds, turning short waits into a busy loop of checkpoints. A
	// second lasts about nine hours there.
	BundleLength time.Duration
}

// Generate returns the unbounded PCollection<Click> (or
// PCollection<SequencedClick>) for rows 0, 1, 2, ..., each timestamped at
// the moment it fell due.
func Generate(s beam.Scope, cfg Config) beam.PCollection {
	s = s.Scope("clicks.Generate")
	if cfg.Interval <= 0 {
		cfg.Interval = 5 * time.Second
	}
	s, sp, bundle := blocks.Paced(s, "clicks", cfg.Start, cfg.Interval, cfg.Duration, cfg.BundleLength)
	row := reflect.TypeFor[Click]()
	switch {
	case cfg.Records:
		row = reflect.TypeFor[[]byte]()
	case cfg.Sequenced:
		row = reflect.TypeFor[SequencedClick]()
	}
	if cfg.Users <= 0 {
		cfg.Users = len(exampleUsers)
	}
	fn := &generateFn{Sequenced: cfg.Sequenced, Records: cfg.Records, Users: cfg.Users, BundleNanos: int64(bundle)}
	return beam.ParDo(s, fn, beam.Create(s, sp), beam.TypeDefinition{Var: beam.XType, T: row})
}

// generateFn emits the rows of a span as they fall due. It is splittable
// so that it can sleep between wake-ups (a resumed residual) and emit in
// bundles of bounded length.
type generateFn struct {
	blocks.Restrictions[blocks.Interval]
	Sequenced   bool
	Records     bool
	Users       int
	BundleNanos int64

	users []string // the Users user ids, built at Setup
}

func (f *generateFn) Setup() {
	f.users = exampleUsers
	if f.Users > 0 && f.Users != len(exampleUsers) {
		f.users = userIDs(f.Users)
	}
}

func (f *generateFn) ProcessElement(ctx context.Context, we *sdf.ManualWatermarkEstimator, rt *blocks.Tracker, sp blocks.Interval, emit func(beam.EventTime, beam.X)) (sdf.ProcessContinuation, error) {
	if f.Records {
		return f.emitRecords(ctx, we, rt, sp, emit)
	}
	return blocks.Pace(ctx, we, rt, sp, time.Duration(f.BundleNanos), stopping.Load, func(from, to int64, _ time.Time) error {
		for i := from; i < to; i++ {
			c := forIndex(i, f.users)
			if f.Sequenced {
				emit(mtime.FromTime(sp.DueAt(i)), SequencedClick{Seq: i, UserID: c.UserID, ClickCount: c.ClickCount})
			} else {
				emit(mtime.FromTime(sp.DueAt(i)), c)
			}
		}
		return nil
	})
}

// stopping is set by Stop.
var stopping atomic.Bool

// Stop ends every generator running in this process after the rows it has
// emitted, as a drain would: their streams end, so the pipeline commits its
// open windows and finishes. A runner's remote workers are not reached; on
// Dataflow, drain the job instead.
func Stop() { stopping.Store(true) }

func init() {
	register.DoFn5x2[context.Context, *sdf.ManualWatermarkEstimator, *blocks.Tracker, blocks.Interval,
		func(beam.EventTime, beam.X), sdf.ProcessContinuation, error](&generateFn{})
	register.Emitter2[beam.EventTime, beam.X]()
	beam.RegisterType(reflect.TypeOf((*Click)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*SequencedClick)(nil)).Elem())
}
