package icebergio

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"
)

// changeSchema is the records' schema of the change tests: change's
// columns, in another order than the batches send them.
var changeSchema = arrow.NewSchema([]arrow.Field{
	{Name: "op", Type: arrow.BinaryTypes.String},
	{Name: "lsn", Type: arrow.PrimitiveTypes.Int64},
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "owner", Type: arrow.BinaryTypes.String},
	{Name: "balance_cents", Type: arrow.PrimitiveTypes.Int64},
}, nil)

// changeBatch builds the Arrow batch of changes with plain builders, its
// columns in the order id, op, lsn, balance_cents, owner.
func changeBatch(t testing.TB, changes []change) []byte {
	t.Helper()
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "op", Type: arrow.BinaryTypes.String},
		{Name: "lsn", Type: arrow.PrimitiveTypes.Int64},
		{Name: "balance_cents", Type: arrow.PrimitiveTypes.Int64},
		{Name: "owner", Type: arrow.BinaryTypes.String},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	for _, c := range changes {
		b.Field(0).(*array.Int64Builder).Append(c.ID)
		b.Field(1).(*array.StringBuilder).Append(c.Op)
		b.Field(2).(*array.Int64Builder).Append(c.LSN)
		b.Field(3).(*array.Int64Builder).Append(c.Bal)
		b.Field(4).(*array.StringBuilder).Append(c.Owner)
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	enc, err := EncodeRecords(rec)
	require.NoError(t, err)
	return enc
}

// WriteRecords in Changes mode, pane after pane, each pane's changes in
// two batches: the table equals the model, and a v3 table has deletion
// vectors and no equality deletes.
func TestWriteRecordsChanges(t *testing.T) {
	for _, version := range []string{"3", "2"} {
		t.Run("v"+version, func(t *testing.T) {
			cfg := Config{Catalog: launch(t), Table: "cdc.records", Mode: Changes, Key: []string{"id"}, Op: "op", Order: "lsn",
				MaxDeletedShare: -1, Properties: map[string]string{table.PropertyFormatVersion: version}}
			var applied []change
			for _, pane := range changeLog(5, 900, 40, 300) {
				half := len(pane) / 2
				p, s := beam.NewPipelineWithRoot()
				res := collect(s, WriteRecords(s, cfg, changeSchema, beam.CreateList(s, [][]byte{changeBatch(t, pane[:half]), changeBatch(t, pane[half:])})))
				require.NoError(t, ptest.Run(p))
				require.Len(t, res(), 1)
				applied = append(applied, pane...)
			}
			tbl := loadTable(t, openCat(t, cfg.Catalog), cfg.Table)
			require.Equal(t, model(applied), readAccounts(t, tbl))
			require.Equal(t, []string{"lsn", "id", "owner", "balance_cents"}, tableColumns(tbl), "the records' schema, but the Op column")
			dvs, eq, _, _ := deleteFiles(t, tbl)
			if version == "3" {
				require.Positive(t, dvs)
				require.Zero(t, eq)
			} else {
				require.Positive(t, eq)
			}
		})
	}
}

func tableColumns(tbl *table.Table) []string {
	var names []string
	for _, f := range tbl.Schema().Fields() {
		names = append(names, f.Name)
	}
	return names
}

// Iceberg to Iceberg without leaving Arrow: ReadRecords with a filter into
// WriteRecords, under the source's own Arrow schema (field ids and all).
func TestWriteRecordsFromReadRecords(t *testing.T) {
	cat := launch(t)
	rows := tripsV1(20_000)
	runWrite(t, Config{Catalog: cat, Table: "taxi.src", PartitionBy: []string{"month(trip_date)"}}, rows)
	src := loadTable(t, openCat(t, cat), "taxi.src")
	sc, err := table.SchemaToArrowSchema(src.Schema(), nil, true, false)
	require.NoError(t, err)

	p, s := beam.NewPipelineWithRoot()
	recs := ReadRecords(s, ReadConfig{Catalog: cat, Table: "taxi.src", Filter: "trips < 7000 AND payment_type = 'cash'"})
	res := collect(s, WriteRecords(s, Config{Catalog: cat, Table: "taxi.dst"}, sc, recs))
	require.NoError(t, ptest.Run(p))
	var want []tripV1
	for _, r := range rows {
		if r.Trips < 7000 && r.Payment == "cash" {
			want = append(want, r)
		}
	}
	got := res()
	require.Len(t, got, 1)
	require.EqualValues(t, len(want), got[0].Rows)
	dst := loadTable(t, openCat(t, cat), "taxi.dst")
	gotRows := readRows[tripV1](t, dst)
	sortTrips(gotRows)
	sortTrips(want)
	require.Equal(t, want, gotRows)
	require.True(t, dst.Schema().Equals(src.Schema()), "dst %s, src %s", dst.Schema(), src.Schema())
}

// A batch that does not fit the records' schema fails the job, naming the
// table and the column, and commits nothing.
func TestWriteRecordsRefusesMisfits(t *testing.T) {
	cat := launch(t)
	intBal := func() []byte {
		sc := arrow.NewSchema([]arrow.Field{
			{Name: "op", Type: arrow.BinaryTypes.String}, {Name: "lsn", Type: arrow.PrimitiveTypes.Int64},
			{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "owner", Type: arrow.BinaryTypes.String},
			{Name: "balance_cents", Type: arrow.PrimitiveTypes.Int32},
		}, nil)
		b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
		defer b.Release()
		b.Field(0).(*array.StringBuilder).Append("c")
		b.Field(1).(*array.Int64Builder).Append(1)
		b.Field(2).(*array.Int64Builder).Append(1)
		b.Field(3).(*array.StringBuilder).Append("x")
		b.Field(4).(*array.Int32Builder).Append(5)
		rec := b.NewRecordBatch()
		defer rec.Release()
		enc, err := EncodeRecords(rec)
		require.NoError(t, err)
		return enc
	}
	nullOwner := func() []byte {
		rec, err := DecodeRecords(changeBatch(t, []change{{Op: "c", LSN: 1, ID: 1, Owner: "a"}}))
		require.NoError(t, err)
		defer rec.Release()
		ob := array.NewStringBuilder(memory.DefaultAllocator)
		ob.AppendNull()
		owner := ob.NewArray()
		defer owner.Release()
		cols := slices.Clone(rec.Columns())
		cols[4] = owner
		withNull := array.NewRecordBatch(rec.Schema(), cols, 1)
		defer withNull.Release()
		enc, err := EncodeRecords(withNull)
		require.NoError(t, err)
		return enc
	}
	for _, tc := range []struct {
		name  string
		batch []byte
		want  string
	}{
		{"type", intBal(), `icebergio: table cdc.misfit: column "balance_cents" is int32 in a batch and int64 in the records' schema`},
		{"null", nullOwner(), `icebergio: table cdc.misfit: column "owner" holds 1 nulls, but the records' schema makes it required`},
		{"op", changeBatch(t, []change{{Op: "merge", LSN: 1, ID: 1}}), `unknown operation "merge"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := Config{Catalog: cat, Table: "cdc.misfit", Mode: Changes, Key: []string{"id"}, Op: "op", Order: "lsn"}
			p, s := beam.NewPipelineWithRoot()
			good := changeBatch(t, []change{{Op: "c", LSN: 2, ID: 2, Owner: "b", Bal: 7}})
			WriteRecords(s, cfg, changeSchema, beam.CreateList(s, [][]byte{good, tc.batch}))
			require.ErrorContains(t, ptest.Run(p), tc.want)
			exists, err := openCat(t, cat).CheckTableExists(context.Background(), table.Identifier{"cdc", "misfit"})
			require.NoError(t, err)
			require.False(t, exists, "nothing is committed, not even the good batch")
		})
	}
	require.PanicsWithError(t, `icebergio: WriteRecords writes one table, not the template "cdc.t_{id}" (Write fills templates from row fields)`, func() {
		_, s := beam.NewPipelineWithRoot()
		WriteRecords(s, Config{Catalog: cat, Table: "cdc.t_{id}"}, changeSchema, beam.CreateList(s, [][]byte{}))
	})
}

// clickBatchesFn emits Batches copies of one Arrow batch of Rows clicks
// (user_id "user-"+i%10, click_count i%100): a producer that costs next to
// nothing, so that BenchmarkWriteRecords times the sink.
type clickBatchesFn struct {
	Batches, Rows int
}

func (f *clickBatchesFn) ProcessElement(_ []byte, emit func([]byte)) error {
	b := array.NewRecordBuilder(memory.DefaultAllocator, clickSchema)
	defer b.Release()
	users, counts := b.Field(0).(*array.StringBuilder), b.Field(1).(*array.Int64Builder)
	for i := range f.Rows {
		users.Append("user-" + strconv.Itoa(i%10))
		counts.Append(int64(i % 100))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	enc, err := EncodeRecords(rec)
	if err != nil {
		return err
	}
	for range f.Batches {
		emit(enc)
	}
	return nil
}

var clickSchema = arrow.NewSchema([]arrow.Field{
	{Name: "user_id", Type: arrow.BinaryTypes.String},
	{Name: "click_count", Type: arrow.PrimitiveTypes.Int64},
}, nil)

func init() { register.DoFn2x1[[]byte, func([]byte), error](&clickBatchesFn{}) }

// BenchmarkWriteRecords times whole prism pipelines that append batches of
// clicks to a table with WriteRecords, from the first batch to the commit:
//
//	go test -run '^$' -bench WriteRecords -benchtime 3x ./transforms/icebergio
func BenchmarkWriteRecords(b *testing.B) {
	const batches, rows = 320, 1 << 16 // 21 M rows a run
	cat := launch(b)
	var total int64
	for i := 0; b.Loop(); i++ {
		p, s := beam.NewPipelineWithRoot()
		recs := beam.ParDo(s, &clickBatchesFn{Batches: batches, Rows: rows}, beam.Impulse(s))
		res := collect(s, WriteRecords(s, Config{Catalog: cat, Table: "bench.records_" + strconv.Itoa(i)}, clickSchema, recs))
		require.NoError(b, ptest.Run(p))
		for _, r := range res() {
			total += r.Rows
		}
	}
	require.EqualValues(b, int64(b.N)*batches*rows, total)
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "rows/s")
}

// tripBatchesFn emits Batches batches of Rows rows of a taxi-like schema
// whose values vary (ids, timestamps, amounts, four payment types, a short
// note), so that Parquet does not shrink them to nothing.
type tripBatchesFn struct {
	Batches, Rows int
}

var tripSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "ts", Type: arrow.PrimitiveTypes.Int64},
	{Name: "amount", Type: arrow.PrimitiveTypes.Float64},
	{Name: "payment", Type: arrow.BinaryTypes.String},
	{Name: "note", Type: arrow.BinaryTypes.String},
}, nil)

func (f *tripBatchesFn) ProcessElement(_ []byte, emit func([]byte)) error {
	pays := []string{"card", "cash", "no_charge", "dispute"}
	for k := range f.Batches {
		b := array.NewRecordBuilder(memory.DefaultAllocator, tripSchema)
		for j := range f.Rows {
			i := int64(k*f.Rows + j)
			h := uint64(i) * 0x9E3779B97F4A7C15
			b.Field(0).(*array.Int64Builder).Append(i)
			b.Field(1).(*array.Int64Builder).Append(1_700_000_000_000_000 + i*997 + int64(h%1000))
			b.Field(2).(*array.Float64Builder).Append(float64(h%100_000) / 100)
			b.Field(3).(*array.StringBuilder).Append(pays[h>>60%4])
			b.Field(4).(*array.StringBuilder).Append(strconv.FormatUint(h>>24&0xFFFFFFFFFF|1<<40, 36))
		}
		rec := b.NewRecordBatch()
		enc, err := EncodeRecords(rec)
		rec.Release()
		b.Release()
		if err != nil {
			return err
		}
		emit(enc)
	}
	return nil
}

func init() { register.DoFn2x1[[]byte, func([]byte), error](&tripBatchesFn{}) }

// BenchmarkCopyTable copies a table of 8 M taxi-like rows into a new table
// with ReadRecords -> WriteRecords on prism, and, as the yardstick in the
// same run, copies its data files' bytes (read and written, as cp does).
// copy_ratio is the pipeline's time over the file copy's.
//
//	go test -run '^$' -bench CopyTable -benchtime 3x ./transforms/icebergio
func BenchmarkCopyTable(b *testing.B) {
	const batches, rows = 128, 1 << 16
	cat := launch(b)
	p, s := beam.NewPipelineWithRoot()
	WriteRecords(s, Config{Catalog: cat, Table: "bench.src"}, tripSchema, beam.ParDo(s, &tripBatchesFn{Batches: batches, Rows: rows}, beam.Impulse(s)))
	require.NoError(b, ptest.Run(p))
	src := loadTable(b, openCat(b, cat), "bench.src")
	files := parquetFiles(b, src)
	var pipeline, fileCopy time.Duration
	var bytes int64
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		p, s := beam.NewPipelineWithRoot()
		res := collect(s, WriteRecords(s, Config{Catalog: cat, Table: "bench.copy_" + strconv.Itoa(i)}, tripSchema,
			ReadRecords(s, ReadConfig{Catalog: cat, Table: "bench.src"})))
		require.NoError(b, ptest.Run(p))
		pipeline += time.Since(start)
		got := res()
		require.Len(b, got, 1)
		require.EqualValues(b, batches*rows, got[0].Rows)

		start = time.Now()
		dir := b.TempDir()
		for k, f := range files {
			data, err := os.ReadFile(f)
			require.NoError(b, err)
			require.NoError(b, os.WriteFile(filepath.Join(dir, strconv.Itoa(k)+".parquet"), data, 0o644))
			bytes += int64(len(data))
		}
		fileCopy += time.Since(start)
	}
	b.ReportMetric(float64(int64(b.N)*batches*rows)/pipeline.Seconds(), "rows/s")
	b.ReportMetric(pipeline.Seconds()/fileCopy.Seconds(), "copy_ratio")
	b.ReportMetric(float64(bytes)/float64(b.N)/(1<<20), "MiB")
}
