// Package kafkatest runs a real Apache Kafka broker in tests: a one-node
// Kafka 4.3.0 cluster (KRaft, broker and controller in one JVM) that
// scripts/kafka.sh assembles from Maven Central (cached in .cache/kafka) and
// starts on loopback, in a temporary directory, with no topic created on use
// and every replication factor 1, so that consumer groups and transactions
// work. It owns that broker's life: a test can stop it, kill it and start it
// again on the same data and address, as in an outage, and it stops when the
// test (or, for Shared, the test binary) ends. Records go in through Kafka's
// own console producer, so that what a test reads was written by Kafka's
// client, not by ours; reading back and offsets go through franz-go.
package kafkatest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/icebeam/icebeam/internal/launch/launchtest"
	"github.com/icebeam/icebeam/internal/servertest"
)

// Required reports whether a machine without Java or Maven fails the Kafka
// tests instead of skipping them: KAFKA=require, or JOBSERVER=require, which
// CI sets for every test that assembles Java from Maven Central.
func Required() bool {
	return os.Getenv("KAFKA") == "require" || os.Getenv("JOBSERVER") == "require"
}

// Broker is a one-node Kafka cluster started by scripts/kafka.sh.
type Broker struct {
	Dir string // the cluster's directory: its configuration and data
	Log string // the server's output, every run on Dir one after the other

	// SASLUser logs in with SASLPassword at SASLBootstrap by PLAIN,
	// SCRAM-SHA-256 or SCRAM-SHA-512, on a broker started with
	// Options.SASL.
	SASLUser, SASLPassword string

	proc      servertest.Process
	bootstrap string
	port      string
	sasl      string // the SASL listener's address
	shared    bool
}

// Start starts a broker of the test's own and stops it when t ends. A test
// on a machine without Java and Maven is skipped unless Required; so is
// every test under -short. A test that does not stop or kill its broker
// can take the test binary's with Shared instead and save a start.
func Start(t testing.TB) *Broker {
	t.Helper()
	return StartWith(t, Options{})
}

// Options are what StartWith adds to a broker.
type Options struct {
	// SASL adds a SASL_PLAINTEXT listener (SASLBootstrap) where
	// SASLUser logs in with a random SASLPassword by PLAIN, SCRAM-SHA-256
	// or SCRAM-SHA-512. The PLAINTEXT listener stays, for the helpers.
	SASL bool
}

// StartWith is Start with opts.
func StartWith(t testing.TB, opts Options) *Broker {
	t.Helper()
	skipUnlessJava(t)
	dir := t.TempDir()
	b := newBroker(t, dir)
	if opts.SASL {
		var pw [12]byte
		if _, err := rand.Read(pw[:]); err != nil {
			t.Fatal(err)
		}
		b.SASLUser, b.SASLPassword = "alice", "pw-"+hex.EncodeToString(pw[:])
	}
	if err := b.start("0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := b.proc.Stop(); err != nil {
			t.Log(err)
		}
	})
	return b
}

func skipUnlessJava(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a Kafka broker")
	}
	for _, tool := range []string{"java", "mvn"} {
		if _, err := exec.LookPath(tool); err != nil {
			if Required() {
				t.Fatalf("the Kafka tests need %s (KAFKA=require or JOBSERVER=require)", tool)
			}
			t.Skipf("the Kafka tests need %s", tool)
		}
	}
}

func newBroker(t testing.TB, dir string) *Broker {
	log := filepath.Join(dir, "kafka.log")
	return &Broker{
		Dir:  dir,
		Log:  log,
		proc: servertest.Process{Script: filepath.Join(launchtest.RepoRoot(t), "scripts", "kafka.sh"), Log: log},
	}
}

var shared struct {
	main   bool // Main runs the tests
	once   sync.Once
	broker *Broker
	err    error
}

// Main runs a test binary whose tests use Shared, then stops the shared
// broker and removes its directory. Call it from TestMain.
func Main(m *testing.M) { MainWith(m, m.Run) }

// MainWith is Main for a package whose TestMain runs its tests another
// way, such as ptest.MainRet: run runs them and returns the exit code.
func MainWith(m *testing.M, run func() int) {
	shared.main = true
	code := run()
	if b := shared.broker; b != nil {
		if err := b.proc.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
		os.RemoveAll(b.Dir)
	}
	os.Exit(code)
}

// Shared returns the test binary's broker, started by the first test that
// asks for it, so that a package's tests pay for one start. Its tests share
// its topics (each should create its own) and must not stop or kill it: a
// test that does takes a broker of its own from Start. The package's
// TestMain must call Main, which stops it at the end; a test that runs alone
// (-run) still gets it.
func Shared(t testing.TB) *Broker {
	t.Helper()
	skipUnlessJava(t)
	if !shared.main {
		t.Fatal("kafkatest.Shared needs the package's TestMain to call kafkatest.Main, which stops the broker")
	}
	shared.once.Do(func() {
		dir, err := os.MkdirTemp("", "kafkatest-*")
		if err != nil {
			shared.err = err
			return
		}
		b := newBroker(t, dir)
		b.shared = true
		if shared.err = b.start("0"); shared.err != nil {
			os.RemoveAll(dir)
			return
		}
		shared.broker = b
	})
	if shared.err != nil {
		t.Fatalf("the shared broker did not start: %v", shared.err)
	}
	return shared.broker
}

// Bootstrap is the broker's address, 127.0.0.1:PORT, for a client's seed
// brokers; it stays the same across StartAgain.
func (b *Broker) Bootstrap() string { return b.bootstrap }

// SASLBootstrap is the address of the SASL_PLAINTEXT listener of a broker
// started with Options.SASL; it stays the same across StartAgain.
func (b *Broker) SASLBootstrap() string { return b.sasl }

// start runs `kafka.sh start` on b.Dir at port ("0": a free one).
func (b *Broker) start(port string) error {
	args := []string{"--port", port, "--dir", b.Dir, "--log", b.Log}
	want := 1
	if b.SASLUser != "" {
		args = append(args, "--sasl", b.SASLUser+":"+b.SASLPassword)
		want = 2
	}
	addrs, err := b.proc.Start(args, want)
	if err != nil {
		return err
	}
	_, p, ok := strings.Cut(addrs[0], ":")
	if !ok || (b.port != "" && p != b.port) {
		return fmt.Errorf("%s start printed address %s, want 127.0.0.1:%s", b.proc.Script, addrs[0], b.port)
	}
	if want == 2 {
		if b.sasl != "" && addrs[1] != b.sasl {
			return fmt.Errorf("%s start printed SASL address %s, want %s", b.proc.Script, addrs[1], b.sasl)
		}
		b.sasl = addrs[1]
	}
	b.bootstrap, b.port = addrs[0], p
	return nil
}

func (b *Broker) notShared(t testing.TB, what string) {
	t.Helper()
	if b.shared {
		t.Fatalf("kafkatest: %s on the shared broker; take one of the test's own from Start", what)
	}
}

// Stop shuts the broker down cleanly (SIGTERM), its data kept: an outage
// that StartAgain ends.
func (b *Broker) Stop(t testing.TB) {
	t.Helper()
	b.notShared(t, "Stop")
	if err := b.proc.Stop(); err != nil {
		t.Fatal(err)
	}
}

// Kill kills the broker with SIGKILL, as a crash would, and returns once it
// is gone. Its data stays (as written: Kafka does not fsync each record,
// but what it wrote is in the page cache); StartAgain recovers its logs.
func (b *Broker) Kill(t testing.TB) {
	t.Helper()
	b.notShared(t, "Kill")
	if err := b.proc.Kill(); err != nil {
		t.Fatal(err)
	}
}

// StartAgain starts the stopped or killed broker on the same directory and
// address: the outage ends, with the topics, records and committed offsets
// it had.
func (b *Broker) StartAgain(t testing.TB) {
	t.Helper()
	b.notShared(t, "StartAgain")
	if err := b.start(b.port); err != nil {
		t.Fatal(err)
	}
}

// Restart is Stop, then StartAgain.
func (b *Broker) Restart(t testing.TB) {
	t.Helper()
	b.Stop(t)
	b.StartAgain(t)
}

// LogTail is the end of the server's log, for failure messages.
func (b *Broker) LogTail(lines int) string { return b.proc.LogTail(lines) }

// Client is a franz-go client of the broker with opts added, closed when t
// ends.
func (b *Broker) Client(t testing.TB, opts ...kgo.Opt) *kgo.Client {
	t.Helper()
	cl, err := kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers(b.bootstrap)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return cl
}

// Admin is an admin client of the broker, closed when t ends.
func (b *Broker) Admin(t testing.TB) *kadm.Client {
	t.Helper()
	return kadm.NewClient(b.Client(t))
}

// adminTimeout bounds each admin call of the helpers below.
const adminTimeout = 30 * time.Second

// CreateTopic creates topic name with the given number of partitions.
func (b *Broker) CreateTopic(t testing.TB, name string, partitions int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), adminTimeout)
	defer cancel()
	resp, err := b.Admin(t).CreateTopic(ctx, int32(partitions), 1, nil, name)
	if err == nil {
		err = resp.Err
	}
	if err != nil {
		t.Fatalf("creating topic %s with %d partitions: %v", name, partitions, err)
	}
}

// AddPartitions grows topic name to total partitions.
func (b *Broker) AddPartitions(t testing.TB, name string, total int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), adminTimeout)
	defer cancel()
	resps, err := b.Admin(t).UpdatePartitions(ctx, total, name)
	if err == nil {
		err = resps.Error()
	}
	if err != nil {
		t.Fatalf("growing topic %s to %d partitions: %v", name, total, err)
	}
}

// Topics runs Kafka's own topics tool against the broker with args (e.g.
// "--describe", "--topic", name) and returns its output.
func (b *Broker) Topics(t testing.TB, args ...string) string {
	t.Helper()
	out, err := exec.Command(b.proc.Script, append([]string{"topics", b.bootstrap}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("kafka.sh topics %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// ProduceLines sends each line as one record to topic through Kafka's own
// console producer, synchronously (one at a time, in order, each
// acknowledged by the broker), and fails t if any is not sent. args go to
// the producer, e.g. "--reader-property", "parse.key=true" to read
// "key<TAB>value" lines.
func (b *Broker) ProduceLines(t testing.TB, topic string, lines []string, args ...string) {
	t.Helper()
	var in bytes.Buffer
	for _, l := range lines {
		if strings.ContainsAny(l, "\r\n") {
			t.Fatalf("ProduceLines: line %q holds a line break, which would make two records", l)
		}
		in.WriteString(l + "\n")
	}
	// --timeout is linger.ms, 1000 by default: a second per record when
	// each is sent alone. A missing topic fails after 15 s, not 60.
	full := append([]string{"produce", b.bootstrap, topic, "--sync", "--timeout", "0",
		"--command-property", "max.block.ms=15000"}, args...)
	cmd := exec.Command(b.proc.Script, full...)
	cmd.Stdin = &in
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("kafka.sh produce %s (%d lines): %v\n%s", topic, len(lines), err, out)
	}
}

// EndOffsets are topic's high watermarks, by partition: the offset the
// next record of each will get.
func (b *Broker) EndOffsets(t testing.TB, topic string) map[int32]int64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), adminTimeout)
	defer cancel()
	listed, err := b.Admin(t).ListEndOffsets(ctx, topic)
	if err == nil {
		err = listed.Error()
	}
	if err != nil {
		t.Fatalf("listing the end offsets of %s: %v", topic, err)
	}
	ends := map[int32]int64{}
	listed.Each(func(o kadm.ListedOffset) { ends[o.Partition] = o.Offset })
	return ends
}
