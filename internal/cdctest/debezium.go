package cdctest

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/icebeam/icebeam/transforms/cdc"
)

// event is a Debezium change event as the test writes it, independently of
// the pipeline's parser.
type event struct {
	op                   string
	id, balance, updated int64
	owner                string
	lsn                  int64 // 0: none, file order decides
}

func (e event) json(wrapped bool) string {
	rowJSON := func() map[string]any {
		return map[string]any{"id": e.id, "owner": e.owner, "balance_cents": e.balance, "updated_at": e.updated}
	}
	payload := map[string]any{"op": e.op, "ts_ms": 1767225600000}
	if e.op == "d" {
		payload["before"], payload["after"] = rowJSON(), nil
	} else {
		payload["after"] = rowJSON()
		if e.op == "u" {
			payload["before"] = map[string]any{"id": e.id}
		}
	}
	if e.lsn != 0 {
		payload["source"] = map[string]any{"lsn": e.lsn, "connector": "postgresql"}
	}
	var v any = payload
	if wrapped {
		v = map[string]any{"schema": map[string]any{"type": "struct"}, "payload": payload}
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// DebeziumLog writes a Debezium change log of n events over keys ids into
// a new directory (two files, with and without the envelope, LSNs out of
// file order within a file) and returns it with the log's final state,
// computed here per id, the highest LSN winning.
func DebeziumLog(t testing.TB, n, keys int) (dir string, want []cdc.Account) {
	t.Helper()
	r := rand.New(rand.NewPCG(5, 5))
	var events []event
	live := map[int64]bool{}
	for lsn := int64(1); lsn <= int64(n); lsn++ {
		id := int64(r.IntN(keys))
		op := "u"
		switch {
		case !live[id]:
			op = []string{"c", "r"}[r.IntN(2)]
		case r.IntN(5) == 0:
			op = "d"
		}
		live[id] = op != "d"
		events = append(events, event{op: op, id: id, owner: fmt.Sprintf("o%d", r.IntN(9)), balance: r.Int64N(1e9), updated: 1767225600000000 + lsn, lsn: 1000 + lsn})
	}
	final := map[int64]event{}
	for _, e := range events {
		if cur, ok := final[e.id]; !ok || e.lsn > cur.lsn {
			final[e.id] = e
		}
	}
	for id, e := range final {
		if e.op != "d" {
			want = append(want, cdc.Account{ID: id, Owner: e.owner, BalanceCents: e.balance, UpdatedAt: e.updated})
		}
	}
	Sort(want)

	dir = t.TempDir()
	half := len(events) / 2
	for f, part := range [][]event{events[:half], events[half:]} {
		part = slices.Clone(part)
		// Neighbours swapped: file order is not LSN order.
		for i := 0; i+1 < len(part); i += 7 {
			part[i], part[i+1] = part[i+1], part[i]
		}
		var b strings.Builder
		for _, e := range part {
			b.WriteString(e.json(f == 0) + "\n")
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("accounts-%d.json", f)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, want
}
