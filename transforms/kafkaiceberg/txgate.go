package kafkaiceberg

// Source transactions whole (Debezium's transaction metadata): a
// transaction that changed several tables lands in one commit of them all,
// never split across two.
//
// The decode step sends a keyed table's batches, each of one partition,
// with the transaction of each run of its events, and the END events of
// the connector's transaction topic (which counts the events of each
// transaction per table), to the gate: one stateful step keyed by the
// job's writer id. When the watermark passes what it holds, the gate
// releases every transaction whose events have all come, in the order of
// the transaction topic (the source's commit order) up to the first that
// has not, and holds the rest: in each partition a suffix, since the
// connector writes transactions in commit order. What it releases goes to
// WriteTables as groups (icebergio.EncodeGroup), which a pane never
// splits, each with the offsets it covers: the tables' offsets stay a
// prefix of each partition, so a job started again reads what was held
// again. Each table also records the transaction topic's offsets of the
// ENDs released into it; a job started again reads that topic from the
// lowest, and takes an END below a table's as already landed there.

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/state"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/timers"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/icebeam/icebeam/transforms/icebergio"
	"github.com/icebeam/icebeam/transforms/kafkaio"
)

func init() {
	register.DoFn3x0[string, []byte, func(string, []byte)](&gateKeyFn{})
	register.DoFn7x1[context.Context, beam.EventTime, state.Provider, timers.Provider, string, []byte, func(string, []byte), error](&gateFn{})
	beam.RegisterType(reflect.TypeOf((*gateFn)(nil)).Elem())
}

// gateKey is the decode step's key for what goes to the gate.
const gateKey = "\x00gate"

// maxGroupRows is about the most rows a group the gate releases holds
// (a transaction's are never split): a pane's element.
const maxGroupRows = 1 << 17

// run is a run of a partition's events of one transaction (Txn "": of
// none, as a snapshot's), in the partition's order.
type run struct {
	Txn    string
	First  int64 // its first event's offset
	Events int   // change events (a refused one too): what an END counts
	Rows   int   // the batch's rows they made
}

// gateItem is what the gate holds: a batch of one table's changes from
// one partition, or an END.
type gateItem struct {
	// A batch: Records (icebergio.EncodeRecordsFrom), the offsets it
	// covers of Part, and its events' runs.
	Table   string
	Part    string
	Range   icebergio.SourceRange
	Runs    []run
	Records []byte
	// An END (Table ""): the transaction, its events by table (of tables
	// the gate holds batches of), and its offset in Part.
	Txn    string
	Events map[string]int64
}

func (it *gateItem) isEnd() bool { return it.Table == "" }

func (it *gateItem) encode() []byte {
	var b []byte
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	num := func(n int64) { b = binary.AppendVarint(b, n) }
	b = append(b, "IBT1"...)
	str(it.Table)
	str(it.Part)
	num(it.Range.First)
	num(it.Range.Last)
	if it.isEnd() {
		str(it.Txn)
		num(int64(len(it.Events)))
		for _, t := range slices.Sorted(maps.Keys(it.Events)) {
			str(t)
			num(it.Events[t])
		}
		return b
	}
	num(int64(len(it.Runs)))
	for _, r := range it.Runs {
		str(r.Txn)
		num(r.First)
		num(int64(r.Events))
		num(int64(r.Rows))
	}
	return append(b, it.Records...)
}

func decodeGateItem(b []byte) (*gateItem, error) {
	if !bytes.HasPrefix(b, []byte("IBT1")) {
		return nil, errors.New("kafkaiceberg: the gate holds an element that is not its own")
	}
	b = b[4:]
	bad := false
	str := func() string {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(len(b)-k) {
			bad = true
			return ""
		}
		s := string(b[k : k+int(n)])
		b = b[k+int(n):]
		return s
	}
	num := func() int64 {
		n, k := binary.Varint(b)
		if k <= 0 {
			bad = true
			return 0
		}
		b = b[k:]
		return n
	}
	it := &gateItem{Table: str(), Part: str()}
	it.Range = icebergio.SourceRange{First: num(), Last: num()}
	if it.isEnd() {
		it.Txn = str()
		n := num()
		it.Events = map[string]int64{}
		for i := int64(0); i < n && !bad; i++ {
			t := str()
			it.Events[t] = num()
		}
	} else {
		n := num()
		for i := int64(0); i < n && !bad; i++ {
			it.Runs = append(it.Runs, run{Txn: str(), First: num(), Events: int(num()), Rows: int(num())})
		}
		it.Records = b
	}
	if bad {
		return nil, errors.New("kafkaiceberg: a truncated gate element")
	}
	return it, nil
}

// gate holds the decode step's batches of keyed tables until their
// source transactions are whole, and passes them on as WriteTables'
// groups.
func gate(s beam.Scope, cfg Config, batches beam.PCollection) beam.PCollection {
	s = s.Scope("Transactions whole")
	landed := map[string]int64{}
	part := kafkaio.PartitionKey(cfg.TransactionTopic, 0)
	for _, t := range cfg.Tables {
		if x, ok := t.Offsets[part]; ok {
			landed[t.Name] = x
		}
	}
	keyed := beam.ParDo(s, &gateKeyFn{Key: cfg.WriterID}, batches)
	return beam.ParDo(s, &gateFn{Landed: landed, Items: state.MakeBagState[[]byte]("items"),
		Pending: state.MakeValueState[bool]("pending"), Flush: timers.InEventTime("flush")}, keyed)
}

// gateKeyFn keys what the decode step sends the gate by the gate's one
// key.
type gateKeyFn struct {
	Key string
}

func (f *gateKeyFn) ProcessElement(k string, b []byte, emit func(string, []byte)) {
	if k == gateKey {
		emit(f.Key, b)
	}
}

// gateFn holds batches until their transactions are whole, and sends
// them on as groups of WriteTables when the watermark passes what it
// holds. It releases only from its timer, whose bundle comes after every
// item before it: a runner may hand it a bundle's items out of their
// order (prism orders them by timestamp), and the gate sorts a
// partition's items by offset before it releases any.
type gateFn struct {
	// Landed is, by table, the offset of the transaction topic's
	// partition up to which ENDs have landed in it (its SourceOffsets of
	// it when the job was planned).
	Landed map[string]int64

	Items   state.Bag[[]byte]
	Pending state.Value[bool] // Flush is set
	Flush   timers.EventTime
}

func (f *gateFn) ProcessElement(ctx context.Context, ts beam.EventTime, sp state.Provider, tp timers.Provider, _ string, item []byte, _ func(string, []byte)) error {
	set, err := hold(sp, f.Items, f.Pending, item)
	if set {
		f.Flush.Set(tp, ts.ToTime())
	}
	return err
}

func (f *gateFn) OnTimer(ctx context.Context, sp state.Provider, tp timers.Provider, _ string, _ timers.Context, emit func(string, []byte)) error {
	return releaseHeld(ctx, sp, f.Items, f.Pending, f.Landed, emit)
}

// hold adds item to the gate's items, and says whether to set the timer:
// once until it fires (set again with each item, an event-time timer
// would move ahead of a steady stream's watermark and not fire).
func hold(sp state.Provider, items state.Bag[[]byte], pending state.Value[bool], item []byte) (set bool, err error) {
	if err := items.Add(sp, item); err != nil {
		return false, err
	}
	p, _, err := pending.Read(sp)
	if err != nil || p {
		return false, err
	}
	return true, pending.Write(sp, true)
}

// releaseHeld sends on what of the gate's items can land, and keeps the
// rest.
func releaseHeld(ctx context.Context, sp state.Provider, bag state.Bag[[]byte], pending state.Value[bool], landed map[string]int64, emit func(string, []byte)) error {
	if err := pending.Write(sp, false); err != nil {
		return err
	}
	blobs, _, err := bag.Read(sp)
	if err != nil {
		return err
	}
	items := make([]*gateItem, 0, len(blobs))
	for _, b := range blobs {
		it, err := decodeGateItem(b)
		if err != nil {
			return err
		}
		items = append(items, it)
	}
	groups, held, err := gateRelease(items, landed)
	if err != nil {
		return err
	}
	for _, g := range groups {
		emit(icebergio.GroupTable, icebergio.EncodeGroup(g))
	}
	if len(groups) == 0 && len(held) == len(items) {
		return nil // nothing moved: the bag stays as it is
	}
	if err := bag.Clear(sp); err != nil {
		return err
	}
	for _, it := range held {
		if err := bag.Add(sp, it.encode()); err != nil {
			return err
		}
	}
	if n := heldRows(held); n > 0 {
		log.Debugf(ctx, "kafkaiceberg: holding %d changes of source transactions not yet whole", n)
	}
	return nil
}

func heldRows(items []*gateItem) int {
	n := 0
	for _, it := range items {
		for _, r := range it.Runs {
			n += r.Rows
		}
	}
	return n
}

// gateRelease splits items into what can land, as groups of parts (each
// transaction whole in one group, the groups in commit order), and what
// must wait.
func gateRelease(items []*gateItem, landed map[string]int64) (groups [][]icebergio.GroupPart, held []*gateItem, err error) {
	var ends []*gateItem
	byPart := map[string][]*gateItem{}
	count := map[string]map[string]int64{} // transaction -> table -> events come
	for _, it := range items {
		if it.isEnd() {
			ends = append(ends, it)
			continue
		}
		byPart[it.Part] = append(byPart[it.Part], it)
		for _, r := range it.Runs {
			if r.Txn == "" {
				continue
			}
			if count[r.Txn] == nil {
				count[r.Txn] = map[string]int64{}
			}
			count[r.Txn][it.Table] += int64(r.Events)
		}
	}
	slices.SortStableFunc(ends, func(a, b *gateItem) int { return cmpInt(a.Range.First, b.Range.First) })
	// The released transactions: those whose events have all come, in
	// commit order, up to the first that has not; each with its group.
	group := map[string]int{}
	rows, g := 0, 0
	var endsOf [][]*gateItem
	n := 0
	for _, e := range ends {
		whole := true
		for t, want := range e.Events {
			if x, ok := landed[t]; ok && e.Range.First < x {
				continue
			}
			if count[e.Txn][t] < want {
				whole = false
				break
			}
		}
		if !whole {
			break
		}
		n++
		if rows >= maxGroupRows {
			g, rows = g+1, 0
		}
		group[e.Txn] = g
		for _, c := range e.Events {
			rows += int(c)
		}
		for len(endsOf) <= g {
			endsOf = append(endsOf, nil)
		}
		endsOf[g] = append(endsOf[g], e)
	}
	held = append(held, ends[n:]...)

	type part struct {
		table string
		rec   arrow.RecordBatch // a slice, perhaps of no rows
		rng   map[string]icebergio.SourceRange
	}
	var out [][]part // by group
	defer func() {
		for _, ps := range out {
			for _, p := range ps {
				p.rec.Release()
			}
		}
	}()
	for _, key := range slices.Sorted(maps.Keys(byPart)) {
		its := byPart[key]
		slices.SortStableFunc(its, func(a, b *gateItem) int { return cmpInt(a.Range.First, b.Range.First) })
		stopped := false
		gi := 0
		for _, it := range its {
			if stopped {
				held = append(held, it)
				continue
			}
			rec, err := recordsOf(it)
			if err != nil {
				return nil, nil, err
			}
			// Rows [at, row) and offsets [start, upto) go to group gi.
			row, at, start := 0, 0, it.Range.First
			release := func(upto int64) {
				if upto > start || row > at {
					for len(out) <= gi {
						out = append(out, nil)
					}
					out[gi] = append(out[gi], part{table: it.Table, rec: rec.NewSlice(int64(at), int64(row)),
						rng: map[string]icebergio.SourceRange{it.Part: {First: start, Last: upto - 1}}})
				}
				at, start = row, upto
			}
			i := 0
			for ; i < len(it.Runs); i++ {
				r := it.Runs[i]
				if r.Txn != "" {
					rg, ok := group[r.Txn]
					if !ok {
						break // waits, and so does the rest of the partition
					}
					if rg != gi {
						release(r.First)
						gi = rg
					}
				}
				row += r.Rows
			}
			if i == len(it.Runs) {
				release(it.Range.Last + 1)
				rec.Release()
				continue
			}
			release(it.Runs[i].First)
			stopped = true
			rest := &gateItem{Table: it.Table, Part: it.Part, Range: icebergio.SourceRange{First: it.Runs[i].First, Last: it.Range.Last}, Runs: it.Runs[i:]}
			rest.Records = it.Records
			if at > 0 {
				sl := rec.NewSlice(int64(at), rec.NumRows())
				rest.Records, err = icebergio.EncodeRecords(sl)
				sl.Release()
			}
			rec.Release()
			if err != nil {
				return nil, nil, err
			}
			held = append(held, rest)
		}
	}
	for gi, ps := range out {
		if len(ps) == 0 {
			continue
		}
		// Each table records the ENDs released into it, for a job started
		// again (gateFn.Landed).
		var txnPart string
		var txn icebergio.SourceRange
		if gi < len(endsOf) && len(endsOf[gi]) > 0 {
			es := endsOf[gi]
			txnPart, txn = es[0].Part, icebergio.SourceRange{First: es[0].Range.First, Last: es[len(es)-1].Range.Last}
		}
		parts := make([]icebergio.GroupPart, 0, len(ps))
		for _, p := range ps {
			if txnPart != "" {
				p.rng[txnPart] = txn
			}
			b, err := icebergio.EncodeRecordsFrom(p.rec, p.rng)
			if err != nil {
				return nil, nil, fmt.Errorf("kafkaiceberg: table %s: %w", p.table, err)
			}
			parts = append(parts, icebergio.GroupPart{Table: p.table, Records: b})
		}
		groups = append(groups, parts)
	}
	return groups, held, nil
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// recordsOf is an item's batch, without its ranges (the gate sets them).
func recordsOf(it *gateItem) (arrow.RecordBatch, error) {
	rec, err := icebergio.DecodeRecords(it.Records)
	if err != nil {
		return nil, fmt.Errorf("kafkaiceberg: table %s: %w", it.Table, err)
	}
	return rec, nil
}
