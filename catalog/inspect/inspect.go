// Package inspect reads Iceberg tables for people rather than pipelines: it
// turns a scan into rows of plain values, sorts and limits them, and prints
// them as an aligned table, CSV or JSON. Pipelines use it for the summary they
// print after a commit and the icebeam command for describe/scan; it is a
// verification path for small results, not a data path.
package inspect

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// Rows is a small result held in memory: column names and one []any per row,
// with values as arrow's GetOneForMarshal gives them (dates and timestamps
// as ISO strings, NULL as nil).
type Rows struct {
	Columns []string
	Values  [][]any
}

// Read scans tbl with opts and returns its rows.
func Read(ctx context.Context, tbl *table.Table, opts ...table.ScanOption) (*Rows, error) {
	return ReadScan(ctx, tbl, tbl.Scan(opts...))
}

// ReadScan returns the rows of a scan of tbl that options alone cannot
// express, such as one made with Scan.UseRef.
func ReadScan(ctx context.Context, tbl *table.Table, scan *table.Scan) (*Rows, error) {
	schema, batches, err := scan.ToArrowRecords(ctx)
	if err != nil {
		return nil, fmt.Errorf("inspect: scanning %s: %w", strings.Join(tbl.Identifier(), "."), err)
	}
	out := &Rows{}
	for _, f := range schema.Fields() {
		out.Columns = append(out.Columns, f.Name)
	}
	for batch, err := range batches {
		if err != nil {
			return nil, fmt.Errorf("inspect: reading %s: %w", strings.Join(tbl.Identifier(), "."), err)
		}
		appendBatch(out, batch)
		batch.Release()
	}
	return out, nil
}

func appendBatch(out *Rows, batch arrow.RecordBatch) {
	for i := 0; i < int(batch.NumRows()); i++ {
		row := make([]any, batch.NumCols())
		for c := range row {
			col := batch.Column(c)
			if col.IsNull(i) {
				continue
			}
			row[c] = col.GetOneForMarshal(i)
		}
		out.Values = append(out.Values, row)
	}
}

// SortBy orders rows by column, NULLs last; desc reverses the order. Ties
// keep their scan order.
func (r *Rows) SortBy(column string, desc bool) error {
	idx := r.index(column)
	if idx < 0 {
		return fmt.Errorf("inspect: no column %q (have %s)", column, strings.Join(r.Columns, ", "))
	}
	sort.SliceStable(r.Values, func(i, j int) bool {
		a, b := r.Values[i][idx], r.Values[j][idx]
		if a == nil || b == nil {
			return b == nil && a != nil
		}
		if desc {
			return less(b, a)
		}
		return less(a, b)
	})
	return nil
}

// Limit keeps the first n rows; n <= 0 keeps all.
func (r *Rows) Limit(n int) {
	if n > 0 && len(r.Values) > n {
		r.Values = r.Values[:n]
	}
}

// Select keeps the named columns, in that order.
func (r *Rows) Select(columns ...string) error {
	idx := make([]int, len(columns))
	for i, c := range columns {
		if idx[i] = r.index(c); idx[i] < 0 {
			return fmt.Errorf("inspect: no column %q (have %s)", c, strings.Join(r.Columns, ", "))
		}
	}
	for k, row := range r.Values {
		sel := make([]any, len(idx))
		for i, j := range idx {
			sel[i] = row[j]
		}
		r.Values[k] = sel
	}
	r.Columns = columns
	return nil
}

func (r *Rows) index(column string) int {
	for i, c := range r.Columns {
		if c == column {
			return i
		}
	}
	return -1
}

func less(a, b any) bool {
	switch x := a.(type) {
	case int8, int16, int32, int64, uint8, uint16, uint32, uint64, float32, float64:
		return toFloat(x) < toFloat(b)
	}
	return Format(a) < Format(b)
}

// toFloat is the number v as a float64; 0 for anything else.
func toFloat(v any) float64 {
	switch x := reflect.ValueOf(v); {
	case x.CanInt():
		return float64(x.Int())
	case x.CanUint():
		return float64(x.Uint())
	case x.CanFloat():
		return x.Float()
	}
	return 0
}

// SourceColumn names the column a partition or sort field is derived from:
// its name in schema, or its field id where schema has no such column (a
// field may outlive its column).
func SourceColumn(schema *iceberg.Schema, id int) string {
	if col, ok := schema.FindColumnName(id); ok {
		return col
	}
	return strconv.Itoa(id)
}

// SortField describes a field of a sort order as its transform of its
// source column, direction and null order, e.g. "identity(ts) asc nulls-first".
func SortField(schema *iceberg.Schema, f table.SortField) string {
	return fmt.Sprintf("%s(%s) %s %s", f.Transform, SourceColumn(schema, f.SourceID()), f.Direction, f.NullOrder)
}

// Format renders one value the way the printers do: shortest exact decimal
// for floats, "NULL" for nil.
func Format(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(x), 'f', -1, 32)
	case string:
		return x
	}
	return fmt.Sprint(v)
}

// Output formats for Write.
const (
	Aligned = "table"
	CSV     = "csv"
	JSON    = "json"
)

// Write prints rows in format (Aligned, CSV or JSON lines).
func (r *Rows) Write(w io.Writer, format string) error {
	switch format {
	case Aligned, "":
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, strings.Join(r.Columns, "\t")+"\t")
		for _, row := range r.Values {
			cells := make([]string, len(row))
			for i, v := range row {
				cells[i] = Format(v)
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
		}
		return tw.Flush()
	case CSV:
		cw := csv.NewWriter(w)
		if err := cw.Write(r.Columns); err != nil {
			return err
		}
		for _, row := range r.Values {
			cells := make([]string, len(row))
			for i, v := range row {
				if v != nil {
					cells[i] = Format(v)
				}
			}
			if err := cw.Write(cells); err != nil {
				return err
			}
		}
		cw.Flush()
		return cw.Error()
	case JSON:
		enc := json.NewEncoder(w)
		for _, row := range r.Values {
			obj := make(map[string]any, len(row))
			for i, v := range row {
				obj[r.Columns[i]] = v
			}
			if err := enc.Encode(obj); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("inspect: unknown output format %q (want %s, %s or %s)", format, Aligned, CSV, JSON)
}
