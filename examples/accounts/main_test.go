package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	icetable "github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/internal/cdctest"
	"github.com/icebeam/icebeam/internal/faulttest"
	"github.com/icebeam/icebeam/internal/jobservertest"
	"github.com/icebeam/icebeam/transforms/cdc"
)

const credentialEnv = "ACCOUNTS_CREDENTIAL"

// check reads table name back with iceberg-go's own client and scan: it
// holds want, every key once with its last value, its commits applied
// each of the log's n changes once, its deletes are of the format
// version's kind, and its dead-letter table holds no row (the change
// streams of transforms/cdc have none the sink cannot apply).
func check(t *testing.T, c *faulttest.Catalog, name string, version int, want []cdc.Account, n int64) {
	t.Helper()
	tbl := faulttest.LoadChecked(t, c.URL, c.Tokens.Credential(), name)
	got, _, live := cdctest.ReadRows(t, tbl)
	cdctest.RequireRows(t, got, want)
	applied, commits := cdctest.Applied(tbl)
	if applied != n {
		t.Errorf("%s: its %d commits applied %d changes, the log has %d", name, commits, applied, n)
	}
	cdctest.RequireDeleteKind(t, tbl, version)
	dvs, eq := cdctest.Written(tbl)
	t.Logf("%s: %d rows; %d changes in %d commits, %d snapshots; wrote %d deletion vectors, %d equality delete files; live delete files %v",
		name, len(got), applied, commits, len(tbl.Metadata().Snapshots()), dvs, eq, live)
	if faulttest.ExistsChecked(t, c.URL, c.Tokens.Credential(), name+"_rejected") {
		rejected := faulttest.LoadChecked(t, c.URL, c.Tokens.Credential(), name+"_rejected")
		at, err := rejected.Scan().ToArrowTable(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer at.Release()
		if at.NumRows() > 0 {
			t.Errorf("%s_rejected holds %d rows, want none", name, at.NumRows())
		}
	}
}

// On prism, the default runner: the table ends as the change log says.
func TestPrism(t *testing.T) {
	bin := faulttest.BuildExample(t)
	c := faulttest.NewCatalog(t, faulttest.Fault{})
	c.RunExample(t, nil, bin, credentialEnv, "--table=prism.accounts", "--keys=40", "--interval=10ms", "--duration=6s", "--triggering_frequency=2s")
	check(t, c, "prism.accounts", 3, cdctest.Generated(600, 40, cdc.Generated), 600)
}

// With --input, on prism: a Debezium change log (LSNs out of file order)
// ends as the log's final state, computed in the test, and its lines that
// are not changes of the table (a truncate event, a line that is not JSON)
// land in the dead-letter table, each with its file, line and reason.
func TestPrismDebeziumInput(t *testing.T) {
	bin := faulttest.BuildExample(t)
	in, want := cdctest.DebeziumLog(t, 3000, 120)
	bad := filepath.Join(in, "zz-bad.json") // read after the log's own files
	if err := os.WriteFile(bad, []byte(`{"op":"t","source":{"lsn":1}}`+"\n"+"not json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := faulttest.NewCatalog(t, faulttest.Fault{})
	c.RunExample(t, nil, bin, credentialEnv, "--table=prism.accounts", "--input="+in, "--rate=1000", "--triggering_frequency=1s")
	check(t, c, "prism.accounts", 3, want, 3000)

	lines := faulttest.LoadChecked(t, c.URL, c.Tokens.Credential(), "prism.accounts_rejected_lines")
	at, err := lines.Scan(icetable.WithSelectedFields("file", "line", "reason")).ToArrowTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer at.Release()
	var got []string
	tr := array.NewTableReader(at, 0)
	defer tr.Release()
	for tr.Next() {
		rec := tr.RecordBatch()
		for i := range int(rec.NumRows()) {
			got = append(got, fmt.Sprintf("%s:%s %s", rec.Column(0).ValueStr(i), rec.Column(1).ValueStr(i), rec.Column(2).ValueStr(i)))
		}
	}
	slices.Sort(got)
	wantLines := []string{
		bad + `:1 op: unknown op "t", want "c", "r", "u" or "d"`,
		bad + `:2 invalid JSON: invalid character 'o' in literal null (expecting 'u')`,
	}
	if !slices.Equal(got, wantLines) {
		t.Errorf("rejected lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantLines, "\n"))
	}
}

// TestFlinkExactlyOnce applies the generated change stream on Beam's
// Flink runner as a user would: plain beamx.Run, checkpointing set only in
// the cluster's flink-conf.yaml, the harnesses in a worker pool of their
// own, killed after a commit, or the catalog down for 15 s. The table ends
// as the change log says, every key once with its last value, and the job
// exits 0: on a format v3 table (deletion vectors) and on v2 (equality
// deletes).
func TestFlinkExactlyOnce(t *testing.T) {
	const (
		interval = 5 * time.Millisecond
		duration = 60 * time.Second
		keys     = 300
	)
	want := cdctest.Generated(int64(duration/interval), keys, cdc.Generated)
	var bin string // built once the first job server has started: not under -short
	parent := t
	for _, tc := range []struct {
		version int
		fault   faulttest.Fault
	}{
		{3, faulttest.CrashAfterCommit()},
		{3, faulttest.CatalogDown(15 * time.Second)},
		{2, faulttest.CrashAfterCommit()},
	} {
		t.Run(fmt.Sprintf("v%d %s", tc.version, tc.fault.Name), func(t *testing.T) {
			js := jobservertest.Start(t, "flink", "execution.checkpointing.interval: 5s")
			if bin == "" {
				bin = faulttest.BuildExample(parent)
			}
			c := faulttest.NewCatalog(t, tc.fault)
			c.Pool = jobservertest.StartWorkerPool(t, bin, credentialEnv+"="+c.Tokens.Credential())
			start := time.Now()
			c.RunExample(t, js, bin, credentialEnv, "--runner=flink", "--endpoint="+js.Endpoint,
				"--environment_type=EXTERNAL", "--environment_config="+c.Pool.Addr,
				"--table=flink.accounts", fmt.Sprintf("--format_version=%d", tc.version), fmt.Sprintf("--keys=%d", keys),
				"--interval="+interval.String(), "--duration="+duration.String(), "--triggering_frequency=5s")
			t.Logf("accounts on Flink (v%d, %s): %v, %d completed checkpoints, %d job restarts", tc.version, tc.fault.Name,
				time.Since(start).Round(time.Second), js.Count("Completed checkpoint"), js.Count("Restoring job"))
			check(t, c, "flink.accounts", tc.version, want, int64(duration/interval))
			c.Check(t)
		})
	}
}
