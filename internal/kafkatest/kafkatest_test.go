package kafkatest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"

	"github.com/icebeam/icebeam/internal/kafkatest"
)

func TestMain(m *testing.M) { kafkatest.Main(m) }

// consume reads topic from its start with a new client (opts added) until
// it holds n records, and fails t if more arrive within a short wait after
// that, or fewer within the timeout.
func consume(t *testing.T, b *kafkatest.Broker, topic string, n int, opts ...kgo.Opt) []*kgo.Record {
	t.Helper()
	cl := b.Client(t, append([]kgo.Opt{kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart())}, opts...)...)
	var recs []*kgo.Record
	deadline := time.Now().Add(30 * time.Second)
	extra := time.Time{}
	for {
		wait := time.Until(deadline)
		if !extra.IsZero() {
			wait = time.Until(extra)
		}
		if wait <= 0 {
			break
		}
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		fs := cl.PollFetches(ctx)
		cancel()
		fs.EachError(func(topic string, p int32, err error) {
			if ctx.Err() == nil {
				t.Fatalf("fetching %s/%d: %v", topic, p, err)
			}
		})
		recs = append(recs, fs.Records()...)
		if len(recs) >= n && extra.IsZero() {
			// Anything more (a duplicate) would come right behind.
			extra = time.Now().Add(500 * time.Millisecond)
		}
	}
	if len(recs) != n {
		t.Fatalf("read %d records from %s, want %d", len(recs), topic, n)
	}
	return recs
}

func TestConsoleProducerToFranzGo(t *testing.T) {
	b := kafkatest.Shared(t)
	const topic, n = "lines", 300
	b.CreateTopic(t, topic, 3)
	lines := make([]string, n)
	for i := range lines {
		lines[i] = fmt.Sprintf("k%03d\tline %03d", i, i)
	}
	b.ProduceLines(t, topic, lines, "--reader-property", "parse.key=true")

	seen := map[string]int{}
	parts := map[int32]int{}
	for _, r := range consume(t, b, topic, n) {
		if want := "line " + strings.TrimPrefix(string(r.Key), "k"); string(r.Value) != want {
			t.Errorf("record key %q has value %q, want %q", r.Key, r.Value, want)
		}
		seen[string(r.Value)]++
		parts[r.Partition]++
	}
	for _, l := range lines {
		_, v, _ := strings.Cut(l, "\t")
		if seen[v] != 1 {
			t.Errorf("%q read %d times, want once", v, seen[v])
		}
	}
	if len(parts) != 3 {
		t.Errorf("records in partitions %v, want all 3 (keys spread them)", parts)
	}
	ends := b.EndOffsets(t, topic)
	var total int64
	for p, end := range ends {
		total += end
		if int(end) != parts[p] {
			t.Errorf("partition %d ends at %d, but %d records were read from it", p, end, parts[p])
		}
	}
	if total != n {
		t.Errorf("end offsets %v sum to %d, want %d", ends, total, n)
	}

	b.AddPartitions(t, topic, 5)
	if ends := b.EndOffsets(t, topic); len(ends) != 5 {
		t.Errorf("after AddPartitions(5), end offsets of partitions %v", ends)
	}
	if out := b.Topics(t, "--describe", "--topic", topic); !strings.Contains(out, "PartitionCount: 5") {
		t.Errorf("Kafka's topics tool describes %s as:\n%s\nwant PartitionCount: 5", topic, out)
	}
}

func TestReadCommittedSkipsAbortedTransaction(t *testing.T) {
	b := kafkatest.Shared(t)
	const topic = "txn"
	// One partition: the last committed record marks the end for both readers.
	b.CreateTopic(t, topic, 1)
	p := b.Client(t, kgo.TransactionalID("kafkatest-txn"), kgo.DefaultProduceTopic(topic))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	txn := func(commit bool, values ...string) {
		t.Helper()
		if err := p.BeginTransaction(); err != nil {
			t.Fatal(err)
		}
		for _, v := range values {
			if err := p.ProduceSync(ctx, kgo.StringRecord(v)).FirstErr(); err != nil {
				t.Fatal(err)
			}
		}
		if err := p.EndTransaction(ctx, kgo.TransactionEndTry(commit)); err != nil {
			t.Fatalf("ending the transaction (commit %v): %v", commit, err)
		}
	}
	txn(true, "c0", "c1", "c2")
	txn(false, "a0", "a1")
	txn(true, "c3")

	values := func(recs []*kgo.Record) string {
		var vs []string
		for _, r := range recs {
			vs = append(vs, string(r.Value))
		}
		return strings.Join(vs, " ")
	}
	committed := consume(t, b, topic, 4, kgo.FetchIsolationLevel(kgo.ReadCommitted()))
	if got := values(committed); got != "c0 c1 c2 c3" {
		t.Errorf("read_committed read %q, want %q", got, "c0 c1 c2 c3")
	}
	// The aborted records are in the log: read_uncommitted sees them.
	all := consume(t, b, topic, 6, kgo.FetchIsolationLevel(kgo.ReadUncommitted()))
	if got := values(all); got != "c0 c1 c2 a0 a1 c3" {
		t.Errorf("read_uncommitted read %q, want %q", got, "c0 c1 c2 a0 a1 c3")
	}
}

func TestRestartKeepsRecordsAndOffsets(t *testing.T) {
	b := kafkatest.Start(t)
	const topic, group = "kept", "kept-group"
	b.CreateTopic(t, topic, 2)
	lines := []string{"a\t1", "b\t2", "c\t3", "d\t4", "e\t5", "f\t6"}
	b.ProduceLines(t, topic, lines, "--reader-property", "parse.key=true")
	// A group member reads everything and commits.
	cl := b.Client(t, kgo.ConsumeTopics(topic), kgo.ConsumerGroup(group), kgo.DisableAutoCommit(),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for n := 0; n < len(lines); {
		fs := cl.PollFetches(ctx)
		if err := fs.Err0(); err != nil {
			t.Fatalf("reading %s in group %s: %v", topic, group, err)
		}
		n += fs.NumRecords()
	}
	if err := cl.CommitUncommittedOffsets(ctx); err != nil {
		t.Fatal(err)
	}
	cl.Close()
	ends := b.EndOffsets(t, topic)
	committed := func() kadm.OffsetResponses {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		offs, err := b.Admin(t).FetchOffsets(ctx, group)
		if err != nil {
			t.Fatal(err)
		}
		return offs
	}
	check := func(when string) {
		t.Helper()
		if got := b.EndOffsets(t, topic); fmt.Sprint(got) != fmt.Sprint(ends) {
			t.Errorf("%s: end offsets %v, want %v", when, got, ends)
		}
		offs := committed()
		for p, end := range ends {
			if o, ok := offs.Lookup(topic, p); !ok || o.At != end {
				t.Errorf("%s: group %s's offset of %s/%d is %+v, want %d", when, group, topic, p, o, end)
			}
		}
		if got := len(consume(t, b, topic, len(lines))); got != len(lines) {
			t.Errorf("%s: read %d records, want %d", when, got, len(lines))
		}
	}
	addr := b.Bootstrap()
	b.Restart(t)
	if b.Bootstrap() != addr {
		t.Errorf("after the restart the broker is at %s, want %s", b.Bootstrap(), addr)
	}
	check("after a clean restart")

	b.Kill(t)
	b.StartAgain(t)
	check("after kill -9 and a start")
	// It still takes records.
	b.ProduceLines(t, topic, []string{"g\t7"}, "--reader-property", "parse.key=true")
	consume(t, b, topic, len(lines)+1)
}

// TestSASL logs in at the SASL listener by each mechanism, fails with a
// wrong password, and keeps the listener and its users across a restart.
func TestSASL(t *testing.T) {
	b := kafkatest.StartWith(t, kafkatest.Options{SASL: true})
	const topic = "sasl"
	b.CreateTopic(t, topic, 1)
	b.ProduceLines(t, topic, []string{"one", "two"})
	mechs := map[string]func(user, pass string) sasl.Mechanism{
		"PLAIN":         func(u, p string) sasl.Mechanism { return plain.Auth{User: u, Pass: p}.AsMechanism() },
		"SCRAM-SHA-256": func(u, p string) sasl.Mechanism { return scram.Auth{User: u, Pass: p}.AsSha256Mechanism() },
		"SCRAM-SHA-512": func(u, p string) sasl.Mechanism { return scram.Auth{User: u, Pass: p}.AsSha512Mechanism() },
	}
	login := func(mech, pass string) error {
		cl, err := kgo.NewClient(kgo.SeedBrokers(b.SASLBootstrap()), kgo.SASL(mechs[mech](b.SASLUser, pass)), kgo.RequestRetries(0))
		if err != nil {
			return err
		}
		defer cl.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_, err = kadm.NewClient(cl).ListTopics(ctx, topic)
		return err
	}
	check := func(when string) {
		t.Helper()
		for mech := range mechs {
			if err := login(mech, b.SASLPassword); err != nil {
				t.Errorf("%s: %s as %s: %v", when, mech, b.SASLUser, err)
			}
			if err := login(mech, "wrong"); err == nil {
				t.Errorf("%s: %s as %s with a wrong password succeeded", when, mech, b.SASLUser)
			}
		}
	}
	check("at start")
	addr := b.SASLBootstrap()
	b.Restart(t)
	if b.SASLBootstrap() != addr {
		t.Errorf("after the restart the SASL listener is at %s, want %s", b.SASLBootstrap(), addr)
	}
	check("after a restart")
}
