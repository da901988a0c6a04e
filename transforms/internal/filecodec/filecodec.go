// Package filecodec owns how Iceberg data and delete files, and the file
// scan tasks made of them, cross a Beam shuffle between workers: read
// tasks on their way to readers, rewrite groups and their results, the
// parts a sharded sink's writers send its committer. Each file travels as
// its manifest entry (iceberg-go's codec: path, partition values,
// statistics) with the id of the partition spec it was written under, and
// is decoded against the table's metadata (or the spec and schema the
// sender named) at the other end, so that no worker reads rows or
// manifests to learn what another wrote. Every encoding starts with a
// version byte: a worker of another build refuses what it cannot read
// instead of misreading it.
package filecodec

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/codec"
	"github.com/apache/iceberg-go/table"
)

// version is the first byte of every encoding Marshal makes.
const version byte = 1

// File is a data or delete file as it travels: its manifest entry, encoded
// with the schema and format version of the message that carries it.
type File struct {
	Spec int32  `json:"spec"`
	Avro []byte `json:"avro"`
}

// EncodeFiles describes files of a table with metadata meta, their
// entries encoded with schema.
func EncodeFiles(meta table.Metadata, schema *iceberg.Schema, files []iceberg.DataFile) ([]File, error) {
	out := make([]File, 0, len(files))
	for _, f := range files {
		spec := meta.PartitionSpecByID(int(f.SpecID()))
		if spec == nil {
			return nil, fmt.Errorf("file %s has unknown partition spec %d", f.FilePath(), f.SpecID())
		}
		d, err := EncodeFile(f, *spec, schema, meta.Version())
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// EncodeFile describes f, written under spec, for a table of the given
// format version.
func EncodeFile(f iceberg.DataFile, spec iceberg.PartitionSpec, schema *iceberg.Schema, formatVersion int) (File, error) {
	b, err := codec.EncodeDataFile(f, spec, schema, formatVersion)
	if err != nil {
		return File{}, fmt.Errorf("describing %s: %w", f.FilePath(), err)
	}
	return File{Spec: int32(spec.ID()), Avro: b}, nil
}

// DecodeFiles rebuilds files described against meta with schema.
func DecodeFiles(meta table.Metadata, schema *iceberg.Schema, files []File) ([]iceberg.DataFile, error) {
	return decodeFiles(meta, schema, meta.Version(), files)
}

// decodeFiles is DecodeFiles for files encoded with formatVersion, which a
// table upgraded since may no longer have.
func decodeFiles(meta table.Metadata, schema *iceberg.Schema, formatVersion int, files []File) ([]iceberg.DataFile, error) {
	out := make([]iceberg.DataFile, 0, len(files))
	for _, d := range files {
		spec := meta.PartitionSpecByID(int(d.Spec))
		if spec == nil {
			return nil, fmt.Errorf("a described file has partition spec %d, which the table does not have", d.Spec)
		}
		f, err := DecodeFile(d, *spec, schema, formatVersion)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// DecodeFile rebuilds a file described with spec, schema and format
// version.
func DecodeFile(d File, spec iceberg.PartitionSpec, schema *iceberg.Schema, formatVersion int) (iceberg.DataFile, error) {
	if int(d.Spec) != spec.ID() {
		return nil, fmt.Errorf("a described file has partition spec %d, decoded as spec %d", d.Spec, spec.ID())
	}
	return codec.DecodeDataFile(d.Avro, spec, schema, formatVersion)
}

// Task is a file scan task as it travels: its data file, the delete files
// that apply to it, the byte range to read and the v3 row lineage
// constants.
type Task struct {
	File          File   `json:"file"`
	PosDeletes    []File `json:"pos_deletes,omitempty"`
	EqDeletes     []File `json:"eq_deletes,omitempty"`
	DVs           []File `json:"dvs,omitempty"`
	Start         int64  `json:"start"`
	Length        int64  `json:"length"`
	FirstRowID    *int64 `json:"first_row_id,omitempty"`
	DataSeq       *int64 `json:"data_seq,omitempty"`
	SchemaID      int    `json:"schema"` // the schema the files are described with
	FormatVersion int    `json:"format_version"`
}

// EncodeTask describes ft, a task of a table with metadata meta, its files
// encoded with schema.
func EncodeTask(meta table.Metadata, schema *iceberg.Schema, ft table.FileScanTask) (Task, error) {
	t := Task{Start: ft.Start, Length: ft.Length, FirstRowID: ft.FirstRowID, DataSeq: ft.DataSequenceNumber,
		SchemaID: schema.ID, FormatVersion: meta.Version()}
	files, err := EncodeFiles(meta, schema, []iceberg.DataFile{ft.File})
	if err != nil {
		return t, err
	}
	t.File = files[0]
	if t.PosDeletes, err = EncodeFiles(meta, schema, ft.DeleteFiles); err != nil {
		return t, err
	}
	if t.EqDeletes, err = EncodeFiles(meta, schema, ft.EqualityDeleteFiles); err != nil {
		return t, err
	}
	if t.DVs, err = EncodeFiles(meta, schema, ft.DeletionVectorFiles); err != nil {
		return t, err
	}
	return t, nil
}

// Decode rebuilds the task against meta, which must still hold the schema
// and partition specs the task names.
func (t Task) Decode(meta table.Metadata) (table.FileScanTask, error) {
	var ft table.FileScanTask
	schema, err := SchemaByID(meta, t.SchemaID)
	if err != nil {
		return ft, err
	}
	version := t.FormatVersion
	if version == 0 {
		version = meta.Version()
	}
	files, err := decodeFiles(meta, schema, version, []File{t.File})
	if err != nil {
		return ft, err
	}
	ft.File = files[0]
	if ft.DeleteFiles, err = decodeFiles(meta, schema, version, t.PosDeletes); err != nil {
		return ft, err
	}
	if ft.EqualityDeleteFiles, err = decodeFiles(meta, schema, version, t.EqDeletes); err != nil {
		return ft, err
	}
	if ft.DeletionVectorFiles, err = decodeFiles(meta, schema, version, t.DVs); err != nil {
		return ft, err
	}
	ft.Start, ft.Length, ft.FirstRowID, ft.DataSequenceNumber = t.Start, t.Length, t.FirstRowID, t.DataSeq
	return ft, nil
}

// SchemaByID is the schema of meta with the given id.
func SchemaByID(meta table.Metadata, id int) (*iceberg.Schema, error) {
	for _, s := range meta.Schemas() {
		if s.ID == id {
			return s, nil
		}
	}
	return nil, fmt.Errorf("schema %d is not in the table's metadata", id)
}

// Marshal encodes a message (a struct of Files, Tasks and plain fields)
// as the bytes a shuffle carries: the version byte, then JSON.
func Marshal(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append([]byte{version}, b...), nil
}

// Unmarshal decodes what Marshal encoded into v.
func Unmarshal(b []byte, v any) error {
	switch {
	case len(b) == 0:
		return errors.New("an empty message")
	case b[0] != version:
		return fmt.Errorf("a message of encoding version %d, this worker reads version %d: are all workers the same build?", b[0], version)
	}
	return json.Unmarshal(b[1:], v)
}
