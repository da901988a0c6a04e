package cdc

import (
	"fmt"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/icebeam/icebeam/transforms/internal/arrowipc"
	"github.com/icebeam/icebeam/transforms/internal/blocks"
)

// base is 2026-01-01T00:00:00Z in microseconds: 20454 days after the epoch.
const base = 20454 * 86400 * 1_000_000

func TestGeneratedByHand(t *testing.T) {
	cases := []struct {
		i, keys int64
		want    Change
	}{
		{0, 3, Change{Op: "c", LSN: 1, ID: 0, Owner: "owner-0", BalanceCents: 0, UpdatedAt: base}},
		// k=1, r=1: (7+1)%50, 1000+37
		{4, 3, Change{Op: "u", LSN: 5, ID: 1, Owner: "owner-8", BalanceCents: 1037, UpdatedAt: base + 4000}},
		// k=2, r=6: the delete of the first cycle
		{20, 3, Change{Op: "d", LSN: 21, ID: 2}},
		// k=2, r=7: back in the second cycle; (14+7)%50, 2000+259
		{23, 3, Change{Op: "c", LSN: 24, ID: 2, Owner: "owner-21", BalanceCents: 2259, UpdatedAt: base + 23000}},
		// k=456, r=123 (123%7 = 4); (3192+123)%50, (456000+4551)%1000000
		{123456, 1000, Change{Op: "u", LSN: 123457, ID: 456, Owner: "owner-15", BalanceCents: 460551, UpdatedAt: base + 123456000}},
		// k=999, r=1001 (1001%7 = 0): (6993+1001)%50 = 44,
		// (999000+37037)%1000000 = 36037
		{1001999, 1000, Change{Op: "c", LSN: 1002000, ID: 999, Owner: "owner-44", BalanceCents: 36037, UpdatedAt: base + 1001999000}},
	}
	for _, c := range cases {
		if got := Generated(c.i, c.keys); got != c.want {
			t.Errorf("Generated(%d, %d) = %+v, want %+v", c.i, c.keys, got, c.want)
		}
	}
}

func TestGeneratedCycles(t *testing.T) {
	const keys = 5
	for cycle := range int64(3) {
		ops := map[int64][]string{}
		for i := cycle * 7 * keys; i < (cycle+1)*7*keys; i++ {
			c := Generated(i, keys)
			ops[c.ID] = append(ops[c.ID], c.Op)
		}
		want := []string{"c", "u", "u", "u", "u", "u", "d"}
		if len(ops) != keys {
			t.Errorf("cycle %d changes %d keys, want %d", cycle, len(ops), keys)
		}
		for id, got := range ops {
			if !slices.Equal(got, want) {
				t.Errorf("cycle %d: key %d goes %v, want %v", cycle, id, got, want)
			}
		}
	}
}

func TestGeneratedReplayedByHand(t *testing.T) {
	const keys = 2
	firstN := func(n int64) []Change {
		var cs []Change
		for i := range n {
			cs = append(cs, Generated(i, keys))
		}
		return cs
	}
	cases := []struct {
		n    int64
		want map[int64]Account
	}{
		{0, map[int64]Account{}},
		// i=0 inserts key 0
		{1, map[int64]Account{0: {ID: 0, Owner: "owner-0", UpdatedAt: base}}},
		// key 0 deleted at i=12 (r=6); key 1 last updated at i=11 (r=5):
		// owner (7+5)%50, balance 1000+5*37
		{13, map[int64]Account{1: {ID: 1, Owner: "owner-12", BalanceCents: 1185, UpdatedAt: base + 11000}}},
		// both deleted at the end of their first cycle
		{14, map[int64]Account{}},
		// key 0 updated at i=16 (r=8): owner 8%50, balance 8*37; key 1
		// inserted again at i=15 (r=7): owner (7+7)%50, balance 1000+7*37
		{17, map[int64]Account{
			0: {ID: 0, Owner: "owner-8", BalanceCents: 296, UpdatedAt: base + 16000},
			1: {ID: 1, Owner: "owner-14", BalanceCents: 1259, UpdatedAt: base + 15000},
		}},
	}
	for _, c := range cases {
		if got := Replay(firstN(c.n)); !maps.Equal(got, c.want) {
			t.Errorf("Replay of the first %d changes = %v, want %v", c.n, got, c.want)
		}
	}
}

// A stream that started in the past has all its changes due at once, so
// the exact count is known: every change 0..n-1 exactly once, timestamped
// when it fell due.
func TestGenerateEmitsEveryDueChangeOnce(t *testing.T) {
	const n, keys = 700, 3
	interval := 2 * time.Millisecond
	start := time.Now().Add(-time.Minute).Truncate(time.Millisecond)
	p, s := beam.NewPipelineWithRoot()
	col := Generate(s, GenerateConfig{Keys: keys, Interval: interval, Duration: n * interval, Start: start})
	got, err := runCollecting(t, p, s, col)
	if err != nil {
		t.Fatal(err)
	}
	checkGenerated(t, got, n, keys, start, interval)
}

// A stream that starts now sleeps until its changes fall due.
func TestGeneratePacesChanges(t *testing.T) {
	const n, keys = 20, 4
	interval := 75 * time.Millisecond
	start := time.Now().Truncate(time.Millisecond)
	p, s := beam.NewPipelineWithRoot()
	col := Generate(s, GenerateConfig{Keys: keys, Interval: interval, Duration: n * interval, Start: start})
	got, err := runCollecting(t, p, s, col)
	if err != nil {
		t.Fatal(err)
	}
	if took, last := time.Since(start), (n-1)*interval; took < last {
		t.Errorf("the stream ended %v after its start, before its last change fell due at %v", took, last)
	}
	checkGenerated(t, got, n, keys, start, interval)
}

func checkGenerated(t *testing.T, got []stamped, n, keys int64, start time.Time, interval time.Duration) {
	t.Helper()
	if int64(len(got)) != n {
		t.Fatalf("got %d changes, want %d", len(got), n)
	}
	for i, c := range got {
		i := int64(i)
		if want := Generated(i, keys); c.Change != want {
			t.Fatalf("change %d: %+v, want %+v", i, c.Change, want)
		}
		if want := start.Add(time.Duration(i) * interval); !c.At.Equal(want) {
			t.Fatalf("change %d timestamped %v, want %v", i, c.At, want)
		}
	}
}

// Mixed's keys and operations come from SplitMix64, whose first outputs
// from seed 0 are published: 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4.
// The fields below are those numbers taken apart by hand (in Python).
func TestMixedByHand(t *testing.T) {
	cases := []struct {
		i, keys int64
		want    Change
	}{
		// the load: key i, h = 0xe220a8397b1dcdaf, then 0x6e789e6aa1b965f4
		{0, 1000, Change{Op: "c", LSN: 1, ID: 0, Owner: "owner-37", BalanceCents: 504571, UpdatedAt: base}},
		{1, 1000, Change{Op: "c", LSN: 2, ID: 1, Owner: "owner-1", BalanceCents: 50465, UpdatedAt: base + 1000}},
		// h = 0xe220a8397b1dcdaf: h%1000 = 535, (h>>40)%20 = 16: an insert
		{1000, 1000, Change{Op: "c", LSN: 1001, ID: 535, Owner: "owner-37", BalanceCents: 504571, UpdatedAt: base + 1000000}},
		// h = 0x6e789e6aa1b965f4: h%1000 = 700, (h>>40)%20 = 18: a delete
		{1001, 1000, Change{Op: "d", LSN: 1002, ID: 700}},
	}
	for _, c := range cases {
		if got := Mixed(c.i, c.keys); got != c.want {
			t.Errorf("Mixed(%d, %d) = %+v, want %+v", c.i, c.keys, got, c.want)
		}
	}
}

func TestMixedShares(t *testing.T) {
	const keys, n = 1000, 200000
	ops := map[string]int{}
	ids := map[int64]bool{}
	for i := int64(keys); i < keys+n; i++ {
		c := Mixed(i, keys)
		ops[c.Op]++
		ids[c.ID] = true
	}
	for op, want := range map[string]float64{"u": 0.60, "c": 0.25, "d": 0.15} {
		if got := float64(ops[op]) / n; got < want-0.01 || got > want+0.01 {
			t.Errorf("%s: %.3f of the changes, want %.2f", op, got, want)
		}
	}
	if len(ids) != keys {
		t.Errorf("the changes touch %d keys, want all %d", len(ids), keys)
	}
}

// With Records the changes come in Arrow batches: read back column by
// column, they are Mixed's, each once, and each batch is timestamped when
// its first change fell due.
func TestGenerateRecords(t *testing.T) {
	const n, keys = 200_000, 1000
	interval := time.Microsecond
	start := time.Now().Add(-time.Minute).Truncate(time.Millisecond)
	p, s := beam.NewPipelineWithRoot()
	col := Generate(s, GenerateConfig{Keys: keys, Interval: interval, Duration: n * interval, Start: start, Mixed: true, Records: true})
	key := t.Name()
	beam.ParDo0(s, &collectBatchFn{Key: key}, col)
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
	batchesMu.Lock()
	got := batches[key]
	batchesMu.Unlock()
	if len(got) < 2 {
		t.Errorf("%d batches, want several (at most %d changes each)", len(got), blocks.BatchRows)
	}
	seen := make([]bool, n)
	for _, b := range got {
		for j, c := range b.changes {
			i := c.LSN - 1
			if i < 0 || i >= n || seen[i] {
				t.Fatalf("change with LSN %d: outside the stream or seen twice", c.LSN)
			}
			seen[i] = true
			if want := Mixed(i, keys); c != want {
				t.Fatalf("change %d: %+v, want %+v", i, c, want)
			}
			if j == 0 {
				// Beam's event times are whole milliseconds.
				if want := start.Add(time.Duration(i) * interval).Truncate(time.Millisecond); !b.at.Equal(want) {
					t.Errorf("batch starting at change %d timestamped %v, want %v", i, b.at, want)
				}
			}
		}
	}
	for i, ok := range seen {
		if !ok {
			t.Fatalf("change %d missing", i)
		}
	}
}

type stampedBatch struct {
	at      time.Time
	changes []Change
}

var (
	batchesMu sync.Mutex
	batches   = map[string][]stampedBatch{}
)

// collectBatchFn reads each batch back into Changes, column by column by
// name, and appends it to batches[Key].
type collectBatchFn struct{ Key string }

func (f *collectBatchFn) ProcessElement(ts beam.EventTime, b []byte) error {
	rec, err := arrowipc.Decode(b)
	if err != nil {
		return err
	}
	defer rec.Release()
	if !rec.Schema().Equal(Schema()) {
		return fmt.Errorf("batch schema %s, want %s", rec.Schema(), Schema())
	}
	col := func(name string) arrow.Array { return rec.Column(rec.Schema().FieldIndices(name)[0]) }
	ops, owners := col("op").(*array.String), col("owner").(*array.String)
	lsns, ids, balances := col("lsn").(*array.Int64), col("id").(*array.Int64), col("balance_cents").(*array.Int64)
	updated := col("updated_at").(*array.Timestamp)
	cs := make([]Change, rec.NumRows())
	for r := range cs {
		cs[r] = Change{Op: ops.Value(r), LSN: lsns.Value(r), ID: ids.Value(r), Owner: owners.Value(r),
			BalanceCents: balances.Value(r), UpdatedAt: int64(updated.Value(r))}
	}
	batchesMu.Lock()
	defer batchesMu.Unlock()
	batches[f.Key] = append(batches[f.Key], stampedBatch{at: ts.ToTime(), changes: cs})
	return nil
}

func init() { register.DoFn2x1[beam.EventTime, []byte, error](&collectBatchFn{}) }
