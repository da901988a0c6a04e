package icebergio

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"unsafe"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/icebeam/icebeam/transforms/icebergio/internal/rowcodec"
)

// RejectedRow is a row WriteWithRejects could not apply, and why.
// Its tags make it a row icebergio.Write can append to a table of its own.
type RejectedRow struct {
	Table  string `beam:"table"` // the row's destination table
	Row    string `beam:"row"`   // the row as JSON, keyed by its beam field names
	Reason string `beam:"reason"`
}

// WriteWithRejects is Write with a dead-letter output, for the modes whose
// rows can be invalid on their own: a Changes row whose operation is not
// one the sink knows (see Config.Op) goes to rejected, a PCollection of
// RejectedRow, instead of failing its bundle; the other rows are written
// as by Write. Write fails the bundle on such a row, naming its key and
// operation, before anything of it is written.
func WriteWithRejects(s beam.Scope, cfg Config, rows beam.PCollection) (commits, rejected beam.PCollection) {
	s = s.Scope("icebergio.WriteWithRejects")
	if cfg.Mode != Changes {
		panic(fmt.Sprintf("icebergio: table %s: WriteWithRejects applies to mode %q (other modes reject no row)", cfg.Table, Changes))
	}
	good, bad := beam.ParDo2(s, &rejectFn{Cfg: cfg, RowType: beam.EncodedType{T: rows.Type().Type()}}, rows)
	return Write(s, cfg, good), bad
}

// opChecker reads the operation of a Changes row without reflection.
type opChecker struct {
	rows   *rowcodec.Schema
	offset uintptr
	name   string
	table  string
}

func newOpChecker(rows *rowcodec.Schema, cfg Config) *opChecker {
	if cfg.Mode != Changes {
		return nil
	}
	for _, f := range rows.Fields {
		if f.Name == cfg.Op {
			return &opChecker{rows: rows, offset: f.Offset, name: f.Name, table: cfg.Table}
		}
	}
	return nil // Config.check refuses this before any row
}

// check reports why the row at p cannot be applied, or "".
func (c *opChecker) check(p unsafe.Pointer) string {
	op := *(*string)(unsafe.Add(p, c.offset))
	if _, ok := parseOp(op); ok {
		return ""
	}
	return fmt.Sprintf("unknown operation %q in %s (want c, r, u, d or t, or insert, update, delete or truncate)", op, c.name)
}

// rowJSON renders the row at p for people, by its beam field names.
func (c *opChecker) rowJSON(p unsafe.Pointer) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, f := range c.rows.Fields {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(f.Name)
		v, err := json.Marshal(reflect.NewAt(f.Type, unsafe.Add(p, f.Offset)).Elem().Interface())
		if err != nil {
			v, _ = json.Marshal(err.Error())
		}
		b.Write(name)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.String()
}

// rejectFn passes the rows the sink can apply and rejects the others.
type rejectFn struct {
	Cfg     Config
	RowType beam.EncodedType

	check *opChecker
	dest  *destination
}

func (f *rejectFn) Setup() error {
	rows, err := rowcodec.New(f.RowType.T)
	if err != nil {
		return err
	}
	if f.dest, err = newDestination(f.Cfg.Table, rows); err != nil {
		return err
	}
	f.check = newOpChecker(rows, f.Cfg)
	return nil
}

func (f *rejectFn) ProcessElement(ctx context.Context, row beam.X, good func(beam.X), bad func(RejectedRow)) {
	if f.check == nil {
		good(row)
		return
	}
	v := any(row)
	p := f.check.rows.RowPointer(&v)
	if why := f.check.check(p); why != "" {
		rejectedCounter.Inc(ctx, 1)
		bad(RejectedRow{Table: f.dest.of(p), Row: f.check.rowJSON(p), Reason: why})
		return
	}
	good(row)
}

func init() {
	register.DoFn4x0[context.Context, beam.X, func(beam.X), func(RejectedRow)](&rejectFn{})
	register.Emitter1[beam.X]()
	register.Emitter1[RejectedRow]()
	beam.RegisterType(reflect.TypeOf((*RejectedRow)(nil)).Elem())
}
