// Package cdc owns the change streams of the "accounts" table for a change
// data capture pipeline that upserts them into an Iceberg table: the Change
// row the sink takes, Debezium's JSON change events parsed into it, two
// unbounded sources of changes (a generated stream, and a replay of
// newline-delimited Debezium files), Replay, the deliberately simple
// model of what the table holds after a stream, which the sink's tests
// compare against, and OwnerTotals, a per-owner view kept from the table's
// row-level change stream. Besides accounts, PlanTables and ReadTables
// replay Debezium files of any tables through the shared decoder
// (transforms/debezium), as Arrow batches of each table's own columns.
package cdc

import (
	"fmt"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
)

// Change is one change to the accounts table, as the Iceberg sink takes it.
type Change struct {
	Op           string `beam:"op"`  // "c" insert, "r" snapshot read, "u" update, "d" delete: Debezium's codes
	LSN          int64  `beam:"lsn"` // the ordering value: of several changes to one id, the highest wins
	ID           int64  `beam:"id"`  // the key
	Owner        string `beam:"owner"`
	BalanceCents int64  `beam:"balance_cents"`
	UpdatedAt    int64  `beam:"updated_at" iceberg:"timestamp"` // microseconds since the epoch
}

// Account is one row of the accounts table, as the model holds it.
type Account struct {
	ID           int64
	Owner        string
	BalanceCents int64
	UpdatedAt    int64
}

// Account is the row c leaves in the table (for a delete, the row it
// removes, as far as the change tells it).
func (c Change) Account() Account {
	return Account{ID: c.ID, Owner: c.Owner, BalanceCents: c.BalanceCents, UpdatedAt: c.UpdatedAt}
}

// Replay is what the table holds after changes: per id, the change with the
// highest LSN wins, the later one in the slice on equal LSNs; an id whose
// winner is a delete is absent. It is the reference the sink is checked
// against, so it stays a map and a loop, independent of the sink's code.
// It panics on an op other than c, r, u and d: a model must not guess.
func Replay(changes []Change) map[int64]Account {
	winners := map[int64]Change{}
	for i, c := range changes {
		switch c.Op {
		case "c", "r", "u", "d":
		default:
			panic(fmt.Sprintf("cdc.Replay: change %d (id %d, lsn %d) has unknown op %q", i, c.ID, c.LSN, c.Op))
		}
		if w, ok := winners[c.ID]; !ok || c.LSN >= w.LSN {
			winners[c.ID] = c
		}
	}
	table := map[int64]Account{}
	for id, c := range winners {
		if c.Op != "d" {
			table[id] = c.Account()
		}
	}
	return table
}

func init() {
	beam.RegisterType(reflect.TypeOf((*Change)(nil)).Elem())
}
