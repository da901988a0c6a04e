package localcatalog

import (
	"context"
	"regexp"
	"strconv"

	"github.com/apache/iceberg-go"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
)

// maxProperties bounds a table's properties (keys and values): tables have
// a few kilobytes of them.
const maxProperties = 1 << 20

var widthTransform = regexp.MustCompile(`^(bucket|truncate)\[(.*)\]$`)

// checkMetadata refuses new table metadata that iceberg-go's builder lets
// through but no reader could use: negative field ids, a bucket or truncate
// transform of zero or fewer buckets or width, and a snapshot (new in this
// commit, after prev) whose manifest list is outside the allowed places or
// is not there.
func (h *Handler) checkMetadata(ctx context.Context, meta, prev table.Metadata) error {
	for _, sc := range meta.Schemas() {
		ids, err := iceberg.IndexByID(sc)
		if err != nil {
			return invalidArgument("Invalid schema %d: %v", sc.ID, err)
		}
		for id, f := range ids {
			if id < 0 {
				return invalidArgument("Invalid field id %d for field %q in schema %d: ids are positive", id, f.Name, sc.ID)
			}
		}
	}
	n := 0
	for k, v := range meta.Properties() {
		n += len(k) + len(v)
	}
	if n > maxProperties {
		return invalidArgument("Table properties would take %d KiB, more than this catalog's %d KiB", n>>10, maxProperties>>10)
	}
	for _, spec := range meta.PartitionSpecs() {
		for _, f := range spec.Fields() {
			// By the transform's text: iceberg-go keeps a bucket[-3] it
			// cannot parse as a transform of unknown kind.
			if m := widthTransform.FindStringSubmatch(f.Transform.String()); m != nil {
				if n, err := strconv.Atoi(m[2]); err != nil || n <= 0 {
					return invalidArgument("Invalid partition field %q: %s", f.Name, f.Transform)
				}
			}
		}
	}
	for _, snap := range meta.Snapshots() {
		if prev != nil && prev.SnapshotByID(snap.SnapshotID) != nil {
			continue
		}
		if _, err := h.allowed.check("manifest list", snap.ManifestList); err != nil {
			return err
		}
		fsys, err := icebergio.LoadFS(ctx, nil, snap.ManifestList)
		if err != nil {
			return invalidArgument("Invalid manifest list %s: %v", snap.ManifestList, err)
		}
		f, err := fsys.Open(snap.ManifestList)
		if err != nil {
			return invalidArgument("Cannot add snapshot %d: its manifest list %s cannot be read: %v",
				snap.SnapshotID, snap.ManifestList, err)
		}
		f.Close()
	}
	return nil
}
