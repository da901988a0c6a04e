package arrowipc

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func clicks(t *testing.T, n int) arrow.RecordBatch {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "user_id", Type: arrow.BinaryTypes.String},
		{Name: "click_count", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i := range n {
		b.Field(0).(*array.StringBuilder).Append("user-7")
		if i%3 == 0 {
			b.Field(1).AppendNull()
		} else {
			b.Field(1).(*array.Int64Builder).Append(int64(i))
		}
	}
	return b.NewRecordBatch()
}

func TestBatchesRoundTripWithoutTheSchema(t *testing.T) {
	for _, n := range []int{0, 1, 5, 3000} {
		rec := clicks(t, n)
		defer rec.Release()
		s := NewBatches(rec.Schema())
		b, err := s.Encode(rec)
		if err != nil {
			t.Fatal(err)
		}
		full, err := EncodeLZ4(rec)
		if err != nil {
			t.Fatal(err)
		}
		// The schema message is where the field names are.
		if !bytes.Contains(full, []byte("click_count")) || bytes.Contains(b, []byte("click_count")) {
			t.Errorf("%d rows: the stream names the columns %v, the schemaless bytes %v; want true, false",
				n, bytes.Contains(full, []byte("click_count")), bytes.Contains(b, []byte("click_count")))
		}
		got, err := s.Decode(b)
		if err != nil {
			t.Fatalf("%d rows: %v", n, err)
		}
		if !array.RecordEqual(got, rec) {
			t.Errorf("%d rows: decoded %v, want %v", n, got, rec)
		}
		got.Release()
	}
}

func TestBatchesRefusesAnotherSchema(t *testing.T) {
	rec := clicks(t, 2)
	defer rec.Release()
	other := NewBatches(arrow.NewSchema([]arrow.Field{{Name: "user_id", Type: arrow.BinaryTypes.String}}, nil))
	if _, err := other.Encode(rec); err == nil {
		t.Error("Encode of a batch of another schema: no error")
	}
	b, err := NewBatches(rec.Schema()).Encode(rec)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := other.Decode(b); err == nil {
		t.Errorf("Decode with another schema: %v, no error", got)
		got.Release()
	}
}

// A cut or damaged stream is an error, never a panic or a batch.
func TestDecodeRefusesDamagedBytes(t *testing.T) {
	rec := clicks(t, 100)
	defer rec.Release()
	b, err := Encode(rec)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if !array.RecordEqual(rec, got) {
		t.Fatalf("decoded %v, want %v", got, rec)
	}
	got.Release()
	for _, n := range []int{0, 3, 7, 8, 20, len(b) / 2, len(b) - 9} {
		if got, err := Decode(b[:n]); err == nil {
			got.Release()
			t.Errorf("%d of %d bytes decoded without an error", n, len(b))
		}
	}
	bad := bytes.Clone(b)
	for i := 8; i < 40; i++ {
		bad[i] = 0xff
	}
	if got, err := Decode(bad); err == nil {
		got.Release()
		t.Errorf("damaged metadata decoded without an error")
	}
}
