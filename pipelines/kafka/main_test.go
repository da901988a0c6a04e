package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/internal/faulttest"
	"github.com/icebeam/icebeam/internal/kafkatest"
	"github.com/icebeam/icebeam/internal/launch"
	"github.com/icebeam/icebeam/internal/launch/launchtest"
	"github.com/icebeam/icebeam/internal/syncbuf"
)

const testVersion = "test"

// pipelineBin is this pipeline built once per test run by the Dockerfile's
// build command.
var pipelineBin = &launchtest.Binary{Pipeline: "kafka", Version: testVersion}

func TestMain(m *testing.M) {
	kafkatest.MainWith(m, func() int {
		code := m.Run()
		pipelineBin.Remove()
		return code
	})
}

func TestMetadataMatchesFlags(t *testing.T) {
	md, err := launchtest.ReadMetadata("metadata.json")
	if err != nil {
		t.Fatal(err)
	}
	if !md.Streaming {
		t.Error(`kafka is a streaming pipeline, metadata.json lacks "streaming": true`)
	}
	own, err := launchtest.FlagsDefinedIn("main.go")
	if err != nil {
		t.Fatal(err)
	}
	if len(own) < 10 {
		t.Fatalf("found only flags %v in main.go", own)
	}
	errs := launchtest.CheckMetadata(md, launchtest.MetadataSpec{
		Flags:    flag.CommandLine,
		Own:      append(own, launchtest.CatalogFlags()...),
		Excluded: launchtest.CatalogExcluded,
		Bad: launchtest.Merge(launchtest.CatalogBad, map[string]string{
			"bootstrap_servers":            "localhost",
			"topics":                       "a b",
			"format":                       "avro",
			"format_version":               "1",
			"iceberg_table":                "events",
			"rejected_table":               "rejected",
			"mode":                         "merge",
			"key":                          "a b",
			"triggering_frequency_seconds": "0",
			"start":                        "now",
			"bounded":                      "yes",
			"duration":                     "forever",
			"group_id":                     "a group",
			"writer_id":                    "a/b",
			"kafka_tls":                    "on",
			"kafka_sasl_mechanism":         "GSSAPI",
			"kafka_password":               "hunter2",
			"kafka_token":                  "abc",
		}),
	})
	for _, err := range errs {
		t.Error(err)
	}
}

// --runner=vet checks every DoFn and type is registered. Plan needs the
// cluster, as the job does.
func TestVetRunner(t *testing.T) {
	b := kafkatest.Shared(t)
	b.CreateTopic(t, "vet", 1)
	b.ProduceLines(t, "vet", []string{`{"a":1}`})
	out, err := launchtest.Run(t, t.TempDir(), pipelineBin.Path(t), nil, "--runner=vet",
		"--bootstrap_servers="+b.Bootstrap(), "--topics=vet", "--group_id=g")
	if err != nil {
		t.Fatalf("--runner=vet: %v\n%s", err, out)
	}
}

// events are JSON records seq from to to-1, keyed by seq so that they
// spread over the partitions, as lines for Kafka's console producer
// ("key<TAB>value").
func events(from, to int) []string {
	var lines []string
	for i := from; i < to; i++ {
		lines = append(lines, fmt.Sprintf("k%d\t{\"seq\":%d,\"user\":\"user-%d\",\"amount\":%d.25,\"ok\":%v}", i, i, i%13, i, i%2 == 0))
	}
	return lines
}

var keyed = []string{"--reader-property", "parse.key=true"}

// The judgement: JSON events from Kafka's console producer; the
// pipeline killed with SIGKILL after its third commit while events keep
// coming; more produced; the same command started again with --bounded
// lands the rest and exits 0: every event once, the poison records once
// in the rejected table.
func TestKillAndResumeBounded(t *testing.T) {
	b := kafkatest.Shared(t)
	topic := "clicks-kill"
	b.CreateTopic(t, topic, 3)
	cfg, stop, err := launch.Catalog(context.Background(), catalog.Config{LocalDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = stop() })

	n := 300
	b.ProduceLines(t, topic, events(0, n), keyed...)
	b.ProduceLines(t, topic, []string{"p1\tnot json", "p2\t{\"seq\":\"not a number\"}"}, keyed...)
	args := []string{"--catalog_uri=" + cfg.URI, "--bootstrap_servers=" + b.Bootstrap(), "--topics=" + topic,
		"--triggering_frequency_seconds=2"}
	dir := t.TempDir()
	cmd := exec.Command(pipelineBin.Path(t), args...)
	cmd.Dir = dir
	out := &syncbuf.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()

	// Events keep coming while the job runs.
	var mu sync.Mutex
	produced := n
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-done:
				return
			default:
			}
			mu.Lock()
			from := produced
			produced += 50
			mu.Unlock()
			b.ProduceLines(t, topic, events(from, from+50), keyed...)
		}
	}()
	tableName := "kafka." + strings.ReplaceAll(topic, "-", "_")
	deadline := time.Now().Add(2 * time.Minute)
	for snapshots(t, cfg.URI, tableName) < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("no third commit within 2 minutes:\n%s", launchtest.Tail(out.String()))
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	close(done)
	wg.Wait()
	b.ProduceLines(t, topic, events(produced, produced+200), keyed...)
	produced += 200
	b.ProduceLines(t, topic, []string{"p3\t[1,2,3]"}, keyed...)

	got, err := launchtest.Run(t, dir, pipelineBin.Path(t), nil, append(args, "--bounded")...)
	if err != nil {
		t.Fatalf("the bounded run: %v\n%s", err, launchtest.Tail(got))
	}
	t.Logf("%s", launchtest.Tail(got))
	seqs := faulttest.ReadSeqs(t, loadTable(t, cfg.URI, tableName).Scan())
	slices.Sort(seqs)
	for i, s := range seqs {
		if s != int64(i) {
			t.Fatalf("row %d of the table has seq %d: not 0..%d once each (%d rows)", i, s, produced-1, len(seqs))
		}
	}
	if len(seqs) != produced {
		t.Fatalf("the table holds %d events, %d were produced", len(seqs), produced)
	}
	rejected := scanStrings(t, loadTable(t, cfg.URI, "kafka.rejected"), "value")
	slices.Sort(rejected)
	want := []string{"[1,2,3]", "not json", `{"seq":"not a number"}`}
	if !slices.Equal(rejected, want) {
		t.Fatalf("rejected values %q, want %q", rejected, want)
	}
}

func loadTable(t *testing.T, uri, name string) *table.Table {
	t.Helper()
	tb, err := openTable(t, uri, name)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// snapshots counts the table's snapshots, 0 while it does not exist.
func snapshots(t *testing.T, uri, name string) int {
	tb, err := openTable(t, uri, name)
	if err != nil {
		return 0
	}
	return len(tb.Metadata().Snapshots())
}

func openTable(t *testing.T, uri, name string) (*table.Table, error) {
	cat, err := catalog.Open(context.Background(), catalog.Config{URI: uri})
	if err != nil {
		t.Fatal(err)
	}
	ns, tbl, _ := strings.Cut(name, ".")
	return cat.LoadTable(context.Background(), table.Identifier{ns, tbl})
}

// scanStrings reads a string or binary column of every row as strings.
func scanStrings(t *testing.T, tbl *table.Table, col string) []string {
	t.Helper()
	at, err := tbl.Scan(table.WithSelectedFields(col)).ToArrowTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer at.Release()
	var out []string
	for i := range int(at.NumCols()) {
		for _, chunk := range at.Column(i).Data().Chunks() {
			for j := range chunk.Len() {
				switch c := chunk.(type) {
				case *array.Binary:
					out = append(out, string(c.Value(j)))
				case *array.String:
					out = append(out, c.Value(j))
				default:
					t.Fatalf("column %s is %s", col, chunk.DataType())
				}
			}
		}
	}
	return out
}

// Records with fields the table lacks: each new field becomes an optional
// column of the type its first value has, with the rows that bring it, in
// a first run and in a second one on the table the first evolved; rows
// before it hold null there; a record whose value does not fit the column
// the field became, or gives no type to make one of, is rejected.
func TestNewFieldsBounded(t *testing.T) {
	b := kafkatest.Shared(t)
	topic := "clicks-evolve"
	b.CreateTopic(t, topic, 1) // one partition: the order in which fields first appear is the order produced
	cfg, stop, err := launch.Catalog(context.Background(), catalog.Config{LocalDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = stop() })
	var lines []string
	for i := range 40 {
		lines = append(lines, fmt.Sprintf(`{"seq":%d,"user":"u%d"}`, i, i%7))
	}
	for i := 40; i < 80; i++ {
		lines = append(lines, fmt.Sprintf(`{"seq":%d,"user":"u%d","country":"c%d","geo":{"lat":%d.5}}`, i, i%7, i%3, i))
	}
	bad := []string{`{"seq":80,"country":5}`, `{"seq":81,"tags":[]}`}
	lines = append(lines, bad...)
	lines = append(lines, `{"seq":82,"user":null,"country":"c9"}`)
	b.ProduceLines(t, topic, lines)
	args := []string{"--catalog_uri=" + cfg.URI, "--bootstrap_servers=" + b.Bootstrap(), "--topics=" + topic, "--bounded"}
	if out, err := launchtest.Run(t, t.TempDir(), pipelineBin.Path(t), nil, args...); err != nil {
		t.Fatalf("the first run: %v\n%s", err, launchtest.Tail(out))
	}
	more := []string{`{"seq":83,"user":"u1","device":"phone","country":"c1"}`, `{"seq":84,"user":"u2"}`}
	b.ProduceLines(t, topic, more)
	if out, err := launchtest.Run(t, t.TempDir(), pipelineBin.Path(t), nil, args...); err != nil {
		t.Fatalf("the second run: %v\n%s", err, launchtest.Tail(out))
	}

	tbl := loadTable(t, cfg.URI, "kafka.clicks_evolve")
	var cols []string
	for _, f := range tbl.Schema().Fields() {
		if f.Required {
			t.Errorf("column %s is required", f.Name)
		}
		cols = append(cols, f.Name+" "+f.Type.String())
	}
	wantCols := []string{"seq long", "user string", "country string", "geo struct<3: lat: optional double>", "device string"}
	if strings.Join(cols, ", ") != strings.Join(wantCols, ", ") {
		// The struct's field id depends on the table: compare without it.
		for i := range cols {
			cols[i] = strings.Join(strings.Fields(strings.Map(func(r rune) rune {
				if r >= '0' && r <= '9' || r == ':' {
					return ' '
				}
				return r
			}, cols[i])), " ")
		}
		want := []string{"seq long", "user string", "country string", "geo struct< lat optional double>", "device string"}
		if !slices.Equal(cols, want) {
			t.Fatalf("columns %q, want %q", cols, want)
		}
	}
	// Every good record is a row, field by field as encoding/json reads
	// the record, null where the record lacks the column.
	want := map[float64]map[string]any{}
	for _, l := range append(lines, more...) {
		if slices.Contains(bad, l) {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		for _, c := range []string{"user", "country", "geo", "device"} {
			if _, ok := m[c]; !ok {
				m[c] = nil
			}
		}
		want[m["seq"].(float64)] = m
	}
	got := tableJSON(t, tbl)
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	for _, row := range got {
		w, ok := want[row["seq"].(float64)]
		if !ok || !reflect.DeepEqual(row, w) {
			t.Fatalf("row %v, want %v", row, w)
		}
		delete(want, row["seq"].(float64))
	}
	rejected := scanStrings(t, loadTable(t, cfg.URI, "kafka.rejected"), "value")
	slices.Sort(rejected)
	if !slices.Equal(rejected, bad) {
		t.Fatalf("rejected %q, want %q", rejected, bad)
	}
}

// tableJSON is the table's rows as Arrow writes them as JSON, read back
// by encoding/json.
func tableJSON(t *testing.T, tbl *table.Table) []map[string]any {
	t.Helper()
	at, err := tbl.Scan().ToArrowTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer at.Release()
	tr := array.NewTableReader(at, 1<<16)
	defer tr.Release()
	var rows []map[string]any
	for tr.Next() {
		var buf bytes.Buffer
		if err := array.RecordToJSON(tr.RecordBatch(), &buf); err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(&buf)
		for dec.More() {
			var m map[string]any
			if err := dec.Decode(&m); err != nil {
				t.Fatal(err)
			}
			rows = append(rows, m)
		}
	}
	return rows
}
