// Package hint is how a transform tells Beam's portable runners what the Go
// SDK has no words for: that a step must see the same input on a retry
// (StableInput) and when an unbounded source stops (StreamEndsAt). A hint
// is a scope name, so it costs nothing where nobody reads it; package
// portable, the runner a program's main imports, reads the hints from the
// job's pipeline and turns them into Flink's checkpointing, stable input
// and source shutdown. Importing hint has no side effects: transforms
// import it, and only a main decides the runner.
package hint

import (
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners"
)

// stableMarker ends the name of a StableInput scope; it becomes part of the
// unique name of every transform inside.
const stableMarker = " (stable input)"

// StableInput returns a sub-scope of s named name whose ParDos require
// stable input: on a runner that retries (Flink), they see only input a
// completed checkpoint covers, so a retry sees what the first attempt saw.
func StableInput(s beam.Scope, name string) beam.Scope { return s.Scope(name + stableMarker) }

// InStableInput reports whether the transform of a pipeline with this
// unique name is inside a StableInput scope.
func InStableInput(uniqueName string) bool {
	parts := strings.Split(uniqueName, "/")
	for _, p := range parts[:len(parts)-1] {
		if strings.HasSuffix(p, stableMarker) {
			return true
		}
	}
	return false
}

// streamEndPrefix starts the name of the scope StreamEndsAt opens.
const streamEndPrefix = "stream ends at "

// StreamEndsAt returns a sub-scope of s for an unbounded source that stops
// at end. On Flink with checkpointing, sources otherwise stay alive (a
// finished source stops checkpoints) and such a job would never finish:
// the portable runner lets them stop once the latest end in the pipeline
// has passed.
func StreamEndsAt(s beam.Scope, end time.Time) beam.Scope {
	return s.Scope(streamEndPrefix + end.UTC().Format(time.RFC3339Nano))
}

// StreamEnd is the end a StreamEndsAt scope in this unique name names, if
// any.
func StreamEnd(uniqueName string) (time.Time, bool) {
	var latest time.Time
	for _, part := range strings.Split(uniqueName, "/") {
		if ts, ok := strings.CutPrefix(part, streamEndPrefix); ok {
			if end, err := time.Parse(time.RFC3339Nano, ts); err == nil && end.After(latest) {
				latest = end
			}
		}
	}
	return latest, !latest.IsZero()
}

// RoutedRunner is the name package portable registers its runner under and
// points --runner at when the flag names a portable runner: Beam refuses a
// second "flink".
const RoutedRunner = "icebeam-portable"

// PortableRunners are the names Beam registers its portable runners under.
var PortableRunners = map[string]bool{
	"flink": true, "FlinkRunner": true, "spark": true, "SparkRunner": true,
	"universal": true, "portable": true, "PortableRunner": true,
}

// RunnerName is a --runner value lower-cased and without the "Runner"
// suffix of the Java-style names (FlinkRunner, DataflowRunner) that Beam
// registers as aliases; empty means prism.
func RunnerName(flag string) string {
	if flag == "" {
		return "prism"
	}
	r := strings.ToLower(flag)
	if t := strings.TrimSuffix(r, "runner"); t != "" {
		r = t
	}
	return r
}

// Portable reports whether --runner submits to a Beam job server (Flink,
// Spark, or any other through --runner=universal), as given or as package
// portable routes it.
func Portable() bool {
	if *runners.Runner == RoutedRunner {
		return true
	}
	switch RunnerName(*runners.Runner) {
	case "universal", "portable", "flink", "spark":
		return true
	}
	return false
}
