package cdc

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/fsouza/fake-gcs-server/fakestorage"
)

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

func localFS(t *testing.T) filesystem.Interface {
	t.Helper()
	fsys, err := filesystem.New(context.Background(), "/")
	if err != nil {
		t.Fatal(err)
	}
	return fsys
}

func TestExpand(t *testing.T) {
	dir := t.TempDir()
	b := writeFile(t, filepath.Join(dir, "b.json"), "")
	a := writeFile(t, filepath.Join(dir, "a.json"), "")
	c := writeFile(t, filepath.Join(dir, "c.txt"), "")
	writeFile(t, filepath.Join(dir, "sub", "d.json"), "")
	fsys := localFS(t)
	cases := []struct {
		pattern string
		want    []string
	}{
		{dir, []string{a, b, c}},
		{dir + "/", []string{a, b, c}},
		{filepath.Join(dir, "*.json"), []string{a, b}},
		{filepath.Join(dir, "*"), []string{a, b, c}},
		{b, []string{b}},
	}
	for _, tc := range cases {
		got, err := expand(context.Background(), fsys, tc.pattern)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("expand(%s) = %v, %v; want %v", tc.pattern, got, err, tc.want)
		}
	}
	for _, pattern := range []string{filepath.Join(dir, "none.json"), filepath.Join(dir, "*.csv"), filepath.Join(dir, "empty")} {
		_, err := expand(context.Background(), fsys, pattern)
		if err == nil || err.Error() != "cdc: "+pattern+" names no files" {
			t.Errorf("expand(%s): error %v, want \"cdc: %s names no files\"", pattern, err, pattern)
		}
	}
}

// cursorFiles writes files whose lines are, in order, a b c "" d e: one
// empty file, one whose last line has no newline, one with CRLF.
func cursorFiles(t *testing.T) (replay, []string) {
	dir := t.TempDir()
	files := []string{
		writeFile(t, filepath.Join(dir, "1"), "a\nb\n"),
		writeFile(t, filepath.Join(dir, "2"), ""),
		writeFile(t, filepath.Join(dir, "3"), "c\n\nd"),
		writeFile(t, filepath.Join(dir, "4"), "e\r\n"),
	}
	fsys := localFS(t)
	r := replay{Files: files}
	for _, f := range files {
		n, err := countLines(context.Background(), fsys, f)
		if err != nil {
			t.Fatal(err)
		}
		r.Lines = append(r.Lines, n)
	}
	if want := []int64{2, 0, 3, 1}; !slices.Equal(r.Lines, want) {
		t.Fatalf("line counts %v, want %v", r.Lines, want)
	}
	return r, []string{"a", "b", "c", "", "d", "e"}
}

func readAll(t *testing.T, c *cursor, from, to int64) []string {
	t.Helper()
	if err := c.seek(context.Background(), from); err != nil {
		t.Fatalf("seek(%d): %v", from, err)
	}
	var lines []string
	for range to - from {
		line, err := c.next(context.Background())
		if err != nil {
			t.Fatalf("reading from %d: %v", from, err)
		}
		lines = append(lines, strings.TrimRight(string(line), "\r\n"))
	}
	return lines
}

// A resumed or split restriction starts at any position: the cursor finds
// its line across files, empty ones included.
func TestCursorSeeksAnyPosition(t *testing.T) {
	r, want := cursorFiles(t)
	for from := range int64(len(want)) {
		c := newCursor(r)
		if got := readAll(t, c, from, int64(len(want))); !slices.Equal(got, want[from:]) {
			t.Errorf("lines from %d: %q, want %q", from, got, want[from:])
		}
		c.close()
	}
	// One cursor across bundles: forward from where it is, then back.
	c := newCursor(r)
	defer c.close()
	for _, span := range [][2]int64{{0, 2}, {2, 4}, {5, 6}, {1, 3}, {3, 6}} {
		if got := readAll(t, c, span[0], span[1]); !slices.Equal(got, want[span[0]:span[1]]) {
			t.Errorf("lines [%d, %d): %q, want %q", span[0], span[1], got, want[span[0]:span[1]])
		}
	}
	if err := c.seek(context.Background(), 6); err == nil {
		t.Error("seek past the last line succeeded")
	}
}

func TestCursorReadsLongLines(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	name := writeFile(t, filepath.Join(t.TempDir(), "long"), "s\n"+long+"\nt")
	n, err := countLines(context.Background(), localFS(t), name)
	if err != nil || n != 3 {
		t.Fatalf("countLines = %d, %v; want 3", n, err)
	}
	c := newCursor(replay{Files: []string{name}, Lines: []int64{n}})
	defer c.close()
	if got := readAll(t, c, 0, 3); !slices.Equal(got, []string{"s", long, "t"}) {
		t.Errorf("read %d lines of lengths %d, %d, %d", len(got), len(got[0]), len(got[1]), len(got[2]))
	}
}

func TestCursorNoticesShrunkFiles(t *testing.T) {
	r, _ := cursorFiles(t)
	writeFile(t, r.Files[2], "c\n")
	c := newCursor(r)
	defer c.close()
	if err := c.seek(context.Background(), 3); err != nil {
		t.Fatal(err)
	}
	line, err := c.next(context.Background())
	if err == nil || !strings.Contains(err.Error(), r.Files[2]+" ends after line 1 but had 3 lines when the replay started: it changed during the replay") {
		t.Errorf("reading line 2 of a file shrunk to 1 line: %q, %v", line, err)
	}
}

// Two files of a directory, one wrapped and one not, with blank lines and
// a last line without a newline: every event once, its LSN from
// source.lsn or else its position across the files.
func TestReadDebeziumDirectory(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "0001.json"), strings.Join([]string{
		wrap(`{"before":null,"after":{"id":1,"owner":"alice","balance_cents":1000,"updated_at":1767225600000000},"source":{"lsn":100},"op":"r","ts_ms":1}`),
		wrap(`{"before":null,"after":{"id":2,"owner":"bob","balance_cents":20,"updated_at":1767225600000001},"source":{"lsn":101},"op":"c","ts_ms":2}`),
		"",
		wrap(`{"before":{"id":1},"after":{"id":1,"owner":"alice","balance_cents":900,"updated_at":1767225600000002},"source":{"lsn":102},"op":"u","ts_ms":3}`),
	}, "\n")+"\n")
	writeFile(t, filepath.Join(dir, "0002.json"), strings.Join([]string{
		`{"before":{"id":2,"owner":"bob","balance_cents":20,"updated_at":1767225600000001},"after":null,"source":{"lsn":103},"op":"d","ts_ms":4}`,
		`{"before":null,"after":{"id":3,"owner":"carol","balance_cents":5,"updated_at":1767225600000003},"source":{"connector":"mysql"},"op":"c","ts_ms":5}`,
		"   ",
		`{"before":{"id":3},"after":{"id":3,"owner":"carol","balance_cents":6,"updated_at":1767225600000004},"op":"u","ts_ms":6}`,
	}, "\n"))
	writeFile(t, filepath.Join(dir, "nested", "0000.json"), "not an event\n")

	p, s := beam.NewPipelineWithRoot()
	before := time.Now()
	col := ReadDebezium(s, ReadConfig{Pattern: dir})
	got, err := runCollecting(t, p, s, col)
	if err != nil {
		t.Fatal(err)
	}
	after := time.Now()
	// 0001.json holds positions 0-3, 0002.json 4-7: carol's changes, at
	// positions 5 and 7, have no source.lsn.
	want := []Change{
		{Op: "c", LSN: 5, ID: 3, Owner: "carol", BalanceCents: 5, UpdatedAt: 1767225600000003},
		{Op: "u", LSN: 7, ID: 3, Owner: "carol", BalanceCents: 6, UpdatedAt: 1767225600000004},
		{Op: "r", LSN: 100, ID: 1, Owner: "alice", BalanceCents: 1000, UpdatedAt: 1767225600000000},
		{Op: "c", LSN: 101, ID: 2, Owner: "bob", BalanceCents: 20, UpdatedAt: 1767225600000001},
		{Op: "u", LSN: 102, ID: 1, Owner: "alice", BalanceCents: 900, UpdatedAt: 1767225600000002},
		{Op: "d", LSN: 103, ID: 2, Owner: "bob", BalanceCents: 20, UpdatedAt: 1767225600000001},
	}
	var changes []Change
	for _, c := range got {
		changes = append(changes, c.Change)
		// event times have millisecond precision
		if c.At.Before(before.Truncate(time.Millisecond)) || c.At.After(after) {
			t.Errorf("%+v timestamped %v, not while the pipeline ran (%v to %v)", c.Change, c.At, before, after)
		}
	}
	if !slices.Equal(changes, want) {
		t.Errorf("got\n%+v\nwant\n%+v", changes, want)
	}
}

// At a Rate, line n is due n/Rate after the replay starts and is
// timestamped then.
func TestReadDebeziumPaces(t *testing.T) {
	const n, rate = 12, 40 // a line every 25ms
	dir := t.TempDir()
	var lines []string
	for i := range n {
		lines = append(lines, fmt.Sprintf(`{"op":"c","after":{"id":%d}}`, i))
	}
	writeFile(t, filepath.Join(dir, "events.ndjson"), strings.Join(lines, "\n")+"\n")
	writeFile(t, filepath.Join(dir, "notes.txt"), "not an event\n")

	p, s := beam.NewPipelineWithRoot()
	col := ReadDebezium(s, ReadConfig{Pattern: filepath.Join(dir, "*.ndjson"), Rate: rate})
	began := time.Now()
	got, err := runCollecting(t, p, s, col)
	if err != nil {
		t.Fatal(err)
	}
	if took, last := time.Since(began), (n-1)*time.Second/rate; took < last {
		t.Errorf("the replay took %v, less than the %v its last line is due after its start", took, last)
	}
	if len(got) != n {
		t.Fatalf("got %d changes, want %d", len(got), n)
	}
	for i, c := range got {
		if want := (Change{Op: "c", LSN: int64(i), ID: int64(i)}); c.Change != want {
			t.Errorf("change %d: %+v, want %+v", i, c.Change, want)
		}
		if d, want := c.At.Sub(got[0].At), time.Duration(i)*time.Second/rate; d != want {
			t.Errorf("change %d timestamped %v after the first, want %v", i, d, want)
		}
	}
}

func TestReadDebeziumFailsNamingTheLine(t *testing.T) {
	name := writeFile(t, filepath.Join(t.TempDir(), "bad.json"), strings.Join([]string{
		`{"op":"c","after":{"id":1}}`,
		``,
		`{"op":"c","after":{"id":"two"}}`,
	}, "\n")+"\n")
	p, s := beam.NewPipelineWithRoot()
	col := ReadDebezium(s, ReadConfig{Pattern: name})
	_, err := runCollecting(t, p, s, col)
	want := `cdc: reading Debezium events: ` + name + ` line 3: after.id is a string ("two"), want an integer`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want one containing %q", err, want)
	}
}

// The sink commits an unbounded input per triggering period; a bounded one
// only once, at its end.
func TestSourcesAreUnbounded(t *testing.T) {
	_, s := beam.NewPipelineWithRoot()
	for name, col := range map[string]beam.PCollection{
		"Generate":     Generate(s, GenerateConfig{Duration: time.Minute}),
		"ReadDebezium": ReadDebezium(s, ReadConfig{Pattern: filepath.Join(t.TempDir(), "*.json")}),
	} {
		if !strings.HasSuffix(col.String(), ":unbounded}") {
			t.Errorf("%s returns %v, want an unbounded PCollection", name, col)
		}
	}
}

// debezium renders c as a Debezium event, with source.lsn if withLSN.
func debezium(c Change, withLSN bool) string {
	row := fmt.Sprintf(`{"id":%d,"owner":%q,"balance_cents":%d,"updated_at":%d}`, c.ID, c.Owner, c.BalanceCents, c.UpdatedAt)
	before, after := "null", row
	if c.Op == "d" {
		before, after = row, "null"
	}
	source := `{"connector":"postgresql"}`
	if withLSN {
		source = fmt.Sprintf(`{"connector":"postgresql","lsn":%d}`, c.LSN)
	}
	return fmt.Sprintf(`{"before":%s,"after":%s,"source":%s,"op":%q,"ts_ms":1767225600000}`, before, after, source, c.Op)
}

// A replay long enough for many bundles, each resuming where the last one
// stopped: the generated stream written out as Debezium files, the last
// without LSNs (so position i gets LSN i, not i+1), read back whole.
func TestReadDebeziumManyBundles(t *testing.T) {
	const perFile, keys = 20000, 97
	dir := t.TempDir()
	var want []Change
	for f, form := range []string{"wrapped", "plain", "without lsn"} {
		var b strings.Builder
		for i := int64(f * perFile); i < int64((f+1)*perFile); i++ {
			c := Generated(i, keys)
			line := debezium(c, form != "without lsn")
			if form == "wrapped" {
				line = wrap(line)
			}
			if form == "without lsn" {
				c.LSN = i
			}
			want = append(want, c)
			b.WriteString(line + "\n")
		}
		writeFile(t, filepath.Join(dir, fmt.Sprintf("changes-%d.json", f)), b.String())
	}
	p, s := beam.NewPipelineWithRoot()
	got, err := runCollecting(t, p, s, ReadDebezium(s, ReadConfig{Pattern: dir}))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("got %d changes, want %d", len(got), len(want))
	}
	// in the order runCollecting sorts the changes it collected
	slices.SortFunc(want, func(a, b Change) int {
		return cmp.Or(cmp.Compare(a.LSN, b.LSN), cmp.Compare(a.ID, b.ID))
	})
	for i := range want {
		if got[i].Change != want[i] {
			t.Fatalf("change %d: %+v, want %+v", i, got[i].Change, want[i])
		}
	}
}

// gs:// through Beam's GCS filesystem, against fake-gcs-server: a
// "directory" is a prefix, its files those directly under it.
func TestReadDebeziumGCS(t *testing.T) {
	put := func(name, content string) fakestorage.Object {
		return fakestorage.Object{ObjectAttrs: fakestorage.ObjectAttrs{BucketName: "cdc", Name: name}, Content: []byte(content)}
	}
	srv, err := fakestorage.NewServerWithOptions(fakestorage.Options{
		InitialObjects: []fakestorage.Object{
			put("stream/b.json", `{"op":"d","before":{"id":1}}`+"\n"),
			put("stream/a.json", wrap(`{"op":"c","after":{"id":1,"owner":"o","balance_cents":2,"updated_at":3}}`)+"\n\n"),
			put("stream/later/c.json", "not an event\n"),
			put("streams/d.json", "not an event\n"),
		},
		// path-style reads are served only to the public host
		Scheme: "http", Host: "127.0.0.1", PublicHost: "127.0.0.1", Writer: io.Discard,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	t.Setenv("STORAGE_EMULATOR_HOST", strings.TrimPrefix(srv.URL(), "http://"))

	fsys, err := filesystem.New(context.Background(), "gs://cdc/")
	if err != nil {
		t.Fatal(err)
	}
	defer fsys.Close()
	for pattern, want := range map[string][]string{
		"gs://cdc/stream":        {"gs://cdc/stream/a.json", "gs://cdc/stream/b.json"},
		"gs://cdc/stream/":       {"gs://cdc/stream/a.json", "gs://cdc/stream/b.json"},
		"gs://cdc/stream/b*":     {"gs://cdc/stream/b.json"},
		"gs://cdc/stream/a.json": {"gs://cdc/stream/a.json"},
	} {
		if got, err := expand(context.Background(), fsys, pattern); err != nil || !slices.Equal(got, want) {
			t.Errorf("expand(%s) = %v, %v; want %v", pattern, got, err, want)
		}
	}

	p, s := beam.NewPipelineWithRoot()
	got, err := runCollecting(t, p, s, ReadDebezium(s, ReadConfig{Pattern: "gs://cdc/stream"}))
	if err != nil {
		t.Fatal(err)
	}
	// a.json has positions 0 and 1 (blank), b.json position 2
	want := []Change{{Op: "c", LSN: 0, ID: 1, Owner: "o", BalanceCents: 2, UpdatedAt: 3}, {Op: "d", LSN: 2, ID: 1}}
	if len(got) != len(want) || got[0].Change != want[0] || got[1].Change != want[1] {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

// With a dead-letter output, the lines that are not changes of the table
// go there, each with its file, line and reason, and the others are
// replayed as without one; a Kafka tombstone is neither.
func TestReadDebeziumWithRejects(t *testing.T) {
	lines := []string{
		`{"op":"c","after":{"id":1,"owner":"a"},"source":{"lsn":10}}`,
		`{"op":"t","source":{"lsn":11}}`,
		`null`, // a Kafka tombstone: skipped, not rejected
		`{"op":"u","after":{"id":1,"owner":"b"},"source":{"lsn":12}}`,
		`not json`,
		``,
		`{"op":"d","before":{"owner":"c"},"source":{"lsn":13}}`,
		`{"op":"d","before":{"id":1},"source":{"lsn":14}}`,
	}
	name := writeFile(t, filepath.Join(t.TempDir(), "log.json"), strings.Join(lines, "\n")+"\n")
	p, s := beam.NewPipelineWithRoot()
	changes, rejected := ReadDebeziumWithRejects(s, ReadConfig{Pattern: name})
	passert.Equals(s, rejected,
		RejectedLine{File: name, Line: 2, Text: lines[1], Reason: `op: unknown op "t", want "c", "r", "u" or "d"`},
		RejectedLine{File: name, Line: 5, Text: lines[4], Reason: `invalid JSON: invalid character 'o' in literal null (expecting 'u')`},
		RejectedLine{File: name, Line: 7, Text: lines[6], Reason: `before.id: missing or null`})
	got, err := runCollecting(t, p, s, changes)
	if err != nil {
		t.Fatal(err)
	}
	var ops []string
	for _, c := range got {
		ops = append(ops, fmt.Sprintf("%s %d %d %s", c.Op, c.LSN, c.ID, c.Owner))
	}
	if want := []string{"c 10 1 a", "u 12 1 b", "d 14 1 "}; !slices.Equal(ops, want) {
		t.Errorf("changes %q, want %q", ops, want)
	}
}
