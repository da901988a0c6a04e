package icebergio

import (
	"context"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/vet"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/catalog"
)

// TestRegistrations checks that Write's DoFns, emitters and types are all
// registered: unregistered ones break in stripped Dataflow worker binaries.
func TestRegistrations(t *testing.T) {
	p, s := beam.NewPipelineWithRoot()
	rows := beam.Impulse(s)
	rows = beam.ParDo(s, &clickFn{Users: 1}, beam.ParDo(s, impulseToIndex, rows))
	for _, shards := range []int{1, 4} {
		Write(s, Config{Catalog: catalog.Config{URI: "http://127.0.0.1:1"}, Table: "a.b_{user_id}", Shards: shards}, rows)
	}
	_, err := vet.Execute(context.Background(), p)
	require.NoError(t, err)
}

func impulseToIndex(_ []byte) int64 { return 0 }

func init() { register.Function1x1(impulseToIndex) }
