// Command kafkaload fills a Kafka topic with JSON events of about 150
// bytes, fast, for benchmarks and local tries of pipelines/kafka: a
// producer that is not the system under test.
//
//	go run ./internal/cmd/kafkaload --bootstrap_servers=localhost:9092 --topic=events --records=1000000
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

var (
	bootstrap = flag.String("bootstrap_servers", "localhost:9092", "Kafka brokers, host:port[,host:port...]")
	topic     = flag.String("topic", "events", "topic to fill (it must exist)")
	records   = flag.Int("records", 1000000, "events to produce")
	first     = flag.Int("first", 0, "event_id of the first event")
	rate      = flag.Int("rate", 0, "events per second; 0: as fast as the broker takes them")
	stamp     = flag.Bool("stamp", false, "put the time each event is produced in its produced_ms field, for latency")
)

func main() {
	flag.Parse()
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(*bootstrap, ",")...), kgo.DefaultProduceTopic(*topic),
		kgo.ProducerLinger(5*time.Millisecond), kgo.ProducerBatchMaxBytes(1<<20), kgo.MaxBufferedRecords(1<<16),
		kgo.RecordPartitioner(kgo.RoundRobinPartitioner()))
	if err != nil {
		log.Fatal(err)
	}
	defer cl.Close()
	ctx := context.Background()
	start := time.Now()
	var failed atomic.Int64
	var firstErr atomic.Value
	for i := range *records {
		if *rate > 0 {
			if due := start.Add(time.Duration(i) * time.Second / time.Duration(*rate)); time.Until(due) > 0 {
				time.Sleep(time.Until(due))
			}
		}
		id := *first + i
		b := make([]byte, 0, 192)
		b = append(b, `{"event_id":`...)
		b = strconv.AppendInt(b, int64(id), 10)
		b = append(b, `,"user_id":"user-`...)
		b = strconv.AppendInt(b, int64(id%100003), 10)
		b = append(b, `","url":"https://example.com/products/`...)
		b = strconv.AppendInt(b, int64(id%997), 10)
		b = append(b, `","amount":`...)
		b = strconv.AppendFloat(b, float64(id%10000)/100, 'f', 2, 64)
		b = append(b, `,"ok":`...)
		b = strconv.AppendBool(b, id%7 != 0)
		b = append(b, `,"produced_ms":`...)
		var ms int64
		if *stamp {
			ms = time.Now().UnixMilli()
		}
		b = strconv.AppendInt(b, ms, 10)
		b = append(b, '}')
		cl.Produce(ctx, &kgo.Record{Value: b}, func(_ *kgo.Record, err error) {
			if err != nil && failed.Add(1) == 1 {
				firstErr.Store(err)
			}
		})
	}
	if err := cl.Flush(ctx); err != nil {
		log.Fatal(err)
	}
	if n := failed.Load(); n > 0 {
		log.Fatalf("%d of %d events failed: %v", n, *records, firstErr.Load())
	}
	el := time.Since(start)
	fmt.Printf("produced %d events to %s in %v (%.0f/s)\n", *records, *topic, el.Round(time.Millisecond), float64(*records)/el.Seconds())
}
