package kafkaiceberg

import (
	"fmt"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icebeam/icebeam/transforms/icebergio"
	"github.com/icebeam/icebeam/transforms/kafkaio"
)

// A record of a topic without a table is rejected where it was in Kafka,
// with why the topic has none: Plan's reason for a topic it was named, or
// the pattern's for one found after the start.
func TestRouteTopicWithoutTable(t *testing.T) {
	sc, err := icebergio.EncodeSchema(RejectedSchema)
	if err != nil {
		t.Fatal(err)
	}
	rj, err := newDest(Table{Name: "kafka.rejected", Schema: sc})
	if err != nil {
		t.Fatal(err)
	}
	rj.rows = newRowDecoder(rj.t.Name, rj.schema, false)
	defer rj.rows.release()
	unplanned := map[string]string{"named": "it did not exist when the job started"}
	for _, r := range []kafkaio.Record{
		{Topic: "named", Partition: 2, Offset: 7, Value: []byte(`{"a":1}`)},
		{Topic: "found", Partition: 0, Offset: 3, Value: []byte(`{"a":2}`)},
	} {
		if d, _, land, check := route(map[string]*dest{}, rj, unplanned, r); d != nil || land || check {
			t.Fatalf("route of %s/%d/%d: a table, or land %v check %v", r.Topic, r.Partition, r.Offset, land, check)
		}
	}
	rec := rj.rows.rb.NewRecordBatch()
	defer rec.Release()
	var got []string
	for i := range int(rec.NumRows()) {
		got = append(got, fmt.Sprintf("%s/%d/%d %s: %s", rec.Column(0).(*array.String).Value(i), rec.Column(1).(*array.Int32).Value(i),
			rec.Column(2).(*array.Int64).Value(i), rec.Column(4).(*array.Binary).Value(i), rec.Column(5).(*array.String).Value(i)))
	}
	want := []string{
		`named/2/7 {"a":1}: topic named has no table in this job: it did not exist when the job started (start the job again to create its table and land its records there from the start)`,
		`found/0/3 {"a":2}: topic found has no table in this job: it came to match the topic pattern after the job started (start the job again to create its table and land its records there from the start)`,
	}
	if !slices.Equal(got, want) {
		t.Fatalf("rejected rows\n%q\nwant\n%q", got, want)
	}
	for _, p := range []string{kafkaio.PartitionKey("named", 2), kafkaio.PartitionKey("found", 0)} {
		if _, ok := rj.ranges[p]; !ok {
			t.Errorf("the rejected table's offsets lack %s: %v", p, rj.ranges)
		}
	}
}
