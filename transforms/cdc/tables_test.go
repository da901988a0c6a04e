package cdc

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Files whose events name no source table are the accounts log, read as
// before; a line in them of another table, or with a column accounts
// lacks, is refused naming it rather than landed as zeros.
func TestPlanTablesAccountsLog(t *testing.T) {
	accounts := []string{
		`{"op":"c","after":{"id":1,"owner":"a","balance_cents":5,"updated_at":1}}`,
		`{"schema":{"type":"struct"},"payload":{"op":"u","after":{"id":1,"owner":"b"},"source":{"lsn":7}}}`,
		`null`,
	}
	for _, c := range []struct {
		name  string
		lines []string
		want  string // "" for the accounts log
	}{
		{"accounts", accounts, ""},
		{"other column", append(accounts[:2:2], `{"op":"c","after":{"id":2,"first_name":"Anne"}}`), "line 3: column first_name is not one of the accounts table's"},
		{"named table", append(accounts[:1:1], `{"op":"c","after":{"id":2},"source":{"table":"customers","lsn":3}}`), "line 2: an event of table customers"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "log.json"), []byte(strings.Join(c.lines, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			// No catalog: the accounts log needs none.
			plan, err := PlanTables(context.Background(), nil, PlanConfig{Pattern: dir})
			switch {
			case c.want == "" && (err != nil || !plan.Accounts || len(plan.Tables) != 0):
				t.Errorf("plan %+v, err %v: want the accounts log", plan, err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("err %v, want %q", err, c.want)
			}
		})
	}
}
