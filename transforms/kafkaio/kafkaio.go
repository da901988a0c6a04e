// Package kafkaio reads Apache Kafka in Beam Go pipelines, in pure Go (no
// JVM, no expansion service), on every runner: prism, Beam's portable Flink
// runner and Dataflow.
//
// Read is a splittable read per topic-partition over a growing range of
// offsets, in the shape of Beam's natsio: each partition's position is the
// restriction the runner checkpoints, so a restored job goes on from where
// its checkpoint was. Partitions added to a topic, and topics that come to
// match ReadConfig.TopicPattern, are found while the job runs. Records of
// aborted transactions never arrive (read_committed). With Bounded, Read
// reads each partition up to the end it had when the job started, then
// finishes, and its output is a bounded PCollection.
//
// Exactly once end to end is the sink's business: icebergio records the
// offsets each commit covers in the table (see pipelines/kafka), and a job
// started again passes them back as ReadConfig.StartOffsets.
package kafkaio

import (
	"fmt"
	"log/slog"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/icebeam/icebeam/transforms/portable/hint"
)

// Record is one Kafka record.
type Record struct {
	Topic     string
	Partition int32
	Offset    int64
	Key       []byte
	Value     []byte
	Headers   []Header
	// Timestamp is the record's timestamp in milliseconds since the Unix
	// epoch (the producer's or the broker's, as the topic says), Kafka's
	// own unit. It is also the element's event time.
	Timestamp int64
}

// Header is a record header.
type Header struct {
	Key   string
	Value []byte
}

// Time is the record's timestamp.
func (r Record) Time() time.Time { return time.UnixMilli(r.Timestamp) }

// Position names the record's place in Kafka: "topic/partition@offset".
func (r Record) Position() string {
	return PartitionKey(r.Topic, r.Partition) + "@" + strconv.FormatInt(r.Offset, 10)
}

// PartitionKey is how ReadConfig.StartOffsets and the offsets a sink
// records name a partition: "topic/partition". Topic names cannot hold '/'.
func PartitionKey(topic string, partition int32) string {
	return topic + "/" + strconv.FormatInt(int64(partition), 10)
}

// ParsePartitionKey reverses PartitionKey.
func ParsePartitionKey(key string) (topic string, partition int32, err error) {
	i := strings.LastIndexByte(key, '/')
	if i <= 0 {
		return "", 0, fmt.Errorf("kafkaio: partition %q: want topic/partition", key)
	}
	p, err := strconv.ParseInt(key[i+1:], 10, 32)
	if err != nil || p < 0 {
		return "", 0, fmt.Errorf("kafkaio: partition %q: want topic/partition", key)
	}
	return key[:i], int32(p), nil
}

// Start says where Read starts in a partition ReadConfig.StartOffsets does
// not name.
type Start string

const (
	// Earliest starts at the oldest record the partition still holds.
	Earliest Start = "earliest"
	// Latest starts after the records the partition holds when the job
	// finds it: only records produced from then on are read.
	Latest Start = "latest"
)

// ReadConfig configures Read. It travels to the workers as JSON inside the
// job: secrets belong in Security as "env:" or "file:" references.
type ReadConfig struct {
	// BootstrapServers are "host:port" addresses of the cluster's brokers.
	BootstrapServers []string
	// Topics are read whole; TopicPattern (a regular expression that must
	// match a topic's whole name) adds every topic it matches, also topics
	// created while the job runs. At least one of the two is needed.
	Topics       []string
	TopicPattern string
	// Start is where partitions begin that StartOffsets does not name and
	// that exist when the job starts (default Earliest). StartTime, when
	// set, instead starts each at its first record stamped at or after it.
	// Partitions and topics that appear while the job runs are read from
	// their beginning, so that nothing produced to them is missed.
	Start     Start
	StartTime time.Time
	// StartOffsets gives, by PartitionKey, the first offset to read of the
	// partitions it names, such as the offsets a table records as landed.
	// An offset below what the partition still holds starts at its oldest
	// record, and Read logs how many records retention removed.
	StartOffsets map[string]int64
	// Bounded reads each partition up to the end offset it has when the
	// job starts (records of transactions still open then excluded) and
	// finishes; no partition or topic is looked for later.
	Bounded bool
	// StopAt, when set, ends an unbounded read: each partition ends
	// before its first record stamped at or after StopAt, or once it has
	// nothing to read after StopAt, and no partition or topic is looked
	// for after it. For tests, backfills and jobs that must finish: on
	// Beam's portable Flink runner a checkpointed job's sources otherwise
	// stay alive for good, so the job never ends (Stop alone does not end
	// it there); with StopAt they stop a little after it
	// (hint.StreamEndsAt) and the job finishes.
	StopAt time.Time
	// Security: TLS and SASL.
	Security Security
	// DiscoveryInterval is how often an unbounded read lists the topics
	// and partitions again; default 10s.
	DiscoveryInterval time.Duration
	// FetchMaxBytes bounds what one fetch from a broker returns for a
	// partition (default 4 MiB; a larger record batch still arrives
	// whole). A worker buffers at most about twice this for each partition
	// it reads at once, besides the records of a bundle not yet emitted.
	FetchMaxBytes int32
	// ReadTime is how long a partition's read runs before it hands the
	// records to the runner and checkpoints (default 250ms): what the
	// runner's shuffle sees at once, and the latency a record can gather
	// before the sink's window. A read that has caught up with its
	// partition hands over once its bundle has run ReadTime, so that the
	// partitions a bundle reads one after the other wait it together.
	ReadTime time.Duration
}

const (
	defaultDiscoveryInterval = 10 * time.Second
	defaultFetchMaxBytes     = 4 << 20
	defaultReadTime          = 250 * time.Millisecond
)

func (c ReadConfig) withDefaults() ReadConfig {
	if c.Start == "" {
		c.Start = Earliest
	}
	if c.DiscoveryInterval <= 0 {
		c.DiscoveryInterval = defaultDiscoveryInterval
	}
	if c.FetchMaxBytes <= 0 {
		c.FetchMaxBytes = defaultFetchMaxBytes
	}
	if c.ReadTime <= 0 {
		c.ReadTime = defaultReadTime
	}
	return c
}

// LogValue prints a ReadConfig with its secrets redacted, for slog; fmt
// does the same through catalog.Secret's String and GoString.
func (c ReadConfig) LogValue() slog.Value {
	return slog.GroupValue(
		slog.Any("bootstrap_servers", c.BootstrapServers),
		slog.Any("topics", c.Topics),
		slog.String("topic_pattern", c.TopicPattern),
		slog.String("start", string(c.Start)),
		slog.Time("start_time", c.StartTime),
		slog.Any("start_offsets", c.StartOffsets),
		slog.Bool("bounded", c.Bounded),
		slog.Time("stop_at", c.StopAt),
		slog.Any("security", c.Security),
		slog.Duration("discovery_interval", c.DiscoveryInterval),
		slog.Int("fetch_max_bytes", int(c.FetchMaxBytes)),
		slog.Duration("read_time", c.ReadTime),
	)
}

// Check reports what Read would panic on.
func (c ReadConfig) Check() error {
	c = c.withDefaults()
	if len(c.BootstrapServers) == 0 {
		return fmt.Errorf("kafkaio: no bootstrap servers")
	}
	if len(c.Topics) == 0 && c.TopicPattern == "" {
		return fmt.Errorf("kafkaio: no topics and no topic pattern")
	}
	for _, t := range c.Topics {
		if !validTopic.MatchString(t) {
			return fmt.Errorf("kafkaio: topic %q: a topic name is 1 to 249 of [a-zA-Z0-9._-]", t)
		}
	}
	if c.TopicPattern != "" {
		if _, err := regexp.Compile(c.TopicPattern); err != nil {
			return fmt.Errorf("kafkaio: topic pattern: %w", err)
		}
	}
	if c.Bounded && !c.StopAt.IsZero() {
		return fmt.Errorf("kafkaio: StopAt ends an unbounded read; a bounded one ends at the offsets it finds at start")
	}
	switch c.Start {
	case Earliest, Latest:
	default:
		return fmt.Errorf("kafkaio: start %q (want %q or %q)", c.Start, Earliest, Latest)
	}
	for k, o := range c.StartOffsets {
		if _, _, err := ParsePartitionKey(k); err != nil {
			return err
		}
		if o < 0 {
			return fmt.Errorf("kafkaio: start offset %d of %s is negative", o, k)
		}
	}
	return c.Security.check()
}

var validTopic = regexp.MustCompile(`^[a-zA-Z0-9._-]{1,249}$`)

// TopicMatcher reports whether a topic is one c reads.
func (c ReadConfig) TopicMatcher() func(string) bool {
	named := map[string]bool{}
	for _, t := range c.Topics {
		named[t] = true
	}
	var re *regexp.Regexp
	if c.TopicPattern != "" {
		re = regexp.MustCompile("^(?:" + c.TopicPattern + ")$")
	}
	return func(t string) bool {
		return named[t] || (re != nil && re.MatchString(t))
	}
}

// partition is one topic-partition to read from Start up to End
// (math.MaxInt64: for as long as the job runs).
type partition struct {
	Topic     string
	Partition int32
	Start     int64
	End       int64
}

func (p partition) key() string { return PartitionKey(p.Topic, p.Partition) }

func (p partition) bounded() bool { return p.End != math.MaxInt64 }

// stopsBy reports whether StopAt is set and t is at or after it.
func (c ReadConfig) stopsBy(t time.Time) bool {
	return !c.StopAt.IsZero() && !t.Before(c.StopAt)
}

func init() {
	beam.RegisterType(reflect.TypeOf((*Record)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*Header)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*partition)(nil)).Elem())
}

// Read reads the topics cfg names and returns a PCollection of Record,
// each at its timestamp. The watermark of a partition follows its records'
// timestamps; a partition with nothing to read lets it advance to the
// present, so an idle partition holds no window back. Invalid
// configuration panics at construction, like Beam's own IOs.
func Read(s beam.Scope, cfg ReadConfig) beam.PCollection {
	s = s.Scope("kafkaio.Read")
	cfg = cfg.withDefaults()
	if err := cfg.Check(); err != nil {
		panic(err)
	}
	if !cfg.StopAt.IsZero() {
		s = hint.StreamEndsAt(s, cfg.StopAt)
	}
	imp := beam.Impulse(s)
	var parts beam.PCollection
	if cfg.Bounded {
		parts = beam.ParDo(s, &listFn{Cfg: cfg}, imp)
	} else {
		parts = beam.ParDo(s, &watchFn{Cfg: cfg}, imp)
	}
	// Spread the partitions over the workers.
	parts = beam.Reshuffle(s, parts)
	if cfg.Bounded {
		return beam.ParDo(s, &boundedReadFn{partitionRestrictions{Cfg: cfg}}, parts)
	}
	return beam.ParDo(s, &readFn{partitionRestrictions: partitionRestrictions{Cfg: cfg}}, parts)
}
