// Command taxigen writes a synthetic month of yellow-taxi trips (any month,
// -month) in the real 2024 Parquet layout, for benchmarks and peer comparisons that need the same
// input file for every engine.
package main

import (
	"flag"
	"log"
	"os"
	"time"

	"github.com/icebeam/icebeam/transforms/taxi"
)

func main() {
	rows := flag.Int("rows", 3_000_000, "number of trips")
	seed := flag.Int64("seed", 1, "random seed; the same seed gives the same file")
	out := flag.String("out", "yellow_tripdata_synthetic.parquet", "output path")
	month := flag.String("month", "2024-01", "the month the trips are in, YYYY-MM")
	rowGroup := flag.Int("row_group_rows", 1_000_000, "rows per row group (the TLC's files have about a million)")
	flag.Parse()
	m, err := time.Parse("2006-01", *month)
	if err != nil {
		log.Fatalf("taxigen: -month %q: want YYYY-MM", *month)
	}
	f, err := os.Create(*out)
	if err != nil {
		log.Fatalf("taxigen: %v", err)
	}
	if err := taxi.WriteSample(f, *rows, *seed, taxi.SampleOptions{Month: m, RowGroupSize: *rowGroup}); err != nil {
		log.Fatalf("taxigen: %v", err)
	}
	if err := f.Close(); err != nil {
		log.Fatalf("taxigen: %v", err)
	}
}
