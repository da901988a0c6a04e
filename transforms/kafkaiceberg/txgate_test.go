package kafkaiceberg

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icebeam/icebeam/transforms/icebergio"
)

// gateBatch is a gate item of table's changes in part, rows with ids
// from runs' Txn names ("o1", "o2", ...), counted by hand.
func gateBatch(t *testing.T, table, part string, first, last int64, runs ...run) *gateItem {
	t.Helper()
	sc := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.BinaryTypes.String}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	for _, r := range runs {
		for i := range r.Rows {
			b.Field(0).(*array.StringBuilder).Append(fmt.Sprintf("%s:%s%d", table, r.Txn, i))
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	enc, err := icebergio.EncodeRecords(rec)
	if err != nil {
		t.Fatal(err)
	}
	// Through the wire, as the gate's state holds it.
	it, err := decodeGateItem((&gateItem{Table: table, Part: part, Range: icebergio.SourceRange{First: first, Last: last}, Runs: runs, Records: enc}).encode())
	if err != nil {
		t.Fatal(err)
	}
	return it
}

func gateEnd(t *testing.T, txn string, offset int64, events map[string]int64) *gateItem {
	t.Helper()
	it, err := decodeGateItem((&gateItem{Part: "tx/0", Range: icebergio.SourceRange{First: offset, Last: offset}, Txn: txn, Events: events}).encode())
	if err != nil {
		t.Fatal(err)
	}
	return it
}

// released describes groups as "table ranges: ids" lines, a group's
// parts in order, groups apart by "--".
func released(t *testing.T, groups [][]icebergio.GroupPart) string {
	t.Helper()
	var lines []string
	for i, g := range groups {
		if i > 0 {
			lines = append(lines, "--")
		}
		for _, p := range g {
			rec, err := icebergio.DecodeRecords(p.Records)
			if err != nil {
				t.Fatal(err)
			}
			rng, _ := rec.Schema().Metadata().GetValue("icebeam.source-ranges")
			var ids []string
			for i := range int(rec.NumRows()) {
				ids = append(ids, rec.Column(0).(*array.String).Value(i))
			}
			lines = append(lines, fmt.Sprintf("%s %s: %s", p.Table, rng, strings.Join(ids, " ")))
			rec.Release()
		}
	}
	return strings.Join(lines, "\n")
}

// The gate releases the transactions whose events have all come, in the
// transaction topic's order, up to the first that has not; in each
// partition what comes after a transaction that waits waits too.
func TestGateReleasesWholeTransactionsInOrder(t *testing.T) {
	items := []*gateItem{
		// orders: two snapshot rows, then one row each of 1, 2 and 3.
		gateBatch(t, "orders", "o/0", 0, 4, run{"", 0, 0, 2}, run{"1", 2, 1, 1}, run{"2", 3, 1, 1}, run{"3", 4, 1, 1}),
		// lines: two of 1 (and a tombstone in its range), one of 2's two.
		gateBatch(t, "lines", "l/0", 0, 3, run{"1", 0, 2, 2}, run{"2", 3, 1, 1}),
		gateEnd(t, "3", 14, map[string]int64{"orders": 1, "lines": 1}),
		gateEnd(t, "1", 10, map[string]int64{"orders": 1, "lines": 2}),
		gateEnd(t, "2", 12, map[string]int64{"orders": 1, "lines": 2}),
	}
	groups, held, err := gateRelease(items, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "lines l/0:0-2,tx/0:10-10: lines:10 lines:11\norders o/0:0-2,tx/0:10-10: orders:0 orders:1 orders:10"
	if got := released(t, groups); got != want {
		t.Fatalf("released\n%s\nwant\n%s", got, want)
	}
	var ends []string
	rows := 0
	for _, it := range held {
		if it.isEnd() {
			ends = append(ends, it.Txn)
		} else {
			rows += heldRows([]*gateItem{it})
		}
	}
	if !slices.Equal(ends, []string{"2", "3"}) || rows != 3 {
		t.Fatalf("held ENDs %v and %d rows, want 2 and 3, and 3 rows (orders' of 2 and 3, lines' of 2)", ends, rows)
	}

	// The rest of 2 and 3 comes: both land, the held rows first (each
	// held batch a part of its own).
	held = append(held, gateBatch(t, "lines", "l/0", 4, 5, run{"2", 4, 1, 1}, run{"3", 5, 1, 1}))
	groups, held, err = gateRelease(held, nil)
	if err != nil {
		t.Fatal(err)
	}
	want = "lines l/0:3-3,tx/0:12-14: lines:20\nlines l/0:4-5,tx/0:12-14: lines:20 lines:30\norders o/0:3-4,tx/0:12-14: orders:20 orders:30"
	if got := released(t, groups); got != want || len(held) != 0 {
		t.Fatalf("released\n%s\nwant\n%s\nand nothing held (%d held)", got, want, len(held))
	}
}

// An END below a table's landed offset of the transaction topic has
// landed there (a job started again reads the topic from the lowest of
// its tables'): it does not wait for that table's events.
func TestGateTakesLandedEnds(t *testing.T) {
	items := []*gateItem{
		gateEnd(t, "7", 20, map[string]int64{"orders": 1, "lines": 3}),
		gateBatch(t, "lines", "l/0", 9, 11, run{"7", 9, 3, 3}),
	}
	groups, held, err := gateRelease(items, map[string]int64{"orders": 21, "lines": 15})
	if err != nil {
		t.Fatal(err)
	}
	want := "lines l/0:9-11,tx/0:20-20: lines:70 lines:71 lines:72"
	if got := released(t, groups); got != want || len(held) != 0 {
		t.Fatalf("released\n%s\nwant\n%s\nand nothing held (%d held)", got, want, len(held))
	}
}
