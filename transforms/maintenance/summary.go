package maintenance

import (
	"fmt"
	"io"
	"time"
)

// Summary is what Run did to a table, action by action; an action not
// asked for is nil.
type Summary struct {
	Table      string
	Location   string
	DryRun     bool
	Took       time.Duration
	Rewrite    *RewriteReport
	Convert    *ConvertReport
	Manifests  *ManifestsReport
	Expire     *ExpireReport
	Orphans    *OrphansReport
	SnapshotID int64 // the table's current snapshot at the end
}

// Any reports whether any action has something to report.
func (s *Summary) Any() bool {
	return s.Rewrite != nil || s.Convert != nil || s.Manifests != nil || s.Expire != nil || s.Orphans != nil
}

// Write prints the summary for a person.
func (s *Summary) Write(w io.Writer) {
	head := fmt.Sprintf("Maintenance of table %s", s.Table)
	if s.DryRun {
		head += " (dry run: nothing changed)"
	}
	fmt.Fprintf(w, "%s in %s\n", head, s.Took.Round(time.Millisecond))
	line := func(action, format string, args ...any) {
		fmt.Fprintf(w, "  %-20s %s\n", action, fmt.Sprintf(format, args...))
	}
	if r := s.Convert; r != nil {
		r.write(line, w)
	}
	if r := s.Rewrite; r != nil {
		switch {
		case r.Planned && r.Groups == 0:
			line("rewrite_data_files", "nothing to rewrite: no partition has %d or more data files under %s (75%% of the %s target); %d data files, %s in all",
				r.MinInputFiles, formatBytes(r.TargetFileSize*3/4), formatBytes(r.TargetFileSize), r.TableFilesBefore, formatBytes(r.TableBytesBefore))
		case r.Planned:
			verb := "would rewrite"
			if r.Submitted {
				verb = "launched a job, not waited for, to rewrite"
			}
			line("rewrite_data_files", "%s %d of %d data files (%s) in %d groups, into files of about %s:",
				verb, r.FilesRewritten, r.TableFilesBefore, formatBytes(r.BytesRewritten), r.Groups, formatBytes(r.TargetFileSize))
			for _, g := range r.GroupList {
				fmt.Fprintf(w, "      %s\n", g)
			}
		default:
			line("rewrite_data_files", "%d groups: %d data files (%s) rewritten as %d (%s) in snapshot %d (commit attempt %d)",
				r.Groups, r.FilesRewritten, formatBytes(r.BytesRewritten), r.FilesWritten, formatBytes(r.BytesWritten), r.SnapshotID, r.Attempt)
			line("", "the table: %s data files before, %s after; %s before, %s after",
				count(r.TableFilesBefore), count(r.TableFilesAfter), size(r.TableBytesBefore), size(r.TableBytesAfter))
		}
	}
	if r := s.Manifests; r != nil {
		switch {
		case r.Planned:
			line("rewrite_manifests", "%d data manifests in the current snapshot would be merged into target-sized ones", r.Before)
		case r.NoOp != "":
			line("rewrite_manifests", "nothing to rewrite (%s): %d data manifests", r.NoOp, r.Before)
		default:
			line("rewrite_manifests", "data manifests %d before, %d after, in snapshot %d", r.Before, r.After, r.SnapshotID)
		}
	}
	if r := s.Expire; r != nil {
		verb := "expired"
		if r.Planned {
			verb = "would expire"
		}
		line("expire_snapshots", "%s %d of %d snapshots (older than %s beyond the last %d of each branch); %d remain",
			verb, len(r.Expired), r.Before, r.OlderThan, r.RetainLast, r.After)
		if r.Warning != "" {
			line("", "warning: cleaning up after the expiry: %s", r.Warning)
		}
	}
	if r := s.Orphans; r != nil {
		line("remove_orphan_files", "%d orphan files (%s) older than %s found under %s, %d removed",
			len(r.Found), formatBytes(r.Bytes), r.OlderThan, r.Location, len(r.Removed))
		for _, f := range r.Found {
			fmt.Fprintf(w, "      %s\n", f)
		}
	}
	if s.SnapshotID != 0 {
		line("snapshot", "%d is current", s.SnapshotID)
	}
}

func count(n int64) string {
	if n < 0 {
		return "?"
	}
	return fmt.Sprint(n)
}

func size(n int64) string {
	if n < 0 {
		return "?"
	}
	return formatBytes(n)
}

// formatBytes prints a size in binary units: 1.2 MiB.
func formatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTP"[exp])
}
