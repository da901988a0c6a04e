package icebergio

// Commits across tables (Config.CommitTogether): every table a pane
// touched commits in one multi-table transaction, so that a reader never
// sees one table's part of a pane without the others'.
//
// The encode step keys every element by one key instead of by table, and
// carries the table in the element (tagDest), so one committer gets the
// whole pane. It splits the pane by table, collapses and stages each
// table's changes on every core, and sends them in one request to POST
// /v1/{prefix}/transactions/commit (commit.Together). Every table's
// snapshot carries the pane's one commit id, a hash over all its chunks,
// so a replayed pane is found in its tables and skipped, as a pane of one
// table is. A catalog that does not serve the endpoint gets the tables'
// commits one by one, each still exactly once.

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/transforms/internal/commit"
)

func init() {
	register.DoFn3x0[string, []byte, func(string, []byte)](&tagDestFn{})
	register.DoFn5x1[context.Context, beam.PaneInfo, string, func(*[]byte) bool, func(CommitResult), error](&commitTogetherFn{})
}

// tableByTableCounter counts panes of several tables committed table by
// table because the catalog does not commit them together.
var tableByTableCounter = beam.NewCounter("icebergio", "table_by_table_commits")

// destMagic starts an element that carries its table (tagDest).
const destMagic = "IBD1"

// tagDest is b, an element of table dest, as an element of the one key
// of a pane committed together.
func tagDest(dest string, b []byte) []byte {
	out := make([]byte, 0, len(destMagic)+binary.MaxVarintLen64+len(dest)+len(b))
	out = append(out, destMagic...)
	out = binary.AppendUvarint(out, uint64(len(dest)))
	out = append(out, dest...)
	return append(out, b...)
}

// untagDest splits a tagDest element into its table and the element.
func untagDest(b []byte) (dest string, elem []byte, err error) {
	if !bytes.HasPrefix(b, []byte(destMagic)) {
		return "", nil, fmt.Errorf("icebergio: an element of a pane committed together without its table (%d bytes; a pipeline of another icebeam version?)", len(b))
	}
	b = b[len(destMagic):]
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) {
		return "", nil, errors.New("icebergio: an element of a pane committed together: truncated table name")
	}
	return string(b[k : k+int(n)]), b[k+int(n):], nil
}

// GroupTable is the table name under which WriteTables takes a group
// (EncodeGroup) instead of one table's batch.
const GroupTable = ""

// GroupPart is one table's batch (EncodeRecords or EncodeRecordsFrom) in
// a group.
type GroupPart struct {
	Table   string
	Records []byte
}

// groupMagic starts a group, and the element of its chunks.
const groupMagic = "IBG1"

// EncodeGroup is batches of several tables as one element of WriteTables
// with CommitTogether (under GroupTable): they land in one pane, never
// split across two commits, in the order given.
func EncodeGroup(parts []GroupPart) []byte {
	blobs := make([][]byte, 0, 2*len(parts))
	for _, p := range parts {
		blobs = append(blobs, []byte(p.Table), p.Records)
	}
	return appendBlobs([]byte(groupMagic), blobs)
}

func decodeGroup(b []byte) ([]GroupPart, error) {
	if !bytes.HasPrefix(b, []byte(groupMagic)) {
		return nil, fmt.Errorf("icebergio: an element under GroupTable that is not a group (%d bytes)", len(b))
	}
	blobs, err := splitBlobs(b[len(groupMagic):])
	if err != nil || len(blobs)%2 != 0 {
		return nil, fmt.Errorf("icebergio: a malformed group (%d bytes): %v", len(b), err)
	}
	parts := make([]GroupPart, 0, len(blobs)/2)
	for i := 0; i < len(blobs); i += 2 {
		parts = append(parts, GroupPart{Table: string(blobs[i]), Records: blobs[i+1]})
	}
	return parts, nil
}

// appendBlobs appends each blob, length first, to b.
func appendBlobs(b []byte, blobs [][]byte) []byte {
	for _, x := range blobs {
		b = binary.AppendUvarint(b, uint64(len(x)))
		b = append(b, x...)
	}
	return b
}

// splitBlobs reverses appendBlobs (without its prefix).
func splitBlobs(b []byte) ([][]byte, error) {
	var out [][]byte
	for len(b) > 0 {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(len(b)-k) {
			return nil, errors.New("truncated")
		}
		out = append(out, b[k:k+int(n)])
		b = b[k+int(n):]
	}
	return out, nil
}

// tagDestFn keys the encode step's elements by Key, the one key of the
// pane, each carrying its table.
type tagDestFn struct {
	Key string
}

func (f *tagDestFn) ProcessElement(dest string, b []byte, emit func(string, []byte)) {
	if dest == GroupTable {
		emit(f.Key, b) // its chunks carry their tables
		return
	}
	emit(f.Key, tagDest(dest, b))
}

// tableRows is one table of WriteTables: its configuration and records.
type tableRows struct {
	Cfg  Config
	Rows sinkRows
}

// commitTogetherFn commits a pane of every table it touched together. A
// table listed in Tables is committed by its own configuration, any
// other (a template's) by Cfg.
type commitTogetherFn struct {
	Cfg       Config
	Rows      sinkRows
	Tables    []tableRows
	Unbounded bool

	sink   *sink
	tables map[string]*sink
}

func (f *commitTogetherFn) Setup(ctx context.Context) (err error) {
	if f.sink, err = openSink(ctx, f.Cfg, f.Rows); err != nil {
		return err
	}
	f.tables = map[string]*sink{}
	for _, t := range f.Tables {
		if f.tables[t.Cfg.Table], err = openSink(ctx, t.Cfg, t.Rows); err != nil {
			return err
		}
	}
	return nil
}

func (f *commitTogetherFn) sinkOf(dest string) *sink {
	if s, ok := f.tables[dest]; ok {
		return s
	}
	return f.sink
}

func (f *commitTogetherFn) ProcessElement(ctx context.Context, pane beam.PaneInfo, _ string, elems func(*[]byte) bool, emit func(CommitResult)) error {
	byDest := map[string][][]byte{}
	add := func(b []byte) error {
		dest, elem, err := untagDest(b)
		if err == nil {
			byDest[dest] = append(byDest[dest], elem)
		}
		return err
	}
	var b []byte
	for elems(&b) {
		if !bytes.HasPrefix(b, []byte(groupMagic)) {
			if err := add(b); err != nil {
				return err
			}
			b = nil
			continue
		}
		parts, err := splitBlobs(b[len(groupMagic):])
		if err != nil {
			return fmt.Errorf("icebergio: a group's chunks: %w", err)
		}
		for _, p := range parts {
			if err := add(p); err != nil {
				return err
			}
		}
		b = nil
	}
	panes := make([]tablePane, 0, len(byDest))
	for _, dest := range slices.Sorted(maps.Keys(byDest)) {
		tp := tablePane{dest: dest, sink: f.sinkOf(dest)}
		tp.all, tp.err = gatherChunks(decodeChunks(paneOf(byDest[dest]), &tp.sent))
		tp.summary = paneSummary(f.Unbounded, pane, &tp.sent)
		panes = append(panes, tp)
	}
	results, err := commitTogether(ctx, f.sink.cat, f.Cfg, panes)
	for _, r := range results {
		emit(r)
	}
	return err
}

// paneOf hands blobs to decodeChunks, as the runner's iterator would.
func paneOf(blobs [][]byte) func(*[]byte) bool {
	i := 0
	return func(p *[]byte) bool {
		if i == len(blobs) {
			return false
		}
		*p = blobs[i]
		blobs[i] = nil
		i++
		return true
	}
}

// tablePane is one table's part of a pane committed together.
type tablePane struct {
	dest    string
	sink    *sink
	all     []*chunk
	err     error // decoding its chunks
	sent    sentTimes
	summary func() iceberg.Properties
}

// commitTogether commits panes, the parts of one pane by table (in table
// order), under one commit id: in one multi-table transaction where the
// catalog serves it, else table by table. cfg is the pane's configuration
// (its writer id, catalog and limits).
func commitTogether(ctx context.Context, cat icecatalog.Catalog, cfg Config, panes []tablePane) ([]CommitResult, error) {
	var ids []chunkID
	for _, tp := range panes {
		if tp.err != nil {
			return nil, fmt.Errorf("icebergio: table %s: %w", tp.dest, tp.err)
		}
		ids = append(ids, chunkIDs(tp.all)...)
	}
	commitID := paneCommitID(cfg.WriterID, ids)
	// In table order: two committers of overlapping tables never wait
	// for each other's locks.
	for _, tp := range panes {
		defer lockTable(cfg.Catalog.URI + " " + tp.dest)()
	}
	prepared := make([]*rowCommit, len(panes))
	results := make([]CommitResult, len(panes))
	errs := make([]error, len(panes))
	start := time.Now()
	limit := make(chan struct{}, max(cfg.ConcurrentCommits, 1))
	var wg sync.WaitGroup
	for i, tp := range panes {
		limit <- struct{}{}
		wg.Go(func() {
			defer func() { <-limit }()
			prepared[i], results[i], errs[i] = tp.sink.prepareRows(ctx, start, tp.dest, tp.all, commitID, tp.summary)
		})
	}
	wg.Wait()
	var rcs []*rowCommit
	var at []int // rcs[j] is panes[at[j]]
	for i, rc := range prepared {
		if rc != nil {
			defer rc.release()
			rcs, at = append(rcs, rc), append(at, i)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if len(rcs) == 0 {
		return results, nil
	}
	reqs := make([]commit.Request, len(rcs))
	for j, rc := range rcs {
		reqs[j] = rc.request()
	}
	var dones []commit.Result
	var err error
	together := len(rcs) > 1 && transactional(ctx, cat, cfg.Catalog.URI)
	if together {
		dones, err = commit.Together(ctx, cat, fmt.Sprintf("icebergio: tables %s commit %s", tableNames(rcs), commitID), reqs)
		if errors.Is(err, commit.ErrNoTransactions) {
			noTransactions(ctx, cfg.Catalog.URI, err)
			together = false
		}
	}
	if !together {
		if len(rcs) > 1 {
			tableByTableCounter.Inc(ctx, 1)
		}
		return commitEach(ctx, cat, rcs, reqs, at, results)
	}
	for j, rc := range rcs {
		var done commit.Result
		if dones != nil {
			done = dones[j]
		}
		res, ferr := rc.finish(ctx, done, err)
		res.Together = ferr == nil && !res.Skipped && res.SnapshotID != 0
		results[at[j]], errs[at[j]] = res, ferr
	}
	if err != nil {
		return nil, err
	}
	return results, errors.Join(errs...)
}

// commitEach commits the prepared tables one by one, each exactly once,
// into results[at[j]].
func commitEach(ctx context.Context, cat icecatalog.Catalog, rcs []*rowCommit, reqs []commit.Request, at []int, results []CommitResult) ([]CommitResult, error) {
	var errs []error
	for j, rc := range rcs {
		done, err := commit.Commit(ctx, cat, reqs[j])
		res, err := rc.finish(ctx, done, err)
		results[at[j]] = res
		errs = append(errs, err)
	}
	return results, errors.Join(errs...)
}

func tableNames(rcs []*rowCommit) string {
	names := make([]string, len(rcs))
	for i, rc := range rcs {
		names[i] = rc.dest
	}
	return strings.Join(names, ",")
}

// nonTransactional holds the catalogs (by URI) found not to commit several
// tables in one transaction, with why: asked once per process.
var nonTransactional sync.Map

// transactional reports whether cat commits several tables in one
// transaction, as far as can be told without sending a commit: an
// iceberg-go rest.Catalog checks the endpoints the server advertised
// before it reads the request, so a request naming no table fails with
// ErrEndpointNotSupported when the endpoint is not advertised, and with a
// missing identifier when it is, sending nothing either way.
func transactional(ctx context.Context, cat icecatalog.Catalog, uri string) bool {
	if _, ok := nonTransactional.Load(uri); ok {
		return false
	}
	tc, ok := cat.(icecatalog.TransactionalCatalog)
	if !ok {
		noTransactions(ctx, uri, fmt.Errorf("catalog type %s has no multi-table commits", cat.CatalogType()))
		return false
	}
	if err := tc.CommitTransaction(ctx, []table.TableCommit{{}}); !errors.Is(err, icecatalog.ErrMissingIdentifier) {
		noTransactions(ctx, uri, err)
		return false
	}
	return true
}

// noTransactions records, and logs once, that the catalog at uri commits
// tables one by one.
func noTransactions(ctx context.Context, uri string, why error) {
	if _, loaded := nonTransactional.LoadOrStore(uri, why); !loaded {
		log.Warnf(ctx, "icebergio: catalog %s does not commit several tables in one transaction (%v): the tables of a pane commit one by one, each exactly once, and a reader may see one table's part of a pane before another's", uri, why)
	}
}

func init() {
	register.DoFn4x1[context.Context, string, []byte, func(string, []byte), error](&encodeTablesFn{})
	register.DoFn3x0[string, []byte, func([]byte)](&selectTableFn{})
}

// TableRecords is one table of WriteTables: its configuration
// (Config.Table names it) and the schema of its records.
type TableRecords struct {
	Config Config
	Schema *arrow.Schema
}

// WriteTables is WriteRecords for several tables of different columns:
// records holds KV<string, []byte>, WriteRecords' elements keyed by their
// table, one of tables' Config.Table (batches of other tables are left
// out). The tables share the first one's catalog, writer id, triggering
// frequency and CommitTogether. With CommitTogether the tables a pane
// touched commit together (see Config.CommitTogether); without it each
// table commits on its own, as WriteRecords does. Invalid configuration
// panics at construction.
func WriteTables(s beam.Scope, tables []TableRecords, records beam.PCollection) beam.PCollection {
	s = s.Scope("icebergio.WriteTables")
	if len(tables) == 0 {
		panic("icebergio: WriteTables of no tables")
	}
	first := tables[0].Config.withDefaults()
	var trs []tableRows
	for _, t := range tables {
		cfg := t.Config
		if cfg.WriterID == "" {
			cfg.WriterID = first.WriterID
		}
		cfg = cfg.withDefaults()
		if cfg.Catalog.URI != first.Catalog.URI || cfg.WriterID != first.WriterID || cfg.TriggeringFrequency != first.TriggeringFrequency || cfg.CommitTogether != first.CommitTogether {
			panic(fmt.Sprintf("icebergio: WriteTables: table %s: the tables must share their catalog, writer id, triggering frequency and CommitTogether (%s's differ)", cfg.Table, cfg.Table))
		}
		sr, err := recordsRows(cfg, t.Schema)
		if err != nil {
			panic(err)
		}
		trs = append(trs, tableRows{Cfg: cfg, Rows: sr})
	}
	if !first.CommitTogether {
		var out []beam.PCollection
		for i, t := range trs {
			rows := beam.ParDo(s.Scope("Select "+t.Cfg.Table), &selectTableFn{Table: t.Cfg.Table}, records)
			out = append(out, WriteRecords(s.Scope("Write "+t.Cfg.Table), t.Cfg, tables[i].Schema, rows))
		}
		return beam.Flatten(s, out...)
	}
	return writeChunks(s, trs[0].Cfg, records, &encodeTablesFn{Tables: trs}, trs[0].Rows, trs...)
}

// selectTableFn passes on the batches of one table.
type selectTableFn struct {
	Table string
}

func (f *selectTableFn) ProcessElement(table string, b []byte, emit func([]byte)) {
	if table == f.Table {
		emit(b)
	}
}

// encodeTablesFn is the encode step of WriteTables: each table's batches
// encoded as WriteRecords encodes them.
type encodeTablesFn struct {
	Tables []tableRows

	fns map[string]*encodeRecordsFn
}

func (f *encodeTablesFn) Setup() error {
	f.fns = map[string]*encodeRecordsFn{}
	for _, t := range f.Tables {
		fn := &encodeRecordsFn{Cfg: t.Cfg, Rows: t.Rows}
		if err := fn.Setup(); err != nil {
			return err
		}
		f.fns[t.Cfg.Table] = fn
	}
	return nil
}

func (f *encodeTablesFn) ProcessElement(ctx context.Context, table string, b []byte, emit func(string, []byte)) error {
	if table == GroupTable {
		return f.group(ctx, b, emit)
	}
	if fn, ok := f.fns[table]; ok {
		return fn.ProcessElement(ctx, b, emit)
	}
	return nil
}

// group encodes a group's batches and sends their chunks on as one
// element (GroupTable): an element is never split across panes. The
// chunks of the bundle's batches before it go first, on their own.
func (f *encodeTablesFn) group(ctx context.Context, b []byte, emit func(string, []byte)) error {
	if err := f.FinishBundle(ctx, emit); err != nil {
		return err
	}
	parts, err := decodeGroup(b)
	if err != nil {
		return err
	}
	var out [][]byte
	keep := func(dest string, chunk []byte) { out = append(out, tagDest(dest, chunk)) }
	for _, p := range parts {
		fn, ok := f.fns[p.Table]
		if !ok {
			return fmt.Errorf("icebergio: a group holds table %s, which WriteTables does not write", p.Table)
		}
		if err := fn.ProcessElement(ctx, p.Records, keep); err != nil {
			return err
		}
	}
	if err := f.FinishBundle(ctx, keep); err != nil {
		return err
	}
	emit(GroupTable, appendBlobs([]byte(groupMagic), out))
	return nil
}

func (f *encodeTablesFn) FinishBundle(ctx context.Context, emit func(string, []byte)) error {
	for _, t := range f.Tables {
		if err := f.fns[t.Cfg.Table].FinishBundle(ctx, emit); err != nil {
			return err
		}
	}
	return nil
}
