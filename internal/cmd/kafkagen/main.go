// Command kafkagen fills a Kafka topic with small JSON records for
// scripts/bench-kafka.sh: the producer that is not under test (franz-go, the
// client transforms/kafkaio uses, but none of its code). Each record is one
// JSON object of about 150 bytes, without a key:
//
//	{"event_id":17,"user_id":"user-004211","url":"https://shop.example.com/p/...","ts":1765100000123,"value":123.4567,"flag":true}
//
// event_id counts from -first_id; ts is the epoch ms at which the record was
// made (just before it is handed to the client): the benchmark's latency
// figures compare it with the commit that made the record visible. The other
// fields are a fixed function of event_id.
//
//	kafkagen -bootstrap 127.0.0.1:9092 -topic bench -partitions 6 -records 5000000
//	kafkagen -bootstrap ... -topic bench -records 1200000 -rate 20000   # steady 20,000 records/s
//
// The topic is created with -partitions if it does not exist. It prints one
// line of JSON when every record is acknowledged (acks=all): records, bytes,
// seconds, the first and last ts.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"log"
	"os"
	"strconv"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
)

func main() {
	bootstrap := flag.String("bootstrap", "127.0.0.1:9092", "the broker")
	topic := flag.String("topic", "bench", "the topic")
	partitions := flag.Int("partitions", 6, "partitions of the topic, if it is created")
	records := flag.Int64("records", 1_000_000, "records to produce")
	firstID := flag.Int64("first_id", 0, "event_id of the first record")
	rate := flag.Int("rate", 0, "records per second; 0 = as fast as the broker takes them")
	compression := flag.String("compression", "none", "none, lz4, zstd, snappy or gzip")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("kafkagen: ")

	var codec kgo.CompressionCodec
	switch *compression {
	case "none":
		codec = kgo.NoCompression()
	case "lz4":
		codec = kgo.Lz4Compression()
	case "zstd":
		codec = kgo.ZstdCompression()
	case "snappy":
		codec = kgo.SnappyCompression()
	case "gzip":
		codec = kgo.GzipCompression()
	default:
		log.Fatalf("-compression %q: want none, lz4, zstd, snappy or gzip", *compression)
	}
	cl, err := kgo.NewClient(
		kgo.SeedBrokers(*bootstrap),
		kgo.DefaultProduceTopic(*topic),
		kgo.ProducerBatchCompression(codec),
		kgo.ProducerBatchMaxBytes(1<<20),
		kgo.MaxBufferedRecords(1<<18),
		kgo.ProducerLinger(5*time.Millisecond),
		kgo.RequiredAcks(kgo.AllISRAcks()),
	)
	if err != nil {
		log.Fatal(err)
	}
	defer cl.Close()
	ctx := context.Background()
	adm := kadm.NewClient(cl)
	if _, err := adm.CreateTopic(ctx, int32(*partitions), 1, nil, *topic); err != nil && !errors.Is(err, kerr.TopicAlreadyExists) {
		log.Fatalf("creating topic %s: %v", *topic, err)
	}

	var failed error
	done := func(_ *kgo.Record, err error) {
		if err != nil && failed == nil {
			failed = err
		}
	}
	start := time.Now()
	var bytes, firstTS, lastTS int64
	buf := make([]byte, 0, 256)
	for i := int64(0); i < *records; i++ {
		if *rate > 0 {
			// Steady: record i is due at start + i/rate.
			due := start.Add(time.Duration(float64(i) / float64(*rate) * float64(time.Second)))
			if d := time.Until(due); d > 0 {
				time.Sleep(d)
			}
		}
		ts := time.Now().UnixMilli()
		if i == 0 {
			firstTS = ts
		}
		lastTS = ts
		buf = appendRecord(buf[:0], *firstID+i, ts)
		v := make([]byte, len(buf))
		copy(v, buf)
		bytes += int64(len(v))
		cl.Produce(ctx, &kgo.Record{Value: v}, done)
		if failed != nil {
			break
		}
	}
	if err := cl.Flush(ctx); err != nil {
		log.Fatal(err)
	}
	if failed != nil {
		log.Fatalf("produce: %v", failed)
	}
	secs := time.Since(start).Seconds()
	_ = json.NewEncoder(os.Stdout).Encode(map[string]any{
		"records": *records, "bytes": bytes, "seconds": secs, "records_per_s": float64(*records) / secs,
		"first_ts": firstTS, "last_ts": lastTS, "topic": *topic,
	})
}

// mix is splitmix64: the record's other fields are a function of its id.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

func appendPadded(b []byte, v uint64, width int) []byte {
	s := strconv.FormatUint(v, 10)
	for i := len(s); i < width; i++ {
		b = append(b, '0')
	}
	return append(b, s...)
}

var pages = []string{"products", "cart", "search", "checkout", "account", "help"}

func appendRecord(b []byte, id, ts int64) []byte {
	h := mix(uint64(id))
	b = append(b, `{"event_id":`...)
	b = strconv.AppendInt(b, id, 10)
	b = append(b, `,"user_id":"user-`...)
	b = appendPadded(b, h%1_000_000, 6)
	b = append(b, `","url":"https://shop.example.com/`...)
	b = append(b, pages[(h>>20)%uint64(len(pages))]...)
	b = append(b, "/item-"...)
	b = appendPadded(b, (h>>24)%10_000_000, 7)
	b = append(b, `?ref=home","ts":`...)
	b = strconv.AppendInt(b, ts, 10)
	b = append(b, `,"value":`...)
	v := (h >> 40) % 1_000_000
	b = strconv.AppendUint(b, v/10_000, 10)
	b = append(b, '.')
	b = appendPadded(b, v%10_000, 4)
	b = append(b, `,"flag":`...)
	b = strconv.AppendBool(b, h>>63 == 1)
	return append(b, '}')
}
