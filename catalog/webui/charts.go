package webui

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// Charts are SVG drawn here, not in the browser: the page needs no chart
// library, works without JavaScript, and the CSP can forbid inline code.
// Colors come from classes in style.css, since style attributes are
// inline styles the CSP refuses.

// chartCommits is how many of the last commits the commit charts show.
const chartCommits = 30

// chart is a bar chart: one bar per commit, or per partition.
type chart struct {
	ID      string
	Title   string
	Legend  string
	Width   int
	Height  int
	Max     string
	Bars    []bar
	Summary string // for screen readers: what the chart says in words
}

type bar struct {
	X, Y, W, H int
	Class      string
	Label      string // the <title> tooltip
}

const (
	chartW   = 600
	chartH   = 160
	chartTop = 14
)

// barChart lays out series (each a value per slot) side by side per slot.
func barChart(id, title, legend string, labels []string, series [][]float64, classes []string) chart {
	c := chart{ID: id, Title: title, Legend: legend, Width: chartW, Height: chartH}
	var hi float64
	for _, s := range series {
		for _, v := range s {
			hi = max(hi, v)
		}
	}
	c.Max = strconv.FormatFloat(hi, 'f', -1, 64)
	if len(labels) == 0 {
		return c
	}
	// At least 10 slots, so that a table's first commits are bars, not
	// blocks filling the chart.
	slot := chartW / max(len(labels), 10)
	w := max((slot-2)/max(len(series), 1), 1)
	for i, label := range labels {
		for j, s := range series {
			h := 0
			if hi > 0 {
				h = int(s[i] / hi * float64(chartH-chartTop))
			}
			if s[i] <= 0 {
				continue // no bar: nothing to hover, nothing to read out
			}
			h = max(h, 1)
			c.Bars = append(c.Bars, bar{X: i*slot + j*w, Y: chartH - h, W: max(w-1, 1), H: h, Class: classes[j],
				Label: label})
		}
	}
	return c
}

func num(s string) float64 {
	f, _ := strconv.ParseFloat(s, 64)
	return f
}

// commitCharts draws rows and files per commit over the last commits, and
// the commit latency of the sink's commits when any has one.
func commitCharts(snaps []snapshotView) ([]chart, bool) {
	if len(snaps) > chartCommits {
		snaps = snaps[len(snaps)-chartCommits:]
	}
	var labels []string
	rows := [2][]float64{}
	files := [4][]float64{}
	var latency []float64
	hasLatency := false
	for _, s := range snaps {
		labels = append(labels, fmt.Sprintf("snapshot %d at %s (%s): rows added %s, deleted %s; data files added %s, removed %s; delete files added %s, removed %s%s",
			s.ID, s.Time, orDash(s.Operation), orDash(s.AddedRows), orDash(s.DeletedRows), orDash(s.AddedFiles),
			orDash(s.RemovedFiles), orDash(s.AddedDeleteFiles), orDash(s.RemovedDeleteFiles), latencyText(s)))
		rows[0] = append(rows[0], num(s.AddedRows))
		rows[1] = append(rows[1], num(s.DeletedRows))
		files[0] = append(files[0], num(s.AddedFiles))
		files[1] = append(files[1], num(s.RemovedFiles))
		files[2] = append(files[2], num(s.AddedDeleteFiles))
		files[3] = append(files[3], num(s.RemovedDeleteFiles))
		l := float64(max(s.LatencyMs, 0))
		if s.LatencyMs >= 0 {
			hasLatency = true
		}
		latency = append(latency, l)
	}
	n := len(snaps)
	charts := []chart{
		barChart("chart-rows", "Rows per commit", "added rows, deleted rows", labels, rows[:], []string{"s-add", "s-del"}),
		barChart("chart-files", "Files per commit", "data files added, data files removed, delete files added, delete files removed",
			labels, files[:], []string{"s-add", "s-del", "s-dadd", "s-ddel"}),
	}
	charts[0].Summary = fmt.Sprintf("Rows added and deleted by each of the last %d commits, oldest left; at most %s.", n, charts[0].Max)
	charts[1].Summary = fmt.Sprintf("Data and delete files added and removed by each of the last %d commits, oldest left; at most %s.", n, charts[1].Max)
	if hasLatency {
		c := barChart("chart-latency", "Commit latency after the pane (ms)",
			"snapshot time minus when icebeam's sink sent the pane's last batch (icebeam.batches-sent-ms): an approximation "+
				"of the latency after the window's end; commits without it show no bar", labels, [][]float64{latency}, []string{"s-lat"})
		c.Summary = fmt.Sprintf("Commit latency of each of the last %d commits in ms, oldest left; at most %s ms.", n, c.Max)
		charts = append(charts, c)
	}
	return charts, hasLatency
}

func latencyText(s snapshotView) string {
	if s.Latency == "" {
		return ""
	}
	return "; latency " + s.Latency
}

// partitionRow is one partition's files in the snapshot the page previews.
type partitionRow struct {
	Partition                 string
	DataFiles                 int
	Records                   int64
	Bytes                     int64
	PosDeletes, EqDeletes     int
	DeletionVectors           int
	DataBarW, DeleteBarW      int
	DataBarLabel, DelBarLabel string
}

type partitionsView struct {
	Rows      []partitionRow
	More      int
	Error     string
	Empty     bool
	BarsWidth int
}

// maxPartitions bounds the partition table; the rest are counted.
const maxPartitions = 100

// partitions plans the files of a snapshot (0: current) and groups data
// files, and the delete files that apply to them, by partition. Delete
// files are counted once per partition even when they apply to several of
// its data files.
func partitions(ctx context.Context, tbl *table.Table, snapshotID int64) partitionsView {
	var v partitionsView
	v.BarsWidth = 160
	var opts []table.ScanOption
	if snapshotID != 0 {
		opts = append(opts, table.WithSnapshotID(snapshotID))
	} else if tbl.CurrentSnapshot() == nil {
		v.Empty = true
		return v
	}
	tasks, err := tbl.Scan(opts...).PlanFiles(ctx)
	if err != nil {
		v.Error = fmt.Sprintf("planning the files of %s: %v", strings.Join(tbl.Identifier(), "."), err)
		return v
	}
	type acc struct {
		row                  partitionRow
		pos, eq, dv, counted map[string]bool
	}
	groups := map[string]*acc{}
	specs := tbl.Metadata().PartitionSpecs()
	for _, t := range tasks {
		key := partitionKey(specs, t.File)
		a := groups[key]
		if a == nil {
			a = &acc{row: partitionRow{Partition: key}, pos: map[string]bool{}, eq: map[string]bool{}, dv: map[string]bool{}, counted: map[string]bool{}}
			groups[key] = a
		}
		if !a.counted[t.File.FilePath()] {
			// A large file is split into several tasks.
			a.counted[t.File.FilePath()] = true
			a.row.DataFiles++
			a.row.Records += t.File.Count()
			a.row.Bytes += t.File.FileSizeBytes()
		}
		for _, d := range t.DeleteFiles {
			a.pos[d.FilePath()] = true
		}
		for _, d := range t.EqualityDeleteFiles {
			a.eq[d.FilePath()] = true
		}
		for _, d := range t.DeletionVectorFiles {
			a.dv[d.FilePath()] = true
		}
	}
	for _, a := range groups {
		a.row.PosDeletes, a.row.EqDeletes, a.row.DeletionVectors = len(a.pos), len(a.eq), len(a.dv)
		v.Rows = append(v.Rows, a.row)
	}
	slices.SortFunc(v.Rows, func(a, b partitionRow) int {
		return cmp.Or(cmp.Compare(b.DataFiles+b.PosDeletes+b.EqDeletes+b.DeletionVectors,
			a.DataFiles+a.PosDeletes+a.EqDeletes+a.DeletionVectors), strings.Compare(a.Partition, b.Partition))
	})
	v.Empty = len(v.Rows) == 0
	if len(v.Rows) > maxPartitions {
		v.More = len(v.Rows) - maxPartitions
		v.Rows = v.Rows[:maxPartitions]
	}
	hi := 1
	for _, r := range v.Rows {
		hi = max(hi, r.DataFiles, r.PosDeletes+r.EqDeletes+r.DeletionVectors)
	}
	for i := range v.Rows {
		r := &v.Rows[i]
		dels := r.PosDeletes + r.EqDeletes + r.DeletionVectors
		r.DataBarW = r.DataFiles * v.BarsWidth / hi
		r.DeleteBarW = dels * v.BarsWidth / hi
		r.DataBarLabel = fmt.Sprintf("%d data files", r.DataFiles)
		r.DelBarLabel = fmt.Sprintf("%d delete files", dels)
	}
	return v
}

// partitionKey renders a data file's partition as "name=value, ...", in
// its spec's field order.
func partitionKey(specs []iceberg.PartitionSpec, f iceberg.DataFile) string {
	vals := f.Partition()
	if len(vals) == 0 {
		return "(unpartitioned)"
	}
	for _, spec := range specs {
		if int32(spec.ID()) != f.SpecID() {
			continue
		}
		var parts []string
		for _, pf := range spec.Fields() {
			parts = append(parts, fmt.Sprintf("%s=%v", pf.Name, fmtValue(vals[pf.FieldID])))
		}
		return strings.Join(parts, ", ")
	}
	ids := make([]int, 0, len(vals))
	for id := range vals {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var parts []string
	for _, id := range ids {
		parts = append(parts, fmt.Sprintf("%d=%v", id, fmtValue(vals[id])))
	}
	return strings.Join(parts, ", ")
}

func fmtValue(v any) string {
	if v == nil {
		return "null"
	}
	return fmt.Sprint(v)
}
