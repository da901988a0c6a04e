package cdc

import (
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/graph/mtime"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
)

func TestOwnerDelta(t *testing.T) {
	for _, c := range []struct {
		kind    string
		bal, n  int64
		wantErr bool
	}{
		{"INSERT", 500, 1, false},
		{"UPDATE_AFTER", 500, 1, false},
		{"DELETE", -500, -1, false},
		{"UPDATE_BEFORE", -500, -1, false},
		{"insert", 0, 0, true},
	} {
		bal, n, err := OwnerDelta(AccountChange{ID: 7, Owner: "o", BalanceCents: 500, ChangeType: c.kind})
		if bal != c.bal || n != c.n || (err != nil) != c.wantErr {
			t.Errorf("%s: got %d, %d, %v; want %d, %d, error %v", c.kind, bal, n, err, c.bal, c.n, c.wantErr)
		}
	}
}

// timedChange is a change and its event time (its snapshot's commit time).
type timedChange struct {
	Change AccountChange
	At     int64 // ms
}

func stampChange(c timedChange) (beam.EventTime, AccountChange) {
	return mtime.FromMilliseconds(c.At), c.Change
}

var (
	ownerRowsMu sync.Mutex
	ownerRows   = map[string][]OwnerTotal{}
)

type collectOwnersFn struct{ Key string }

func (f *collectOwnersFn) ProcessElement(r OwnerTotal) {
	ownerRowsMu.Lock()
	defer ownerRowsMu.Unlock()
	ownerRows[f.Key] = append(ownerRows[f.Key], r)
}

func init() {
	register.Function1x2(stampChange)
	register.DoFn1x0[OwnerTotal](&collectOwnersFn{})
	beam.RegisterType(reflect.TypeOf(timedChange{}))
}

// The rows OwnerTotals emits, applied in their order (highest as_of wins,
// as the sink applies them), leave each owner's totals: an account that
// moves from one owner to another, one deleted, an owner whose last
// account goes (deleted from the view), and one that comes back.
func TestOwnerTotals(t *testing.T) {
	const w = 10_000 // window, ms
	ch := func(at int64, kind string, id int64, owner string, bal int64) timedChange {
		return timedChange{AccountChange{ID: id, Owner: owner, BalanceCents: bal, ChangeType: kind}, at}
	}
	in := []timedChange{
		// window 0: a has accounts 1 and 2, b has 3
		ch(1000, "INSERT", 1, "a", 100), ch(1000, "INSERT", 2, "a", 50), ch(2000, "INSERT", 3, "b", 7),
		// window 1: account 2 moves from a to b with a new balance; 3 goes
		ch(12000, "UPDATE_BEFORE", 2, "a", 50), ch(12000, "UPDATE_AFTER", 2, "b", 60), ch(13000, "DELETE", 3, "b", 7),
		// window 2: c comes and goes within the window (no row); a's last
		// account goes
		ch(21000, "INSERT", 4, "c", 9), ch(22000, "DELETE", 4, "c", 9), ch(23000, "DELETE", 1, "a", 100),
		// window 3: a comes back
		ch(31000, "INSERT", 5, "a", 1),
	}
	p, s := beam.NewPipelineWithRoot()
	changes := beam.ParDo(s, stampChange, beam.CreateList(s, in))
	beam.ParDo0(s, &collectOwnersFn{Key: t.Name()}, OwnerTotals(s, w*time.Millisecond, changes))
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
	ownerRowsMu.Lock()
	rows := slices.Clone(ownerRows[t.Name()])
	ownerRowsMu.Unlock()

	view := map[string]OwnerTotal{}
	for _, r := range rows {
		if v, ok := view[r.Owner]; ok && v.AsOf >= r.AsOf {
			t.Errorf("owner %s: row %+v does not follow %+v", r.Owner, r, v)
		}
		view[r.Owner] = r
	}
	want := map[string]OwnerTotal{
		"a": {Op: "u", Owner: "a", BalanceCents: 1, Accounts: 1, AsOf: 40_000_000},
		"b": {Op: "u", Owner: "b", BalanceCents: 60, Accounts: 1, AsOf: 20_000_000},
	}
	for o, v := range view {
		if v.Op == "d" {
			delete(view, o)
		}
	}
	if !reflect.DeepEqual(view, want) {
		t.Errorf("view %+v\nwant %+v\nrows %+v", view, want, rows)
	}
	if len(rows) != 6 { // a: w0, w1, w2 (delete), w3; b: w0, w1
		t.Errorf("%d rows, want 6 (one per owner and window it changed in): %+v", len(rows), rows)
	}
}
