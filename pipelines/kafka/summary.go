package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/internal/launch"
	"github.com/icebeam/icebeam/transforms/icebergio"
	"github.com/icebeam/icebeam/transforms/kafkaiceberg"
	"github.com/icebeam/icebeam/transforms/kafkaio"
)

// printSummary prints, per table, the rows the job's writer has landed
// (over all its runs), the offsets they reach and the lag behind the
// topics' ends.
func printSummary(ctx context.Context, w io.Writer, plan kafkaiceberg.Config) error {
	cat, err := catalog.Open(ctx, plan.Catalog)
	if err != nil {
		return err
	}
	opts, err := plan.Read.ClientOptions()
	if err != nil {
		return err
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return err
	}
	defer cl.Close()
	var topics []string
	for _, t := range plan.Tables {
		topics = append(topics, t.Topic)
	}
	ends, err := kadm.NewClient(cl).ListCommittedOffsets(ctx, topics...)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "kafka: landed as writer %s in %s:\n", plan.WriterID, launch.Where(plan.Catalog, catalogFlags))
	for _, t := range append(plan.Tables, plan.Rejected) {
		tbl, err := cat.LoadTable(ctx, icecatalog.ToIdentifier(t.Name))
		if err != nil {
			fmt.Fprintf(w, "  %s: %v\n", t.Name, err)
			continue
		}
		_, rows, _ := icebergio.CommittedBy(tbl, plan.WriterID)
		offsets, err := icebergio.SourceOffsets(tbl, plan.WriterID)
		if err != nil {
			return err
		}
		var reached []string
		var lag int64
		for _, k := range slices.Sorted(maps.Keys(offsets)) {
			reached = append(reached, fmt.Sprintf("%s@%d", k, offsets[k]))
			if topic, p, err := kafkaio.ParsePartitionKey(k); err == nil && t.Topic == topic {
				if e, ok := ends.Lookup(topic, p); ok && e.Offset > offsets[k] {
					lag += e.Offset - offsets[k]
				}
			}
		}
		what := "rejected records"
		if t.Topic != "" {
			what = "topic " + t.Topic
		}
		fmt.Fprintf(w, "  %s (%s): %d rows landed; offsets reached %s", t.Name, what, rows, strings.Join(reached, " "))
		if t.Topic != "" {
			fmt.Fprintf(w, "; lag %d", lag)
		}
		fmt.Fprintln(w)
	}
	return nil
}
