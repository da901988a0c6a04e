package localcatalog

import (
	"encoding/json"
	"fmt"

	"github.com/apache/iceberg-go/table"
)

// checkRequirement checks one commit requirement against a table's current
// metadata (nil if the table does not exist), failing as the reference's
// UpdateRequirement does, in its words: clients show these to people and
// some match on them.
func checkRequirement(r table.Requirement, meta table.Metadata) error {
	// iceberg-go's requirement types are unexported; their JSON form is the
	// spec's and names every field.
	raw, err := json.Marshal(r)
	if err != nil {
		return err
	}
	var f struct {
		Type        string `json:"type"`
		UUID        string `json:"uuid"`
		Ref         string `json:"ref"`
		SnapshotID  *int64 `json:"snapshot-id"`
		LastFieldID *int   `json:"last-assigned-field-id"`
		SchemaID    *int   `json:"current-schema-id"`
		LastPartID  *int   `json:"last-assigned-partition-id"`
		SpecID      *int   `json:"default-spec-id"`
		SortOrderID *int   `json:"default-sort-order-id"`
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		return err
	}
	if f.Type == "assert-create" {
		if meta != nil {
			return commitFailed("Requirement failed: table already exists")
		}
		return nil
	}
	if meta == nil {
		return commitFailed("Requirement failed: %s on a table that does not exist", f.Type)
	}
	changed := func(what string, want *int, have int) error {
		if want != nil && *want != have {
			return commitFailed("Requirement failed: %s changed: expected id %d != %d", what, *want, have)
		}
		return nil
	}
	switch f.Type {
	case "assert-table-uuid":
		if have := meta.TableUUID().String(); f.UUID != have {
			return commitFailed("Requirement failed: UUID does not match: expected %s != %s", have, f.UUID)
		}
	case "assert-ref-snapshot-id":
		var ref *table.SnapshotRef
		for name, r := range meta.Refs() {
			if name == f.Ref {
				ref = &r
			}
		}
		switch {
		case ref != nil && f.SnapshotID == nil:
			return commitFailed("Requirement failed: %s %s was created concurrently", ref.SnapshotRefType, f.Ref)
		case ref != nil && *f.SnapshotID != ref.SnapshotID:
			return commitFailed("Requirement failed: %s %s has changed: expected id %d != %d",
				ref.SnapshotRefType, f.Ref, *f.SnapshotID, ref.SnapshotID)
		case ref == nil && f.SnapshotID != nil:
			return commitFailed("Requirement failed: branch or tag %s is missing, expected %d", f.Ref, *f.SnapshotID)
		}
	case "assert-last-assigned-field-id":
		return changed("last assigned field id", f.LastFieldID, meta.LastColumnID())
	case "assert-current-schema-id":
		return changed("current schema", f.SchemaID, meta.CurrentSchema().ID)
	case "assert-last-assigned-partition-id":
		last := -1
		if p := meta.LastPartitionSpecID(); p != nil {
			last = *p
		}
		return changed("last assigned partition id", f.LastPartID, last)
	case "assert-default-spec-id":
		return changed("default partition spec", f.SpecID, meta.DefaultPartitionSpec())
	case "assert-default-sort-order-id":
		return changed("default sort order", f.SortOrderID, meta.DefaultSortOrder())
	default:
		return badRequest("unknown requirement type %q", f.Type)
	}
	return nil
}

// createdFromNothing is the metadata of a table a transaction creates: as
// in the reference, it starts from nothing (no schema, spec or sort order
// but those the updates add, so theirs get id 0) in the format version the
// updates ask for, 2 if they do not say.
func createdFromNothing(updates []table.Update) (table.Metadata, error) {
	version := 2
	for _, u := range updates {
		if u.Action() != "upgrade-format-version" {
			continue
		}
		raw, err := json.Marshal(u)
		if err != nil {
			return nil, err
		}
		var v struct {
			FormatVersion int `json:"format-version"`
		}
		if err := json.Unmarshal(raw, &v); err != nil {
			return nil, err
		}
		version = v.FormatVersion
		break
	}
	b, err := table.NewMetadataBuilder(version)
	if err != nil {
		return nil, err
	}
	for _, u := range updates {
		if err := u.Apply(b); err != nil {
			return nil, fmt.Errorf("%s: %w", u.Action(), err)
		}
	}
	return b.Build()
}
