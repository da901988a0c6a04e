package cdc

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icebeam/icebeam/transforms/internal/blocks"
)

// Schema is the Arrow schema of the batches Generate emits with Records:
// Change's columns, in its order, none nullable (a delete's row columns
// hold zeros, as its Change does).
func Schema() *arrow.Schema {
	return arrow.NewSchema([]arrow.Field{
		{Name: "op", Type: arrow.BinaryTypes.String},
		{Name: "lsn", Type: arrow.PrimitiveTypes.Int64},
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "owner", Type: arrow.BinaryTypes.String},
		{Name: "balance_cents", Type: arrow.PrimitiveTypes.Int64},
		{Name: "updated_at", Type: timestampUS},
	}, nil)
}

// changesBatch is changes [from, to) of change as columns, built straight
// into their buffers.
func changesBatch(change func(i, keys int64) Change, keys, from, to int64) arrow.RecordBatch {
	n := int(to - from)
	ops, owners := blocks.NewStringColumn(n, 1), blocks.NewStringColumn(n, len("owner-00"))
	lsns, ids, balances, updated := make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
	for j := range n {
		c := change(from+int64(j), keys)
		ops.Append(c.Op)
		owners.Append(c.Owner)
		lsns[j], ids[j], balances[j], updated[j] = c.LSN, c.ID, c.BalanceCents, c.UpdatedAt
	}
	int64s := func(v []int64) arrow.Array { return blocks.Int64Column(arrow.PrimitiveTypes.Int64, v) }
	cols := []arrow.Array{ops.Array(), int64s(lsns), int64s(ids), owners.Array(), int64s(balances), blocks.Int64Column(timestampUS, updated)}
	return array.NewRecordBatch(Schema(), cols, int64(n))
}

// timestampUS is an Iceberg timestamp (without zone), as Change's
// `iceberg:"timestamp"` UpdatedAt is: arrow's Timestamp_us carries the UTC
// zone, which iceberg-go maps to timestamptz.
var timestampUS = &arrow.TimestampType{Unit: arrow.Microsecond}
