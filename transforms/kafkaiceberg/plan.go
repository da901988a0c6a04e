package kafkaiceberg

import (
	"context"
	"errors"
	"fmt"
	"log"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/transforms/icebergio"
	"github.com/icebeam/icebeam/transforms/kafkaio"
)

// PlanConfig says what to land where.
type PlanConfig struct {
	// Format is JSON (default) or Debezium.
	Format  string
	Catalog catalog.Config
	// Read names the cluster, the topics (or a pattern), security, where
	// to start in partitions no table holds offsets of, and Bounded.
	Read kafkaio.ReadConfig
	// Table is the destination of a topic's records: a template over
	// {topic} and, for Debezium, the source table's {db}, {schema} and
	// {table} (characters a table name cannot hold become '_'); default
	// "kafka.{topic}", for Debezium "{schema}.{table}".
	Table string
	// RejectedTable gets the records that cannot be decoded or do not fit
	// their table; default "kafka.rejected".
	RejectedTable string
	// Mode is icebergio.Append (default) or icebergio.Upsert, by Key.
	Mode icebergio.Mode
	Key  []string
	// TriggeringFrequency: how often a streaming job commits; default 20s.
	TriggeringFrequency time.Duration
	// WriterID names the job in its tables: a job started again must have
	// the same to resume where it stopped.
	WriterID string
	// SampleRecords bounds the records read to infer the columns of a
	// table that does not exist yet; default 1000.
	SampleRecords int
	// FormatVersion: see Config.
	FormatVersion int
	// SplitTransactions, for Debezium, leaves the connector's transaction
	// topic unread: a source transaction's changes of several tables may
	// then land in two commits. Otherwise Plan reads it where it exists
	// (Config.TransactionTopic), and the job holds a transaction's changes
	// until the watermark passes them all: a streaming job on a runner
	// whose watermark of the Kafka read does not advance (Beam's portable
	// Flink runner) would commit nothing until it ends.
	SplitTransactions bool
}

const (
	// DefaultTable is PlanConfig.Table's default.
	DefaultTable = "kafka.{topic}"
	// DefaultDebeziumTable is PlanConfig.Table's default for Debezium.
	DefaultDebeziumTable = "{schema}.{table}"
	// DefaultRejectedTable is PlanConfig.RejectedTable's default.
	DefaultRejectedTable = "kafka.rejected"
)

// TableName is template with {topic} filled in by topic.
func TableName(template, topic string) string {
	return strings.ReplaceAll(template, "{topic}", notInName.ReplaceAllString(topic, "_"))
}

var notInName = regexp.MustCompile(`[^A-Za-z0-9_]`)

// Plan finds the topics pc reads and their tables, the columns records
// decode into, and where each partition's read starts: right after the
// offsets every table it lands in holds for pc.WriterID, or where
// pc.Read says for partitions one of them has none of (a first run).
// A topic whose table does not exist has its columns inferred from its
// first records (InferSchema). A streaming job waits for each of
// pc.Read.Topics to exist and, if it needs them, for its first records: a
// topic named on the command line is one the user means to land. A
// bounded job skips a missing or empty topic (Config.Unplanned says why).
func Plan(ctx context.Context, cat icecatalog.Catalog, pc PlanConfig) (Config, error) {
	switch pc.Format {
	case "":
		pc.Format = JSON
	case JSON:
	case Debezium:
		if pc.Mode != "" && pc.Mode != icebergio.Append {
			return Config{}, fmt.Errorf("kafkaiceberg: format %s applies changes by their tables' keys: no mode %q", pc.Format, pc.Mode)
		}
		if pc.Table == "" {
			pc.Table = DefaultDebeziumTable
		}
	default:
		return Config{}, fmt.Errorf("kafkaiceberg: format %q (want %q or %q)", pc.Format, JSON, Debezium)
	}
	if pc.Table == "" {
		pc.Table = DefaultTable
	}
	if pc.RejectedTable == "" {
		pc.RejectedTable = DefaultRejectedTable
	}
	if pc.Mode == "" {
		pc.Mode = icebergio.Append
	}
	if pc.SampleRecords <= 0 {
		pc.SampleRecords = 1000
	}
	if pc.WriterID == "" {
		return Config{}, errors.New("kafkaiceberg: no writer id: a job started again finds what it landed by it")
	}
	if pc.Mode != icebergio.Append && pc.Mode != icebergio.Upsert {
		return Config{}, fmt.Errorf("kafkaiceberg: mode %q (want %q or %q)", pc.Mode, icebergio.Append, icebergio.Upsert)
	}
	if pc.Mode == icebergio.Upsert && len(pc.Key) == 0 {
		return Config{}, fmt.Errorf("kafkaiceberg: mode %q needs the key columns", pc.Mode)
	}
	if err := pc.Read.Check(); err != nil {
		return Config{}, err
	}
	k, err := newKafka(pc.Read)
	if err != nil {
		return Config{}, err
	}
	defer k.close()
	topics, missing, err := k.topics(ctx, pc.Read)
	if err != nil {
		return Config{}, err
	}
	cfg := Config{Format: pc.Format, Catalog: pc.Catalog, Read: pc.Read, Mode: pc.Mode, Key: pc.Key, TriggeringFrequency: pc.TriggeringFrequency,
		WriterID: pc.WriterID, FormatVersion: pc.FormatVersion, Unplanned: map[string]string{}}
	for _, topic := range missing {
		cfg.Unplanned[topic] = "it did not exist when the job started"
	}
	cfg.Rejected, err = loadTable(ctx, cat, "", pc.RejectedTable, pc.WriterID)
	if err != nil {
		return Config{}, err
	}
	if !cfg.Rejected.Exists {
		if cfg.Rejected.Schema, err = icebergio.EncodeSchema(RejectedSchema); err != nil {
			return Config{}, err
		}
	}
	seen := map[string]string{}
	for _, topic := range topics {
		if pc.Format == Debezium {
			t, why, err := planDebezium(ctx, cat, k, pc, topic)
			if err != nil {
				return Config{}, err
			}
			if why != "" {
				cfg.Unplanned[topic] = why
				continue
			}
			if other, ok := seen[t.Name]; ok {
				return Config{}, fmt.Errorf("kafkaiceberg: topics %s and %s both land in table %s: name {topic}, or {db}, {schema} and {table}, in --iceberg_table", other, topic, t.Name)
			}
			seen[t.Name] = topic
			cfg.Tables = append(cfg.Tables, t)
			continue
		}
		name := TableName(pc.Table, topic)
		if other, ok := seen[name]; ok {
			return Config{}, fmt.Errorf("kafkaiceberg: topics %s and %s both land in table %s: name {topic} in --iceberg_table", other, topic, name)
		}
		seen[name] = topic
		t, err := loadTable(ctx, cat, topic, name, pc.WriterID)
		if err != nil {
			return Config{}, err
		}
		t.Evolve = t.Evolve && pc.Mode == icebergio.Append
		if !t.Exists {
			recs, err := k.sample(ctx, topic, pc.SampleRecords, !pc.Read.Bounded, false)
			if err != nil {
				return Config{}, err
			}
			sample := make([][]byte, len(recs))
			for i, r := range recs {
				sample[i] = r.Value
			}
			if len(sample) == 0 {
				log.Printf("kafkaiceberg: topic %s is empty and table %s does not exist: nothing to land", topic, name)
				cfg.Unplanned[topic] = "it was empty when the job started, and its table did not exist"
				continue
			}
			sc, err := InferSchema(sample)
			if err != nil {
				return Config{}, fmt.Errorf("kafkaiceberg: table %s from topic %s: %w", name, topic, err)
			}
			if sc, err = keyRequired(sc, pc.Key); err != nil {
				return Config{}, fmt.Errorf("kafkaiceberg: table %s from topic %s: %w", name, topic, err)
			}
			if t.Schema, err = icebergio.EncodeSchema(sc); err != nil {
				return Config{}, err
			}
		}
		cfg.Tables = append(cfg.Tables, t)
	}
	starts, err := k.startOffsets(ctx, cfg)
	if err != nil {
		return Config{}, err
	}
	cfg.Read.StartOffsets = starts
	if pc.Format == Debezium && !pc.SplitTransactions {
		if err := k.planTransactions(ctx, &cfg); err != nil {
			return Config{}, err
		}
	}
	return cfg, nil
}

// planTransactions finds the transaction topic of the connector whose
// keyed tables the job lands, if it writes one, and where to read it
// from: the lowest offset of it the tables hold (an END below a table's
// own has landed there; gateFn.Landed).
func (k *kafka) planTransactions(ctx context.Context, cfg *Config) error {
	var topic string
	for _, t := range cfg.Tables {
		if t.appendOnly() {
			continue
		}
		if topic != "" && t.TransactionTopic != topic {
			log.Printf("kafkaiceberg: the tables come from the connectors of %s and %s: source transactions may be split across commits (one connector's are kept whole)", topic, t.TransactionTopic)
			return nil
		}
		topic = t.TransactionTopic
	}
	if topic == "" {
		return nil
	}
	tds, err := k.adm.ListTopics(ctx, topic)
	if err != nil {
		return fmt.Errorf("kafkaiceberg: looking for topic %s: %w", topic, err)
	}
	td, ok := tds[topic]
	if !ok || td.Err != nil {
		log.Printf("kafkaiceberg: no topic %s (the connector's provide.transaction.metadata is off): a source transaction's changes of several tables may land in two commits", topic)
		return nil
	}
	if n := len(td.Partitions); n != 1 {
		return fmt.Errorf("kafkaiceberg: transaction topic %s has %d partitions: its ENDs give the source's commit order only in one", topic, n)
	}
	cfg.TransactionTopic = topic
	if !cfg.Read.TopicMatcher()(topic) {
		cfg.Read.Topics = append(slices.Clone(cfg.Read.Topics), topic)
	}
	part := kafkaio.PartitionKey(topic, 0)
	for _, t := range cfg.Tables {
		if x, ok := t.Offsets[part]; ok {
			if y, seen := cfg.Read.StartOffsets[part]; !seen || x < y {
				cfg.Read.StartOffsets[part] = x
			}
		}
	}
	log.Printf("kafkaiceberg: reading %s: each source transaction lands whole, in one commit of the tables it changed", topic)
	return nil
}

// loadTable is the table name as Plan found it.
func loadTable(ctx context.Context, cat icecatalog.Catalog, topic, name, writer string) (Table, error) {
	t := Table{Topic: topic, Name: name, Evolve: true}
	tbl, err := cat.LoadTable(ctx, icecatalog.ToIdentifier(name))
	switch {
	case errors.Is(err, icecatalog.ErrNoSuchTable):
		return t, nil
	case err != nil:
		return t, fmt.Errorf("kafkaiceberg: loading table %s: %w", name, err)
	}
	t.Exists = true
	t.Evolve = tbl.Properties()[icebergio.CreatedByKey] != ""
	sc, err := table.SchemaToArrowSchema(tbl.Schema(), nil, false, false)
	if err != nil {
		return t, fmt.Errorf("kafkaiceberg: table %s: %w", name, err)
	}
	if t.Schema, err = icebergio.EncodeSchema(sc); err != nil {
		return t, err
	}
	if t.Offsets, err = icebergio.SourceOffsets(tbl, writer); err != nil {
		return t, err
	}
	return t, nil
}

// keyRequired makes the key columns of an inferred schema required, as
// identifier fields must be.
func keyRequired(sc *arrow.Schema, key []string) (*arrow.Schema, error) {
	fields := slices.Clone(sc.Fields())
	for _, k := range key {
		i := slices.IndexFunc(fields, func(f arrow.Field) bool { return f.Name == k })
		if i < 0 {
			return nil, fmt.Errorf("key column %q is in none of the records sampled", k)
		}
		fields[i].Nullable = false
	}
	return arrow.NewSchema(fields, nil), nil
}

// kafka is Plan's view of the cluster.
type kafka struct {
	cfg kafkaio.ReadConfig
	cl  *kgo.Client
	adm *kadm.Client
}

func newKafka(cfg kafkaio.ReadConfig) (*kafka, error) {
	opts, err := cfg.ClientOptions()
	if err != nil {
		return nil, err
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return nil, fmt.Errorf("kafkaiceberg: %w", err)
	}
	return &kafka{cfg: cfg, cl: cl, adm: kadm.NewClient(cl)}, nil
}

func (k *kafka) close() { k.cl.Close() }

// topics lists the topics cfg reads that exist now. A streaming job
// given its topics by name waits for each to exist with a leader for each
// partition, saying every 30 s what it waits for; a bounded one gets
// those that do not exist as missing.
func (k *kafka) topics(ctx context.Context, cfg kafkaio.ReadConfig) (exist, missing []string, err error) {
	if cfg.TopicPattern != "" {
		tds, err := k.adm.ListTopics(ctx)
		if err != nil {
			return nil, nil, fmt.Errorf("kafkaiceberg: listing topics at %v: %w", cfg.BootstrapServers, err)
		}
		match := cfg.TopicMatcher()
		for _, td := range tds {
			if td.Err == nil && match(td.Topic) {
				exist = append(exist, td.Topic)
			}
		}
		slices.Sort(exist)
		return exist, nil, nil
	}
	next := time.Now()
	for {
		tds, err := k.adm.ListTopics(ctx, cfg.Topics...)
		if err != nil {
			return nil, nil, fmt.Errorf("kafkaiceberg: listing topics %v at %v: %w", cfg.Topics, cfg.BootstrapServers, err)
		}
		var leaderless []string
		exist, missing = nil, nil
		for _, t := range cfg.Topics {
			td, ok := tds[t]
			switch {
			case !ok, errors.Is(td.Err, kerr.UnknownTopicOrPartition):
				missing = append(missing, t)
			case td.Err != nil && !errors.Is(td.Err, kerr.LeaderNotAvailable):
				return nil, nil, fmt.Errorf("kafkaiceberg: topic %s at %v: %w", t, cfg.BootstrapServers, td.Err)
			default:
				exist = append(exist, t)
				if !led(td) {
					leaderless = append(leaderless, t)
				}
			}
		}
		slices.Sort(exist)
		slices.Sort(missing)
		exist, missing = slices.Compact(exist), slices.Compact(missing)
		if cfg.Bounded {
			for _, t := range missing {
				log.Printf("kafkaiceberg: topic %s does not exist at %v: nothing to land", t, cfg.BootstrapServers)
			}
			return exist, missing, nil
		}
		if len(missing) == 0 && len(leaderless) == 0 {
			return exist, nil, nil
		}
		if time.Now().After(next) {
			if len(missing) > 0 {
				log.Printf("kafkaiceberg: waiting for topics %s to exist at %v", strings.Join(missing, ", "), cfg.BootstrapServers)
			}
			if len(leaderless) > 0 {
				log.Printf("kafkaiceberg: waiting for every partition of topics %s to have a leader at %v", strings.Join(leaderless, ", "), cfg.BootstrapServers)
			}
			next = time.Now().Add(30 * time.Second)
		}
		select {
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// led says whether every partition of a topic has a leader: a topic just
// created has none for a moment, and reading its offsets would fail.
func led(td kadm.TopicDetail) bool {
	if td.Err != nil || len(td.Partitions) == 0 {
		return false
	}
	for _, p := range td.Partitions {
		if p.Err != nil || p.Leader < 0 {
			return false
		}
	}
	return true
}

// sample reads up to n records of topic from its oldest, or with newest
// about n from its newest, committed ones only; with wait, it waits for a
// first one to arrive.
func (k *kafka) sample(ctx context.Context, topic string, n int, wait, newest bool) ([]*kgo.Record, error) {
	starts, err := k.adm.ListStartOffsets(ctx, topic)
	if err == nil {
		err = starts.Error()
	}
	if err != nil {
		return nil, fmt.Errorf("kafkaiceberg: offsets of topic %s: %w", topic, err)
	}
	ends, err := k.adm.ListCommittedOffsets(ctx, topic)
	if err == nil {
		err = ends.Error()
	}
	if err != nil {
		return nil, fmt.Errorf("kafkaiceberg: offsets of topic %s: %w", topic, err)
	}
	from := map[int32]kgo.Offset{}
	left := 0
	starts.Each(func(o kadm.ListedOffset) {
		at := o.Offset
		if e, ok := ends.Lookup(topic, o.Partition); ok && e.Offset > o.Offset {
			left++
			if newest {
				at = max(at, e.Offset-int64(n/max(len(starts[topic]), 1))-1)
			}
		}
		from[o.Partition] = kgo.NewOffset().At(at)
	})
	if left == 0 && !wait {
		return nil, nil
	}
	opts, err := k.cfg.ClientOptions()
	if err != nil {
		return nil, err
	}
	cl, err := kgo.NewClient(append(opts, kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: from}),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()))...)
	if err != nil {
		return nil, err
	}
	defer cl.Close()
	var out []*kgo.Record
	next := time.Now()
	for len(out) < n {
		pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		fs := cl.PollRecords(pctx, n-len(out))
		cancel()
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		fs.EachRecord(func(r *kgo.Record) { out = append(out, r) })
		if len(out) > 0 && fs.NumRecords() == 0 {
			break // caught up
		}
		if len(out) == 0 && time.Now().After(next) {
			log.Printf("kafkaiceberg: waiting for a first record of topic %s to take its table's columns from", topic)
			next = time.Now().Add(30 * time.Second)
		}
		if len(out) == 0 && left == 0 && !wait {
			break
		}
	}
	return out, nil
}

// startOffsets is where each partition of cfg's topics starts: right
// after what both its topic's table and the rejected table hold, when
// both hold offsets of it.
func (k *kafka) startOffsets(ctx context.Context, cfg Config) (map[string]int64, error) {
	out := map[string]int64{}
	for _, t := range cfg.Tables {
		starts, err := k.adm.ListStartOffsets(ctx, t.Topic)
		if err == nil {
			err = starts.Error()
		}
		if err != nil {
			return nil, fmt.Errorf("kafkaiceberg: partitions of topic %s: %w", t.Topic, err)
		}
		starts.Each(func(o kadm.ListedOffset) {
			p := kafkaio.PartitionKey(t.Topic, o.Partition)
			a, ok1 := t.Offsets[p]
			b, ok2 := cfg.Rejected.Offsets[p]
			if ok1 && ok2 {
				out[p] = min(a, b)
			}
		})
	}
	return out, nil
}
