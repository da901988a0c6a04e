package kafkaio_test

import (
	"context"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/icebeam/icebeam/transforms/kafkaio"
)

func printValue(r kafkaio.Record) { fmt.Println(string(r.Value)) }

func init() { register.Function1x0(printValue) }

// Read a topic as it is now, then finish. franz-go's in-process fake
// cluster (kfake) stands in for a real one, so that the example runs
// anywhere.
func ExampleRead() {
	ctx := context.Background()
	cluster, err := kfake.NewCluster(kfake.SeedTopics(2, "clicks"))
	if err != nil {
		panic(err)
	}
	defer cluster.Close()
	producer, err := kgo.NewClient(kgo.SeedBrokers(cluster.ListenAddrs()...), kgo.DefaultProduceTopic("clicks"))
	if err != nil {
		panic(err)
	}
	for _, page := range []string{"home", "search", "cart", "checkout"} {
		if err := producer.ProduceSync(ctx, kgo.StringRecord(page)).FirstErr(); err != nil {
			panic(err)
		}
	}
	producer.Close()

	p, s := beam.NewPipelineWithRoot()
	clicks := kafkaio.Read(s, kafkaio.ReadConfig{
		BootstrapServers: cluster.ListenAddrs(),
		Topics:           []string{"clicks"},
		Bounded:          true, // up to the end each partition has at the start
	})
	beam.ParDo0(s, printValue, clicks)
	if err := beamx.Run(ctx, p); err != nil {
		panic(err)
	}
	// Unordered output:
	// home
	// search
	// cart
	// checkout
}
