package filecodec

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/apache/iceberg-go"
)

var schema = iceberg.NewSchema(0,
	iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.PrimitiveTypes.Int64, Required: true},
	iceberg.NestedField{ID: 2, Name: "day", Type: iceberg.PrimitiveTypes.Date, Required: true})

// A file crosses as its manifest entry and comes back the same: path,
// partition value, counts, sizes.
func TestFileRoundTrip(t *testing.T) {
	spec := iceberg.NewPartitionSpecID(3, iceberg.PartitionField{SourceIDs: []int{2}, FieldID: 1000, Name: "day", Transform: iceberg.IdentityTransform{}})
	b, err := iceberg.NewDataFileBuilder(spec, iceberg.EntryContentData, "s3://bucket/t/data/a.parquet", iceberg.ParquetFile,
		map[int]any{1000: iceberg.Date(20454)}, nil, nil, 1234, 56789)
	if err != nil {
		t.Fatal(err)
	}
	f := b.Build()
	for _, version := range []int{2, 3} {
		d, err := EncodeFile(f, spec, schema, version)
		if err != nil {
			t.Fatal(err)
		}
		// Through a message, as a shuffle carries it.
		msg, err := Marshal(struct{ Files []File }{[]File{d}})
		if err != nil {
			t.Fatal(err)
		}
		var got struct{ Files []File }
		if err := Unmarshal(msg, &got); err != nil {
			t.Fatal(err)
		}
		back, err := DecodeFile(got.Files[0], spec, schema, version)
		if err != nil {
			t.Fatal(err)
		}
		if back.FilePath() != "s3://bucket/t/data/a.parquet" || back.Count() != 1234 || back.FileSizeBytes() != 56789 ||
			back.SpecID() != 3 || back.Partition()[1000] != iceberg.Date(20454) {
			t.Errorf("v%d: decoded %s, %d rows, %d bytes, spec %d, partition %v", version, back.FilePath(), back.Count(), back.FileSizeBytes(), back.SpecID(), back.Partition())
		}
		other := iceberg.NewPartitionSpecID(4)
		if _, err := DecodeFile(got.Files[0], other, schema, version); err == nil {
			t.Errorf("v%d: a file of spec 3 decoded as spec 4", version)
		}
	}
}

// A message of another encoding version is refused by name, not misread.
func TestUnmarshalRefusesOtherVersions(t *testing.T) {
	plain, _ := json.Marshal(map[string]int{"a": 1})
	var v map[string]int
	for _, b := range [][]byte{plain, append([]byte{version + 1}, plain...), nil} {
		if err := Unmarshal(b, &v); err == nil {
			t.Errorf("Unmarshal(%q) accepted it", b)
		}
	}
	err := Unmarshal(append([]byte{version + 1}, plain...), &v)
	if err == nil || !strings.Contains(err.Error(), "encoding version 2") {
		t.Errorf("error %v does not name the version", err)
	}
	if err := Unmarshal(append([]byte{version}, plain...), &v); err != nil || v["a"] != 1 {
		t.Errorf("this version: %v, %v", v, err)
	}
}
