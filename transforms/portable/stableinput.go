package portable

// Stable input: a ParDo that must see, on a retry or a restore, the same
// elements it saw the first time. The Beam model has the flag
// (requires_stable_input on the ParDo payload, which Flink's portable runner
// honours by holding a step's input until a checkpoint that covers it has
// completed) but the Go SDK cannot set it, so a transform opens a marked
// scope with hint.StableInput and Execute sets the flag on the job's pipeline
// proto before submitting it.

import (
	"slices"

	pipepb "github.com/apache/beam/sdks/v2/go/pkg/beam/model/pipeline_v1"
	"google.golang.org/protobuf/proto"

	"github.com/icebeam/icebeam/transforms/portable/hint"
)

const parDoURN = "beam:transform:pardo:v1"

// StableInputRequirement is the pipeline requirement a job that relies on
// stable input declares, so that a runner which cannot provide it refuses
// the job instead of ignoring the flag.
const StableInputRequirement = "beam:requirement:pardo:stable_input:v1"

// markStableInput sets requires_stable_input on every ParDo inside a marked
// scope of p, declares StableInputRequirement when it set any, and returns
// their unique names.
func markStableInput(p *pipepb.Pipeline) ([]string, error) {
	var marked []string
	for _, t := range p.GetComponents().GetTransforms() {
		if t.GetSpec().GetUrn() != parDoURN || !hint.InStableInput(t.GetUniqueName()) {
			continue
		}
		var pardo pipepb.ParDoPayload
		if err := proto.Unmarshal(t.GetSpec().GetPayload(), &pardo); err != nil {
			return nil, err
		}
		pardo.RequiresStableInput = true
		b, err := proto.Marshal(&pardo)
		if err != nil {
			return nil, err
		}
		t.Spec.Payload = b
		marked = append(marked, t.GetUniqueName())
	}
	if len(marked) > 0 && !slices.Contains(p.Requirements, StableInputRequirement) {
		p.Requirements = append(p.Requirements, StableInputRequirement)
	}
	return marked, nil
}

// StableInputSteps lists the unique names of the ParDos of p that require
// stable input, as Execute marks them.
func StableInputSteps(p *pipepb.Pipeline) []string {
	var out []string
	for _, t := range p.GetComponents().GetTransforms() {
		if t.GetSpec().GetUrn() != parDoURN {
			continue
		}
		var pardo pipepb.ParDoPayload
		if proto.Unmarshal(t.GetSpec().GetPayload(), &pardo) == nil && pardo.GetRequiresStableInput() {
			out = append(out, t.GetUniqueName())
		}
	}
	return out
}

// hasStableInputScopes reports whether p has a ParDo in a StableInput
// scope.
func hasStableInputScopes(p *pipepb.Pipeline) bool {
	for _, t := range p.GetComponents().GetTransforms() {
		if t.GetSpec().GetUrn() == parDoURN && hint.InStableInput(t.GetUniqueName()) {
			return true
		}
	}
	return false
}
