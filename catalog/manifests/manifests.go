// Package manifests walks the manifests of a table's snapshots, for what
// must find every file a table references (a purge, a rewrite deciding
// which of its files are orphans).
package manifests

import (
	"iter"

	"github.com/apache/iceberg-go"
	iceio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
)

// All yields every manifest that snaps list, each once: a snapshot shares
// most of its manifests with its parent, and reading them again for every
// snapshot would make the walk quadratic in a long history. It stops at
// the first manifest list that cannot be read, yielding its error.
func All(fs iceio.IO, snaps []table.Snapshot) iter.Seq2[iceberg.ManifestFile, error] {
	return func(yield func(iceberg.ManifestFile, error) bool) {
		seen := map[string]bool{}
		for _, s := range snaps {
			ms, err := s.Manifests(fs)
			if err != nil {
				yield(nil, err)
				return
			}
			for _, m := range ms {
				if seen[m.FilePath()] {
					continue
				}
				seen[m.FilePath()] = true
				if !yield(m, nil) {
					return
				}
			}
		}
	}
}
