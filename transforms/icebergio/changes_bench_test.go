package icebergio

import (
	"context"
	"flag"
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

	"github.com/icebeam/icebeam/internal/jobservertest"
	"github.com/icebeam/icebeam/transforms/portable"
)

// emitted is when each event id first reached the step after ReadChanges,
// by wall clock, in this process (prism, and Flink with LOOPBACK workers,
// run the harness here).
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

// BenchmarkReadChangesLatency measures, per runner and poll interval, the
// time from an append's commit returning to its first row leaving
// ReadChanges: 12 appends of 10 rows at irregular gaps, so that commits fall
// anywhere within a poll, once the stream runs (a first append has come
// through). It reports the median and the largest latency. The Flink runs
// (Beam's portable runner, its job server from scripts/jobserver.sh, LOOPBACK
// workers, checkpoints every 5 s) are skipped without Java and Maven.
//
//	go test -run '^$' -bench ReadChangesLatency -benchtime 1x ./transforms/icebergio
func BenchmarkReadChangesLatency(b *testing.B) {
	for _, runner := range []string{"prism", "flink"} {
		for _, poll := range []time.Duration{250 * time.Millisecond, time.Second} {
			b.Run(fmt.Sprintf("runner=%s/poll=%v", runner, poll), func(b *testing.B) {
				var lat []time.Duration
				for range b.N {
					lat = append(lat, changesLatency(b, runner, poll, 12)...)
				}
				slices.Sort(lat)
				b.ReportMetric(float64(lat[len(lat)/2].Milliseconds()), "ms-median")
				b.ReportMetric(float64(lat[len(lat)-1].Milliseconds()), "ms-max")
			})
		}
	}
}

// warmUp is the id of the row whose arrival says the stream runs.
const warmUp = -1

func changesLatency(b *testing.B, runner string, poll time.Duration, appends int) []time.Duration {
	run := func(p *beam.Pipeline) error {
		_, err := beam.Run(context.Background(), ptest.DefaultRunner(), p)
		return err
	}
	if runner == "flink" {
		js := jobservertest.Start(b, "flink")
		run = func(p *beam.Pipeline) error {
			for name, v := range map[string]string{"runner": "flink", "endpoint": js.Endpoint, "environment_type": "LOOPBACK"} {
				old := flag.Lookup(name).Value.String()
				if err := flag.Set(name, v); err != nil {
					return err
				}
				defer flag.Set(name, old)
			}
			_, err := portable.Execute(context.Background(), p)
			return err
		}
	}
	cfg := launch(b)
	cat := openCat(b, cfg)
	const name = "latency.events"
	appendEvents(b, createEventsTable(b, cat, name, nil), []event{{ID: warmUp}})
	emittedMu.Lock()
	clear(emitted)
	emittedMu.Unlock()

	p, s := beam.NewPipelineWithRoot()
	// StopAt is only a bound, for Flink to know when the stream ends:
	// MaxSnapshots ends it.
	rows := ReadChanges(s, ChangesConfig{Catalog: cfg, Table: name, From: Earliest, PollInterval: poll,
		MaxSnapshots: appends + 1, StopAt: time.Now().Add(90 * time.Second)}, reflect.TypeFor[event]())
	beam.ParDo0(s, &stampEmitFn{}, rows)

	committed := make([]time.Time, appends)
	go func() {
		for !wasEmitted(warmUp) {
			time.Sleep(10 * time.Millisecond)
		}
		for k := range appends {
			tbl := reload(b, cat, name)
			appendEvents(b, tbl, eventsFrom(int64(k*10), int64(k*10+10), nil))
			committed[k] = time.Now()
			time.Sleep(poll/2 + rand.N(poll))
		}
	}()
	if err := run(p); err != nil {
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

func wasEmitted(id int64) bool {
	emittedMu.Lock()
	defer emittedMu.Unlock()
	_, ok := emitted[id]
	return ok
}
