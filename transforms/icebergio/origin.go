package icebergio

import (
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Origin is where a record batch of ReadRecords was read: its data file,
// the byte offset where its split of that file starts (a row group; or the
// file's planned range, read whole, when delete files apply to it), and its
// position among the split's batches. A consumer whose result depends on
// the order it folds rows in (floating-point sums) orders by it, so that
// the result does not depend on how the runner bundled the work: the
// batches of one split arrive in order, in one bundle.
type Origin struct {
	File   string
	Offset int64
	Batch  int64
}

// The schema metadata keys that carry a batch's Origin.
const (
	originFileKey   = "icebergio.origin.file"
	originOffsetKey = "icebergio.origin.offset"
	originBatchKey  = "icebergio.origin.batch"
)

// OriginOf is the origin of a batch decoded from ReadRecords (DecodeRecords);
// false when rec does not say.
func OriginOf(rec arrow.RecordBatch) (Origin, bool) {
	md := rec.Schema().Metadata()
	file, ok := md.GetValue(originFileKey)
	if !ok {
		return Origin{}, false
	}
	off, err1 := strconv.ParseInt(mdValue(md, originOffsetKey), 10, 64)
	batch, err2 := strconv.ParseInt(mdValue(md, originBatchKey), 10, 64)
	if err1 != nil || err2 != nil {
		return Origin{}, false
	}
	return Origin{File: file, Offset: off, Batch: batch}, true
}

func mdValue(md arrow.Metadata, key string) string {
	v, _ := md.GetValue(key)
	return v
}

// withOrigin is rec (retained anew) with o in its schema's metadata; the
// columns are shared, not copied.
func withOrigin(rec arrow.RecordBatch, o Origin) arrow.RecordBatch {
	sc := rec.Schema()
	keys := append(sc.Metadata().Keys(), originFileKey, originOffsetKey, originBatchKey)
	vals := append(sc.Metadata().Values(), o.File, strconv.FormatInt(o.Offset, 10), strconv.FormatInt(o.Batch, 10))
	md := arrow.NewMetadata(keys, vals)
	return array.NewRecordBatch(arrow.NewSchema(sc.Fields(), &md), rec.Columns(), rec.NumRows())
}
