package icebergio

import (
	"context"
	"iter"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icebeam/icebeam/transforms/icebergio/internal/stitch"
)

// stitched is c as the stitcher takes it.
func (c *chunk) stitched() *stitch.Chunk {
	return &stitch.Chunk{PartitionPath: c.PartitionPath, Partition: c.partitionValues(), Parquet: c.parquet, File: c.file, Meta: c.meta}
}

// chunkCodec re-encodes a pane's small chunks for the stitcher as the
// encode step encodes them, so that they share row groups.
type chunkCodec struct{ enc *chunkEncoder }

func (cc chunkCodec) Decode(ctx context.Context, c *stitch.Chunk) iter.Seq2[arrow.RecordBatch, error] {
	one := &chunk{chunkHeader: chunkHeader{PartitionPath: c.PartitionPath}, parquet: c.Parquet, file: c.File, meta: c.Meta}
	return cc.enc.decode(ctx, func(yield func(*chunk, error) bool) { yield(one, nil) })
}

func (cc chunkCodec) Encode(ctx context.Context, recs []arrow.RecordBatch) ([]*stitch.Chunk, error) {
	blobs, err := cc.enc.encodeParquet(ctx, recs, time.Time{}, nil)
	if err != nil {
		return nil, err
	}
	out := make([]*stitch.Chunk, len(blobs))
	for i, b := range blobs {
		c, err := decodeChunk(b)
		if err != nil {
			return nil, err
		}
		out[i] = c.stitched()
	}
	return out, nil
}
