package taxi

import (
	"testing"
	"unsafe"
)

func TestPageClasses(t *testing.T) {
	for i := range numPageClass {
		n := pageClassSize(i)
		if got := pageClass(n); got != i {
			t.Fatalf("pageClass(pageClassSize(%d) = %d) = %d", i, n, got)
		}
		if i > 0 && pageClass(pageClassSize(i-1)+1) != i {
			t.Fatalf("a size just over class %d's is not in class %d", i-1, i)
		}
		// Rounding wastes at most an eighth of the buffer.
		if i > 0 {
			prev := pageClassSize(i - 1)
			if waste := n - prev - 1; waste*pageSteps > n {
				t.Fatalf("class %d (%d bytes) wastes %d bytes on a %d-byte buffer", i, n, waste, prev+1)
			}
		}
	}
	if pageClass(1<<maxPageShift+1) != -1 {
		t.Fatal("sizes over the largest class must not be pooled")
	}
	// A page just over 1 MiB, as writers cut them, gets 1.125 MiB, not 2.
	if got := pageClassSize(pageClass(1<<20 + 64)); got != 1<<20+1<<17 {
		t.Fatalf("a 1 MiB + 64 B page gets %d bytes", got)
	}
}

func TestPageAllocatorReuse(t *testing.T) {
	var a pageAllocator
	b := a.Allocate(1<<20 + 64)
	if len(b) != 1<<20+64 || cap(b) != pageClassSize(pageClass(1<<20+64)) {
		t.Fatalf("len %d cap %d", len(b), cap(b))
	}
	if uintptr(unsafe.Pointer(unsafe.SliceData(b)))%64 != 0 {
		t.Fatal("buffer not 64-byte aligned")
	}
	b[0] = 1
	a.Free(b)
	// A slightly smaller request may reuse it, zeroed.
	c := a.Allocate(1<<20 + 1)
	if c[0] != 0 {
		t.Fatal("reused buffer not zeroed")
	}
	a.Free(c)
}
