package cdc

import (
	"context"
	"fmt"
	"reflect"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/graph/window"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/state"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

// AccountChange is one row-level change of the accounts table, as
// icebergio.ReadChanges emits it with Mode icebergio.RowChanges (the
// table's columns id, owner and balance_cents, and the change's type).
type AccountChange struct {
	ID           int64  `beam:"id"`
	Owner        string `beam:"owner"`
	BalanceCents int64  `beam:"balance_cents"`
	// ChangeType is INSERT, DELETE, UPDATE_BEFORE or UPDATE_AFTER.
	ChangeType string `beam:"_change_type"`
}

// OwnerTotal is one row of the per-owner view OwnerTotals keeps: an
// owner's total balance and number of accounts, and the change the sink
// applies (icebergio.Changes mode with Key owner, Op op, Order as_of).
type OwnerTotal struct {
	// Op is "u" (the owner's row is this one) or "d" (the owner has no
	// accounts left: its row is deleted). Not written to the table.
	Op           string `beam:"op"`
	Owner        string `beam:"owner"`
	BalanceCents int64  `beam:"balance_cents"`
	Accounts     int64  `beam:"accounts"`
	// AsOf is the end of the last window of commit time whose changes the
	// row holds, microseconds since the epoch; it is also the sink's
	// ordering value, so it grows with every row of an owner (by 1 µs past
	// the previous row when a late window comes after a later one).
	AsOf int64 `beam:"as_of" iceberg:"timestamptz"`
}

// OwnerTotalsLateness is how late (in event time, behind the watermark) a
// change may reach OwnerTotals and still be counted: icebergio.ReadChanges
// holds its watermark a minute (MaxCommitDelay) behind an idle table's
// clock, so a change is late only if its snapshot's commit took longer
// than that.
const OwnerTotalsLateness = time.Hour

// OwnerTotals turns a row-level change stream of the accounts table
// (AccountChange rows, event time their snapshot's commit time, as
// icebergio.ReadChanges gives them) into the changes of a per-owner view:
// each owner's total balance_cents and number of accounts.
//
// Each change is a delta of its row's owner: INSERT and UPDATE_AFTER add
// the row's balance and one account, DELETE and UPDATE_BEFORE subtract
// them (an update that moves an account to another owner is a pair of
// deltas to two owners). Deltas are summed per owner in fixed windows of
// size, then a stateful DoFn in the global window, keyed by owner, adds
// each window's sum to the owner's running total (a ValueState) and emits
// the new total, once per owner and window in which the owner changed, as
// an OwnerTotal to write with icebergio.Changes (Key owner, Op "op", Order
// "as_of"). An owner whose accounts and balance fall to zero gets a delete;
// its state stays (three integers), so a later account starts again from
// zero. An owner left with no accounts (or fewer) and a balance is kept,
// logged and counted (cdc/owner_totals_inconsistent): the stream missed
// changes.
//
// The totals are exact under replays and restores as long as the runner
// checkpoints the state with the source position (Flink, Dataflow): a
// replayed window is added to a state restored to before it. The stream
// must start where the accounts table was empty (ReadChanges from
// Earliest, with no snapshot expired) into a view that holds nothing, or
// the totals are off by what came before. Changes later than
// OwnerTotalsLateness behind the watermark are dropped (and would leave the
// view wrong); a change type other than the four fails the bundle.
func OwnerTotals(s beam.Scope, size time.Duration, changes beam.PCollection) beam.PCollection {
	s = s.Scope("cdc.OwnerTotals")
	windowed := beam.WindowInto(s, window.NewFixedWindows(size), changes, beam.AllowedLateness(OwnerTotalsLateness))
	deltas := beam.ParDo(s, toOwnerDelta, windowed)
	summed := beam.CombinePerKey(s, addOwnerDeltas, deltas)
	stamped := beam.ParDo(s, stampWindowEnd, summed)
	global := beam.WindowInto(s, window.NewGlobalWindows(), stamped)
	return beam.ParDo(s, &runningTotalFn{Total: state.MakeValueState[ownerState]("total")}, global)
}

// ownerDelta is what a set of changes does to one owner's totals.
type ownerDelta struct {
	BalanceCents int64
	Accounts     int64
	// End is the end of the window the delta was summed in, µs (set once
	// summed).
	End int64
}

// OwnerDelta is what change c does to its owner's totals: +balance and +1
// for INSERT and UPDATE_AFTER, -balance and -1 for DELETE and
// UPDATE_BEFORE.
func OwnerDelta(c AccountChange) (balanceCents, accounts int64, err error) {
	switch c.ChangeType {
	case "INSERT", "UPDATE_AFTER":
		return c.BalanceCents, 1, nil
	case "DELETE", "UPDATE_BEFORE":
		return -c.BalanceCents, -1, nil
	}
	return 0, 0, fmt.Errorf("cdc.OwnerTotals: account %d: unknown change type %q (want INSERT, DELETE, UPDATE_BEFORE or UPDATE_AFTER)", c.ID, c.ChangeType)
}

func toOwnerDelta(c AccountChange) (string, ownerDelta, error) {
	b, n, err := OwnerDelta(c)
	return c.Owner, ownerDelta{BalanceCents: b, Accounts: n}, err
}

func addOwnerDeltas(a, b ownerDelta) ownerDelta {
	return ownerDelta{BalanceCents: a.BalanceCents + b.BalanceCents, Accounts: a.Accounts + b.Accounts}
}

// stampWindowEnd keeps the end of the delta's window with it, for the
// global window, and drops deltas that change nothing.
func stampWindowEnd(w beam.Window, owner string, d ownerDelta, emit func(string, ownerDelta)) {
	if d.BalanceCents == 0 && d.Accounts == 0 {
		return
	}
	d.End = w.(window.IntervalWindow).End.ToTime().UnixMicro()
	emit(owner, d)
}

// ownerState is an owner's running totals and the AsOf of its last row.
type ownerState struct {
	BalanceCents int64
	Accounts     int64
	AsOf         int64
}

// runningTotalFn adds each window's delta of an owner to its running total
// and emits the new total.
type runningTotalFn struct {
	Total state.Value[ownerState]
}

func (f *runningTotalFn) ProcessElement(ctx context.Context, sp state.Provider, owner string, d ownerDelta, emit func(OwnerTotal)) error {
	st, _, err := f.Total.Read(sp)
	if err != nil {
		return fmt.Errorf("cdc.OwnerTotals: owner %q: reading its total: %w", owner, err)
	}
	st.BalanceCents += d.BalanceCents
	st.Accounts += d.Accounts
	st.AsOf = max(d.End, st.AsOf+1)
	if err := f.Total.Write(sp, st); err != nil {
		return fmt.Errorf("cdc.OwnerTotals: owner %q: writing its total: %w", owner, err)
	}
	row := OwnerTotal{Op: "u", Owner: owner, BalanceCents: st.BalanceCents, Accounts: st.Accounts, AsOf: st.AsOf}
	if st.Accounts == 0 && st.BalanceCents == 0 {
		row = OwnerTotal{Op: "d", Owner: owner, AsOf: st.AsOf}
	} else if st.Accounts <= 0 {
		// More removed than was ever added: the stream did not start
		// where the table was empty, or skipped changes. The row stays,
		// showing it.
		inconsistent.Inc(ctx, 1)
		log.Errorf(ctx, "cdc.OwnerTotals: owner %q has %d accounts and %d balance_cents: the change stream did not start where the table was empty, or skipped changes", owner, st.Accounts, st.BalanceCents)
	}
	emit(row)
	return nil
}

var inconsistent = beam.NewCounter("cdc", "owner_totals_inconsistent")

func init() {
	register.Function1x3(toOwnerDelta)
	register.Function2x1(addOwnerDeltas)
	register.Function4x0(stampWindowEnd)
	register.Emitter2[string, ownerDelta]()
	register.DoFn5x1[context.Context, state.Provider, string, ownerDelta, func(OwnerTotal), error](&runningTotalFn{})
	register.Emitter1[OwnerTotal]()
	beam.RegisterType(reflect.TypeOf(AccountChange{}))
	beam.RegisterType(reflect.TypeOf(OwnerTotal{}))
	beam.RegisterType(reflect.TypeOf(ownerDelta{}))
	beam.RegisterType(reflect.TypeOf(ownerState{}))
}
