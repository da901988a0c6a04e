// Package stableinput marks ParDos that must see stable input: on a retry
// or a restore, the same elements they saw the first time. The Beam model
// has the flag (requires_stable_input on the ParDo payload, which Flink's
// portable runner honours by holding a step's input until a checkpoint
// that covers it has completed) but the Go SDK cannot set it, so a
// transform opens a marked scope here and the launcher sets the flag on
// the job's pipeline proto before submitting it.
package stableinput

import (
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	pipepb "github.com/apache/beam/sdks/v2/go/pkg/beam/model/pipeline_v1"
	"google.golang.org/protobuf/proto"
)

// marker ends the name of a marked scope; it becomes part of the unique
// name of every transform inside.
const marker = " (stable input)"

const parDoURN = "beam:transform:pardo:v1"

// Requirement is the pipeline requirement a job that relies on stable
// input declares, so that a runner which cannot provide it refuses the job
// instead of ignoring the flag.
const Requirement = "beam:requirement:pardo:stable_input:v1"

// Scope returns a sub-scope of s named name whose ParDos require stable
// input.
func Scope(s beam.Scope, name string) beam.Scope { return s.Scope(name + marker) }

// Apply sets requires_stable_input on every ParDo inside a marked scope of
// p, declares Requirement when it set any, and returns their unique names.
func Apply(p *pipepb.Pipeline) ([]string, error) {
	var marked []string
	for _, t := range p.GetComponents().GetTransforms() {
		if t.GetSpec().GetUrn() != parDoURN || !inMarkedScope(t.GetUniqueName()) {
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
	if len(marked) > 0 && !slices.Contains(p.Requirements, Requirement) {
		p.Requirements = append(p.Requirements, Requirement)
	}
	return marked, nil
}

// Marked lists the unique names of the ParDos of p that require stable
// input, as Apply left them.
func Marked(p *pipepb.Pipeline) []string {
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

func inMarkedScope(uniqueName string) bool {
	parts := strings.Split(uniqueName, "/")
	for _, p := range parts[:len(parts)-1] {
		if strings.HasSuffix(p, marker) {
			return true
		}
	}
	return false
}
