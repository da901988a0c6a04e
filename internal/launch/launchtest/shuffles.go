package launchtest

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/runtime/graphx"
	pipepb "github.com/apache/beam/sdks/v2/go/pkg/beam/model/pipeline_v1"
)

// Model is p as the Beam model pipeline a runner receives.
func Model(t testing.TB, p *beam.Pipeline) *pipepb.Pipeline {
	t.Helper()
	edges, _, err := p.Build()
	if err != nil {
		t.Fatal(err)
	}
	env, err := graphx.CreateEnvironment(context.Background(), graphx.URNEnvDocker, func(context.Context) string { return "none" })
	if err != nil {
		t.Fatal(err)
	}
	mp, err := graphx.Marshal(edges, &graphx.Options{Environment: env})
	if err != nil {
		t.Fatal(err)
	}
	return mp
}

// Shuffle is one GroupByKey of a pipeline as a runner receives it.
type Shuffle struct {
	Name     string // the transform's unique name
	KeyCoder string // URN of its key coder, inside any length prefix
}

// Shuffles lists every GroupByKey in p's model pipeline, those that Beam
// expands Reshuffle and CombinePerKey into included, with its key coder.
// The Java runners (Flink, Spark, Dataflow's shuffle) decode keys with
// their own coders: a string_utf8 key must be valid UTF-8 there.
func Shuffles(t testing.TB, p *beam.Pipeline) []Shuffle {
	t.Helper()
	comps := Model(t, p).GetComponents()
	var out []Shuffle
	for _, tr := range comps.GetTransforms() {
		if tr.GetSpec().GetUrn() != "beam:transform:group_by_key:v1" {
			continue
		}
		for _, in := range tr.GetInputs() {
			kv := comps.GetCoders()[comps.GetPcollections()[in].GetCoderId()]
			key := comps.GetCoders()[kv.GetComponentCoderIds()[0]]
			if key.GetSpec().GetUrn() == "beam:coder:length_prefix:v1" {
				key = comps.GetCoders()[key.GetComponentCoderIds()[0]]
			}
			out = append(out, Shuffle{Name: tr.GetUniqueName(), KeyCoder: key.GetSpec().GetUrn()})
		}
	}
	slices.SortFunc(out, func(a, b Shuffle) int { return strings.Compare(a.Name, b.Name) })
	return out
}
