package icebergio

import (
	"context"
	"iter"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/catalog"
	ilaunch "github.com/icebeam/icebeam/internal/launch"
	"github.com/icebeam/icebeam/transforms/icebergio/internal/rowcodec"
)

// launch starts the embedded REST catalog in a temp dir.
func launch(t testing.TB) catalog.Config {
	t.Helper()
	cfg, stop, err := ilaunch.Catalog(context.Background(), catalog.Config{LocalDir: t.TempDir()})
	require.NoError(t, err)
	t.Cleanup(func() { _ = stop() })
	return cfg
}

func openCat(t testing.TB, cfg catalog.Config) icecatalog.Catalog {
	t.Helper()
	cat, err := catalog.Open(context.Background(), cfg)
	require.NoError(t, err)
	return cat
}

func loadTable(t testing.TB, cat icecatalog.Catalog, name string) *table.Table {
	t.Helper()
	ident, err := parseIdent(name)
	require.NoError(t, err)
	tbl, err := cat.LoadTable(context.Background(), ident)
	require.NoError(t, err, "loading %s", name)
	return tbl
}

// readRows scans tbl (optionally at a snapshot) into values of type T. It
// is a deliberately plain, reflection-based reader: a second implementation
// to check the sink's unsafe writer against.
func readRows[T any](t *testing.T, tbl *table.Table, opts ...table.ScanOption) []T {
	t.Helper()
	at, err := tbl.Scan(opts...).ToArrowTable(context.Background())
	require.NoError(t, err)
	defer at.Release()
	var out []T
	tr := array.NewTableReader(at, 1<<20)
	defer tr.Release()
	for tr.Next() {
		rec := tr.RecordBatch()
		rt := reflect.TypeFor[T]()
		for r := 0; r < int(rec.NumRows()); r++ {
			v := reflect.New(rt).Elem()
			for c := 0; c < int(rec.NumCols()); c++ {
				name := rec.ColumnName(c)
				setField(t, v, name, rec.Column(c), r)
			}
			out = append(out, v.Interface().(T))
		}
	}
	return out
}

func fieldByBeamName(v reflect.Value, name string) (reflect.Value, bool) {
	rt := v.Type()
	for i := 0; i < rt.NumField(); i++ {
		f := rt.Field(i)
		tag := f.Tag.Get("beam")
		if tag == name || (tag == "" && f.Name == name) {
			return v.Field(i), true
		}
	}
	return reflect.Value{}, false
}

func setField(t *testing.T, v reflect.Value, name string, arr arrow.Array, r int) {
	t.Helper()
	fv, ok := fieldByBeamName(v, name)
	if !ok {
		return // a column the row type no longer has
	}
	setValue(t, fv, arr, r)
}

func setValue(t *testing.T, fv reflect.Value, arr arrow.Array, r int) {
	t.Helper()
	if arr.IsNull(r) {
		fv.Set(reflect.Zero(fv.Type()))
		return
	}
	if fv.Kind() == reflect.Pointer {
		p := reflect.New(fv.Type().Elem())
		setValue(t, p.Elem(), arr, r)
		fv.Set(p)
		return
	}
	switch a := arr.(type) {
	case *array.Boolean:
		fv.SetBool(a.Value(r))
	case *array.Int32:
		fv.SetInt(int64(a.Value(r)))
	case *array.Int64:
		if fv.Kind() == reflect.Uint32 {
			fv.SetUint(uint64(a.Value(r)))
		} else {
			fv.SetInt(a.Value(r))
		}
	case *array.Date32:
		fv.SetInt(int64(a.Value(r)))
	case *array.Timestamp:
		fv.SetInt(int64(a.Value(r)))
	case *array.Float32:
		fv.SetFloat(float64(a.Value(r)))
	case *array.Float64:
		fv.SetFloat(a.Value(r))
	case *array.String:
		fv.SetString(a.Value(r))
	case *array.LargeString:
		fv.SetString(a.Value(r))
	case *array.Binary:
		fv.SetBytes(slices.Clone(a.Value(r)))
	case *array.LargeBinary:
		fv.SetBytes(slices.Clone(a.Value(r)))
	case *array.Struct:
		st := a.DataType().(*arrow.StructType)
		for i := 0; i < a.NumField(); i++ {
			if cf, ok := fieldByBeamName(fv, st.Field(i).Name); ok {
				setValue(t, cf, a.Field(i), r)
			}
		}
	case array.ListLike:
		start, end := a.ValueOffsets(r)
		s := reflect.MakeSlice(fv.Type(), int(end-start), int(end-start))
		for i := start; i < end; i++ {
			setValue(t, s.Index(int(i-start)), a.ListValues(), int(i))
		}
		fv.Set(s)
	default:
		t.Fatalf("readRows: unhandled arrow type %s", arr.DataType())
	}
}

// encodeRows is the encode step: rows -> Arrow batches of at most per rows
// -> chunks.
func encodeRows[T any](t testing.TB, s *sink, rows []T, per int) [][]byte {
	t.Helper()
	var blobs [][]byte
	bb := s.rows.NewBatchBuilder(memory.DefaultAllocator)
	defer bb.Release()
	for i := range rows {
		v := any(rows[i])
		bb.Add(s.rows.RowPointer(&v))
		if bb.Rows() == per || i == len(rows)-1 {
			var err error
			blobs, err = s.enc.encode(context.Background(), s.cfg.Table, batchSeq(bb.Batch()), time.Now(), blobs)
			require.NoError(t, err)
		}
	}
	return blobs
}

// parquetChunksOf is rows as Parquet chunks of per rows, however few: the
// encode step sends fewer than rowChunkRows rows as Arrow IPC instead.
func parquetChunksOf[T any](t testing.TB, s *sink, rows []T, per int) iter.Seq2[*chunk, error] {
	t.Helper()
	var blobs [][]byte
	for i := 0; i < len(rows); i += per {
		bb := s.rows.NewBatchBuilder(memory.DefaultAllocator)
		for j := i; j < min(i+per, len(rows)); j++ {
			v := any(rows[j])
			bb.Add(s.rows.RowPointer(&v))
		}
		var err error
		blobs, err = s.enc.encodeParquet(context.Background(), []arrow.RecordBatch{bb.Batch()}, time.Now(), blobs)
		require.NoError(t, err)
		bb.Release()
	}
	return deliver(blobs)
}

// pane hands blobs to decodeChunks as a GroupByKey's value iterator would.
// Each call gets its own copy, as each delivery of a pane by a runner does:
// stitching rewrites a chunk's footer in place.
func pane(blobs [][]byte) func(*[]byte) bool {
	blobs = slices.Clone(blobs)
	for i := range blobs {
		blobs[i] = slices.Clone(blobs[i])
	}
	i := 0
	return func(p *[]byte) bool {
		if i == len(blobs) {
			return false
		}
		*p = blobs[i]
		i++
		return true
	}
}

// chunksOf turns rows into chunks of at most per rows with the sink's own
// encode step. They are decoded as they are consumed, as in a pane:
// stitching a chunk rewrites the offsets in its footer.
func chunksOf[T any](t testing.TB, s *sink, rows []T, per int) iter.Seq2[*chunk, error] {
	t.Helper()
	return deliver(encodeRows(t, s, rows, per))
}

// deliver hands a pane of encoded chunks to the committer, once per call:
// calling it twice with the same blobs is a runner replaying the pane.
func deliver(blobs [][]byte) iter.Seq2[*chunk, error] {
	return decodeChunks(pane(blobs), new(sentTimes))
}

func newTestSink[T any](t testing.TB, cfg Config) *sink {
	t.Helper()
	rs, err := rowcodec.New(reflect.TypeFor[T]())
	require.NoError(t, err)
	cfg = cfg.withDefaults()
	require.NoError(t, cfg.validate(rs))
	s, err := newSink(openCat(t, cfg.Catalog), cfg, rs)
	require.NoError(t, err)
	return s
}

func ptr[T any](v T) *T { return &v }

var (
	collectedMu sync.Mutex
	collected   = map[string][]CommitResult{}
	collectSeq  atomic.Int64
)

// collectFn appends results to collected[Key]; prism runs loopback, in
// this process.
type collectFn struct{ Key string }

func (f *collectFn) ProcessElement(r CommitResult) {
	collectedMu.Lock()
	defer collectedMu.Unlock()
	collected[f.Key] = append(collected[f.Key], r)
}

func init() { register.DoFn1x0[CommitResult](&collectFn{}) }
