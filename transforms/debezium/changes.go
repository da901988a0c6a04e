package debezium

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
)

// Changes is b as changes of a table whose columns, as its sink writes
// them, are sc (with the op and order columns): a truncate as one change
// of op t at its order, its other columns null, or zero where required;
// other batches with sc's columns in sc's order, those b lacks as nulls
// (a column dropped in the source, or added after b's events), widened
// types cast. A column of b that sc lacks, or that does not cast safely,
// is an error. The caller releases the batch, and b.Record as before.
func (d *Decoder) Changes(b Batch, sc *arrow.Schema) (arrow.RecordBatch, error) {
	if b.Truncate {
		return d.truncate(sc, b.Order), nil
	}
	rec := b.Record
	if rec.Schema().Equal(sc) {
		rec.Retain()
		return rec, nil
	}
	n := int(rec.NumRows())
	cols := make([]arrow.Array, sc.NumFields())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, f := range sc.Fields() {
		j := rec.Schema().FieldIndices(f.Name)
		switch {
		case len(j) == 1 && arrow.TypeEqual(rec.Column(j[0]).DataType(), f.Type):
			cols[i] = rec.Column(j[0])
			cols[i].Retain()
		case len(j) == 1:
			c, err := compute.CastArray(context.Background(), rec.Column(j[0]), compute.SafeCastOptions(f.Type))
			if err != nil {
				return nil, fmt.Errorf("column %s: %s to %s: %w", f.Name, rec.Column(j[0]).DataType(), f.Type, err)
			}
			cols[i] = c
		case f.Nullable:
			cols[i] = array.MakeArrayOfNull(d.mem, f.Type, n)
		default:
			return nil, fmt.Errorf("the changes lack required column %s", f.Name)
		}
	}
	for _, f := range rec.Schema().Fields() {
		if !sc.HasField(f.Name) {
			return nil, fmt.Errorf("the changes have column %s, which the table as its sink writes it lacks", f.Name)
		}
	}
	return array.NewRecordBatch(sc, cols, int64(n)), nil
}

// truncate is the change of schema sc that empties its table at order.
func (d *Decoder) truncate(sc *arrow.Schema, order int64) arrow.RecordBatch {
	b := array.NewRecordBuilder(d.mem, sc)
	defer b.Release()
	for i, f := range sc.Fields() {
		switch {
		case f.Name == d.opts.OpColumn:
			b.Field(i).(*array.StringBuilder).Append(string(OpTruncate))
		case f.Name == d.opts.OrderColumn:
			b.Field(i).(*array.Int64Builder).Append(order)
		case f.Nullable:
			b.Field(i).AppendNull()
		default:
			b.Field(i).AppendEmptyValue()
		}
	}
	return b.NewRecordBatch()
}
