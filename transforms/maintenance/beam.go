package maintenance

import (
	"context"
	"fmt"
	"reflect"
	"sync"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"
	"golang.org/x/sync/errgroup"

	"github.com/icebeam/icebeam/catalog"
)

func init() {
	register.DoFn3x1[context.Context, []byte, func([]byte), error](&planFn{})
	register.DoFn3x1[context.Context, []byte, func([]byte), error](&rewriteFn{})
	register.DoFn4x1[context.Context, int, func(*[]byte) bool, func([]byte), error](&commitFn{})
	register.Emitter1[[]byte]()
	register.Iter1[[]byte]()
	beam.RegisterType(reflect.TypeOf((*planFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*rewriteFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*commitFn)(nil)).Elem())
}

var (
	groupsCounter = beam.NewCounter("maintenance", "groups_rewritten")
	filesIn       = beam.NewCounter("maintenance", "files_rewritten")
	filesOut      = beam.NewCounter("maintenance", "files_written")
)

// RewriteDataFiles is the compaction of plan as a Beam pipeline: one worker
// plans the groups again on the plan's snapshot (so that the job graph
// holds no file list, whatever the table's size), a Reshuffle spreads them
// over workers, each worker rewrites its groups (RewriteGroup) and passes
// on descriptions of the files it wrote, and one committer commits them all
// as one replace snapshot (CommitRewrite). It returns the committer's
// output, one element once the rewrite is committed: the snapshot id as a
// decimal string in bytes.
func RewriteDataFiles(s beam.Scope, cfg catalog.Config, plan *RewritePlan) beam.PCollection {
	s = s.Scope("maintenance.RewriteDataFiles")
	on := onTable{Catalog: cfg, Table: plan.Table}
	groups := beam.ParDo(s, &planFn{onTable: on, SnapshotID: plan.SnapshotID,
		Target: plan.TargetFileSize, MinInputFiles: plan.MinInputFiles}, beam.Impulse(s))
	groups = beam.Reshuffle(s, groups)
	results := beam.ParDo(s, &rewriteFn{onTable: on, Target: plan.TargetFileSize}, groups)
	all := beam.GroupByKey(s, beam.AddFixedKey(s, results))
	return beam.ParDo(s, &commitFn{onTable: on, RunID: plan.RunID, SnapshotID: plan.SnapshotID}, all)
}

// onTable is what each DoFn of the rewrite holds first: the table it works
// on, in the catalog as workers reach it.
type onTable struct {
	Catalog catalog.Config `json:"catalog"`
	Table   string         `json:"table"`
}

// load opens the catalog (cached per process) and loads the table.
func (o onTable) load(ctx context.Context) (icecatalog.Catalog, *table.Table, error) {
	ident, err := catalog.ParseTable(o.Table)
	if err != nil {
		return nil, nil, err
	}
	cat, err := catalog.Open(ctx, o.Catalog)
	if err != nil {
		return nil, nil, err
	}
	tbl, err := cat.LoadTable(ctx, ident)
	if err != nil {
		return nil, nil, fmt.Errorf("loading table %s: %w", o.Table, err)
	}
	return cat, tbl, nil
}

// planFn plans the rewrite of a snapshot and emits its groups' descriptions.
type planFn struct {
	onTable
	SnapshotID    int64 `json:"snapshot_id"`
	Target        int64 `json:"target"`
	MinInputFiles int   `json:"min_input_files"`
}

func (f *planFn) ProcessElement(ctx context.Context, _ []byte, emit func([]byte)) error {
	_, tbl, err := f.load(ctx)
	if err != nil {
		return err
	}
	if tbl.SnapshotByID(f.SnapshotID) == nil {
		return fmt.Errorf("table %s: snapshot %d the rewrite was planned on is gone (expired while the job started?)", f.Table, f.SnapshotID)
	}
	plan, err := planAt(ctx, tbl, &RewritePlan{Table: f.Table, TargetFileSize: f.Target, MinInputFiles: f.MinInputFiles}, f.SnapshotID)
	if err != nil {
		return err
	}
	log.Infof(ctx, "maintenance: table %s: %d rewrite groups planned on snapshot %d", f.Table, len(plan.Groups), f.SnapshotID)
	for _, g := range plan.Groups {
		b, err := encodeGroup(tbl.Metadata(), g)
		if err != nil {
			return fmt.Errorf("table %s: describing group %s: %w", f.Table, g.Partition, err)
		}
		emit(b)
	}
	return nil
}

// rewriteFn rewrites one group and emits the description of its result.
type rewriteFn struct {
	onTable
	Target int64 `json:"target"`
}

func (f *rewriteFn) ProcessElement(ctx context.Context, desc []byte, emit func([]byte)) error {
	_, tbl, err := f.load(ctx)
	if err != nil {
		return err
	}
	g, err := decodeGroup(tbl.Metadata(), desc)
	if err != nil {
		return fmt.Errorf("table %s: %w", f.Table, err)
	}
	res, err := RewriteGroup(ctx, tbl, g, f.Target)
	if err != nil {
		return fmt.Errorf("table %s: %w", f.Table, err)
	}
	b, err := encodeResult(tbl.Metadata(), res)
	if err != nil {
		removeDataFiles(ctx, tbl, res.New)
		return fmt.Errorf("table %s: describing the files of group %s: %w", f.Table, g.Partition, err)
	}
	groupsCounter.Inc(ctx, 1)
	filesIn.Inc(ctx, int64(len(res.Old)))
	filesOut.Inc(ctx, int64(len(res.New)))
	log.Infof(ctx, "maintenance: table %s group %s: %d files (%s) rewritten as %d (%s)", f.Table, g.Partition,
		len(res.Old), formatBytes(res.BytesBefore), len(res.New), formatBytes(res.BytesAfter))
	emit(b)
	return nil
}

// commitFn commits every group's result as one snapshot.
type commitFn struct {
	onTable
	RunID      string `json:"run_id"`
	SnapshotID int64  `json:"snapshot_id"`
}

func (f *commitFn) ProcessElement(ctx context.Context, _ int, descs func(*[]byte) bool, emit func([]byte)) error {
	cat, tbl, err := f.load(ctx)
	if err != nil {
		return err
	}
	var results []GroupResult
	var b []byte
	for descs(&b) {
		r, err := decodeResult(tbl.Metadata(), b)
		if err != nil {
			return fmt.Errorf("table %s: %w", f.Table, err)
		}
		results = append(results, r)
	}
	rep, err := CommitRewrite(ctx, cat, tbl.Identifier(), f.RunID, f.SnapshotID, results)
	if err != nil {
		return err
	}
	log.Infof(ctx, "maintenance: table %s: rewrite committed as snapshot %d (attempt %d)", f.Table, rep.SnapshotID, rep.Attempt)
	emit(fmt.Appendf(nil, "%d", rep.SnapshotID))
	return nil
}

// OnBeam is the Executor that runs the rewrite as the pipeline
// RewriteDataFiles builds, through run (beamx.Run in a pipeline main), and
// reads what it committed back from the table: the job's own output does
// not come back to the launcher on every runner. run reports whether the
// job has finished (not when it was only submitted: --async, templates).
// cfg is the catalog as workers reach it (after launch.Catalog in the main).
func OnBeam(cfg catalog.Config, run func(context.Context, *beam.Pipeline) (finished bool, err error)) Executor {
	return func(ctx context.Context, cat icecatalog.Catalog, plan *RewritePlan) (*RewriteReport, error) {
		p, s := beam.NewPipelineWithRoot()
		RewriteDataFiles(s, cfg, plan)
		finished, err := run(ctx, p)
		if err != nil {
			return nil, err
		}
		if !finished {
			rep := plan.report()
			rep.Submitted = true
			return rep, nil
		}
		ident, _ := catalog.ParseTable(plan.Table)
		tbl, err := cat.LoadTable(ctx, ident)
		if err != nil {
			return nil, fmt.Errorf("loading table %s after the rewrite: %w", plan.Table, err)
		}
		if snap := landed(tbl, plan.RunID); snap != nil {
			return reportFromSnapshot(tbl, snap), nil
		}
		// The workers' plan found no group (bin-packing the same files in
		// another order can leave a partition short of --min_input_files):
		// nothing was committed.
		log.Infof(ctx, "maintenance: table %s: the rewrite job committed nothing", plan.Table)
		return &RewriteReport{Planned: true, SnapshotID: plan.SnapshotID,
			TableFilesBefore: int64(plan.TableFiles), TableBytesBefore: plan.TableBytes,
			TableFilesAfter: -1, TableBytesAfter: -1}, nil
	}
}

// InProcess is the Executor that rewrites up to parallelism groups at once
// on goroutines of this process, then commits them (CommitRewrite): the
// same steps as the pipeline, for `icebeam maintain`. A failed group fails
// the rewrite and the files the others wrote are deleted.
func InProcess(parallelism int) Executor {
	return func(ctx context.Context, cat icecatalog.Catalog, plan *RewritePlan) (*RewriteReport, error) {
		ident, err := catalog.ParseTable(plan.Table)
		if err != nil {
			return nil, err
		}
		tbl, err := cat.LoadTable(ctx, ident)
		if err != nil {
			return nil, fmt.Errorf("loading table %s: %w", plan.Table, err)
		}
		results := make([]GroupResult, len(plan.Groups))
		var mu sync.Mutex
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(max(1, parallelism))
		for i, group := range plan.Groups {
			g.Go(func() error {
				r, err := RewriteGroup(gctx, tbl, group, plan.TargetFileSize)
				mu.Lock()
				results[i] = r
				mu.Unlock()
				return err
			})
		}
		if err := g.Wait(); err != nil {
			for _, r := range results {
				removeDataFiles(ctx, tbl, r.New)
			}
			return nil, fmt.Errorf("table %s: %w", plan.Table, err)
		}
		return CommitRewrite(ctx, cat, ident, plan.RunID, plan.SnapshotID, results)
	}
}
