package launch

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// exeResidentKiB is how much of this program's own file is mapped in,
// from /proc/self/smaps.
func exeResidentKiB(t *testing.T) int {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	total, inExe := 0, false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if fields := strings.Fields(line); len(fields) >= 5 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":") {
			inExe = len(fields) >= 6 && fields[len(fields)-1] == exe
			continue
		}
		if v, ok := strings.CutPrefix(line, "Rss:"); ok && inExe {
			kib, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			if err != nil {
				t.Fatalf("smaps line %q: %v", line, err)
			}
			total += kib
		}
	}
	return total
}

func TestReleaseStartupPages(t *testing.T) {
	before := exeResidentKiB(t)
	releaseStartupPages()
	after := exeResidentKiB(t)
	t.Logf("this test binary's pages mapped in: %d KiB before, %d KiB after", before, after)
	// What this test runs between the release and the count comes back;
	// the rest of a test binary's start-up (the testing package, every
	// init) must be gone.
	if after*2 > before {
		t.Errorf("%d KiB of the binary mapped in after the release, %d KiB before: want less than half", after, before)
	}
}
