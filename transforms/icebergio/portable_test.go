package icebergio

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	pipepb "github.com/apache/beam/sdks/v2/go/pkg/beam/model/pipeline_v1"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/internal/launch/launchtest"
	"github.com/icebeam/icebeam/transforms/icebergio/internal/rowcodec"
)

// TestShuffleKeySurvivesJavaRunners: Write shuffles chunks keyed by their
// destination table's name, a string_utf8 key on Java runners (Flink,
// Spark, Dataflow), which turn invalid UTF-8 into U+FFFD. Names are text:
// a fixed name is checked at construction, a templated one keeps only
// [A-Za-z0-9_] of the row values. A sharded write shuffles twice: chunks
// keyed by "<shard>|<table>" (digits, '|' and the name), then parts keyed
// by the table's name.
func TestShuffleKeySurvivesJavaRunners(t *testing.T) {
	p, s := beam.NewPipelineWithRoot()
	rows := beam.Create(s, click{UserID: "a"})
	Write(s, Config{Catalog: launch(t), Table: "ns.user_{user_id}"}, rows)
	shuffles := keyedShuffles(t, p)
	require.Len(t, shuffles, 1)
	require.Equal(t, "beam:coder:string_utf8:v1", shuffles[0].KeyCoder)

	p, s = beam.NewPipelineWithRoot()
	rows = beam.Create(s, click{UserID: "a"})
	Write(s, Config{Catalog: launch(t), Table: "ns.user_{user_id}", Shards: 3}, rows)
	shuffles = keyedShuffles(t, p)
	require.Len(t, shuffles, 2)
	for _, sh := range shuffles {
		require.Equal(t, "beam:coder:string_utf8:v1", sh.KeyCoder)
	}
	require.Equal(t, "ns.user_a", shardTable(shardKey("ns.user_a", 2)))
	require.True(t, utf8.ValidString(shardKey("ns.é", 11)))

	rs, err := rowcodec.New(reflect.TypeFor[click]())
	require.NoError(t, err)
	d, err := newDestination("ns.user_{user_id}", rs)
	require.NoError(t, err)
	for _, user := range []string{"plain", "é", "\xa5\xff", "a/b.c", ""} {
		v := any(click{UserID: user})
		name := d.of(rs.RowPointer(&v))
		require.True(t, utf8.ValidString(name) && strings.ToValidUTF8(name, "\uFFFD") == name, "table name %q for user %q", name, user)
	}
	_, err = newDestination("ns.bad\xa5", rs)
	require.ErrorContains(t, err, "UTF-8")
}

// keyedShuffles is launchtest.Shuffles of p without the Reshuffle of the
// commit results, whose keys are random numbers Beam keys them by.
func keyedShuffles(t *testing.T, p *beam.Pipeline) []launchtest.Shuffle {
	return slices.DeleteFunc(launchtest.Shuffles(t, p), func(sh launchtest.Shuffle) bool {
		return strings.Contains(sh.Name, "/Reshuffle/")
	})
}

// TestCommitResultsLeaveTheirStage: the commit step's output is read by a
// Reshuffle whose output something reads, whether or not the pipeline uses
// the results, so that the commit step is never the last stage of a
// pipeline: prism spins a core through every bundle of a stage without an
// output (see results).
func TestCommitResultsLeaveTheirStage(t *testing.T) {
	for _, shards := range []int{1, 3} {
		p, s := beam.NewPipelineWithRoot()
		rows := beam.Create(s, click{UserID: "a"})
		Write(s, Config{Catalog: launch(t), Table: "ns.t", Shards: shards}, rows)
		comps := launchtest.Model(t, p).GetComponents()
		readers := map[string][]*pipepb.PTransform{} // PCollection id -> leaf transforms reading it
		var commit *pipepb.PTransform
		for _, tr := range comps.GetTransforms() {
			if len(tr.GetSubtransforms()) > 0 && tr.GetSpec().GetUrn() != "beam:transform:reshuffle:v1" {
				continue
			}
			if strings.Contains(tr.GetUniqueName(), "/Reshuffle/") {
				continue // inside the Reshuffle composite
			}
			for _, in := range tr.GetInputs() {
				readers[in] = append(readers[in], tr)
			}
			if strings.HasSuffix(tr.GetUniqueName(), "/icebergio.commitFn") {
				commit = tr
			}
		}
		require.NotNil(t, commit, "no commit step among the transforms")
		require.Len(t, commit.GetOutputs(), 1)
		out := readers[getOnly(commit.GetOutputs())]
		require.Len(t, out, 1, "shards=%d: what reads the commit results", shards)
		require.Equal(t, "beam:transform:reshuffle:v1", out[0].GetSpec().GetUrn(), "shards=%d", shards)
		require.NotEmpty(t, readers[getOnly(out[0].GetOutputs())], "shards=%d: nothing reads the reshuffled results", shards)
	}
}

func getOnly(m map[string]string) string {
	for _, v := range m {
		return v
	}
	return ""
}

// TestReadCrossesJavaRunnersAsBytes: a planned read task crosses the runner
// twice (Read's Reshuffle, and between splitting and reading its
// restrictions). Spark's runner could not decode it as a Beam schema row,
// and Flink's hung on it; ReadRecords must carry nothing the runner decodes
// as a row.
func TestReadCrossesJavaRunnersAsBytes(t *testing.T) {
	p, s := beam.NewPipelineWithRoot()
	ReadRecords(s, ReadConfig{Catalog: launch(t), Table: "ns.t"})
	comps := launchtest.Model(t, p).GetComponents()
	var rowCoded func(id string) bool
	rowCoded = func(id string) bool {
		c := comps.GetCoders()[id]
		if c.GetSpec().GetUrn() == "beam:coder:row:v1" {
			return true
		}
		for _, cid := range c.GetComponentCoderIds() {
			if rowCoded(cid) {
				return true
			}
		}
		return false
	}
	for id, pc := range comps.GetPcollections() {
		require.False(t, rowCoded(pc.GetCoderId()), "PCollection %s (%s) is coded as a schema row", id, pc.GetUniqueName())
	}
}
