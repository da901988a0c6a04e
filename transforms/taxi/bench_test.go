package taxi

import (
	"context"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
)

// BenchmarkDailyStats3M generates a 3-million-row month (the size of
// yellow_tripdata_2024-01) and runs DailyStats over it on prism.
func BenchmarkDailyStats3M(b *testing.B) {
	path := filepath.Join(b.TempDir(), "yellow_3m.parquet")
	start := time.Now()
	if err := WriteSampleFile(path, 3_000_000, 1); err != nil {
		b.Fatal(err)
	}
	b.Logf("WriteSample 3M rows: %s", time.Since(start))
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		got, err := runDailyStatsB(path)
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("DailyStats 3M rows: %d groups in %s", got, time.Since(start))
	}
}

func BenchmarkWriteSample(b *testing.B) {
	for range b.N {
		if err := WriteSample(io.Discard, 1_000_000, 1, SampleOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// benchRows is the row group the decode and fold benchmarks read: one
// million rows, as in the TLC's own files.
const benchRows = 1_000_000

// benchFile writes a one-row-group sample file and opens it.
func benchFile(b *testing.B) *taxiFile {
	b.Helper()
	path := filepath.Join(b.TempDir(), "yellow_1m.parquet")
	if err := WriteSampleFile(path, benchRows, 1); err != nil {
		b.Fatal(err)
	}
	tf, err := openTaxiFile(context.Background(), path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { tf.Close() })
	return tf
}

// BenchmarkDecode reads the seven needed columns of a row group into Arrow
// batches, as aggregateRowGroup does before folding: the Parquet decode,
// which bounds the job on one core.
func BenchmarkDecode(b *testing.B) {
	tf := benchFile(b)
	ctx := context.Background()
	b.ResetTimer()
	for range b.N {
		rr, err := tf.fr.GetRecordReader(ctx, tf.leaves, []int{0})
		if err != nil {
			b.Fatal(err)
		}
		n := int64(0)
		for rr.Next() {
			n += rr.RecordBatch().NumRows()
		}
		rr.Release()
		if n != benchRows {
			b.Fatalf("decoded %d rows, want %d", n, benchRows)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchRows), "ns/row")
}

// BenchmarkFold applies the filter and the per-group sums to decoded
// batches: the fold, which must keep row order (Spark's summation order).
func BenchmarkFold(b *testing.B) {
	tf := benchFile(b)
	rr, err := tf.fr.GetRecordReader(context.Background(), tf.leaves, []int{0})
	if err != nil {
		b.Fatal(err)
	}
	defer rr.Release()
	var recs []arrow.RecordBatch
	for rr.Next() {
		rec := rr.RecordBatch()
		rec.Retain()
		recs = append(recs, rec)
	}
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	var bt batch
	b.ResetTimer()
	for range b.N {
		groups := newGroupIndex()
		var start int64
		for _, rec := range recs {
			if err := bt.load(rec, tf.names, start); err != nil {
				b.Fatal(err)
			}
			bt.fold(groups)
			start += rec.NumRows()
		}
		if len(groups.m) == 0 {
			b.Fatal("no groups")
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchRows), "ns/row")
}
