package cdc

import (
	"context"
	"fmt"
	"reflect"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/graph/mtime"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/icebeam/icebeam/transforms/internal/blocks"
)

// generatedBase is UpdatedAt of change 0: 2026-01-01T00:00:00Z.
var generatedBase = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()

// generatedOps is the cycle each key goes through, one op per round.
var generatedOps = [7]string{"c", "u", "u", "u", "u", "u", "d"}

// Generated is change i (i >= 0) of the generated change stream over keys
// (> 0) accounts, a pure function of i so that a checker can replay the
// stream:
//
//   - key k = i % keys, round r = i / keys; ID = k;
//   - Op is the op at position r % 7 of the cycle c, u, u, u, u, u, d: every
//     key is inserted, updated five times, deleted, and comes back in the
//     next cycle (1/7 of the changes are inserts, 5/7 updates, 1/7 deletes);
//   - LSN = i + 1;
//   - Owner = fmt.Sprintf("owner-%d", (k*7+r)%50);
//   - BalanceCents = (k*1000 + r*37) % 1000000;
//   - UpdatedAt = 2026-01-01T00:00:00Z in microseconds + i*1000;
//   - a delete ("d") keeps Op, LSN and ID and has every other field zero.
func Generated(i, keys int64) Change {
	k, r := i%keys, i/keys
	c := Change{Op: generatedOps[r%7], LSN: i + 1, ID: k}
	if c.Op == "d" {
		return c
	}
	// Reduced modulo 50 and 1000000 first, so that no product overflows
	// at any i.
	c.Owner = owners[((k%50)*7+r%50)%50]
	c.BalanceCents = ((k%1000)*1000 + (r%1000000)*37) % 1000000
	c.UpdatedAt = generatedBase + i*1000
	return c
}

// Mixed is change i (i >= 0) of the benchmark's change stream over keys
// (> 0) accounts, a pure function of i: the first keys changes insert every
// account once (ID = i), and every later change picks a key and an
// operation from h = mix64(i - keys + 1) (SplitMix64's finalizer):
//
//   - ID = h % keys;
//   - Op, from (h >> 40) % 20: below 12 "u", below 17 "c", else "d":
//     60% updates, 25% inserts, 15% deletes, of keys drawn at random, so
//     an insert may find its key live (it then replaces the row, as an
//     upsert) and a delete may find it gone (it then changes nothing);
//   - LSN = i + 1;
//   - Owner = fmt.Sprintf("owner-%d", (h >> 20) % 50);
//   - BalanceCents = (h >> 24) % 1000000;
//   - UpdatedAt = 2026-01-01T00:00:00Z in microseconds + i*1000;
//   - a delete keeps Op, LSN and ID and has every other field zero.
//
// During the load, h = mix64(i + 1), for Owner and BalanceCents.
func Mixed(i, keys int64) Change {
	if i < keys {
		h := mix64(uint64(i) + 1)
		return Change{Op: "c", LSN: i + 1, ID: i, Owner: owners[(h>>20)%50], BalanceCents: int64((h >> 24) % 1000000), UpdatedAt: generatedBase + i*1000}
	}
	h := mix64(uint64(i-keys) + 1)
	c := Change{Op: "d", LSN: i + 1, ID: int64(h % uint64(keys))}
	switch op := (h >> 40) % 20; {
	case op < 12:
		c.Op = "u"
	case op < 17:
		c.Op = "c"
	default:
		return c
	}
	c.Owner = owners[(h>>20)%50]
	c.BalanceCents = int64((h >> 24) % 1000000)
	c.UpdatedAt = generatedBase + i*1000
	return c
}

// mix64 is SplitMix64's finalizer: a bijection of uint64 whose output bits
// all depend on every input bit.
func mix64(z uint64) uint64 {
	z *= 0x9E3779B97F4A7C15
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

var owners = func() (o [50]string) {
	for i := range o {
		o[i] = fmt.Sprintf("owner-%d", i)
	}
	return o
}()

// GenerateConfig shapes the generated stream.
type GenerateConfig struct {
	// Keys is how many accounts the stream changes (default 1000).
	Keys int64
	// Interval is the time between changes (default 5s). Changes that
	// fall due while the source sleeps are emitted together at its next
	// wake-up, so a microsecond interval gives a fast stream, not a bundle
	// per change. A source that cannot keep up falls behind and still
	// emits every change, each timestamped when it fell due.
	Interval time.Duration
	// Duration bounds the stream to the changes due in [Start,
	// Start+Duration): once they are emitted the source stops and the
	// pipeline can finish. Zero runs until the job is cancelled.
	Duration time.Duration
	// Start is when change 0 is due; zero means now.
	Start time.Time
	// BundleLength is how long the generator emits, sleeping between due
	// changes, before it ends a bundle (default 100ms; 1s on portable
	// runners). Bundles must end: prism passes a bundle's output on only
	// when it ends, and Flink checkpoints between bundles. On Beam's
	// portable Flink runner they must not end often: see
	// clicks.Config.BundleLength.
	BundleLength time.Duration
	// Mixed generates Mixed(i, Keys) instead of Generated(i, Keys): the
	// benchmark's stream of random keys, 60% updates, 25% inserts and 15%
	// deletes after a load of every key.
	Mixed bool
	// Records emits the changes as Arrow record batches of Schema(), each
	// an Arrow IPC stream ([]byte) for icebergio.WriteRecords, of up to
	// 65,536 changes due together and timestamped when the first fell
	// due, instead of one element per change: what lets a pipeline carry
	// millions of changes a second.
	Records bool
}

// Generate returns the unbounded PCollection<Change> of Generated(i, Keys)
// (or Mixed) for i = 0, 1, 2, ..., change i due at Start + i*Interval and
// timestamped then; with Records, a PCollection<[]byte> of batches of them.
func Generate(s beam.Scope, cfg GenerateConfig) beam.PCollection {
	s = s.Scope("cdc.Generate")
	if cfg.Keys < 0 {
		panic(fmt.Sprintf("cdc: negative Keys %d", cfg.Keys))
	}
	if cfg.Keys == 0 {
		cfg.Keys = 1000
	}
	if cfg.Interval <= 0 {
		cfg.Interval = 5 * time.Second
	}
	s, sp, bundle := blocks.Paced(s, "cdc", cfg.Start, cfg.Interval, cfg.Duration, cfg.BundleLength)
	out := reflect.TypeFor[Change]()
	if cfg.Records {
		out = reflect.TypeFor[[]byte]()
	}
	fn := &generateFn{Keys: cfg.Keys, BundleNanos: int64(bundle), Mixed: cfg.Mixed, Records: cfg.Records}
	return beam.ParDo(s, fn, beam.Create(s, sp), beam.TypeDefinition{Var: beam.XType, T: out})
}

// generateFn emits the changes of a span as they fall due. It is
// splittable so that it can sleep between wake-ups (a resumed residual) and
// emit in bundles of bounded length.
type generateFn struct {
	blocks.Restrictions[blocks.Interval]
	Keys        int64
	BundleNanos int64
	Mixed       bool
	Records     bool
}

func (f *generateFn) ProcessElement(ctx context.Context, we *sdf.ManualWatermarkEstimator, rt *blocks.Tracker, sp blocks.Interval, emit func(beam.EventTime, beam.X)) (sdf.ProcessContinuation, error) {
	change := Generated
	if f.Mixed {
		change = Mixed
	}
	if f.Records {
		batch := func(from, to int64) arrow.RecordBatch { return changesBatch(change, f.Keys, from, to) }
		return blocks.PaceBatches(ctx, we, rt, sp, time.Duration(f.BundleNanos), nil, batch, emit)
	}
	return blocks.Pace(ctx, we, rt, sp, time.Duration(f.BundleNanos), nil, func(from, to int64, _ time.Time) error {
		for i := from; i < to; i++ {
			emit(mtime.FromTime(sp.DueAt(i)), change(i, f.Keys))
		}
		return nil
	})
}

func init() {
	register.DoFn5x2[context.Context, *sdf.ManualWatermarkEstimator, *blocks.Tracker, blocks.Interval,
		func(beam.EventTime, beam.X), sdf.ProcessContinuation, error](&generateFn{})
	register.Emitter2[beam.EventTime, beam.X]()
}
