// Command taxigen writes a synthetic month of yellow-taxi trips in the real
// 2024 Parquet layout, for benchmarks and peer comparisons that need the same
// input file for every engine.
package main

import (
	"flag"
	"log"

	"github.com/icebeam/icebeam/transforms/taxi"
)

func main() {
	rows := flag.Int("rows", 3_000_000, "number of trips")
	seed := flag.Int64("seed", 1, "random seed; the same seed gives the same file")
	out := flag.String("out", "yellow_tripdata_synthetic.parquet", "output path")
	flag.Parse()
	if err := taxi.WriteSampleFile(*out, *rows, *seed); err != nil {
		log.Fatalf("taxigen: %v", err)
	}
}
