package taxi

import (
	"context"
	"io"
	"path/filepath"
	"slices"
	"testing"
	"time"
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

// BenchmarkDecode reads the seven needed columns of a row group into
// batches, as aggregateRowGroup does before folding (each column on its own
// goroutine): the Parquet decode.
func BenchmarkDecode(b *testing.B) {
	tf := benchFile(b)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		n := 0
		err := tf.readRowGroup(ctx, 0, func(bt *batch) error {
			n += bt.n
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
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
	var batches []*batch
	err := tf.readRowGroup(context.Background(), 0, func(bt *batch) error {
		c := &batch{n: bt.n, start: bt.start}
		for j, col := range bt.cols {
			c.cols[j] = &colBuf{
				days: slices.Clone(col.days), f64: slices.Clone(col.f64),
				i64: slices.Clone(col.i64), null: slices.Clone(col.null),
			}
		}
		batches = append(batches, c)
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		groups := newGroupIndex()
		for _, bt := range batches {
			bt.fold(groups)
		}
		if len(groups.m) == 0 {
			b.Fatal("no groups")
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchRows), "ns/row")
}
