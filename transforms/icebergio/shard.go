package icebergio

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/apache/iceberg-go"
	"google.golang.org/grpc/metadata"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/transforms/internal/filecodec"
)

// A sharded write (Config.Shards > 1) splits each table's pane over several
// writers: the encode step sends its chunks to the Shards keys of their
// table in turn, each writer stitches its key's chunks into data files and sends
// only their description (a part) to the table's single committer, which
// commits the parts of a pane as one snapshot. The pane's commit id is the
// hash of the chunk ids of all its parts, as for an unsharded write.
//
// Shards fire on the same clock boundaries (the trigger is aligned to the
// triggering frequency), so a pane's parts reach the committer together; it
// commits them gatherFor after the boundary. A trigger that also fired on
// the count of parts would save that wait on Beam's Java runners, but prism
// re-arms a processing-time trigger from the previous firing, not from the
// next pane's first element, so it would fire at a pane's first part and
// split the pane.

// shardKey is the shuffle key of shard n of table dest: text, since Java
// runners decode string keys as UTF-8 (table names are valid UTF-8).
func shardKey(dest string, n int) string { return strconv.Itoa(n) + "|" + dest }

// shardTable is the table of a shardKey.
func shardTable(key string) string {
	_, dest, _ := strings.Cut(key, "|")
	return dest
}

// gatherFor is how long after a pane's boundary its committer fires: long
// enough for shards that fired at the boundary to write their parts, short
// against the pane.
func gatherFor(freq time.Duration) time.Duration { return min(freq/4, 2*time.Second) }

// fileTag starts the names of the data files s writes in ctx: the SDK
// harness's worker id, where the runner gives one, and s's own id, so a
// table's files tell which worker and which DoFn instance wrote them. On
// Flink each slot (subtask) runs its own instances: two instances in one
// pane's files are two slots.
func (s *sink) fileTag(ctx context.Context) string {
	md, _ := metadata.FromOutgoingContext(ctx)
	ids := md.Get("worker_id")
	if len(ids) != 1 || ids[0] == "" {
		return s.id + "-"
	}
	tag := []byte(ids[0])
	for i, c := range tag {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			tag[i] = '_'
		}
	}
	return "w" + string(tag) + "-" + s.id + "-"
}

// part is a written shard's part of a pane on its way to the committer:
// its data files as filecodec describes them, with the schema and
// partition spec they were written with.
type part struct {
	Created       bool
	Schema        *iceberg.Schema
	Spec          iceberg.PartitionSpec
	FormatVersion int
	ChunkIDs      []chunkID
	FirstSentMS   int64
	LastSentMS    int64
	WriteMS       int64
	Files         []filecodec.File
	// Ranges are the source ranges of the rows (EncodeRecordsFrom), in
	// SourceRangesKey's form. A part of ranges alone has no Schema.
	Ranges string `json:",omitempty"`
}

func encodePart(w *written, sent sentTimes) ([]byte, error) {
	if len(w.files) == 0 {
		return filecodec.Marshal(part{Ranges: sent.ranges.String()})
	}
	p := part{Created: w.created, Schema: w.schema, Spec: w.tbl.Spec(), FormatVersion: w.tbl.Metadata().Version(),
		ChunkIDs: w.ids, WriteMS: w.writeMS, FirstSentMS: sent.first.UnixMilli(), LastSentMS: sent.last.UnixMilli(),
		Ranges: sent.ranges.String()}
	for _, f := range w.files {
		d, err := filecodec.EncodeFile(f, p.Spec, p.Schema, p.FormatVersion)
		if err != nil {
			return nil, err
		}
		p.Files = append(p.Files, d)
	}
	return filecodec.Marshal(p)
}

// addPart adds an encoded part to w, the pane being gathered, and its send
// times to sent.
func addPart(w *written, sent *sentTimes, b []byte) error {
	var p part
	if err := filecodec.Unmarshal(b, &p); err != nil {
		return fmt.Errorf("decoding a shard's data files: %w", err)
	}
	if p.Ranges != "" {
		r, err := parseSourceRanges(p.Ranges)
		if err != nil {
			return fmt.Errorf("decoding a shard's source ranges: %w", err)
		}
		sent.addRanges(r)
	}
	if p.Schema == nil {
		return nil // ranges alone
	}
	if w.schema == nil {
		w.schema = p.Schema
	} else if !w.schema.Equals(p.Schema) {
		return fmt.Errorf("shards wrote with different table schemas (%s and %s): the table changed while the pane was written", w.schema, p.Schema)
	}
	for _, d := range p.Files {
		f, err := filecodec.DecodeFile(d, p.Spec, p.Schema, p.FormatVersion)
		if err != nil {
			return fmt.Errorf("decoding a shard's data files: %w", err)
		}
		w.files = append(w.files, f)
	}
	w.created = w.created || p.Created
	w.ids = append(w.ids, p.ChunkIDs...)
	w.writeMS = max(w.writeMS, p.WriteMS)
	sent.add(time.UnixMilli(p.FirstSentMS))
	sent.add(time.UnixMilli(p.LastSentMS))
	return nil
}

// writeShardFn writes one shard's part of a pane of one table as data
// files and sends their description on to the table's committer.
type writeShardFn struct {
	Cfg  Config
	Rows sinkRows

	sink *sink
}

func (f *writeShardFn) Setup(ctx context.Context) (err error) {
	f.sink, err = openSink(ctx, f.Cfg, f.Rows)
	return err
}

func (f *writeShardFn) ProcessElement(ctx context.Context, key string, chunks func(*[]byte) bool, emit func(string, []byte)) error {
	dest := shardTable(key)
	var sent sentTimes
	w, err := f.sink.write(ctx, time.Now().Add(f.sink.retryFor()), dest, decodeChunks(chunks, &sent))
	if err != nil {
		return err
	}
	if len(w.files) == 0 && len(sent.ranges) == 0 {
		return nil
	}
	b, err := encodePart(w, sent)
	if err != nil {
		f.sink.removeFiles(ctx, w.tbl, w.files)
		return fmt.Errorf("icebergio: table %s: %w", dest, err)
	}
	emit(dest, b)
	return nil
}

// commitParts commits the parts of a sharded pane as one snapshot and
// records their send times in sent.
func (s *sink) commitParts(ctx context.Context, dest string, parts func(*[]byte) bool, sent *sentTimes, summary func() iceberg.Properties) (CommitResult, error) {
	var w written
	var b []byte
	for parts(&b) {
		if err := addPart(&w, sent, b); err != nil {
			return CommitResult{Table: dest}, fmt.Errorf("icebergio: table %s: %w", dest, err)
		}
	}
	return s.commitWritten(ctx, time.Now().Add(s.retryFor()), dest, &w, summary)
}

// openSink opens the catalog cfg names for a sink of rows of type t.
func openSink(ctx context.Context, cfg Config, sr sinkRows) (*sink, error) {
	rows, err := sr.schema()
	if err != nil {
		return nil, err
	}
	cat, err := catalog.Open(ctx, cfg.Catalog)
	if err != nil {
		return nil, err
	}
	return newSink(cat, cfg, rows)
}
