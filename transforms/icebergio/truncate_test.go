package icebergio

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/stretchr/testify/require"
)

var idKey = keyType{"id", arrow.PrimitiveTypes.Int64,
	func(b array.Builder, i int) { b.(*array.Int64Builder).Append(int64(i)) },
	func(i int) string { return fmt.Sprint(i) }}

// truncPanes are changes at LSNs from..to-1 over keys, shuffled, with a
// truncate at each LSN of truncs instead of a change.
func truncPane(seed uint64, from, to int64, keys int, truncs ...int64) []keyChange {
	r := rand.New(rand.NewPCG(seed, 3))
	var p []keyChange
	for lsn := from; lsn < to; lsn++ {
		c := keyChange{key: r.IntN(keys), op: []string{"c", "u", "u", "d"}[r.IntN(4)], lsn: lsn}
		for _, t := range truncs {
			if t == lsn {
				// A truncate's key and value mean nothing: key 0 and a
				// null value.
				c = keyChange{key: 0, op: "t", lsn: lsn}
			}
		}
		if c.op != "d" && c.op != "t" {
			c.val = fmt.Sprintf("v%d", r.IntN(1000))
		}
		p = append(p, c)
	}
	r.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
	return p
}

// Truncates in Changes mode, v3 and v2, on a long key and a composite
// one: the table after each pane equals a plain replay of the log, a
// truncate's commit is one snapshot's worth of change to readers, and a
// truncated v3 table keeps no file of before.
func TestChangesTruncate(t *testing.T) {
	cases := []struct {
		name  string
		panes [][]keyChange
	}{
		{"alone", [][]keyChange{
			truncPane(1, 1, 200, 40),
			{{key: 7, op: "t", lsn: 200}},
			truncPane(2, 201, 300, 40),
		}},
		{"around", [][]keyChange{
			truncPane(3, 1, 200, 40),
			truncPane(4, 200, 400, 40, 290),
			truncPane(5, 400, 600, 40),
		}},
		{"twice", [][]keyChange{
			truncPane(6, 1, 200, 40),
			truncPane(7, 200, 400, 40, 240, 350),
			truncPane(8, 400, 600, 40),
		}},
		{"after deletes", [][]keyChange{
			truncPane(12, 1, 200, 40),
			truncPane(13, 200, 400, 40),
			truncPane(14, 400, 600, 40, 450),
			truncPane(15, 600, 700, 40),
		}},
		{"last", [][]keyChange{
			truncPane(9, 1, 200, 40),
			truncPane(10, 200, 300, 40, 299),
			truncPane(11, 300, 400, 40),
		}},
	}
	long := newKeyTable(idKey)
	composite := newKeyTable(keyTypes[0], keyTypes[1], idKey)
	for _, c := range cases {
		for _, kt := range []keyTable{long, composite} {
			for _, version := range []string{"3", "2"} {
				t.Run(fmt.Sprintf("%s/%dkeys/v%s", c.name, len(kt.keys), version), func(t *testing.T) {
					cfg := keyConfig(t, kt, "cdc.trunc", version)
					cfg.MaxDeletedShare = 0 // compaction on, as by default
					if c.name == "after deletes" {
						cfg.MaxDeletedShare = -1 // deletion vectors for the truncate to remove
					}
					s := newRecordsSink(t, cfg, kt.schema)
					var applied []keyChange
					for i, p := range c.panes {
						if i == 2 {
							// A new worker: an index built from the table.
							s = newRecordsSink(t, cfg, kt.schema)
						}
						res := commitKeyPane(t, s, kt, p, 30)
						require.False(t, res.Skipped)
						applied = append(applied, p...)
						tbl := loadTable(t, s.cat, cfg.Table)
						require.Equal(t, keyModel(kt, applied), readKeyTable(t, kt, tbl), "after pane %d", i)
						if i == 1 && version == "3" && c.name == "after deletes" {
							dvs, _, _, _ := deleteFiles(t, tbl)
							require.Positive(t, dvs, "the truncate has deletion vectors to remove")
						}
						if slices.ContainsFunc(p, func(c keyChange) bool { return c.op == "t" }) {
							truncated := tbl.CurrentSnapshot()
							require.NotEmpty(t, truncated.Summary.Properties[TruncatedAtKey], "the truncate's snapshot says so")
							if version == "3" {
								dvs, _, _, _ := deleteFiles(t, tbl)
								require.Zero(t, dvs, "a truncate leaves no deletion vector")
							}
							data, deletes, err := liveFiles(context.Background(), tbl)
							require.NoError(t, err)
							require.Empty(t, deletes, "a truncate leaves no delete file")
							require.Equal(t, res.Files, int64(len(data)), "the table holds only the truncating pane's files")
						}
					}
				})
			}
		}
	}
}

// A replayed pane with a truncate commits once: replayed after a later
// pane landed, it truncates nothing the later pane wrote. A pane that
// lands after a later truncate has nothing of its older changes applied.
func TestChangesTruncateReplayed(t *testing.T) {
	kt := newKeyTable(idKey)
	for _, version := range []string{"3", "2"} {
		t.Run("v"+version, func(t *testing.T) {
			ctx := context.Background()
			cfg := keyConfig(t, kt, "cdc.trunc_replay", version)
			s := newRecordsSink(t, cfg, kt.schema)
			first, trunc, after := truncPane(1, 1, 200, 40), truncPane(2, 200, 300, 40, 250), truncPane(3, 300, 400, 40)
			commitKeyPane(t, s, kt, first, 30)
			blobs := encodeKeyPane(t, s, kt, trunc, 30)
			res, err := s.commitRows(ctx, cfg.Table, deliver(blobs), nil)
			require.NoError(t, err)
			require.False(t, res.Skipped)
			commitKeyPane(t, s, kt, after, 30)
			res, err = s.commitRows(ctx, cfg.Table, deliver(blobs), nil)
			require.NoError(t, err)
			require.True(t, res.Skipped, "the replay is recognised")
			want := keyModel(kt, concat(first, trunc, after))
			tbl := loadTable(t, s.cat, cfg.Table)
			require.Equal(t, want, readKeyTable(t, kt, tbl))

			// The changes before the truncate, formed into a new pane
			// that lands late: all older than the truncate.
			res = commitKeyPane(t, s, kt, truncPane(4, 1, 250, 40), 30)
			require.Zero(t, res.Rows)
			tbl = loadTable(t, s.cat, cfg.Table)
			require.Equal(t, want, readKeyTable(t, kt, tbl))
		})
	}
}

func concat[T any](s ...[]T) []T {
	var out []T
	for _, x := range s {
		out = append(out, x...)
	}
	return out
}

// A truncate through WriteRecords and the runner, its chunks staged and
// not: the truncate crosses the shuffle with the changes around it.
func TestWriteRecordsTruncate(t *testing.T) {
	kt := newKeyTable(keyTypes[0])
	for _, staging := range []int64{-1, 1} {
		t.Run(fmt.Sprintf("staging=%d", staging), func(t *testing.T) {
			cfg := keyConfig(t, kt, "cdc.trunc_records", "3")
			cfg.StagingThreshold = staging
			var applied []keyChange
			panes := [][]keyChange{truncPane(1, 1, 200, 30), truncPane(2, 200, 400, 30, 300), truncPane(3, 400, 500, 30, 401)}
			for i, p := range panes {
				var elems [][]byte
				for j := 0; j < len(p); j += 50 {
					rec := kt.batch(t, p[j:min(j+50, len(p))])
					b, err := EncodeRecords(rec)
					rec.Release()
					require.NoError(t, err)
					elems = append(elems, b)
				}
				pl, s := beam.NewPipelineWithRoot()
				res := collect(s, WriteRecords(s, cfg, kt.schema, beam.CreateList(s, elems)))
				require.NoError(t, ptest.Run(pl))
				require.Len(t, res(), 1)
				applied = append(applied, p...)
				tbl := loadTable(t, openCat(t, cfg.Catalog), cfg.Table)
				require.Equal(t, keyModel(kt, applied), readKeyTable(t, kt, tbl), "after pane %d", i)
			}
		})
	}
}
