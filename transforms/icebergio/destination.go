package icebergio

import (
	"fmt"
	"strconv"
	"strings"
	"unsafe"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/transforms/icebergio/internal/rowcodec"
)

// destination resolves the table a row goes to. A fixed table name costs
// nothing per row; a template is filled from row fields.
type destination struct {
	fixed string
	parts []string                        // literal pieces, len(fields)+1
	field []func(p unsafe.Pointer) string // field formatters between the pieces
}

// newDestination parses a table name or template such as
// "clicks.user_{user_id}". Values filled in keep only [A-Za-z0-9_]; every
// other byte becomes '_' so that a value cannot add a namespace level or
// produce a name SQL engines need to quote.
func newDestination(tmpl string, rs *rowcodec.Schema) (*destination, error) {
	if !strings.Contains(tmpl, "{") {
		if _, err := parseIdent(tmpl); err != nil {
			return nil, err
		}
		return &destination{fixed: tmpl}, nil
	}
	d := &destination{}
	rest := tmpl
	for {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			if strings.Contains(rest, "}") {
				return nil, fmt.Errorf("icebergio: table template %q: unmatched '}'", tmpl)
			}
			d.parts = append(d.parts, rest)
			break
		}
		end := strings.IndexByte(rest[open:], '}')
		if end < 0 {
			return nil, fmt.Errorf("icebergio: table template %q: unclosed '{'", tmpl)
		}
		name := rest[open+1 : open+end]
		f, err := rs.FieldString(name)
		if err != nil {
			return nil, fmt.Errorf("icebergio: table template %q: %w", tmpl, err)
		}
		d.parts = append(d.parts, rest[:open])
		d.field = append(d.field, f)
		rest = rest[open+end+1:]
	}
	if _, err := parseIdent(strings.Join(d.parts, "x")); err != nil {
		return nil, fmt.Errorf("icebergio: table template %q: %w", tmpl, err)
	}
	return d, nil
}

// of returns the destination table of the row at p.
func (d *destination) of(p unsafe.Pointer) string {
	if d.fixed != "" {
		return d.fixed
	}
	var b strings.Builder
	for i, f := range d.field {
		b.WriteString(d.parts[i])
		for _, c := range []byte(f(p)) {
			if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' {
				b.WriteByte(c)
			} else {
				b.WriteByte('_')
			}
		}
	}
	b.WriteString(d.parts[len(d.parts)-1])
	return b.String()
}

// parseIdent splits "ns.table" (or "a.b.table") into an identifier.
func parseIdent(name string) (table.Identifier, error) {
	ident, err := catalog.ParseTable(name)
	if err != nil {
		return nil, fmt.Errorf("icebergio: %w", err)
	}
	return ident, nil
}

// partitionSpec builds the spec for a table the sink creates from terms such
// as "day(ts)", "bucket(user_id, 16)", "truncate(s, 4)" or "user_id".
func partitionSpec(terms []string, sc *iceberg.Schema) (iceberg.PartitionSpec, error) {
	if len(terms) == 0 {
		return *iceberg.UnpartitionedSpec, nil
	}
	fields := make([]iceberg.PartitionField, 0, len(terms))
	for i, term := range terms {
		fn, args := "identity", []string{strings.TrimSpace(term)}
		if open := strings.IndexByte(term, '('); open >= 0 {
			if !strings.HasSuffix(strings.TrimSpace(term), ")") {
				return iceberg.PartitionSpec{}, fmt.Errorf("icebergio: partition term %q: missing ')'", term)
			}
			fn = strings.ToLower(strings.TrimSpace(term[:open]))
			inner := strings.TrimSpace(term[open+1:])
			inner = strings.TrimSuffix(inner, ")")
			args = strings.Split(inner, ",")
			for j := range args {
				args[j] = strings.TrimSpace(args[j])
			}
		}
		col := args[0]
		src, ok := sc.FindFieldByName(col)
		if !ok {
			return iceberg.PartitionSpec{}, fmt.Errorf("icebergio: partition term %q: no column %q in the row schema", term, col)
		}
		var tr iceberg.Transform
		name := col
		width := func() (int, error) {
			if len(args) != 2 {
				return 0, fmt.Errorf("icebergio: partition term %q: %s needs (column, width)", term, fn)
			}
			n, err := strconv.Atoi(args[1])
			if err != nil || n <= 0 {
				return 0, fmt.Errorf("icebergio: partition term %q: width %q is not a positive integer", term, args[1])
			}
			return n, nil
		}
		switch fn {
		case "identity":
			tr = iceberg.IdentityTransform{}
		case "year", "years":
			tr, name = iceberg.YearTransform{}, col+"_year"
		case "month", "months":
			tr, name = iceberg.MonthTransform{}, col+"_month"
		case "day", "days":
			tr, name = iceberg.DayTransform{}, col+"_day"
		case "hour", "hours":
			tr, name = iceberg.HourTransform{}, col+"_hour"
		case "bucket":
			n, err := width()
			if err != nil {
				return iceberg.PartitionSpec{}, err
			}
			tr, name = iceberg.BucketTransform{NumBuckets: n}, col+"_bucket"
		case "truncate":
			n, err := width()
			if err != nil {
				return iceberg.PartitionSpec{}, err
			}
			tr, name = iceberg.TruncateTransform{Width: n}, col+"_trunc"
		default:
			return iceberg.PartitionSpec{}, fmt.Errorf("icebergio: partition term %q: unknown transform %q (want identity, year, month, day, hour, bucket, truncate)", term, fn)
		}
		if fn != "bucket" && fn != "truncate" && len(args) != 1 {
			return iceberg.PartitionSpec{}, fmt.Errorf("icebergio: partition term %q: %s takes one column", term, fn)
		}
		if !tr.CanTransform(src.Type) {
			return iceberg.PartitionSpec{}, fmt.Errorf("icebergio: partition term %q: cannot apply %s to column %q of type %s", term, tr, col, src.Type)
		}
		fields = append(fields, iceberg.PartitionField{
			SourceIDs: []int{src.ID}, FieldID: 1000 + i, Name: name, Transform: tr,
		})
	}
	return iceberg.NewPartitionSpec(fields...), nil
}
