package icebergio

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// SourceRange is the span of positions of one partition of a log (a Kafka
// topic-partition's offsets) that a batch of records holds: First to Last,
// both included. Positions between them that the batch lacks (a Kafka
// transaction's markers, records another table got) count as covered.
type SourceRange struct {
	First, Last int64
}

// EncodeRecordsFrom is EncodeRecords for a batch read from a partitioned
// log: from names, by partition (for Kafka, "topic/partition"), the
// positions the batch holds. Each commit then records in the table, in the
// same transaction, the position after the last one it covers of every
// partition, under Config.WriterID (SourceOffsets reads them), and its
// snapshot summary lists the pane's ranges (SourceRangesKey).
//
// A job started again resumes from SourceOffsets with no runner state, and
// no record lands twice or is skipped, provided each partition reaches the
// sink in order (as a splittable read per partition gives it, fused with
// the step that makes the batches).
func EncodeRecordsFrom(rec arrow.RecordBatch, from map[string]SourceRange) ([]byte, error) {
	for k, r := range from {
		if k == "" || strings.ContainsAny(k, ",:") || r.First < 0 || r.First > r.Last {
			return nil, fmt.Errorf("icebergio: source range %q %d-%d: want a partition name without ',' or ':', and 0 <= First <= Last", k, r.First, r.Last)
		}
	}
	md := rec.Schema().Metadata()
	keys, vals := slices.Clone(md.Keys()), slices.Clone(md.Values())
	keys = append(keys, sourceRangesMeta)
	vals = append(vals, sourceRanges(from).String())
	meta := arrow.NewMetadata(keys, vals)
	sc := arrow.NewSchema(rec.Schema().Fields(), &meta)
	tagged := array.NewRecordBatch(sc, rec.Columns(), rec.NumRows())
	defer tagged.Release()
	return EncodeRecords(tagged)
}

// SourceOffsets returns what writer has committed to tbl of each
// partition it read, as the next position to read: the position after the
// last one its commits covered. It is empty for a table writer has
// committed no ranges to.
func SourceOffsets(tbl *table.Table, writer string) (map[string]int64, error) {
	v, ok := tbl.Properties()[SourceOffsetsKeyPrefix+writer]
	if !ok {
		return map[string]int64{}, nil
	}
	var m map[string]int64
	if err := json.Unmarshal([]byte(v), &m); err != nil {
		return nil, fmt.Errorf("icebergio: table %s: property %s%s: %w", tbl.Identifier(), SourceOffsetsKeyPrefix, writer, err)
	}
	return m, nil
}

const (
	// SourceOffsetsKeyPrefix + the writer id is the table property that
	// holds SourceOffsets, as JSON; a property, so that it outlives
	// snapshot expiry.
	SourceOffsetsKeyPrefix = "icebeam.offsets."
	// SourceRangesKey is the snapshot summary entry that lists the ranges
	// of positions a commit covers: "partition:first-last" by partition,
	// comma-separated.
	SourceRangesKey = "icebeam.source-ranges"

	// sourceRangesMeta is the Arrow schema metadata key that carries a
	// batch's ranges to the encode step.
	sourceRangesMeta = "icebeam.source-ranges"
	// rangesMagic starts the element the encode step sends beside a
	// bundle's chunks of a table, holding the ranges their rows came from.
	rangesMagic = "IBR1"
)

// sourceRanges is ranges by partition.
type sourceRanges map[string]SourceRange

// add widens r to cover o.
func (r sourceRanges) add(o map[string]SourceRange) {
	for k, v := range o {
		if have, ok := r[k]; ok {
			v = SourceRange{First: min(have.First, v.First), Last: max(have.Last, v.Last)}
		}
		r[k] = v
	}
}

// String is the SourceRangesKey form.
func (r sourceRanges) String() string {
	var b strings.Builder
	for i, k := range slices.Sorted(maps.Keys(r)) {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%s:%d-%d", k, r[k].First, r[k].Last)
	}
	return b.String()
}

func parseSourceRanges(s string) (sourceRanges, error) {
	r := sourceRanges{}
	if s == "" {
		return r, nil
	}
	for _, e := range strings.Split(s, ",") {
		i := strings.LastIndexByte(e, ':')
		first, last, ok := strings.Cut(e[i+1:], "-")
		if i <= 0 || !ok {
			return nil, fmt.Errorf("source range %q: want partition:first-last", e)
		}
		f, err1 := strconv.ParseInt(first, 10, 64)
		l, err2 := strconv.ParseInt(last, 10, 64)
		if err1 != nil || err2 != nil || f > l {
			return nil, fmt.Errorf("source range %q: want partition:first-last", e)
		}
		r.add(map[string]SourceRange{e[:i]: {First: f, Last: l}})
	}
	return r, nil
}

// takeSourceRanges returns the ranges rec's schema metadata carries, and
// rec without them (rec itself when it carries none).
func takeSourceRanges(rec arrow.RecordBatch) (sourceRanges, arrow.RecordBatch, error) {
	md := rec.Schema().Metadata()
	i := md.FindKey(sourceRangesMeta)
	if i < 0 {
		return nil, rec, nil
	}
	r, err := parseSourceRanges(md.Values()[i])
	if err != nil {
		return nil, nil, err
	}
	keys := slices.Delete(slices.Clone(md.Keys()), i, i+1)
	vals := slices.Delete(slices.Clone(md.Values()), i, i+1)
	meta := arrow.NewMetadata(keys, vals)
	sc := arrow.NewSchema(rec.Schema().Fields(), &meta)
	out := array.NewRecordBatch(sc, rec.Columns(), rec.NumRows())
	rec.Release()
	return r, out, nil
}

func appendRangesElement(r sourceRanges) []byte {
	return append([]byte(rangesMagic), r.String()...)
}

// isRangesElement reports whether a shuffled element is ranges, not a
// chunk.
func isRangesElement(b []byte) bool { return bytes.HasPrefix(b, []byte(rangesMagic)) }

func decodeRangesElement(b []byte) (sourceRanges, error) {
	r, err := parseSourceRanges(string(b[len(rangesMagic):]))
	if err != nil {
		return nil, fmt.Errorf("decoding a pane's source ranges: %w", err)
	}
	return r, nil
}

// stageOffsets adds to writer's SourceOffsets on tx, a transaction on tbl,
// the ranges a commit's snapshot summary lists.
func stageOffsets(tx *table.Transaction, tbl *table.Table, writer string, summary iceberg.Properties) error {
	v, ok := summary[SourceRangesKey]
	if !ok {
		return nil
	}
	ranges, err := parseSourceRanges(v)
	if err != nil {
		return err
	}
	next, err := SourceOffsets(tbl, writer)
	if err != nil {
		return err
	}
	for k, r := range ranges {
		next[k] = max(next[k], r.Last+1)
	}
	b, err := json.Marshal(next)
	if err != nil {
		return err
	}
	return tx.SetProperties(iceberg.Properties{SourceOffsetsKeyPrefix + writer: string(b)})
}

// rangesLanded reports whether the source ranges summary lists are all
// below writer's SourceOffsets of tbl: their records have landed, under
// another commit id, and the current snapshot stands for them.
func rangesLanded(tbl *table.Table, writer string, summary iceberg.Properties) (snapshotID int64, ok bool) {
	v, ok := summary[SourceRangesKey]
	if !ok {
		return 0, false
	}
	ranges, err := parseSourceRanges(v)
	if err != nil || len(ranges) == 0 {
		return 0, false
	}
	next, err := SourceOffsets(tbl, writer)
	if err != nil {
		return 0, false
	}
	for k, r := range ranges {
		if r.Last >= next[k] {
			return 0, false
		}
	}
	if snap := tbl.CurrentSnapshot(); snap != nil {
		return snap.SnapshotID, true
	}
	return 0, true
}

// rangesID stands for the chunk ids of a pane of source ranges alone.
func rangesID(ranges string) chunkID {
	h := sha256.Sum256([]byte(rangesMagic + ranges))
	return chunkID(h[:16])
}
