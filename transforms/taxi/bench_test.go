package taxi

import (
	"io"
	"path/filepath"
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
