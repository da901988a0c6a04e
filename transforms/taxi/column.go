package taxi

import (
	"context"
	"fmt"
	"math"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// Columns are read with Parquet's column chunk readers into plain Go slices,
// batch by batch, and folded from there: no Arrow arrays are built. Every
// column is converted to one of three forms, as Arrow's reader would
// convert it (see usable): days since 1970-01-01 for the pickup time,
// float64 for amounts, int64 for counts.

// batchRows is the rows per batch: small enough that a batch of the seven
// columns stays in cache between decoding and folding.
const batchRows = 16 << 10

// batchDepth is the batches of each column in flight: one being folded,
// one being decoded.
const batchDepth = 2

// colSpec is how to read one needed column of a file.
type colSpec struct {
	name   string
	kind   colKind
	typ    arrow.DataType // as Arrow's reader would give it; usable(typ, kind)
	phys   parquet.Type
	leaf   int   // Parquet leaf index
	maxDef int16 // 0: required, 1: optional
}

func newColSpec(name string, kind colKind, typ arrow.DataType, descr *schema.Column, leaf int) (colSpec, error) {
	s := colSpec{name: name, kind: kind, typ: typ, phys: descr.PhysicalType(), leaf: leaf, maxDef: descr.MaxDefinitionLevel()}
	ok := false
	switch s.phys {
	case parquet.Types.Int32:
		ok = typ.ID() != arrow.TIMESTAMP && typ.ID() != arrow.FLOAT32 && typ.ID() != arrow.FLOAT64
	case parquet.Types.Int64:
		ok = typ.ID() != arrow.DATE32 && typ.ID() != arrow.FLOAT32 && typ.ID() != arrow.FLOAT64
	case parquet.Types.Int96:
		ok = typ.ID() == arrow.TIMESTAMP
	case parquet.Types.Float:
		ok = typ.ID() == arrow.FLOAT32
	case parquet.Types.Double:
		ok = typ.ID() == arrow.FLOAT64
	}
	if !ok || descr.MaxRepetitionLevel() > 0 || s.maxDef > 1 {
		return s, fmt.Errorf("column %q: cannot read %s stored as %s", name, typ, s.phys)
	}
	return s, nil
}

// colBuf is one column of one batch. Exactly one of days, f64 and i64 is
// the column's values, by its kind; the other slices are buffers.
type colBuf struct {
	days []int32   // kindTime
	f64  []float64 // kindNumber; also the raw DOUBLE values
	i64  []int64   // kindCount; also the raw INT32 and INT64 values
	// null marks the NULLs; nil when the batch has none. A NULL's value
	// is zero, which fails the filter: the fold need not look at null for
	// the filtered columns.
	null []bool

	nulls []bool // null's array, kept while null is nil
	defs  []int16
	i32   []int32
	f32   []float32
	i96   []parquet.Int96
}

// freeBufs keeps column buffers from one row group to the next, across
// one garbage collection (see pageAllocator). Each needed column has its
// own: a buffer passed between columns of different types would end up
// holding the slices of every type (a few hundred KB each, where one column
// needs two or three).
var freeBufs [7]sync.Pool // one per needed column, as in batch.cols

// getColBuf is a buffer for the j-th needed column.
func getColBuf(j int) *colBuf {
	if b, _ := freeBufs[j].Get().(*colBuf); b != nil {
		return b
	}
	return new(colBuf)
}

func putColBuf(j int, b *colBuf) { freeBufs[j].Put(b) }

// grow returns s with length n, reusing its array when large enough.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, max(n, batchRows))
	}
	return s[:n]
}

// batchReader is what the column chunk readers of physical type T have in
// common.
type batchReader[T any] interface {
	ReadBatch(batchSize int64, values []T, defLvls, repLvls []int16) (total int64, valuesRead int, err error)
}

// readBatch reads the next n levels of cr into *buf, grown to n, and their
// definition levels into defs (nil for a required column).
func readBatch[T any](cr batchReader[T], buf *[]T, n int, defs []int16) (total int64, valuesRead int, err error) {
	*buf = grow(*buf, n)
	return cr.ReadBatch(int64(n), *buf, defs, nil)
}

// colReader reads one column chunk in batches.
type colReader struct {
	colSpec
	cr file.ColumnChunkReader
}

// read reads the next n values of the column into b, the first of which is
// row start of the row group.
func (c *colReader) read(b *colBuf, n int, start int64) (err error) {
	defer func() {
		// Corrupt pages can make the decoders panic.
		if r := recover(); r != nil {
			err = fmt.Errorf("column %q is corrupt: %v", c.name, r)
		}
	}()
	var defs []int16
	if c.maxDef > 0 {
		b.defs = grow(b.defs, n)
		defs = b.defs
	}
	var total int64
	var nv int
	switch cr := c.cr.(type) {
	case *file.Int32ColumnChunkReader:
		total, nv, err = readBatch(cr, &b.i32, n, defs)
	case *file.Int64ColumnChunkReader:
		total, nv, err = readBatch(cr, &b.i64, n, defs)
	case *file.Int96ColumnChunkReader:
		total, nv, err = readBatch(cr, &b.i96, n, defs)
	case *file.Float32ColumnChunkReader:
		total, nv, err = readBatch(cr, &b.f32, n, defs)
	case *file.Float64ColumnChunkReader:
		total, nv, err = readBatch(cr, &b.f64, n, defs)
	default:
		return fmt.Errorf("column %q: no reader for %s", c.name, c.phys)
	}
	if err == nil && total != int64(n) {
		err = c.cr.Err() // why the pages ran out, if known
	}
	if err != nil {
		return fmt.Errorf("column %q is corrupt: %w", c.name, err)
	}
	if total != int64(n) || nv > n || (c.maxDef == 0 && nv != n) {
		return fmt.Errorf("column %q is corrupt: %d values where the row group has %d rows from row %d", c.name, total, n, start)
	}

	// Put the values at their rows: ReadBatch packs the non-NULL values
	// first; the definition levels say which rows they belong to.
	b.null = nil
	if nv < n {
		b.nulls = grow(b.nulls, n)
		b.null = b.nulls
		switch c.phys {
		case parquet.Types.Int32:
			spread(b.i32, defs, nv, c.maxDef, b.null)
		case parquet.Types.Int64:
			spread(b.i64, defs, nv, c.maxDef, b.null)
		case parquet.Types.Int96:
			spread(b.i96, defs, nv, c.maxDef, b.null)
		case parquet.Types.Float:
			spread(b.f32, defs, nv, c.maxDef, b.null)
		case parquet.Types.Double:
			spread(b.f64, defs, nv, c.maxDef, b.null)
		}
	}
	return c.convert(b, n, start)
}

// spread moves the nv packed values of v to the rows whose definition level
// is maxDef, from the back so that none is overwritten before it moves, and
// zeroes and marks the NULL rows.
func spread[T any](v []T, defs []int16, nv int, maxDef int16, null []bool) {
	v, defs, null = v[:len(defs)], defs[:len(defs)], null[:len(defs)]
	var zero T
	for i := len(defs) - 1; i >= 0; i-- {
		if defs[i] == maxDef {
			nv--
			v[i] = v[nv]
			null[i] = false
		} else {
			v[i] = zero
			null[i] = true
		}
	}
}

// convert turns the n raw values of b (NULLs zero) into the column's form.
func (c *colReader) convert(b *colBuf, n int, start int64) error {
	// Integers as Arrow's reader types them: an INT32 annotated as a uint8
	// is read as uint8(v).
	if c.phys == parquet.Types.Int32 {
		b.i64 = grow(b.i64, n)
		for i, v := range b.i32[:n] {
			b.i64[i] = int64(v)
		}
	}
	if c.phys == parquet.Types.Int32 || c.phys == parquet.Types.Int64 {
		narrow(b.i64[:n], c.typ.ID())
	}
	switch c.kind {
	case kindTime:
		b.days = grow(b.days, n)
		switch c.phys {
		case parquet.Types.Int96:
			for i, v := range b.i96[:n] {
				if b.null != nil && b.null[i] {
					b.days[i] = 0
					continue
				}
				ts, err := v.ToTimestamp()
				if err != nil {
					return fmt.Errorf("column %q: row %d: %w", c.name, start+int64(i), err)
				}
				b.days[i] = floorDays(int64(ts), 86400e9)
			}
		default:
			if c.typ.ID() == arrow.DATE32 {
				for i, v := range b.i64[:n] {
					b.days[i] = int32(v)
				}
				return nil
			}
			toDays(b.days[:n], b.i64[:n], c.typ.(*arrow.TimestampType).Unit)
		}
	case kindNumber:
		switch c.phys {
		case parquet.Types.Double:
		case parquet.Types.Float:
			b.f64 = grow(b.f64, n)
			for i, v := range b.f32[:n] {
				b.f64[i] = float64(v)
			}
		default:
			b.f64 = grow(b.f64, n)
			if c.typ.ID() == arrow.UINT64 {
				for i, v := range b.i64[:n] {
					b.f64[i] = float64(uint64(v))
				}
			} else {
				for i, v := range b.i64[:n] {
					b.f64[i] = float64(v)
				}
			}
		}
	case kindCount:
		switch c.phys {
		case parquet.Types.Float:
			b.f64 = grow(b.f64, n)
			for i, v := range b.f32[:n] {
				b.f64[i] = float64(v)
			}
			fallthrough
		case parquet.Types.Double:
			// Floating counts must be whole numbers.
			b.i64 = grow(b.i64, n)
			for i, f := range b.f64[:n] {
				if f != math.Trunc(f) || math.Abs(f) > 1<<53 { // a NULL is 0
					return fmt.Errorf("row %d: column %q holds %v, not a whole number", start+int64(i), c.name, f)
				}
				b.i64[i] = int64(f)
			}
		}
		// Integers are b.i64 already (a uint64 as its bits, as before).
	}
	return nil
}

// narrow truncates integers to the width and signedness of their Arrow
// type, as Arrow's reader does.
func narrow(v []int64, t arrow.Type) {
	switch t {
	case arrow.INT8:
		truncate[int8](v)
	case arrow.INT16:
		truncate[int16](v)
	case arrow.INT32:
		truncate[int32](v)
	case arrow.UINT8:
		truncate[uint8](v)
	case arrow.UINT16:
		truncate[uint16](v)
	case arrow.UINT32:
		truncate[uint32](v)
	}
}

// truncate converts each value to T and back. Each T is its own GC shape,
// so every instance compiles to the plain loop of its conversion.
func truncate[T int8 | int16 | int32 | uint8 | uint16 | uint32](v []int64) {
	for i, x := range v {
		v[i] = int64(T(x))
	}
}

// toDays turns timestamps into days since 1970-01-01 of the time as
// written: no time-zone shift. One loop per unit, so that each divides by a
// constant (a multiply and a shift, where a division by a variable costs
// tens of cycles).
func toDays(days []int32, ts []int64, unit arrow.TimeUnit) {
	days = days[:len(ts)]
	switch unit {
	case arrow.Second:
		for i, v := range ts {
			days[i] = floorDays(v, 86400)
		}
	case arrow.Millisecond:
		for i, v := range ts {
			days[i] = floorDays(v, 86400e3)
		}
	case arrow.Microsecond:
		for i, v := range ts {
			days[i] = floorDays(v, 86400e6)
		}
	default:
		for i, v := range ts {
			days[i] = floorDays(v, 86400e9)
		}
	}
}

// floorDays is v / perDay rounded down (times before 1970 too).
func floorDays(v, perDay int64) int32 {
	d := v / perDay
	if v%perDay < 0 {
		d--
	}
	return int32(d)
}

// batch is the needed columns of some consecutive rows of a row group.
type batch struct {
	n     int
	start int64 // row number of the first row within the row group
	cols  [7]*colBuf
}

// colResult is a decoded column of one batch, or why not.
type colResult struct {
	buf *colBuf
	err error
}

// readRowGroup reads the needed columns of row group rg in batches and
// calls each with every batch, in row order. Each column is decoded on its
// own goroutine, one batch ahead of each, so that a worker's cores decode
// and fold at once even when the runner hands it all row groups in one
// bundle (prism does). The fold itself stays sequential: row order is what
// makes the sums equal Spark's. The batch is only valid during the call.
func (tf *taxiFile) readRowGroup(_ context.Context, rg int, each func(*batch) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("taxi: %s: row group %d is corrupt: %v", tf.path, rg, r)
		}
	}()
	rgr := tf.pf.RowGroup(rg)
	nrows := rgr.NumRows()
	readers := make([]*colReader, len(tf.cols))
	defer func() {
		for _, r := range readers {
			if r != nil {
				r.cr.Close()
			}
		}
	}()
	for j, spec := range tf.cols {
		cr, err := rgr.Column(spec.leaf)
		if err != nil {
			return fmt.Errorf("taxi: %s: row group %d: column %q: %w", tf.path, rg, spec.name, err)
		}
		readers[j] = &colReader{colSpec: spec, cr: cr}
	}

	stop := make(chan struct{})
	ready := make([]chan colResult, len(readers))
	free := make([]chan *colBuf, len(readers))
	var wg sync.WaitGroup
	for j, r := range readers {
		ready[j] = make(chan colResult, batchDepth)
		free[j] = make(chan *colBuf, batchDepth)
		for range batchDepth {
			free[j] <- getColBuf(j)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(ready[j])
			for start := int64(0); start < nrows; start += batchRows {
				var buf *colBuf
				select {
				case buf = <-free[j]:
				case <-stop:
					return
				}
				err := r.read(buf, int(min(batchRows, nrows-start)), start)
				ready[j] <- colResult{buf, err} // never blocks: batchDepth buffers
				if err != nil {
					return
				}
			}
		}()
	}
	defer func() {
		close(stop)
		wg.Wait()
		for j := range readers {
			for res := range ready[j] {
				putColBuf(j, res.buf)
			}
			close(free[j])
			for buf := range free[j] {
				putColBuf(j, buf)
			}
		}
	}()

	var b batch
	for start := int64(0); start < nrows; start += batchRows {
		b.n, b.start = int(min(batchRows, nrows-start)), start
		var firstErr error
		for j := range readers {
			res, ok := <-ready[j]
			if !ok { // cannot happen: a column stops early only after an error
				res.err = fmt.Errorf("column %q ended early", readers[j].name)
			}
			b.cols[j] = res.buf
			if res.err != nil && firstErr == nil {
				firstErr = res.err
			}
		}
		if firstErr == nil {
			firstErr = each(&b)
		}
		for j := range readers {
			if b.cols[j] != nil {
				free[j] <- b.cols[j] // never blocks: it came from there
			}
		}
		if firstErr != nil {
			return fmt.Errorf("taxi: %s: row group %d: %w", tf.path, rg, firstErr)
		}
	}
	return nil
}
