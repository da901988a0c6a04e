package icebergio

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/periodic"
	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"
)

func TestMain(m *testing.M) { ptest.Main(m) }

type tripV1 struct {
	Day     int32  `beam:"trip_date" iceberg:"date"`
	Payment string `beam:"payment_type"`
	Trips   int32  `beam:"trips"`
	Note    string `beam:"note"`
}

type tripV2 struct {
	Day     int32    `beam:"trip_date" iceberg:"date"`
	Payment string   `beam:"payment_type"`
	Trips   int64    `beam:"trips"`
	Fare    *float64 `beam:"fare"`
}

type click struct {
	UserID string `beam:"user_id"`
	Seq    int64  `beam:"seq"`
	TS     int64  `beam:"ts" iceberg:"timestamptz"`
}

func init() {
	beam.RegisterType(reflect.TypeOf(tripV1{}))
	beam.RegisterType(reflect.TypeOf(tripV2{}))
	beam.RegisterType(reflect.TypeOf(click{}))
}

// runWrite runs rows through Write on prism and returns the commit results.
func runWrite[T any](t *testing.T, cfg Config, rows []T) []CommitResult {
	t.Helper()
	res, _ := runWriteMetrics(t, cfg, rows)
	return res
}

// runWriteMetrics also returns the icebergio counters by name.
func runWriteMetrics[T any](t *testing.T, cfg Config, rows []T) ([]CommitResult, map[string]int64) {
	t.Helper()
	p, s := beam.NewPipelineWithRoot()
	results := Write(s, cfg, beam.CreateList(s, rows))
	collected := collect(s, results)
	pr, err := ptest.RunWithMetrics(p)
	require.NoError(t, err)
	counters := map[string]int64{}
	for _, c := range pr.Metrics().AllMetrics().Counters() {
		if c.Namespace() == "icebergio" {
			counters[c.Name()] += c.Result()
		}
	}
	for _, d := range pr.Metrics().AllMetrics().Distributions() {
		if d.Namespace() == "icebergio" {
			counters[d.Name()+".count"] += d.Result().Count
		}
	}
	return collected(), counters
}

// collect gathers a PCollection's elements in the test process (prism runs
// in-process, loopback).
func collect(s beam.Scope, col beam.PCollection) func() []CommitResult {
	key := fmt.Sprint(collectSeq.Add(1))
	beam.ParDo0(s, &collectFn{Key: key}, col)
	return func() []CommitResult {
		collectedMu.Lock()
		defer collectedMu.Unlock()
		out := collected[key]
		delete(collected, key)
		return out
	}
}

func tripsV1(n int) []tripV1 {
	var rows []tripV1
	for i := 0; i < n; i++ {
		rows = append(rows, tripV1{Day: int32(20000 + i%30), Payment: []string{"card", "cash"}[i%2], Trips: int32(i), Note: "v1"})
	}
	return rows
}

func TestBatchAppend(t *testing.T) {
	cat := launch(t)
	rows := tripsV1(5000)
	cfg := Config{Catalog: cat, Table: "taxi.daily", PartitionBy: []string{"month(trip_date)"}}
	res := runWrite(t, cfg, rows)
	require.Len(t, res, 1)
	require.EqualValues(t, 5000, res[0].Rows)
	require.False(t, res[0].Skipped)

	// A second run appends.
	res2 := runWrite(t, cfg, rows[:10])
	require.Len(t, res2, 1)

	tbl := loadTable(t, openCat(t, cat), "taxi.daily")
	got := readRows[tripV1](t, tbl)
	want := append(slices.Clone(rows), rows[:10]...)
	sortTrips(got)
	sortTrips(want)
	require.Equal(t, want, got)
	require.Len(t, tbl.Metadata().Snapshots(), 2)
	require.NotContains(t, tbl.CurrentSnapshot().Summary.Properties, batchesSentKey, "a bounded write has no trigger")
	require.Equal(t, "true", tbl.Properties()[table.ManifestMergeEnabledKey])
	spec := tbl.Spec()
	require.Equal(t, "month", spec.Field(0).Transform.String())
}

func sortTrips[T tripV1 | tripV2](rows []T) {
	slices.SortFunc(rows, func(a, b T) int {
		return cmpTrips(any(a), any(b))
	})
}

func cmpTrips(a, b any) int {
	key := func(v any) string {
		switch r := v.(type) {
		case tripV1:
			return fmt.Sprintf("%d/%s/%09d", r.Day, r.Payment, r.Trips)
		case tripV2:
			return fmt.Sprintf("%d/%s/%09d", r.Day, r.Payment, r.Trips)
		}
		return ""
	}
	ka, kb := key(a), key(b)
	switch {
	case ka < kb:
		return -1
	case ka > kb:
		return 1
	}
	return 0
}

func TestBatchCreateOrReplace(t *testing.T) {
	cat := launch(t)
	v1 := tripsV1(300)
	res := runWrite(t, Config{Catalog: cat, Table: "taxi.summary", Mode: CreateOrReplace}, v1)
	require.Len(t, res, 1)
	first := res[0].SnapshotID

	var v2 []tripV2
	for i := 0; i < 50; i++ {
		r := tripV2{Day: int32(20100 + i), Payment: "card", Trips: int64(i) << 33}
		if i%2 == 0 {
			r.Fare = ptr(float64(i) * 1.5)
		}
		v2 = append(v2, r)
	}
	res = runWrite(t, Config{Catalog: cat, Table: "taxi.summary", Mode: CreateOrReplace}, v2)
	require.Len(t, res, 1)
	require.EqualValues(t, 50, res[0].Rows)

	tbl := loadTable(t, openCat(t, cat), "taxi.summary")
	// Second run's data only, with its schema: trips widened, fare added, note dropped.
	got := readRows[tripV2](t, tbl)
	sortTrips(got)
	sortTrips(v2)
	require.Equal(t, v2, got)
	sc := tbl.Schema()
	trips, _ := sc.FindFieldByName("trips")
	require.Equal(t, "long", trips.Type.String())
	_, hasFare := sc.FindFieldByName("fare")
	_, hasNote := sc.FindFieldByName("note")
	require.True(t, hasFare)
	require.False(t, hasNote)

	// One snapshot per run; the first still readable by id.
	snaps := tbl.Metadata().Snapshots()
	require.Len(t, snaps, 2)
	require.Equal(t, first, snaps[0].SnapshotID)
	old := readRows[tripV1](t, tbl, table.WithSnapshotID(first))
	require.Len(t, old, len(v1))
	var oldTrips []int32
	for _, r := range old {
		oldTrips = append(oldTrips, r.Trips)
	}
	slices.Sort(oldTrips)
	for i, v := range oldTrips {
		require.EqualValues(t, i, v)
	}
}

func TestTemplatedDestinations(t *testing.T) {
	cat := launch(t)
	var rows []click
	for i := 0; i < 600; i++ {
		rows = append(rows, click{UserID: fmt.Sprintf("user-%d", i%3), Seq: int64(i), TS: int64(i) * 1e6})
	}
	res := runWrite(t, Config{Catalog: cat, Table: "clicks.user_{user_id}"}, rows)
	require.Len(t, res, 3)
	c := openCat(t, cat)
	for u := 0; u < 3; u++ {
		got := readRows[click](t, loadTable(t, c, fmt.Sprintf("clicks.user_user_%d", u)))
		var want []click
		for _, r := range rows {
			if r.UserID == fmt.Sprintf("user-%d", u) {
				want = append(want, r)
			}
		}
		slices.SortFunc(got, func(a, b click) int { return int(a.Seq - b.Seq) })
		require.Equal(t, want, got)
	}
}

// clickFn turns sequence index i into one click per user.
type clickFn struct{ Users int }

func (f *clickFn) ProcessElement(i int64, emit func(click)) {
	for u := 0; u < f.Users; u++ {
		seq := i*int64(f.Users) + int64(u)
		emit(click{UserID: fmt.Sprintf("u%d", u), Seq: seq, TS: seq})
	}
}

func init() {
	register.DoFn2x0[int64, func(click)](&clickFn{})
	register.Emitter1[click]()
}

func TestStreamingAppend(t *testing.T) {
	cat := launch(t)
	const (
		users    = 2
		interval = 100 * time.Millisecond
		span     = 8 * time.Second
		trigger  = 2 * time.Second
	)
	p, s := beam.NewPipelineWithRoot()
	start := time.Now()
	def := periodic.NewSequenceDefinition(start, start.Add(span), interval)
	idx := periodic.Sequence(s, beam.Create(s, def))
	rows := beam.ParDo(s, &clickFn{Users: users}, idx)
	results := Write(s, Config{Catalog: cat, Table: "stream.user_{user_id}", TriggeringFrequency: trigger}, rows)
	got := collect(s, results)
	require.NoError(t, ptest.Run(p))
	elapsed := time.Since(start)
	res := got()

	n := int(span / interval)
	c := openCat(t, cat)
	perTable := map[string][]CommitResult{}
	for _, r := range res {
		require.False(t, r.Skipped)
		perTable[r.Table] = append(perTable[r.Table], r)
	}
	require.Len(t, perTable, users)
	ids := map[string]bool{}
	for u := 0; u < users; u++ {
		name := fmt.Sprintf("stream.user_u%d", u)
		tbl := loadTable(t, c, name)
		var want []int64
		for i := 0; i < n; i++ {
			want = append(want, int64(i*users+u))
		}
		requireSeqs(t, tbl, want)
		// One snapshot per pane, each adding one data file.
		snaps := tbl.Metadata().Snapshots()
		require.Len(t, snaps, len(perTable[name]), name)
		for _, sn := range snaps {
			require.Equal(t, "1", sn.Summary.Properties["added-data-files"], name)
			id := sn.Summary.Properties[CommitIDKey]
			require.False(t, ids[name+id], "commit id %s twice", id)
			ids[name+id] = true
			require.NotEmpty(t, sn.Summary.Properties[batchesSentKey], name)
		}
		requireCommitsAfterWindowEnd(t, name, snaps, trigger)
		t.Logf("%s: %d commits in %v", name, len(snaps), elapsed)
		require.GreaterOrEqual(t, len(snaps), 2, "an 8 s stream with a 2 s trigger commits more than once")
	}
}

// requireCommitsAfterWindowEnd checks each snapshot against the earliest
// moment its pane's trigger can have been due (see batchesSentKey).
func requireCommitsAfterWindowEnd(t *testing.T, name string, snaps []table.Snapshot, trigger time.Duration) {
	t.Helper()
	type pane struct {
		first, last, ts int64
		timing          string
	}
	var panes []pane
	for _, sn := range snaps {
		var p pane
		_, err := fmt.Sscanf(sn.Summary.Properties[batchesSentKey], "%d-%d", &p.first, &p.last)
		require.NoError(t, err, "%s snapshot %d: %s", name, sn.SnapshotID, batchesSentKey)
		require.LessOrEqual(t, p.first, p.last, name)
		p.ts, p.timing = sn.TimestampMs, sn.Summary.Properties[paneTimingKey]
		panes = append(panes, p)
	}
	// Panes in firing order: a pane's batches were all sent before the
	// next pane's, whatever order the panes committed in.
	slices.SortFunc(panes, func(a, b pane) int { return int(a.last - b.last) })
	f := trigger.Milliseconds()
	for k, p := range panes {
		if k > 0 {
			require.LessOrEqual(t, panes[k-1].last, p.first, "%s: panes hold batches of disjoint periods", name)
		}
		end := p.first + f
		if k > 0 {
			end = min(end, panes[k-1].last+f)
		}
		if k == len(panes)-1 {
			require.Equal(t, "ontime", p.timing, "%s: the last pane closes with the input", name)
			end = min(end, p.last)
		} else {
			require.Equal(t, "early", p.timing, name)
		}
		latency := time.Duration(p.ts-end) * time.Millisecond
		t.Logf("%s pane %d: committed %v after its window end", name, k, latency)
		require.True(t, latency >= 0 && latency < 10*time.Second, "%s pane %d: committed %v after its window end", name, k, latency)
	}
}

// A pane's commit id comes from its chunks, not from the writer, window and
// pane index: running the same job again is new data, not a replay (only a
// runner's redelivery of the same pane is), so an append lands twice.
func TestPipelineRerunWithSameWriterAppendsAgain(t *testing.T) {
	cat := launch(t)
	rows := tripsV1(700)
	cfg := Config{Catalog: cat, Table: "taxi.rerun", WriterID: "nightly-2026-11-29"}
	res, m := runWriteMetrics(t, cfg, rows)
	require.Len(t, res, 1)
	require.False(t, res[0].Skipped)
	require.Equal(t, map[string]int64{"rows": 700, "files": 1, "bytes": res[0].Bytes, "commits": 1,
		"commit_latency_ms.count": 1}, m)

	res2, m := runWriteMetrics(t, cfg, rows)
	require.Len(t, res2, 1)
	require.False(t, res2[0].Skipped)
	require.NotEqual(t, res[0].CommitID, res2[0].CommitID)
	require.EqualValues(t, 700, m["rows"])

	tbl := loadTable(t, openCat(t, cat), "taxi.rerun")
	got := readRows[tripV1](t, tbl)
	sortTrips(got)
	want := append(slices.Clone(rows), rows...)
	sortTrips(want)
	require.Equal(t, want, got)
	// What the writer committed, over both runs: 2 commits of 700 rows.
	commits, n, ok := CommittedBy(tbl, "nightly-2026-11-29")
	require.True(t, ok)
	require.Equal(t, [2]int64{2, 1400}, [2]int64{commits, n})
	_, _, ok = CommittedBy(tbl, "another-writer")
	require.False(t, ok)
}
