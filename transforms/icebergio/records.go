package icebergio

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/icebeam/icebeam/transforms/icebergio/internal/rowcodec"
	"github.com/icebeam/icebeam/transforms/internal/arrowipc"
)

func init() {
	register.DoFn3x1[context.Context, []byte, func(string, []byte), error](&encodeRecordsFn{})
}

// WriteRecords is Write for columnar producers: each element of records is
// an Arrow record batch as an Arrow IPC stream ([]byte), as ReadRecords
// emits and EncodeRecords makes, with the columns of schema (in any order;
// nullable fields are optional columns; field ids are ignored). Batches go
// into Parquet as they are, with no conversion per row, so a pipeline that
// reads, filters and writes Iceberg never leaves Arrow. Everything else is
// Write's: the modes (Upsert and Changes take Key, Op and Order columns),
// triggering, Shards, schema evolution and exactly once.
//
// cfg.Table names one table: templates are filled from row fields, which
// Write has. A batch whose columns do not fit schema fails its bundle,
// naming the table and the column, as does a change that cannot be applied
// (there is no dead-letter output for records). Invalid configuration
// panics at construction.
func WriteRecords(s beam.Scope, cfg Config, schema *arrow.Schema, records beam.PCollection) beam.PCollection {
	s = s.Scope("icebergio.WriteRecords")
	cfg = cfg.withDefaults()
	if t := records.Type().Type(); t != reflect.TypeFor[[]byte]() {
		panic(fmt.Sprintf("icebergio: WriteRecords takes Arrow IPC streams ([]byte), not %v", t))
	}
	sr, err := recordsRows(cfg, schema)
	if err != nil {
		panic(err)
	}
	return writeChunks(s, cfg, records, &encodeRecordsFn{Cfg: cfg, Rows: sr}, sr)
}

// recordsRows is what the sink's DoFns need to know of records of schema
// written by cfg, once cfg is valid for them.
func recordsRows(cfg Config, schema *arrow.Schema) (sinkRows, error) {
	rs, err := recordsSchema(cfg, schema)
	if err != nil {
		return sinkRows{}, err
	}
	if err := cfg.validate(rs); err != nil {
		return sinkRows{}, err
	}
	b, err := EncodeSchema(rs.Arrow)
	if err != nil {
		return sinkRows{}, err
	}
	return sinkRows{Type: beam.EncodedType{T: reflect.TypeFor[[]byte]()}, Arrow: b}, nil
}

// CheckRecords is Check for WriteRecords: it reports what WriteRecords
// would panic on for records of schema, short of an unresolved catalog.
func CheckRecords(cfg Config, schema *arrow.Schema) error {
	rs, err := recordsSchema(cfg, schema)
	if err != nil {
		return err
	}
	return cfg.withDefaults().check(rs)
}

func recordsSchema(cfg Config, schema *arrow.Schema) (*rowcodec.Schema, error) {
	if strings.Contains(cfg.Table, "{") {
		return nil, fmt.Errorf("icebergio: WriteRecords writes one table, not the template %q (Write fills templates from row fields)", cfg.Table)
	}
	return rowcodec.FromArrow(schema)
}

// EncodeRecords is rec as an element of WriteRecords (and of ReadRecords):
// an Arrow IPC stream holding one record batch. DecodeRecords reverses it.
func EncodeRecords(rec arrow.RecordBatch) ([]byte, error) {
	b, err := arrowipc.Encode(rec)
	if err != nil {
		return nil, fmt.Errorf("icebergio: %w", err)
	}
	return b, nil
}

// EncodeSchema and DecodeSchema carry an Arrow schema in a DoFn's fields,
// such as the schema of WriteRecords' elements: an IPC stream with no
// batches.
func EncodeSchema(sc *arrow.Schema) ([]byte, error) {
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(sc))
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("icebergio: encoding the Arrow schema %s: %w", sc, err)
	}
	return buf.Bytes(), nil
}

func DecodeSchema(b []byte) (*arrow.Schema, error) {
	r, err := ipc.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("icebergio: decoding an Arrow schema: %w", err)
	}
	defer r.Release()
	return r.Schema(), nil
}

// encodeRecordsFn is encodeFn for record batches: a bundle's batches are
// checked against the schema and encoded together, up to maxBatchRows rows
// a chunk.
type encodeRecordsFn struct {
	Cfg  Config
	Rows sinkRows

	rows    *rowcodec.Schema
	enc     *chunkEncoder   // for rows of the sink's columns
	more    []*chunkEncoder // for rows of more columns (recordFit.more)
	fit     recordFit
	pending []arrow.RecordBatch // of one schema
	n       int64               // rows pending
	ranges  sourceRanges        // of the batches pending (EncodeRecordsFrom)
}

func (f *encodeRecordsFn) Setup() error {
	var err error
	if f.rows, err = f.Rows.schema(); err != nil {
		return err
	}
	spec, err := partitionSpec(f.Cfg.PartitionBy, f.rows.Iceberg)
	if err != nil {
		return err
	}
	f.fit = recordFit{table: f.Cfg.Table, want: f.rows.Arrow, more: f.Cfg.Mode == Append && f.Cfg.SchemaEvolution != EvolveNever}
	f.enc, err = newChunkEncoder(f.rows, spec, f.Cfg)
	return err
}

// encoder is the chunk encoder of rows of schema sc.
func (f *encodeRecordsFn) encoder(sc *arrow.Schema) (*chunkEncoder, error) {
	if sc == f.rows.Arrow {
		return f.enc, nil
	}
	for _, e := range f.more {
		if e.schema.Equal(sc) {
			return e, nil
		}
	}
	e, err := newColumnsEncoder(sc, f.Cfg)
	if err != nil {
		return nil, fmt.Errorf("icebergio: table %s: %w", f.Cfg.Table, err)
	}
	f.more = append(f.more, e)
	return e, nil
}

func (f *encodeRecordsFn) ProcessElement(ctx context.Context, b []byte, emit func(string, []byte)) error {
	rec, err := DecodeRecords(b)
	if err != nil {
		return fmt.Errorf("icebergio: table %s: %w", f.Cfg.Table, err)
	}
	ranges, rec, err := takeSourceRanges(rec)
	if err != nil {
		return fmt.Errorf("icebergio: table %s: %w", f.Cfg.Table, err)
	}
	fitted, err := f.fit.conform(rec)
	rec.Release()
	if err != nil {
		return err
	}
	// A batch's ranges go with its rows, after the rows before them: the
	// committer records ranges only with their rows (see flushRanges).
	if len(f.pending) > 0 && fitted.NumRows() > 0 && fitted.Schema() != f.pending[0].Schema() && !fitted.Schema().Equal(f.pending[0].Schema()) {
		if err := f.flush(ctx, emit); err != nil {
			return err
		}
	}
	if ranges != nil {
		if f.ranges == nil {
			f.ranges = sourceRanges{}
		}
		f.ranges.add(ranges)
	}
	if fitted.NumRows() == 0 {
		fitted.Release()
		if len(f.pending) > 0 {
			return nil
		}
		return f.flushRanges(emit)
	}
	f.pending = append(f.pending, fitted)
	if f.n += fitted.NumRows(); f.n >= f.flushRows() {
		return f.flush(ctx, emit)
	}
	return nil
}

// flushRows is how many rows the step gathers before it encodes them: a
// row group of an append; for a row-level write, whose batches are each a
// chunk, enough batches to encode on encodeWorkers cores.
func (f *encodeRecordsFn) flushRows() int64 {
	if f.Cfg.Mode.rowLevel() {
		return maxBatchRows * int64(encodeWorkers)
	}
	return maxBatchRows
}

func (f *encodeRecordsFn) FinishBundle(ctx context.Context, emit func(string, []byte)) error {
	return f.flush(ctx, emit)
}

func (f *encodeRecordsFn) flush(ctx context.Context, emit func(string, []byte)) error {
	if len(f.pending) == 0 {
		return f.flushRanges(emit)
	}
	enc, err := f.encoder(f.pending[0].Schema())
	if err != nil {
		return err
	}
	batches := batchSeq(f.pending...)
	f.pending, f.n = f.pending[:0], 0
	if err := enc.emit(ctx, f.Cfg.Table, batches, emit); err != nil {
		return err
	}
	return f.flushRanges(emit)
}

// flushRanges sends the ranges of the batches just encoded beside their
// chunks, in the same bundle, so they reach the same pane: keyed by the
// table, or by one of its shards.
func (f *encodeRecordsFn) flushRanges(emit func(string, []byte)) error {
	if len(f.ranges) == 0 {
		return nil
	}
	key := f.Cfg.Table
	if f.Cfg.Shards > 1 {
		key = shardKey(f.Cfg.Table, 0)
	}
	emit(key, appendRangesElement(f.ranges))
	f.ranges = nil
	return nil
}

// recordFit puts a batch's columns in the order and types of want, the
// records' schema, or says which column does not fit. An appending sink
// that may evolve its table takes batches with more columns than want:
// they must be optional, and they follow want's in the batch's order.
type recordFit struct {
	table string
	want  *arrow.Schema
	more  bool          // batches may have columns want lacks
	have  *arrow.Schema // the last batch's schema,
	index []int         // where each of out's columns is in it,
	out   *arrow.Schema // and the schema it is conformed to
}

func (f *recordFit) conform(rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	sc := rec.Schema()
	if f.have == nil || !sc.Equal(f.have) {
		index, out, err := f.columns(sc)
		if err != nil {
			return nil, err
		}
		f.have, f.index, f.out = sc, index, out
	}
	cols := make([]arrow.Array, len(f.index))
	for i, j := range f.index {
		col := rec.Column(j)
		if w := f.out.Field(i); !w.Nullable && col.NullN() > 0 {
			return nil, fmt.Errorf("icebergio: table %s: column %q holds %d nulls, but the records' schema makes it required", f.table, w.Name, col.NullN())
		}
		cols[i] = col
	}
	return array.NewRecordBatch(f.out, cols, rec.NumRows()), nil
}

func (f *recordFit) columns(sc *arrow.Schema) ([]int, *arrow.Schema, error) {
	index := make([]int, f.want.NumFields(), sc.NumFields())
	for i, w := range f.want.Fields() {
		js := sc.FieldIndices(w.Name)
		if len(js) != 1 {
			return nil, nil, fmt.Errorf("icebergio: table %s: a batch has %d columns named %q, want 1 (its columns: %s)", f.table, len(js), w.Name, sc)
		}
		if h := sc.Field(js[0]); !arrow.TypeEqual(h.Type, w.Type) {
			return nil, nil, fmt.Errorf("icebergio: table %s: column %q is %s in a batch and %s in the records' schema", f.table, w.Name, h.Type, w.Type)
		}
		index[i] = js[0]
	}
	if sc.NumFields() == len(index) {
		return index, f.want, nil
	}
	fields := f.want.Fields()
	for j, h := range sc.Fields() {
		if f.want.HasField(h.Name) {
			continue
		}
		switch {
		case !f.more:
			return nil, nil, fmt.Errorf("icebergio: table %s: a batch has column %q, which the records' schema lacks (only an appending sink that may evolve the table takes more columns)", f.table, h.Name)
		case !h.Nullable:
			return nil, nil, fmt.Errorf("icebergio: table %s: a batch has column %q, which the records' schema lacks, and makes it required (a column added to a table is optional)", f.table, h.Name)
		}
		index = append(index, j)
		fields = append(fields, arrow.Field{Name: h.Name, Type: h.Type, Nullable: true})
	}
	return index, arrow.NewSchema(fields, nil), nil
}
