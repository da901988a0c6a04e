// Package taxi owns the NYC TLC yellow-taxi daily aggregation of the seed
// tutorial's taxi_to_iceberg.py: it reads trip records from Parquet files
// (local or gs://, in any of the TLC layouts from older years to 2025), keeps
// the trips Spark's filter keeps, and computes per (trip_date, payment_type)
// the same counts, sums and Spark-rounded averages, as a columnar Beam
// transform whose shuffle carries per-group partial aggregates rather than
// rows. It also writes synthetic sample files in the real TLC layouts.
package taxi

import (
	"cmp"
	"context"
	"fmt"
	"reflect"
	"sync"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/icebeam/icebeam/catalog/fileio"
)

// DailyStat is one output row: the seed's aggregates for one
// (trip_date, payment_type). Pointers are values Spark can leave NULL:
// trip_date when the pickup time is NULL, payment_type when it is NULL (a
// group of its own), avg_tip_percentage when every tip_amount of the group
// is NULL, total_revenue when every total_amount is NULL. The other fields
// are never NULL (the filter rejects NULL distances and fares) but are
// optional columns all the same, as in the table Spark writes, so that
// either job can createOrReplace the other's table.
type DailyStat struct {
	TripDate         *int32   `beam:"trip_date" iceberg:"date"` // days since 1970-01-01
	PaymentType      *int64   `beam:"payment_type"`
	TotalTrips       int64    `beam:"total_trips" iceberg:"optional"`
	TotalPassengers  int64    `beam:"total_passengers" iceberg:"optional"`
	AvgDistance      float64  `beam:"avg_distance" iceberg:"optional"`
	AvgFare          float64  `beam:"avg_fare" iceberg:"optional"`
	AvgTipPercentage *float64 `beam:"avg_tip_percentage"`
	TotalRevenue     *float64 `beam:"total_revenue"`
}

func init() {
	register.DoFn3x1[context.Context, []byte, func(rowGroup), error](&expandFn{})
	register.DoFn3x1[context.Context, rowGroup, func(string, partial), error](&aggregateFn{})
	register.Combiner1[partial](&mergeFn{})
	register.Function2x2(finish)
	register.Emitter1[rowGroup]()
	register.Emitter2[string, partial]()
	beam.RegisterType(reflect.TypeFor[DailyStat]())
	beam.RegisterType(reflect.TypeFor[rowGroup]())
	beam.RegisterType(reflect.TypeFor[partial]())
	beam.RegisterType(reflect.TypeFor[rowGroupSums]())
}

// DailyStats reads the trips in input (a file, a directory of *.parquet
// files or a glob; local or gs://, see fileio.Match) and returns a
// PCollection<DailyStat> with one element per (trip_date, payment_type).
//
// The input is expanded when the pipeline runs, on a worker, and every file
// is checked there before any row is read: a pattern matching nothing, a
// file that is not Parquet, a missing needed column or one of an unusable
// type (for example a string fare_amount) fails the pipeline with an error
// naming the file and the column.
//
// Double sums follow Spark's order where it is knowable, since an average
// within an ulp of a .xx5 tie rounds the way the summation order makes it:
// plain sums in row order within each row group from 0.0, then the row
// groups' sums folded in (file path, row group) order from 0.0, however the
// runner bundles the work. That is Spark's result whenever each of Spark's
// input splits holds a group's rows in one row group (as for the tie-prone
// small groups) or splits are single row groups.
//
// Timestamps stored as UTC instants (INT96, isAdjustedToUTC) give their UTC
// date, as Spark does with a UTC session time zone. A floating
// passenger_count (older files) must hold whole numbers and is summed as an
// integer, where Spark would produce a double total_passengers.
func DailyStats(s beam.Scope, input string) beam.PCollection {
	s = s.Scope("taxi.DailyStats")
	groups := beam.ParDo(s, &expandFn{Input: input}, beam.Impulse(s))
	groups = beam.Reshuffle(s, groups) // spread row groups across workers
	partials := beam.ParDo(s, &aggregateFn{}, groups)
	merged := beam.CombinePerKey(s, &mergeFn{}, partials)
	return beam.ParDo(s, finish, merged)
}

// CheckInput checks here and now what DailyStats checks on a worker before
// reading a row: that input names files, and that each is Parquet with
// every needed column in a usable type. It returns how many files input
// names. A launcher calls it to fail in a moment, not after building and
// starting a job.
func CheckInput(ctx context.Context, input string) (int, error) {
	files, err := fileio.Match(ctx, input)
	if err != nil {
		return 0, fmt.Errorf("taxi: %w", err)
	}
	for _, fi := range files {
		tf, err := openTaxiFile(ctx, fi.Path)
		if err != nil {
			return 0, err
		}
		tf.Close()
	}
	return len(files), nil
}

// rowGroup is the unit of work: one row group of one file.
type rowGroup struct {
	Path  string `beam:"path"`
	File  int64  `beam:"file"` // position of Path among the input files, in path order
	Index int64  `beam:"index"`
}

// expandFn turns the input pattern into row groups, checking each file.
type expandFn struct {
	Input string `json:"input"`
}

func (fn *expandFn) ProcessElement(ctx context.Context, _ []byte, emit func(rowGroup)) error {
	files, err := fileio.Match(ctx, fn.Input)
	if err != nil {
		return fmt.Errorf("taxi: %w", err)
	}
	for fileIdx, fi := range files {
		tf, err := openTaxiFile(ctx, fi.Path)
		if err != nil {
			return err
		}
		for i := range tf.pf.NumRowGroups() {
			if tf.pf.MetaData().RowGroup(i).NumRows() > 0 {
				emit(rowGroup{Path: fi.Path, File: int64(fileIdx), Index: int64(i)})
			}
		}
		tf.Close()
	}
	return nil
}

// aggregateFn folds the rows of each row group of its bundle into one
// accumulator per group, collects them into one partial per group and emits
// those when the bundle ends: memory is the needed columns of the row groups
// in flight (read in batches) plus the groups' per-row-group sums.
//
// Row groups are read in the background, rowGroupsInFlight at a time: each
// row group's fold is sequential (row order is the summation order), and
// row groups are independent (their sums stay apart until finish sorts
// them), so two of them keep both cores of a small worker busy where one
// leaves a core idle whenever the fold waits for its slowest column and
// between row groups (prism hands a worker every row group in one bundle).
type aggregateFn struct {
	bundle *rowGroupWork
}

// rowGroupsInFlight is the row groups an aggregateFn reads at once.
const rowGroupsInFlight = 2

// rowGroupWork is one bundle's row groups. Its goroutines hold it, not the
// DoFn: one left running by a failed bundle must not touch the next's.
type rowGroupWork struct {
	ctx    context.Context // the bundle's, for the reads in the background
	slots  chan struct{}   // a token per row group in flight
	wg     sync.WaitGroup
	mu     sync.Mutex
	groups map[groupKey]*partial // under mu
	err    error                 // the first failure; under mu
}

func (fn *aggregateFn) StartBundle(ctx context.Context, _ func(string, partial)) {
	fn.bundle = &rowGroupWork{
		ctx:    ctx,
		slots:  make(chan struct{}, rowGroupsInFlight),
		groups: map[groupKey]*partial{},
	}
}

func (fn *aggregateFn) ProcessElement(_ context.Context, rg rowGroup, _ func(string, partial)) error {
	w := fn.bundle
	select {
	case w.slots <- struct{}{}:
	case <-w.ctx.Done():
		return w.ctx.Err()
	}
	w.mu.Lock()
	err := w.err
	w.mu.Unlock()
	if err != nil {
		<-w.slots
		return err
	}
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		accs, err := aggregate(w.ctx, rg)
		w.mu.Lock()
		if err != nil {
			w.err = cmp.Or(w.err, err)
		} else {
			addRowGroup(w.groups, accs)
		}
		w.mu.Unlock()
		<-w.slots
	}()
	return nil
}

// aggregate reads and folds one row group. A panic becomes its error, as
// the runner would have made it of one in ProcessElement: here it would
// end the worker.
func aggregate(ctx context.Context, rg rowGroup) (_ map[groupKey]*rowGroupAcc, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("taxi: %s: row group %d: %v", rg.Path, rg.Index, r)
		}
	}()
	tf, err := openTaxiFile(ctx, rg.Path)
	if err != nil {
		return nil, err
	}
	defer tf.Close()
	if int(rg.Index) >= tf.pf.NumRowGroups() {
		return nil, fmt.Errorf("taxi: %s: row group %d is gone; the file changed while the pipeline ran", rg.Path, rg.Index)
	}
	return tf.aggregateRowGroup(ctx, rg.File, int(rg.Index))
}

// addRowGroup adds one row group's accumulators to a bundle's partials.
func addRowGroup(groups map[groupKey]*partial, accs map[groupKey]*rowGroupAcc) {
	for k, a := range accs {
		p := groups[k]
		if p == nil {
			p = new(partial)
			groups[k] = p
		}
		p.Trips += a.trips
		p.Passengers += a.passengers
		p.TipPctN += a.tipPctN
		p.RevenueN += a.revenueN
		p.Sums = append(p.Sums, a.sums)
	}
}

func (fn *aggregateFn) FinishBundle(_ context.Context, emit func(string, partial)) error {
	w := fn.bundle
	fn.bundle = nil
	w.wg.Wait()
	if w.err != nil {
		return w.err
	}
	for k, p := range w.groups {
		emit(k.encode(), *p)
	}
	return nil
}

// mergeFn adds up the integer aggregates of one group and collects its
// per-row-group sums; finish folds those in order.
type mergeFn struct{}

func (mergeFn) MergeAccumulators(a, b partial) partial {
	a.merge(b)
	return a
}

func finish(key string, p partial) (DailyStat, error) {
	k, err := decodeKey(key)
	if err != nil {
		return DailyStat{}, err
	}
	return p.stats(k)
}
