package icebergio

import (
	"cmp"
	"fmt"
	"sync"
)

// paneBufferBytes is how much of a pane the committer reads into memory to
// commit it beside other panes (see inflight): a pane of a template's
// table is small, and one that is larger is committed while the bundle
// waits, streamed from the runner as before.
const paneBufferBytes = 4 << 20

// inflight runs the commits of one bundle's panes, up to a limit at once.
// A template's tables each get a small pane per trigger, and one at a time
// a worker commits only a few tens of them a second (each commit is several
// round trips to the catalog): at once, a thousand tables commit within a
// triggering period. Panes of one table still commit in the order they came,
// each after the one before it has landed, and not at all when it failed: a
// replace must not overtake the pane before it.
type inflight struct {
	slots   chan struct{}           // one held by each commit running
	last    map[string]*inflightJob // each table's latest pane
	started int                     // commits started
	wg      sync.WaitGroup

	mu      sync.Mutex
	results []CommitResult
	err     error // the first failure; nothing more is started after it
}

type inflightJob struct {
	done chan struct{}
	err  error // set before done is closed
}

func newInflight(limit int) *inflight {
	return &inflight{slots: make(chan struct{}, max(limit, 1)), last: map[string]*inflightJob{}}
}

// failed is the first failure of a commit the bundle started.
func (p *inflight) failed() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// start commits a pane of dest with commit, once a slot is free and dest's
// previous pane in the bundle has landed. It returns the job, to wait for.
func (p *inflight) start(dest string, commit func() (CommitResult, error)) *inflightJob {
	p.slots <- struct{}{}
	p.started++
	before := p.last[dest]
	job := &inflightJob{done: make(chan struct{})}
	p.last[dest] = job
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		defer func() { <-p.slots }()
		defer close(job.done)
		if before != nil {
			<-before.done
			if before.err != nil {
				job.err = fmt.Errorf("icebergio: table %s: a pane not committed, after the pane before it failed", dest)
				return
			}
		}
		res, err := commit()
		job.err = err
		p.mu.Lock()
		defer p.mu.Unlock()
		if err != nil {
			p.err = cmp.Or(p.err, err)
			return
		}
		p.results = append(p.results, res)
	}()
	return job
}

// wait waits for every commit started and returns their results, or the
// failures.
func (p *inflight) wait() ([]CommitResult, error) {
	p.wg.Wait()
	return p.results, p.err
}

// bufferPane reads a pane's elements into memory while they total at most
// limit bytes. all says it read them all; otherwise next yields the ones
// read and then reads on from elems, which must still be valid then.
func bufferPane(elems func(*[]byte) bool, limit int) (next func(*[]byte) bool, all bool) {
	var blobs [][]byte
	size := 0
	all = true
	var b []byte
	for elems(&b) {
		blobs = append(blobs, b)
		b = nil
		if size += len(blobs[len(blobs)-1]); size > limit {
			all = false
			break
		}
	}
	i := 0
	return func(p *[]byte) bool {
		if i < len(blobs) {
			*p = blobs[i]
			blobs[i] = nil // the chunk's reader owns it now
			i++
			return true
		}
		return !all && elems(p)
	}, all
}
