// Command kafka lands Kafka topics in Iceberg tables through a REST
// catalog, exactly once: each commit records the offsets it covers in the
// table, and a job started again (after a crash, a SIGKILL, a drain)
// resumes right after them. JSON records become rows of their topic's
// table (created from the records when missing); records that cannot be
// decoded or do not fit go to a dead-letter table.
//
// With no catalog flags it runs on prism against the embedded local
// catalog:
//
//	go run ./pipelines/kafka --bootstrap_servers=localhost:9092 --topics=events --bounded
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/internal/launch"
	"github.com/icebeam/icebeam/transforms/icebergio"
	"github.com/icebeam/icebeam/transforms/kafkaiceberg"
	"github.com/icebeam/icebeam/transforms/kafkaio"
	"github.com/icebeam/icebeam/transforms/portable" // exactly once on Beam's portable Flink runner
	"github.com/icebeam/icebeam/transforms/portable/hint"
)

var (
	bootstrap     = flag.String("bootstrap_servers", "localhost:9092", "Kafka brokers, host:port[,host:port...]")
	topics        = flag.String("topics", "", "topics to read, comma-separated (or --topic_pattern); a streaming job waits for each to exist")
	topicPattern  = flag.String("topic_pattern", "", "a regular expression over whole topic names: every topic it matches is read, also topics created while the job runs")
	format        = flag.String("format", "json", "how records are encoded: json (one object per record, a row of its topic's table) or debezium (Debezium's change events from Kafka Connect's JSON converter with schemas: each topic a database table's changes, applied to its table by key; a table without a primary key lands its inserts, append-only)")
	icebergTable  = flag.String("iceberg_table", "", "destination table of a topic's records, namespace.table: a template over {topic} (the topic's name) and, for --format=debezium, the source table's {db}, {schema} and {table}, characters a table name cannot hold as '_'; default "+kafkaiceberg.DefaultTable+", for --format=debezium "+kafkaiceberg.DefaultDebeziumTable)
	formatVersion = flag.Int("format_version", 3, "Iceberg format version of the tables --format=debezium creates: 3 (deletes as deletion vectors) or 2 (equality deletes)")
	rejectedTable = flag.String("rejected_table", kafkaiceberg.DefaultRejectedTable, "the dead-letter table: records that cannot be decoded or do not fit their table, with topic, partition, offset, key, value and the reason")
	mode          = flag.String("mode", "append", "append, or upsert (by --key): a record replaces its key's row")
	key           = flag.String("key", "", "key columns of --mode=upsert, comma-separated")
	triggerSecs   = flag.Int("triggering_frequency_seconds", 20, "seconds between commits")
	start         = flag.String("start", "earliest", "where to start in partitions the tables hold no offsets of: earliest or latest")
	bounded       = flag.Bool("bounded", false, "land every record up to the end offsets found at start, then exit")
	duration      = flag.Duration("duration", 0, "stop reading after this long (records stamped later are left for the next run) and finish once the last window is committed; 0 runs until stopped")
	groupID       = flag.String("group_id", "", "also commit the landed offsets to this consumer group after each commit, for lag dashboards (never read back)")
	writerID      = flag.String("writer_id", "", "names the job in its tables' offsets: a job started again with the same id resumes where it stopped; default: derived from the topics and tables")

	kafkaTLS      = flag.Bool("kafka_tls", false, "connect to the brokers with TLS")
	kafkaCAFile   = flag.String("kafka_ca_file", "", "PEM certificates to trust for --kafka_tls (default: the system's)")
	kafkaSASL     = flag.String("kafka_sasl_mechanism", "", "PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 or OAUTHBEARER (with no --kafka_token: the worker's Google credentials, as Google's Managed Kafka takes them)")
	kafkaUser     = flag.String("kafka_username", "", "SASL username")
	kafkaPassword catalog.Secret
	kafkaToken    catalog.Secret

	catalogFlags catalog.Config

	// version is stamped at build time (-ldflags "-X main.version=...").
	version = "dev"
)

func init() {
	catalogFlags.RegisterFlags(flag.CommandLine)
	flag.Var(&kafkaPassword, "kafka_password", "SASL password: env:NAME or file:PATH (read on each worker), or the value itself (local runs only)")
	flag.Var(&kafkaToken, "kafka_token", "OAUTHBEARER token: env:NAME or file:PATH (read again at each authentication)")
}

func main() {
	launch.Start("kafka", version, "Lands Kafka topics in Iceberg tables, exactly once, one commit per table and\n"+
		"--triggering_frequency_seconds; runs until Ctrl-C (which commits the open window), or with --bounded\n"+
		"until the records found at start have landed.")
	ctx := context.Background()
	read := readConfig()
	cfg, stop := launch.Begin(ctx, "kafka", catalogFlags, checkFlags, read.Check)
	defer stop()
	cat, err := catalog.Open(ctx, cfg)
	if err != nil {
		stop()
		launch.Fatalf("kafka: %v", err)
	}
	plan, err := kafkaiceberg.Plan(ctx, cat, kafkaiceberg.PlanConfig{
		Format: *format, FormatVersion: *formatVersion,
		Catalog: cfg, Read: read, Table: *icebergTable, RejectedTable: *rejectedTable,
		Mode: icebergio.Mode(*mode), Key: splitList(*key),
		TriggeringFrequency: time.Duration(*triggerSecs) * time.Second, WriterID: writer(),
		SplitTransactions: splitTransactions(read.Bounded),
	})
	if err != nil {
		stop()
		launch.Fatalf("kafka: %v", err)
	}
	for _, t := range plan.Tables {
		log.Printf("kafka: topic %s -> table %s", t.Topic, t.Name)
	}
	if len(plan.Tables) == 0 && read.Bounded {
		log.Printf("kafka: nothing to land")
		return
	}

	p, s := beam.NewPipelineWithRoot()
	results := kafkaiceberg.Land(s, plan)
	if *groupID != "" {
		kafkaiceberg.CommitGroupOffsets(s, plan, *groupID, results)
	}
	if launch.Local() && !read.Bounded {
		stopOnSignal()
	}
	if err := beamx.Run(ctx, p); err != nil {
		stop()
		launch.Fatalf("kafka: job failed: %v", launch.Failed(err))
	}
	if !launch.Waits() {
		return // nothing has run yet (dry run, template, async submission)
	}
	if err := printSummary(ctx, os.Stdout, plan); err != nil {
		log.Printf("kafka: the job finished; its summary failed: %v", err)
	}
}

func readConfig() kafkaio.ReadConfig {
	var stopAt time.Time
	if *duration > 0 {
		stopAt = time.Now().Add(*duration)
	}
	return kafkaio.ReadConfig{
		StopAt:           stopAt,
		BootstrapServers: splitList(*bootstrap),
		Topics:           splitList(*topics),
		TopicPattern:     *topicPattern,
		Start:            kafkaio.Start(*start),
		Bounded:          *bounded,
		Security: kafkaio.Security{TLS: *kafkaTLS, CAFile: *kafkaCAFile, SASLMechanism: *kafkaSASL,
			Username: *kafkaUser, Password: kafkaPassword, Token: kafkaToken},
	}
}

// writer is --writer_id, or an id of what the job reads and where it lands
// it, so that the same command started again finds its offsets.
func writer() string {
	if *writerID != "" {
		return *writerID
	}
	ts := splitList(*topics)
	slices.Sort(ts)
	h := sha256.Sum256([]byte(strings.Join([]string{strings.Join(ts, ","), *topicPattern, *icebergTable, *rejectedTable}, "\x00")))
	return "kafka-" + hex.EncodeToString(h[:6])
}

func splitList(s string) []string {
	var out []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// checkFlags refuses values the job cannot run with, before any work.
func checkFlags() error {
	switch {
	case *format != kafkaiceberg.JSON && *format != kafkaiceberg.Debezium:
		return fmt.Errorf("--format=%s: want json or debezium", *format)
	case *format == kafkaiceberg.Debezium && (*mode != "append" || *key != ""):
		return fmt.Errorf("--format=debezium applies each table's changes by its primary key: no --mode or --key")
	case *formatVersion != 2 && *formatVersion != 3:
		return fmt.Errorf("--format_version=%d: want 2 or 3", *formatVersion)
	case *topics == "" && *topicPattern == "":
		return fmt.Errorf("name the topics to read: --topics=a,b or --topic_pattern=REGEX")
	case *topics != "" && *topicPattern != "":
		return fmt.Errorf("--topics and --topic_pattern: give one of them")
	case *mode != "append" && *mode != "upsert":
		return fmt.Errorf("--mode=%s: want append or upsert", *mode)
	case *mode == "upsert" && *key == "":
		return fmt.Errorf("--mode=upsert needs --key=COL[,COL]")
	case *mode != "upsert" && *key != "":
		return fmt.Errorf("--key applies to --mode=upsert")
	case *duration < 0:
		return fmt.Errorf("--duration=%v: want 0 (until stopped) or a positive duration", *duration)
	case *duration > 0 && *bounded:
		return fmt.Errorf("--duration and --bounded: a bounded run ends at the offsets it finds at start")
	case *triggerSecs < 1:
		return fmt.Errorf("--triggering_frequency_seconds=%d: want at least 1", *triggerSecs)
	case *start != "earliest" && *start != "latest":
		return fmt.Errorf("--start=%s: want earliest or latest", *start)
	case *icebergTable != "" && !strings.Contains(*icebergTable, "."), !strings.Contains(*rejectedTable, "."):
		return fmt.Errorf("--iceberg_table and --rejected_table are namespace.table")
	case *topicPattern != "" && *icebergTable != "" && !strings.Contains(*icebergTable, "{topic}") &&
		(*format != kafkaiceberg.Debezium || !strings.Contains(*icebergTable, "{table}")):
		// One table for many topics would need their columns to agree.
		return fmt.Errorf("--topic_pattern needs {topic} (or, for --format=debezium, {table}) in --iceberg_table: each topic lands in a table of its own")
	}
	return nil
}

// stopOnSignal makes the first SIGINT or SIGTERM end the reads where they
// are, so that the job commits its open window, prints its summary and
// exits 0, as a Dataflow drain does; a second one aborts at once.
func stopOnSignal() {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-sigs
		log.Printf("kafka: %v: reading no more records; committing the open window (again to abort)", sig)
		kafkaio.Stop()
		sig = <-sigs
		log.Printf("kafka: %v: aborted; records of the open window are not committed (the next run reads them again)", sig)
		os.Exit(130)
	}()
}

// splitTransactions says whether a Debezium job lets a source transaction
// land in two commits: a streaming job on a portable runner (Flink), where
// the Kafka read's watermark, which releases a whole transaction, does not
// advance while the job runs.
func splitTransactions(bounded bool) bool {
	if bounded || !hint.PortableRunners[portable.Runner()] {
		return false
	}
	if *format == kafkaiceberg.Debezium {
		log.Printf("kafka: on %s a streaming job does not keep source transactions whole (the watermark that releases them does not advance there): a transaction's changes of several tables may land in two commits", portable.Runner())
	}
	return true
}
