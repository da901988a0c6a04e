package taxi

import (
	"math/bits"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// pageAllocator is the Parquet reader's allocator: it keeps the page
// buffers (a few per column, of about a page each) that the column readers
// of one row group free when closed, for those of the next, instead of
// leaving 6 MB a row group of garbage to the GC. Buffers are zeroed when
// reused, as fresh ones are. They are kept in sync.Pools, which hold a
// buffer across one garbage collection and drop it at the second: enough
// for the moment between two row groups, and when the reading is over (the
// job goes on to the shuffle and the commit) the buffers go too.
//
// Sizes are rounded up to an eighth of their power of two, not to the power
// itself: writers cut pages at a size limit (1 MiB in arrow, parquet-mr and
// pyarrow alike) and overshoot it by a little, so a page is typically just
// over 1 MiB, and a power-of-two class would give each such page a 2 MiB
// buffer. Those buffers stay live from one row group to the next, and the
// garbage collector counts them when it sizes the heap (GOGC lets it grow by
// the live heap), so that waste would be paid twice in peak memory.
type pageAllocator struct{}

var _ memory.Allocator = pageAllocator{}

const (
	minPageShift = 12 // 4 KiB: the smallest buffer
	maxPageShift = 24 // 16 MiB: larger ones are neither rounded nor kept
	// pageSteps is the classes per doubling: a buffer wastes at most
	// 1/pageSteps of the smaller power of two below its size.
	pageSteps     = 8
	pageStepShift = 3 // log2(pageSteps)
	numPageClass  = (maxPageShift-minPageShift)*pageSteps + 1
)

// freePages holds free buffers by size class, smallest first: cap(*b) is
// pageClassSize(i) for every b in freePages[i].
var freePages [numPageClass]sync.Pool

// pageClass is the smallest class whose buffers hold size bytes, or -1 when
// size is over the largest.
func pageClass(size int) int {
	if size <= 1<<minPageShift {
		return 0
	}
	if size > 1<<maxPageShift {
		return -1
	}
	// 2^(e-1) < size <= 2^e; classes above 2^(e-1) step by 2^(e-1)/pageSteps.
	e := bits.Len(uint(size - 1))
	step := 1 << (e - 1 - pageStepShift)
	k := (size - 1<<(e-1) + step - 1) / step // 1..pageSteps
	return (e-1-minPageShift)*pageSteps + k
}

// pageClassSize is the capacity of the buffers of class i.
func pageClassSize(i int) int {
	if i == 0 {
		return 1 << minPageShift
	}
	p := (i-1)/pageSteps + minPageShift // 2^p < size <= 2^(p+1)
	k := (i-1)%pageSteps + 1
	return 1<<p + k<<(p-pageStepShift)
}

func (pageAllocator) Allocate(size int) []byte {
	c := pageClass(size)
	if c < 0 {
		return memory.DefaultAllocator.Allocate(size)
	}
	// A free buffer of up to one doubling larger serves too: page sizes
	// vary a little between row groups and files, and a buffer kept for a
	// class nothing asks for again would only hold memory.
	for i := c; i < min(c+pageSteps, numPageClass); i++ {
		if p, _ := freePages[i].Get().(*[]byte); p != nil {
			b := (*p)[:size]
			clear(b)
			return b
		}
	}
	const align = 64
	n := pageClassSize(c)
	buf := make([]byte, n+align)
	shift := int(-uintptr(unsafe.Pointer(unsafe.SliceData(buf))) & (align - 1))
	return buf[shift : shift+size : shift+n]
}

func (a pageAllocator) Reallocate(size int, b []byte) []byte {
	if cap(b) >= size {
		return b[:size]
	}
	nb := a.Allocate(size)
	copy(nb, b)
	a.Free(b)
	return nb
}

func (pageAllocator) Free(b []byte) {
	c := pageClass(cap(b))
	if c < 0 || pageClassSize(c) != cap(b) {
		return
	}
	b = b[:0]
	freePages[c].Put(&b)
}
