package cdc

import (
	"cmp"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
)

func TestMain(m *testing.M) { ptest.MainWithDefault(m, "prism") }

func TestReplayHighestLSNWins(t *testing.T) {
	changes := []Change{
		{Op: "u", LSN: 5, ID: 1, Owner: "b", BalanceCents: 50},
		{Op: "c", LSN: 1, ID: 1, Owner: "a", BalanceCents: 10},
		{Op: "u", LSN: 3, ID: 1, Owner: "c", BalanceCents: 30},
		{Op: "r", LSN: 2, ID: 2, Owner: "snap", BalanceCents: 7, UpdatedAt: 99},
	}
	want := map[int64]Account{
		1: {ID: 1, Owner: "b", BalanceCents: 50},
		2: {ID: 2, Owner: "snap", BalanceCents: 7, UpdatedAt: 99},
	}
	if got := Replay(changes); !maps.Equal(got, want) {
		t.Errorf("Replay = %v, want %v", got, want)
	}
}

func TestReplayDeletes(t *testing.T) {
	changes := []Change{
		// deleted, then inserted again
		{Op: "c", LSN: 1, ID: 2, Owner: "x"},
		{Op: "d", LSN: 2, ID: 2},
		{Op: "c", LSN: 3, ID: 2, Owner: "z"},
		// an older insert arriving after the delete does not revive it
		{Op: "d", LSN: 10, ID: 3},
		{Op: "c", LSN: 4, ID: 3, Owner: "old"},
		// deleted for good
		{Op: "c", LSN: 5, ID: 4, Owner: "y"},
		{Op: "d", LSN: 6, ID: 4, Owner: "y"},
	}
	want := map[int64]Account{2: {ID: 2, Owner: "z"}}
	if got := Replay(changes); !maps.Equal(got, want) {
		t.Errorf("Replay = %v, want %v", got, want)
	}
}

func TestReplayEqualLSNsLaterWins(t *testing.T) {
	changes := []Change{
		{Op: "u", LSN: 7, ID: 4, Owner: "x"},
		{Op: "u", LSN: 7, ID: 4, Owner: "y"},
		{Op: "u", LSN: 7, ID: 5, Owner: "gone"},
		{Op: "d", LSN: 7, ID: 5},
		{Op: "d", LSN: 7, ID: 6},
		{Op: "u", LSN: 7, ID: 6, Owner: "w"},
	}
	want := map[int64]Account{4: {ID: 4, Owner: "y"}, 6: {ID: 6, Owner: "w"}}
	if got := Replay(changes); !maps.Equal(got, want) {
		t.Errorf("Replay = %v, want %v", got, want)
	}
}

func TestReplayRefusesUnknownOps(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), `unknown op "t"`) {
			t.Errorf("Replay of a truncate: panic %v, want one naming the op", r)
		}
	}()
	Replay([]Change{{Op: "c", LSN: 1, ID: 1}, {Op: "t", LSN: 2, ID: 1}})
}

// stamped is a collected change with its event time.
type stamped struct {
	Change
	At time.Time
}

var (
	collectedMu sync.Mutex
	collected   = map[string][]stamped{}
)

// collectFn appends the changes it sees to collected[Key]: prism runs the
// pipeline's workers in this process.
type collectFn struct{ Key string }

func (f *collectFn) ProcessElement(ts beam.EventTime, c Change) {
	collectedMu.Lock()
	defer collectedMu.Unlock()
	collected[f.Key] = append(collected[f.Key], stamped{Change: c, At: ts.ToTime()})
}

func init() { register.DoFn2x0[beam.EventTime, Change](&collectFn{}) }

// runCollecting runs p, whose changes col are collected, and returns them
// sorted by LSN.
func runCollecting(t *testing.T, p *beam.Pipeline, s beam.Scope, col beam.PCollection) ([]stamped, error) {
	t.Helper()
	key := t.Name()
	collectedMu.Lock()
	delete(collected, key)
	collectedMu.Unlock()
	beam.ParDo0(s, &collectFn{Key: key}, col)
	err := ptest.Run(p)
	collectedMu.Lock()
	got := slices.Clone(collected[key])
	collectedMu.Unlock()
	slices.SortFunc(got, func(a, b stamped) int {
		return cmp.Or(cmp.Compare(a.LSN, b.LSN), cmp.Compare(a.ID, b.ID))
	})
	return got, err
}
