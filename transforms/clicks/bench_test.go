package clicks

import (
	"context"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/internal/launch"
	"github.com/icebeam/icebeam/transforms/icebergio"
)

// BenchmarkStreamToIceberg is the streaming benchmark's pipeline in one
// process, for profiling (prism and the SDK run in-process):
//
//	go test ./transforms/clicks -run=^$ -bench=StreamToIceberg -benchtime=1x -cpuprofile=cpu.prof
//
// scripts/bench-clicks.sh measures the built pipeline against icebeam serve.
func BenchmarkStreamToIceberg(b *testing.B) {
	const duration, trigger = 20 * time.Second, 5 * time.Second
	for range b.N {
		cfg, stop, err := launch.Catalog(context.Background(), catalog.Config{LocalDir: b.TempDir()})
		if err != nil {
			b.Fatal(err)
		}
		p, s := beam.NewPipelineWithRoot()
		rows := Generate(s, Config{Interval: time.Microsecond, Duration: duration})
		icebergio.Write(s, icebergio.Config{Catalog: cfg, Table: "bench.clicks", TriggeringFrequency: trigger}, rows)
		if err := ptest.Run(p); err != nil {
			b.Fatal(err)
		}
		_ = stop()
	}
	b.ReportMetric(float64(b.N)*float64(duration/time.Microsecond)/b.Elapsed().Seconds(), "rows/s")
}
