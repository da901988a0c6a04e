//go:build !linux

package launch

// releaseStartupPages is a no-op where /proc/self/maps and MADV_DONTNEED's
// Linux meaning are not available.
func releaseStartupPages() {}
