package icebergio

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/transforms/icebergio/internal/rowcodec"
)

type benchRow struct {
	PickupDay   int32    `beam:"pickup_day" iceberg:"date"`
	PickupTS    int64    `beam:"pickup_ts" iceberg:"timestamp"`
	VendorID    int32    `beam:"vendor_id"`
	Payment     string   `beam:"payment_type"`
	Passengers  int64    `beam:"passengers"`
	Distance    float64  `beam:"distance"`
	Fare        float64  `beam:"fare"`
	Tip         *float64 `beam:"tip"`
	StoreAndFwd bool     `beam:"store_and_fwd"`
}

func benchRows(n int) []any {
	pays := []string{"card", "cash", "no_charge", "dispute"}
	rows := make([]any, n)
	for i := range rows {
		r := benchRow{PickupDay: int32(19000 + i%365), PickupTS: int64(i) * 997, VendorID: int32(i % 3),
			Payment: pays[i%4], Passengers: int64(i % 6), Distance: float64(i%1000) / 10, Fare: float64(i%5000) / 7,
			StoreAndFwd: i%17 == 0}
		if i%5 != 0 {
			r.Tip = ptr(float64(i%300) / 11)
		}
		rows[i] = r // rows reach the DoFn boxed, as beam.X
	}
	return rows
}

func BenchmarkRowsToArrow(b *testing.B) {
	rs, err := rowcodec.New(reflect.TypeFor[benchRow]())
	require.NoError(b, err)
	rows := benchRows(1 << 16)
	bb := rs.NewBatchBuilder(memory.DefaultAllocator)
	defer bb.Release()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := range rows {
			bb.Add(rs.RowPointer(&rows[j]))
		}
		bb.Batch().Release()
	}
	b.ReportMetric(float64(b.N*len(rows))/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkRowsToParquet measures the whole sink path short of the
// catalog commit: rows -> Arrow -> Parquet chunks (the encode step, before
// the shuffle) -> data files (the commit step, after the trigger). The
// encode and commit metrics split the time between the two steps.
func BenchmarkRowsToParquet(b *testing.B) {
	ctx := context.Background()
	cfg := Config{Catalog: launch(b), Table: "bench.rows"}
	s := newTestSink[benchRow](b, cfg)
	tbl, _, err := s.loadOrCreate(ctx, "bench.rows")
	require.NoError(b, err)
	rows := benchRows(1 << 18)
	b.ResetTimer()
	var bytes int64
	var encode, commit time.Duration
	for i := 0; i < b.N; i++ {
		start := time.Now()
		blobs := encodeRows(b, s, rows, maxBatchRows)
		encode += time.Since(start)
		start = time.Now()
		files, err := s.writeFiles(ctx, tbl, "", decodeChunks(pane(blobs), new(sentTimes)))
		require.NoError(b, err)
		commit += time.Since(start)
		for _, f := range files {
			bytes += f.FileSizeBytes()
		}
	}
	n := float64(b.N * len(rows))
	b.ReportMetric(n/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(encode.Nanoseconds())/n, "encode-ns/row")
	b.ReportMetric(float64(commit.Nanoseconds())/n, "commit-ns/row")
	b.ReportMetric(float64(bytes)/n, "parquetB/row")
}

// BenchmarkSmallChunks measures the commit step for a pane of chunks below
// stitch.MinRowGroupRows, which it decodes and re-encodes into full row groups.
func BenchmarkSmallChunks(b *testing.B) {
	ctx := context.Background()
	s := newTestSink[click](b, Config{Catalog: launch(b), Table: "bench.small"})
	tbl, _, err := s.loadOrCreate(ctx, "bench.small")
	require.NoError(b, err)
	rows := make([]click, 2000)
	for i := range rows {
		rows[i] = click{UserID: "user-" + string(rune('0'+i%10)), Seq: int64(i), TS: int64(i)}
	}
	chunk := encodeRows(b, s, rows, len(rows))[0]
	const perPane = 200
	blobs := make([][]byte, perPane)
	for i := range blobs {
		blobs[i] = chunk
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, err := s.writeFiles(ctx, tbl, "", decodeChunks(pane(blobs), new(sentTimes)))
		require.NoError(b, err)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*perPane), "ns/chunk")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*perPane*len(rows)), "ns/row")
}

// BenchmarkShardPart measures what a sharded write adds per data file: the
// writer describes its files as a manifest, the committer decodes it. Run
// with the number of files per part the pane makes (one per partition and
// target size).
func BenchmarkShardPart(b *testing.B) {
	ctx := context.Background()
	s := newTestSink[click](b, Config{Catalog: launch(b), Table: "bench.part", PartitionBy: []string{"user_id"}})
	var rows []click
	for i := 0; i < 1000; i++ {
		rows = append(rows, click{UserID: "u" + string(rune('a'+i%16)), Seq: int64(i), TS: int64(i)})
	}
	var sent sentTimes
	w, err := s.write(ctx, time.Now().Add(time.Minute), "bench.part", decodeChunks(pane(encodeRows(b, s, rows, len(rows))), &sent))
	require.NoError(b, err)
	require.Len(b, w.files, 16)
	b.ResetTimer()
	var size int
	for i := 0; i < b.N; i++ {
		p, err := encodePart(w, sent)
		require.NoError(b, err)
		size = len(p)
		var got written
		require.NoError(b, addPart(&got, new(sentTimes), p))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(w.files)), "ns/file")
	b.ReportMetric(float64(size)/float64(len(w.files)), "B/file")
}
