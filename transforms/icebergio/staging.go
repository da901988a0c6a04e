package icebergio

// Staged chunks: a row-level write's large chunks cross the shuffle as a
// reference to a file, not as bytes.
//
// A row-level pane is every change of the window (at 200,000 changes/s
// and a 20 s trigger, 4 M changes and about 94 MB of sorted runs), and the
// committer can only start once the runner has handed it all of them. On
// prism that hand-over took 1.1 to 2.5 s after the window's end (it copies
// the bytes several times); staged, it takes tens of milliseconds, the job
// 21% less CPU, and the committer reads the runs from the table's
// storage on every core. So the encode step writes a chunk of at least
// Config.StagingThreshold bytes of Arrow buffers (by default 64 KiB: about
// 1,400 changes of a narrow table), uncompressed, to <table
// location>/staging/<chunk id>.arrows and sends only that location; smaller chunks (a template's many tables, a slow
// stream) travel inline, where a file would cost more than it saves.
//
// The encode step also holds each staged chunk's sorted run in memory
// (heldRuns), so that a committer in the same process (prism runs every
// stage in one; a Flink or Dataflow worker may run both steps) takes the
// run from there instead of reading and decoding the file: at the trigger,
// that was half of the committer's time before the merge. The file is
// written all the same; a committer elsewhere, or a replay, reads it.
//
// A table that does not exist yet the encode step creates, as the
// committer would at the table's first pane, so that the first pane is
// staged too. Staging is an optimisation the shuffle can always stand in
// for: a catalog that cannot be reached, a table that cannot be created or
// storage that refuses the write sends the chunk inline. The committer
// deletes a pane's staged files once the pane has landed (or is found to
// have landed, when the runner replays it), and before reading a replayed
// pane it looks for its commit, so a replay after the files are gone is
// skipped, not failed. Files of an encode bundle that failed and was
// retried, or of a pane that had nothing to commit, are orphans: `icebeam
// maintain --remove_orphan_files` removes them as it does other
// unreferenced files under the table's location.

import (
	"bufio"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	icecatalog "github.com/apache/iceberg-go/catalog"
	iceio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/transforms/internal/arrowipc"
)

// stageTargetTTL is how long the encode step uses a table it loaded for
// staging before loading it again (its location and storage credentials);
// a table it could not load or create is asked for again after
// stageMissingTTL.
const (
	stageTargetTTL  = 10 * time.Minute
	stageMissingTTL = 5 * time.Second
)

// stagedPath is where chunk id of a table at location is staged.
func stagedPath(location string, id chunkID) string {
	return location + "/staging/" + hex.EncodeToString(id[:]) + ".arrows"
}

// stageLoadTimeout bounds the encode step's catalog calls for staging: a
// slow catalog delays a bundle by this much at most, once a TTL.
const stageLoadTimeout = 2 * time.Second

// stager writes the encode step's large chunks to their tables' storage.
type stager struct {
	cfg   catalog.Config
	table newTable // how to create a table that does not exist

	mu      sync.Mutex
	cat     icecatalog.Catalog
	targets map[string]*stageTarget
}

// stageTarget is a table as the stager last loaded it.
type stageTarget struct {
	fs       iceio.WriteFileIO // nil: the table could not be loaded or created, or its storage cannot be written
	location string
	loaded   time.Time
	warned   bool // about a failure to load it
}

func newStager(cfg catalog.Config, t newTable) *stager {
	return &stager{cfg: cfg, table: t, targets: map[string]*stageTarget{}}
}

// put stages b, chunk id of table dest, and returns where; "" when the
// chunk must travel inline.
func (s *stager) put(ctx context.Context, dest string, id chunkID, write func(io.Writer) (int64, error)) (path string, size int64) {
	t := s.target(ctx, dest)
	if t.fs == nil {
		return "", 0
	}
	path = stagedPath(t.location, id)
	size, err := writeFile(t.fs, path, write)
	if err == nil {
		return path, size
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// Load the table again next time: its credentials may have expired.
	delete(s.targets, dest)
	log.Warnf(ctx, "icebergio: table %s: staging a chunk of changes at %s: %v; it crosses the shuffle instead", dest, path, err)
	return "", 0
}

// writeBuffers gather a file's small writes (an IPC stream's headers and
// padding); its columns' buffers pass by.
var writeBuffers = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 64<<10) }}

// writeFile writes a file of fs with write and returns its size; it
// removes what it wrote of a file it could not finish.
func writeFile(fs iceio.WriteFileIO, path string, write func(io.Writer) (int64, error)) (int64, error) {
	f, err := fs.Create(path)
	if err != nil {
		return 0, err
	}
	bw := writeBuffers.Get().(*bufio.Writer)
	bw.Reset(f)
	defer func() {
		bw.Reset(nil)
		writeBuffers.Put(bw)
	}()
	n, err := write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		fs.Remove(path)
	}
	return n, err
}

// target is dest as last loaded, loading it again once that is older than
// stageTargetTTL, or stageMissingTTL when it could not be staged to.
func (s *stager) target(ctx context.Context, dest string) *stageTarget {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.targets[dest]
	if t != nil && time.Since(t.loaded) < stageTargetTTL && (t.fs != nil || time.Since(t.loaded) < stageMissingTTL) {
		return t
	}
	next := &stageTarget{loaded: time.Now()}
	if t != nil {
		next.warned = t.warned
	}
	s.targets[dest] = next
	ctx, cancel := context.WithTimeout(ctx, stageLoadTimeout)
	defer cancel()
	err := s.load(ctx, dest, next)
	if err != nil && !next.warned {
		next.warned = true
		log.Warnf(ctx, "icebergio: table %s: chunks of changes cross the shuffle, not staged, until the table can be loaded: %v", dest, err)
	}
	return next
}

// load fills t with dest's location and storage, creating the table when
// it does not exist.
func (s *stager) load(ctx context.Context, dest string, t *stageTarget) error {
	if s.cat == nil {
		cat, err := catalog.Open(ctx, s.cfg)
		if err != nil {
			return err
		}
		s.cat = cat
	}
	tbl, _, err := s.table.loadOrCreate(ctx, s.cat, dest)
	if err != nil {
		return err
	}
	wfs, err := writableFS(ctx, tbl)
	if err != nil {
		return err
	}
	t.fs, t.location = wfs, tbl.Location()
	return nil
}

// writableFS is tbl's storage, which the sink writes files to.
func writableFS(ctx context.Context, tbl *table.Table) (iceio.WriteFileIO, error) {
	fsys, err := tbl.FS(ctx)
	if err != nil {
		return nil, err
	}
	wfs, ok := fsys.(iceio.WriteFileIO)
	if !ok {
		return nil, fmt.Errorf("the table's storage (%T) cannot write files", fsys)
	}
	return wfs, nil
}

// heldRunsBytes bounds the memory of heldRuns: more than a pane of 4 M
// changes of a narrow table (about 45 bytes a change, decoded). Past it the
// oldest runs go first, and their committer reads their files.
const heldRunsBytes = 512 << 20

// heldRuns are the staged chunks' runs of this process's encode steps,
// by staged path, until a committer takes them.
var heldRuns = &runHold{limit: heldRunsBytes, runs: map[string]heldRun{}}

type runHold struct {
	mu    sync.Mutex
	limit int64
	bytes int64
	runs  map[string]heldRun
	order []string // paths in the order they were held; some taken since
}

type heldRun struct {
	rec   arrow.RecordBatch
	bytes int64
}

// hold keeps rec, retained, as the run staged at path, making room by
// letting the oldest runs go.
func (h *runHold) hold(path string, rec arrow.RecordBatch) {
	n := arrowipc.Size(rec)
	if n > h.limit {
		return
	}
	rec.Retain()
	h.mu.Lock()
	defer h.mu.Unlock()
	for h.bytes+n > h.limit && len(h.order) > 0 {
		old := h.order[0]
		h.order = h.order[1:]
		if r, ok := h.runs[old]; ok {
			delete(h.runs, old)
			h.bytes -= r.bytes
			r.rec.Release()
		}
	}
	h.runs[path] = heldRun{rec: rec, bytes: n}
	h.bytes += n
	h.order = append(h.order, path)
	if len(h.order) > 2*len(h.runs)+64 {
		h.order = slices.DeleteFunc(h.order, func(p string) bool { _, ok := h.runs[p]; return !ok })
	}
}

// take is the run staged at path, if this process holds it; the caller
// releases it.
func (h *runHold) take(path string) arrow.RecordBatch {
	h.mu.Lock()
	defer h.mu.Unlock()
	r, ok := h.runs[path]
	if !ok {
		return nil
	}
	delete(h.runs, path)
	h.bytes -= r.bytes
	return r.rec
}

// readStaged reads the staged file of c from fsys into c.ipc.
func readStaged(fsys iceio.IO, c *chunk) error {
	f, err := fsys.Open(c.staged)
	if err != nil {
		return fmt.Errorf("reading staged chunk %s: %w (a staged chunk is deleted once its pane has landed; if this pane did not land, the file was removed by something else, such as orphan removal with a short age)", c.staged, err)
	}
	defer f.Close()
	b := make([]byte, c.stagedSize)
	_, err = io.ReadFull(f, b)
	wrong := ""
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		wrong = "shorter"
	case err != nil:
		return fmt.Errorf("reading staged chunk %s: %w", c.staged, err)
	default:
		if n, _ := f.Read(make([]byte, 1)); n > 0 {
			wrong = "longer"
		}
	}
	if wrong != "" {
		return fmt.Errorf("reading staged chunk %s: the file is %s than the %d bytes the encode step wrote", c.staged, wrong, c.stagedSize)
	}
	c.ipc = b
	return nil
}

// removeStaged deletes the staged files of a pane that has landed.
func removeStaged(ctx context.Context, tbl *table.Table, chunks []*chunk) {
	var paths []string
	for _, c := range chunks {
		if c.staged != "" {
			paths = append(paths, c.staged)
			if rec := heldRuns.take(c.staged); rec != nil {
				rec.Release() // a replay's, skipped
			}
		}
	}
	if tbl != nil {
		removePaths(ctx, tbl, "staged chunk", paths)
	}
}
