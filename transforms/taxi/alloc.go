package taxi

import (
	"math/bits"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// pageAllocator is the Parquet reader's allocator: it keeps the page
// buffers (a few per column, of about a page each) that the column readers
// of one row group free when closed, for those of the next, instead of
// leaving 6 MB a row group of garbage to the GC. Buffers are zeroed when
// reused, as fresh ones are.
type pageAllocator struct{}

var _ memory.Allocator = pageAllocator{}

const (
	minPageClass = 12 // 4 KiB
	maxPageClass = 24 // 16 MiB
)

// freePages holds free buffers by size class: cap 1<<class.
var freePages [maxPageClass + 1]chan []byte

func init() {
	for c := minPageClass; c <= maxPageClass; c++ {
		freePages[c] = make(chan []byte, 16)
	}
}

func pageClass(size int) int {
	if size <= 1<<minPageClass {
		return minPageClass
	}
	return bits.Len(uint(size - 1))
}

func (pageAllocator) Allocate(size int) []byte {
	c := pageClass(size)
	if c > maxPageClass {
		return memory.DefaultAllocator.Allocate(size)
	}
	select {
	case b := <-freePages[c]:
		b = b[:size]
		clear(b)
		return b
	default:
	}
	const align = 64
	buf := make([]byte, 1<<c+align)
	shift := int(-uintptr(unsafe.Pointer(unsafe.SliceData(buf))) & (align - 1))
	return buf[shift : shift+size : shift+1<<c]
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
	c := bits.Len(uint(cap(b))) - 1
	if c < minPageClass || c > maxPageClass || cap(b) != 1<<c {
		return
	}
	select {
	case freePages[c] <- b[:0]:
	default:
	}
}
