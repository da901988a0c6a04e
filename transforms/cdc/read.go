package cdc

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/graph/mtime"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"   // gs:// patterns
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // local patterns
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/icebeam/icebeam/transforms/internal/blocks"
	"github.com/icebeam/icebeam/transforms/portable/hint"
)

// ReadConfig says which Debezium files ReadDebezium replays, and how fast.
type ReadConfig struct {
	// Pattern is a file, a directory (the files in it, not in its
	// subdirectories) or a glob, a local path or a gs:// one. It is
	// expanded once, when the pipeline runs.
	Pattern string
	// Rate is how many lines a second the replay emits: line n of the
	// replay (counting every file's lines in order, blank ones included)
	// is due n/Rate seconds after the replay starts. 0 emits them as fast
	// as they are read.
	Rate float64
}

// ReadDebezium replays newline-delimited Debezium JSON files as a stream:
// the unbounded PCollection<Change> of their events, files in the lexical
// order of their names and lines in order, which ends once every line is
// emitted. An event's position in that order (its line's index across the
// files, from 0) is the fileOrder ParseDebezium orders it by when it has no
// source.lsn. Blank lines are skipped, and so are Kafka tombstones (a line
// "null": the marker Debezium sends after a delete so that compaction can
// drop the key, which a dump of the topic writes as null; it changes
// nothing the delete did not), counted in the cdc_tombstones counter; a
// line that does not parse fails the bundle with an error naming the file
// and the line.
//
// With a Rate, each change is timestamped when it fell due; without, when
// it was read. The files are read as they are emitted, not loaded, and
// once more beforehand to count their lines: lines added later are not
// replayed, and a file that loses lines fails the replay. They are also
// counted when the pipeline is built, so that runners that must know when
// a stream ends (Flink with checkpointing) learn it: see replayEnd.
func ReadDebezium(s beam.Scope, cfg ReadConfig) beam.PCollection {
	s = s.Scope("cdc.ReadDebezium")
	changes, _ := readDebezium(s, cfg, false)
	return changes
}

// RejectedLine is a line ReadDebeziumWithRejects could not read as a
// change, and why. Its tags make it a row icebergio.Write can append to a
// table of its own.
type RejectedLine struct {
	File   string `beam:"file"`
	Line   int64  `beam:"line"` // from 1
	Text   string `beam:"text"`
	Reason string `beam:"reason"`
}

// ReadDebeziumWithRejects is ReadDebezium with a dead-letter output: a
// line that does not parse as a change of the accounts table (invalid
// JSON, an event of another kind such as Debezium's "t" truncate or "m"
// message, a row without its id) goes to rejected, a PCollection of
// RejectedLine, instead of failing the replay.
func ReadDebeziumWithRejects(s beam.Scope, cfg ReadConfig) (changes, rejected beam.PCollection) {
	return readDebezium(s.Scope("cdc.ReadDebeziumWithRejects"), cfg, true)
}

func readDebezium(s beam.Scope, cfg ReadConfig, rejects bool) (changes, rejected beam.PCollection) {
	s, replays := replays(s, cfg)
	return beam.ParDo2(s, &readFn{BundleNanos: int64(blocks.BundleLength()), Rejects: rejects}, replays)
}

// replays is the one replay of cfg's files, and the scope to read it in.
func replays(s beam.Scope, cfg ReadConfig) (beam.Scope, beam.PCollection) {
	if cfg.Pattern == "" {
		panic("cdc: ReadDebezium: empty Pattern")
	}
	if !(cfg.Rate >= 0) || math.IsInf(cfg.Rate, 0) {
		panic(fmt.Sprintf("cdc: ReadDebezium: Rate %v, want a finite number >= 0", cfg.Rate))
	}
	filesystem.ValidateScheme(cfg.Pattern)
	if end, ok := replayEnd(cfg, time.Now()); ok {
		s = hint.StreamEndsAt(s, end)
	}
	return s, beam.ParDo(s, &listFn{Pattern: cfg.Pattern, Rate: cfg.Rate}, beam.Impulse(s))
}

// Where the replay's end must be known before the job starts (Flink with
// checkpointing keeps sources alive until it has passed: see
// hint.StreamEndsAt), the files are counted when the pipeline is built:
// the last line falls due lines/Rate after the replay starts, which is
// after the job has started, so endMargin is added for the start-up. With
// Rate 0 the replay is assumed to read at least minReplayRate lines a
// second.
const (
	endMargin     = 20 * time.Second
	minReplayRate = 50000
)

// replayEnd is when a replay of cfg built at now has emitted every line, if
// the files can be counted now.
func replayEnd(cfg ReadConfig, now time.Time) (time.Time, bool) {
	ctx := context.Background()
	fsys, err := filesystem.New(ctx, cfg.Pattern)
	if err != nil {
		return time.Time{}, false
	}
	defer fsys.Close()
	files, err := expand(ctx, fsys, cfg.Pattern)
	if err != nil {
		return time.Time{}, false
	}
	var lines int64
	for _, name := range files {
		n, err := countLines(ctx, fsys, name)
		if err != nil {
			return time.Time{}, false
		}
		lines += n
	}
	rate := cfg.Rate
	if rate == 0 {
		rate = minReplayRate
	}
	return now.Add(endMargin + time.Duration(float64(lines)/rate*float64(time.Second))), true
}

// replay is the reader's one input element: the files and their line
// counts as listed when the job started, fixed so that a position means
// the same line in every bundle however the files change meanwhile.
type replay struct {
	Files []string
	Lines []int64 // Lines[i] is how many lines Files[i] had
	// StartNanos is when line 0 falls due: when the files were listed,
	// not when the pipeline was built, so that the time a runner takes to
	// start the job is not made up in a burst.
	StartNanos int64
	Rate       float64
}

// DueAt is when line n falls due (with Rate 0, every line at the start).
func (r replay) DueAt(n int64) time.Time {
	if r.Rate == 0 {
		return time.Unix(0, r.StartNanos)
	}
	return time.Unix(0, r.StartNanos+int64(math.Min(float64(n)*1e9/r.Rate, 1<<62)))
}

// DueBy is how many lines are due at t: lines 0..DueBy(t)-1.
func (r replay) DueBy(t time.Time) int64 {
	if r.Rate == 0 {
		return math.MaxInt64
	}
	d := t.UnixNano() - r.StartNanos
	if d < 0 {
		return 0
	}
	return int64(math.Min(float64(d)*r.Rate/1e9, 1<<62)) + 1
}

// listFn expands the pattern and counts the lines of its files, at run
// time so that a pipeline built on one machine reads the files as its
// workers see them.
type listFn struct {
	Pattern string
	Rate    float64
}

func (f *listFn) ProcessElement(ctx context.Context, _ []byte, emit func(replay)) error {
	fsys, err := filesystem.New(ctx, f.Pattern)
	if err != nil {
		return fmt.Errorf("cdc: reading %s: %w", f.Pattern, err)
	}
	defer fsys.Close()
	files, err := expand(ctx, fsys, f.Pattern)
	if err != nil {
		return err
	}
	lines := make([]int64, len(files))
	for i, name := range files {
		if lines[i], err = countLines(ctx, fsys, name); err != nil {
			return err
		}
	}
	emit(replay{Files: files, Lines: lines, StartNanos: time.Now().UnixNano(), Rate: f.Rate})
	return nil
}

// expand is the files pattern names, sorted: a directory's files if it is
// a directory, else the files it matches as a glob (a plain name matches
// itself).
func expand(ctx context.Context, fsys filesystem.Interface, pattern string) ([]string, error) {
	var names []string
	var err error
	if strings.ContainsAny(pattern, "*?[") {
		names, err = fsys.List(ctx, pattern)
	} else {
		// A GCS "directory" is only a prefix, so a directory is told
		// from a file by having something in it.
		names, err = fsys.List(ctx, strings.TrimSuffix(pattern, "/")+"/*")
		if err == nil && len(names) == 0 {
			names, err = fsys.List(ctx, pattern)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("cdc: listing %s: %w", pattern, err)
	}
	var files []string
	for _, name := range names {
		if strings.HasSuffix(name, "/") {
			continue // a GCS folder placeholder
		}
		if !strings.Contains(name, "://") {
			fi, err := os.Stat(name)
			if err != nil {
				return nil, fmt.Errorf("cdc: listing %s: %w", pattern, err)
			}
			if fi.IsDir() {
				continue
			}
		}
		files = append(files, name)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("cdc: %s names no files", pattern)
	}
	slices.Sort(files)
	return slices.Compact(files), nil
}

// countLines counts name's lines as readLine reads them: a last line
// without a newline counts.
func countLines(ctx context.Context, fsys filesystem.Interface, name string) (int64, error) {
	rc, err := fsys.OpenRead(ctx, name)
	if err != nil {
		return 0, fmt.Errorf("cdc: counting the lines of %s: %w", name, err)
	}
	defer rc.Close()
	buf := make([]byte, 256<<10)
	var n int64
	last := byte('\n')
	for {
		k, err := rc.Read(buf)
		if k > 0 {
			n += int64(bytes.Count(buf[:k], []byte{'\n'}))
			last = buf[k-1]
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return 0, fmt.Errorf("cdc: counting the lines of %s: %w", name, err)
		}
	}
	if last != '\n' {
		n++
	}
	return n, nil
}

// readLine reads one line of any length into buf[:0], with its newline;
// io.EOF only when there is none left.
func readLine(br *bufio.Reader, buf []byte) ([]byte, error) {
	buf = buf[:0]
	for {
		frag, err := br.ReadSlice('\n')
		buf = append(buf, frag...)
		switch {
		case err == nil:
			return buf, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(buf) > 0:
			return buf, nil
		default:
			return buf, err
		}
	}
}

var tombstones = beam.NewCounter("cdc", "cdc_tombstones")

// readFn emits a replay's lines as changes as they fall due. It is
// splittable so that it can end bundles (prism passes output on only when
// a bundle ends, Flink checkpoints between them) and sleep between lines
// at a low Rate.
type readFn struct {
	blocks.Restrictions[replay]
	BundleNanos int64
	Rejects     bool // a line that does not parse goes to the second output; else it fails the bundle

	// cur is kept between bundles: a resumed restriction usually starts
	// where the last bundle stopped, and would otherwise read its file
	// again from the start.
	cur *cursor
}

func (f *readFn) ProcessElement(ctx context.Context, we *sdf.ManualWatermarkEstimator, rt *blocks.Tracker, r replay, emit func(beam.EventTime, Change), reject func(beam.EventTime, RejectedLine)) (sdf.ProcessContinuation, error) {
	if f.cur == nil || !f.cur.reads(r) {
		f.closeCursor()
		f.cur = newCursor(r)
	}
	cont, err := blocks.Pace(ctx, we, rt, r, time.Duration(f.BundleNanos), nil, func(from, to int64, now time.Time) error {
		return f.emitLines(ctx, r, from, to, now, emit, reject)
	})
	if err != nil || !cont.ShouldResume() {
		f.closeCursor()
	}
	return cont, err
}

// Positions is how many lines the replay holds.
func (r replay) Positions() int64 {
	var n int64
	for _, l := range r.Lines {
		n += l
	}
	return n
}

// Watermark is when the next line falls due; at Rate 0, now: the next
// block is stamped with the time it is read, so the watermark never
// passes a change still to come.
func (r replay) Watermark(next int64, now time.Time) time.Time {
	if r.Rate > 0 {
		return r.DueAt(next)
	}
	return now
}

// emitLines emits the changes of lines [from, to), read at now.
func (f *readFn) emitLines(ctx context.Context, r replay, from, to int64, now time.Time, emit func(beam.EventTime, Change), reject func(beam.EventTime, RejectedLine)) error {
	if err := f.cur.seek(ctx, from); err != nil {
		return err
	}
	for n := from; n < to; n++ {
		line, err := f.cur.next(ctx)
		if err != nil {
			return err
		}
		switch trimmed := bytes.TrimSpace(line); {
		case len(trimmed) == 0:
			continue
		case string(trimmed) == "null":
			tombstones.Inc(ctx, 1)
			continue
		}
		at := now
		if r.Rate > 0 {
			at = r.DueAt(n)
		}
		c, err := parseDebezium(line, n)
		if err != nil {
			name, num := f.cur.where()
			if !f.Rejects {
				return fmt.Errorf("cdc: reading Debezium events: %s line %d: %v", name, num, err)
			}
			reject(mtime.FromTime(at), RejectedLine{File: name, Line: num, Text: string(bytes.TrimRight(line, "\r\n")), Reason: err.Error()})
			continue
		}
		emit(mtime.FromTime(at), c)
	}
	return nil
}

// Teardown closes the file the reader keeps open between bundles.
func (f *readFn) Teardown() { f.closeCursor() }

func (f *readFn) closeCursor() {
	if f.cur != nil {
		f.cur.close()
		f.cur = nil
	}
}

// cursor reads a replay's lines by position across its files.
type cursor struct {
	r      replay
	starts []int64 // starts[i] is the position of Files[i]'s first line
	fs     filesystem.Interface
	file   int   // index of the open file, -1 if none is
	line   int64 // how many of its lines have been read
	rc     io.ReadCloser
	br     *bufio.Reader
	buf    []byte
}

func newCursor(r replay) *cursor {
	c := &cursor{r: r, starts: make([]int64, len(r.Files)), file: -1}
	var pos int64
	for i, n := range r.Lines {
		c.starts[i] = pos
		pos += n
	}
	return c
}

// reads reports whether c reads r's files.
func (c *cursor) reads(r replay) bool {
	return c.r.StartNanos == r.StartNanos && slices.Equal(c.r.Files, r.Files) && slices.Equal(c.r.Lines, r.Lines)
}

// where is the file and the (1-based) number of the line read last.
func (c *cursor) where() (string, int64) {
	if c.file < 0 {
		return "", 0
	}
	return c.r.Files[c.file], c.line
}

// seek makes the line at pos the next one read.
func (c *cursor) seek(ctx context.Context, pos int64) error {
	if c.file < 0 || pos < c.starts[c.file]+c.line || pos >= c.starts[c.file]+c.r.Lines[c.file] {
		i := sort.Search(len(c.starts), func(i int) bool { return c.starts[i]+c.r.Lines[i] > pos })
		if pos < 0 || i == len(c.starts) {
			return fmt.Errorf("cdc: line %d is past the replay's last line", pos)
		}
		if err := c.open(ctx, i); err != nil {
			return err
		}
	}
	for c.starts[c.file]+c.line < pos {
		if _, err := c.read(); err != nil {
			return err
		}
	}
	return nil
}

// next reads the next line, moving on to the next file at a file's end.
func (c *cursor) next(ctx context.Context) ([]byte, error) {
	for c.file < 0 || c.line == c.r.Lines[c.file] {
		if c.file+1 == len(c.r.Files) {
			return nil, fmt.Errorf("cdc: read past the replay's last line")
		}
		if err := c.open(ctx, c.file+1); err != nil {
			return nil, err
		}
	}
	line, err := c.read()
	if err != nil && !errors.Is(err, errChanged) {
		// A file kept open between bundles may have been dropped by the
		// server while the replay slept: open it again, once.
		pos := c.starts[c.file] + c.line
		c.closeFile()
		if err := c.seek(ctx, pos); err != nil {
			return nil, err
		}
		line, err = c.read()
	}
	return line, err
}

var errChanged = errors.New("it changed during the replay")

// read reads a line of the open file.
func (c *cursor) read() ([]byte, error) {
	name := c.r.Files[c.file]
	line, err := readLine(c.br, c.buf)
	c.buf = line
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("cdc: %s ends after line %d but had %d lines when the replay started: %w", name, c.line, c.r.Lines[c.file], errChanged)
	}
	if err != nil {
		return nil, fmt.Errorf("cdc: reading %s after line %d: %w", name, c.line, err)
	}
	c.line++
	return line, nil
}

// open opens Files[i] at its first line.
func (c *cursor) open(ctx context.Context, i int) error {
	c.closeFile()
	// The filesystem and the reader outlive this bundle, whose context
	// may be cancelled when it ends.
	ctx = context.WithoutCancel(ctx)
	name := c.r.Files[i]
	if c.fs == nil {
		fsys, err := filesystem.New(ctx, name)
		if err != nil {
			return fmt.Errorf("cdc: reading %s: %w", name, err)
		}
		c.fs = fsys
	}
	rc, err := c.fs.OpenRead(ctx, name)
	if err != nil {
		return fmt.Errorf("cdc: opening %s: %w", name, err)
	}
	if c.br == nil {
		c.br = bufio.NewReaderSize(rc, 256<<10)
	} else {
		c.br.Reset(rc)
	}
	c.rc, c.file, c.line = rc, i, 0
	return nil
}

func (c *cursor) closeFile() {
	if c.rc != nil {
		c.rc.Close()
		c.rc = nil
	}
	c.file = -1
}

func (c *cursor) close() {
	c.closeFile()
	if c.fs != nil {
		c.fs.Close()
		c.fs = nil
	}
}

func init() {
	register.DoFn3x1[context.Context, []byte, func(replay), error](&listFn{})
	register.Emitter1[replay]()
	register.DoFn6x2[context.Context, *sdf.ManualWatermarkEstimator, *blocks.Tracker, replay,
		func(beam.EventTime, Change), func(beam.EventTime, RejectedLine), sdf.ProcessContinuation, error](&readFn{})
	register.Emitter2[beam.EventTime, RejectedLine]()
	beam.RegisterType(reflect.TypeOf((*RejectedLine)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*replay)(nil)).Elem())
}
