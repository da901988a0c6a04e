package cdc

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
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
	ops, owners := newStrings(n, 1), newStrings(n, len("owner-00"))
	lsns, ids, balances, updated := make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
	for j := range n {
		c := change(from+int64(j), keys)
		ops.add(c.Op)
		owners.add(c.Owner)
		lsns[j], ids[j], balances[j], updated[j] = c.LSN, c.ID, c.BalanceCents, c.UpdatedAt
	}
	cols := []arrow.Array{ops.array(), fixed(arrow.PrimitiveTypes.Int64, lsns), fixed(arrow.PrimitiveTypes.Int64, ids),
		owners.array(), fixed(arrow.PrimitiveTypes.Int64, balances), fixed(timestampUS, updated)}
	return array.NewRecordBatch(Schema(), cols, int64(n))
}

// stringsColumn builds a string column's offsets and data.
type stringsColumn struct {
	offsets []int32
	data    []byte
}

func newStrings(n, avg int) *stringsColumn {
	return &stringsColumn{offsets: make([]int32, 1, n+1), data: make([]byte, 0, n*avg)}
}

func (c *stringsColumn) add(s string) {
	c.data = append(c.data, s...)
	c.offsets = append(c.offsets, int32(len(c.data)))
}

func (c *stringsColumn) array() arrow.Array {
	n := len(c.offsets) - 1
	return array.MakeFromData(array.NewData(arrow.BinaryTypes.String, n,
		[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(c.offsets)), memory.NewBufferBytes(c.data)}, nil, 0, 0))
}

func fixed(t arrow.DataType, v []int64) arrow.Array {
	return array.MakeFromData(array.NewData(t, len(v),
		[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(v))}, nil, 0, 0))
}

// timestampUS is an Iceberg timestamp (without zone), as Change's
// `iceberg:"timestamp"` UpdatedAt is: arrow's Timestamp_us carries the UTC
// zone, which iceberg-go maps to timestamptz.
var timestampUS = &arrow.TimestampType{Unit: arrow.Microsecond}
