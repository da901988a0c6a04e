package kafkaiceberg

import (
	"context"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/transforms/icebergio"
	"github.com/icebeam/icebeam/transforms/kafkaio"
)

func init() {
	register.DoFn3x0[context.Context, icebergio.CommitResult, func(string)](&groupFn{})
	register.Emitter1[string]()
	beam.RegisterType(reflect.TypeOf((*groupFn)(nil)).Elem())
}

// CommitGroupOffsets commits to the consumer group, after each commit of a
// topic's table, the offsets the table then holds, so that Kafka's own lag
// tools show how far the job is behind. They are never read back: the
// tables are the job's checkpoint. A failure is logged, not fatal.
func CommitGroupOffsets(s beam.Scope, cfg Config, group string, results beam.PCollection) {
	topics := map[string]string{}
	for _, t := range cfg.Tables {
		topics[t.Name] = t.Topic
	}
	beam.ParDo(s.Scope("CommitGroupOffsets"), &groupFn{Catalog: cfg.Catalog, Read: cfg.Read, Group: group, Topics: topics, WriterID: cfg.WriterID}, results)
}

type groupFn struct {
	Catalog  catalog.Config
	Read     kafkaio.ReadConfig
	Group    string
	Topics   map[string]string // table -> topic
	WriterID string

	cat icecatalog.Catalog
	cl  *kgo.Client
	adm *kadm.Client
}

func (f *groupFn) Setup(ctx context.Context) error {
	var err error
	if f.cat, err = catalog.Open(ctx, f.Catalog); err != nil {
		return err
	}
	opts, err := f.Read.ClientOptions()
	if err != nil {
		return err
	}
	if f.cl, err = kgo.NewClient(opts...); err != nil {
		return err
	}
	f.adm = kadm.NewClient(f.cl)
	return nil
}

func (f *groupFn) Teardown() {
	if f.cl != nil {
		f.cl.Close()
	}
}

func (f *groupFn) ProcessElement(ctx context.Context, r icebergio.CommitResult, _ func(string)) {
	topic, ok := f.Topics[r.Table]
	if !ok {
		return
	}
	tbl, err := f.cat.LoadTable(ctx, icecatalog.ToIdentifier(r.Table))
	if err != nil {
		log.Warnf(ctx, "kafkaiceberg: group %s: loading table %s: %v", f.Group, r.Table, err)
		return
	}
	offsets, err := icebergio.SourceOffsets(tbl, f.WriterID)
	if err != nil {
		log.Warnf(ctx, "kafkaiceberg: group %s: %v", f.Group, err)
		return
	}
	commit := kadm.Offsets{}
	for k, at := range offsets {
		if t, p, err := kafkaio.ParsePartitionKey(k); err == nil && t == topic {
			commit.Add(kadm.Offset{Topic: t, Partition: p, At: at, LeaderEpoch: -1})
		}
	}
	if err := f.adm.CommitAllOffsets(ctx, f.Group, commit); err != nil {
		log.Warnf(ctx, "kafkaiceberg: group %s: committing the offsets of table %s: %v", f.Group, r.Table, err)
	}
}
