package icebergio

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
)

// emitted is when each event id first reached the step after ReadChanges,
// by wall clock, in this process (prism runs the harness here).
var (
	emittedMu sync.Mutex
	emitted   = map[int64]time.Time{}
)

type stampEmitFn struct{}

func (*stampEmitFn) ProcessElement(e event) {
	now := time.Now()
	emittedMu.Lock()
	defer emittedMu.Unlock()
	if _, ok := emitted[e.ID]; !ok {
		emitted[e.ID] = now
	}
}

func init() { register.DoFn1x0[event](&stampEmitFn{}) }

// BenchmarkReadChangesLatency measures, per poll interval, the time from an
// append's commit returning to its first row leaving ReadChanges on prism:
// 12 appends of 10 rows at irregular gaps, so that commits fall anywhere
// within a poll. It reports the median and the largest latency.
//
//	go test -run '^$' -bench ReadChangesLatency -benchtime 1x ./transforms/icebergio
func BenchmarkReadChangesLatency(b *testing.B) {
	for _, poll := range []time.Duration{250 * time.Millisecond, time.Second} {
		b.Run(fmt.Sprint("poll=", poll), func(b *testing.B) {
			var lat []time.Duration
			for range b.N {
				lat = append(lat, changesLatency(b, poll, 12)...)
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Milliseconds()), "ms-median")
			b.ReportMetric(float64(lat[len(lat)-1].Milliseconds()), "ms-max")
		})
	}
}

func changesLatency(b *testing.B, poll time.Duration, appends int) []time.Duration {
	cfg := launch(b)
	cat := openCat(b, cfg)
	const name = "latency.events"
	createEventsTable(b, cat, name, nil)
	emittedMu.Lock()
	clear(emitted)
	emittedMu.Unlock()

	p, s := beam.NewPipelineWithRoot()
	rows := ReadChanges(s, ChangesConfig{Catalog: cfg, Table: name, From: Latest, PollInterval: poll,
		MaxSnapshots: appends}, reflect.TypeFor[event]())
	beam.ParDo0(s, &stampEmitFn{}, rows)

	committed := make([]time.Time, appends)
	go func() {
		time.Sleep(2 * time.Second) // the stream has started and polled
		for k := range appends {
			tbl := reload(b, cat, name)
			appendEvents(b, tbl, eventsFrom(int64(k*10), int64(k*10+10), nil))
			committed[k] = time.Now()
			time.Sleep(poll/2 + rand.N(poll))
		}
	}()
	if _, err := beam.Run(context.Background(), ptest.DefaultRunner(), p); err != nil {
		b.Fatal(err)
	}
	emittedMu.Lock()
	defer emittedMu.Unlock()
	var lat []time.Duration
	for k := range appends {
		first := time.Time{}
		for id := int64(k * 10); id < int64(k*10+10); id++ {
			at, ok := emitted[id]
			if !ok {
				b.Fatalf("event %d of append %d was not emitted", id, k)
			}
			if first.IsZero() || at.Before(first) {
				first = at
			}
		}
		lat = append(lat, first.Sub(committed[k]))
	}
	return lat
}
