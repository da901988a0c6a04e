package clicks

import (
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/icebeam/icebeam/transforms/internal/arrowipc"
)

func TestMain(m *testing.M) { ptest.MainWithDefault(m, "prism") }

func TestForIndexMatchesTheJavaExample(t *testing.T) {
	// Hand-checked against the Java lambda: "user-" + (i % 10), i % 100.
	cases := map[int64]Click{
		0:   {"user-0", 0},
		7:   {"user-7", 7},
		10:  {"user-0", 10},
		99:  {"user-9", 99},
		100: {"user-0", 0},
		123: {"user-3", 23},
	}
	for i, want := range cases {
		if got := ForIndex(i); got != want {
			t.Errorf("ForIndex(%d) = %+v, want %+v", i, got, want)
		}
	}
}

// A stream that started in the past has all its rows due at once, so the
// exact row count is known: every row 0..n-1 exactly once.
func TestGenerateEmitsEveryDueRowOnce(t *testing.T) {
	const n = 1500
	interval := 4 * time.Millisecond
	p, s := beam.NewPipelineWithRoot()
	got := Generate(s, Config{
		Interval: interval,
		Duration: n * interval,
		Start:    time.Now().Add(-time.Minute),
	})
	want := make([]any, n)
	for i := range want {
		want[i] = Click{UserID: "user-" + string(rune('0'+i%10)), ClickCount: int64(i % 100)}
	}
	passert.Equals(s, got, want...)
	ptest.RunAndValidate(t, p)
}

func TestGenerateSequenced(t *testing.T) {
	const n = 300
	interval := time.Millisecond
	p, s := beam.NewPipelineWithRoot()
	got := Generate(s, Config{Interval: interval, Duration: n * interval, Start: time.Now().Add(-time.Minute), Sequenced: true})
	want := make([]any, n)
	for i := range want {
		want[i] = SequencedClick{Seq: int64(i), UserID: "user-" + string(rune('0'+i%10)), ClickCount: int64(i % 100)}
	}
	passert.Equals(s, got, want...)
	ptest.RunAndValidate(t, p)
}

// Users spreads the rows over that many user ids, as rows and as records.
func TestGenerateUsers(t *testing.T) {
	const n, users = 2500, 1000
	interval := time.Millisecond
	p, s := beam.NewPipelineWithRoot()
	cfg := Config{Interval: interval, Duration: n * interval, Start: time.Now().Add(-time.Minute), Sequenced: true, Users: users}
	got := Generate(s, cfg)
	want := make([]any, n)
	for i := range want {
		want[i] = SequencedClick{Seq: int64(i), UserID: fmt.Sprintf("user-%d", i%users), ClickCount: int64(i % 100)}
	}
	passert.Equals(s, got, want...)
	cfg.Records = true
	beam.ParDo0(s, &collectBytesFn{}, Generate(s, cfg))
	collected = nil
	ptest.RunAndValidate(t, p)
	rows := 0
	for _, b := range collected {
		rec, err := arrowipc.Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		seqs, ids := rec.Column(0).(*array.Int64), rec.Column(1).(*array.String)
		for r := range int(rec.NumRows()) {
			if want := fmt.Sprintf("user-%d", seqs.Value(r)%users); ids.Value(r) != want {
				t.Fatalf("row %d: user_id %s, want %s", seqs.Value(r), ids.Value(r), want)
			}
			rows++
		}
		rec.Release()
	}
	if rows != n {
		t.Fatalf("%d rows as records, want %d", rows, n)
	}
}

// With Records the rows come as Arrow batches of Schema: decoded, they are
// rows 0..n-1 exactly once, as ForIndex's hand-checked rule makes them, in
// batches of at most 65,536 rows. The stream is due partly at once and
// partly while it runs, so that batches are cut both by size and by time.
func TestGenerateRecords(t *testing.T) {
	const n = 300_000
	interval := time.Microsecond
	p, s := beam.NewPipelineWithRoot()
	batches := Generate(s, Config{Interval: interval, Duration: n * interval, Start: time.Now().Add(-n * interval / 2), Sequenced: true, Records: true})
	beam.ParDo0(s, &collectBytesFn{}, batches)
	collected = nil
	ptest.RunAndValidate(t, p)
	seen := make([]bool, n)
	for _, b := range collected {
		rec, err := arrowipc.Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		if !rec.Schema().Equal(Schema(true)) || rec.NumRows() > 1<<16 {
			t.Fatalf("batch of %d rows, schema %s", rec.NumRows(), rec.Schema())
		}
		seqs, users, counts := rec.Column(0).(*array.Int64), rec.Column(1).(*array.String), rec.Column(2).(*array.Int64)
		for r := range int(rec.NumRows()) {
			i := seqs.Value(r)
			if seen[i] {
				t.Fatalf("row %d twice", i)
			}
			seen[i] = true
			if u, c := users.Value(r), counts.Value(r); u != "user-"+strconv.Itoa(int(i%10)) || c != i%100 {
				t.Fatalf("row %d is (%s, %d)", i, u, c)
			}
		}
		rec.Release()
	}
	for i, ok := range seen {
		if !ok {
			t.Fatalf("row %d missing", i)
		}
	}
}

var (
	collectedMu sync.Mutex
	collected   [][]byte
)

type collectBytesFn struct{}

func (collectBytesFn) ProcessElement(b []byte) {
	collectedMu.Lock()
	defer collectedMu.Unlock()
	collected = append(collected, b)
}

func init() { register.DoFn1x0[[]byte](&collectBytesFn{}) }
