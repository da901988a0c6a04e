package taxi

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good", "yellow.parquet")
	writeSampleFile(t, good, 1000, 1, SampleOptions{})
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}

	us := &arrow.TimestampType{Unit: arrow.Microsecond}
	f64, i64 := arrow.PrimitiveTypes.Float64, arrow.PrimitiveTypes.Int64
	base := func(override ...column) []column {
		cols := []column{
			{name: "tpep_pickup_datetime", typ: us, vals: []any{int64(1705305600000000)}},
			{name: "passenger_count", typ: i64, vals: []any{1}},
			{name: "trip_distance", typ: f64, vals: []any{1.0}},
			{name: "payment_type", typ: i64, vals: []any{1}},
			{name: "fare_amount", typ: f64, vals: []any{5.0}},
			{name: "tip_amount", typ: f64, vals: []any{1.0}},
			{name: "total_amount", typ: f64, vals: []any{7.0}},
		}
		var out []column
		for _, c := range cols {
			for _, o := range override {
				if strings.EqualFold(o.name, c.name) || o.name == "-"+c.name {
					c = o
				}
			}
			if !strings.HasPrefix(c.name, "-") {
				out = append(out, c)
			}
		}
		return out
	}

	cases := []struct {
		name  string
		write func(path string)
		input string // default: the written file
		want  []string
	}{
		{
			name:  "missing column",
			write: func(p string) { writeColumns(t, p, false, base(column{name: "-tip_amount"})...) },
			want:  []string{"missing column", `"tip_amount"`},
		},
		{
			name: "string fare",
			write: func(p string) {
				writeColumns(t, p, false, base(column{name: "fare_amount", typ: arrow.BinaryTypes.String, vals: []any{"5.00"}})...)
			},
			want: []string{`"fare_amount"`, "utf8"},
		},
		{
			name: "string pickup",
			write: func(p string) {
				writeColumns(t, p, false, base(column{name: "tpep_pickup_datetime", typ: arrow.BinaryTypes.String, vals: []any{"2024-01-15 08:00:00"}})...)
			},
			want: []string{`"tpep_pickup_datetime"`},
		},
		{
			name: "fractional passenger_count",
			write: func(p string) {
				writeColumns(t, p, false, base(column{name: "passenger_count", typ: f64, vals: []any{1.5}})...)
			},
			want: []string{`"passenger_count"`, "1.5", "row 0"},
		},
		{
			name: "ambiguous column",
			write: func(p string) {
				writeColumns(t, p, false, append(base(), column{name: "Fare_Amount", typ: f64, vals: []any{5.0}})...)
			},
			want: []string{"ambiguous", "fare_amount", "Fare_Amount"},
		},
		{
			name:  "not parquet",
			write: func(p string) { os.WriteFile(p, []byte("VendorID,tpep_pickup_datetime\n1,2024-01-01\n"), 0o644) },
			want:  []string{"not a readable Parquet file"},
		},
		{
			name:  "truncated",
			write: func(p string) { os.WriteFile(p, data[:len(data)/2], 0o644) },
			want:  []string{"not a readable Parquet file"},
		},
		{
			// The footer is fine, the data pages are garbage.
			name: "corrupt pages",
			write: func(p string) {
				bad := append([]byte(nil), data...)
				for i := 100; i < len(bad)/2; i += 7 {
					bad[i] ^= 0x5a
				}
				os.WriteFile(p, bad, 0o644)
			},
			want: []string{"row group 0"},
		},
		{
			name:  "empty file",
			write: func(p string) { os.WriteFile(p, nil, 0o644) },
			want:  []string{"not a readable Parquet file"},
		},
		{
			name:  "no such file",
			write: func(p string) {},
			want:  []string{"no such file or directory"},
		},
		{
			// One bad file among good ones fails the whole run.
			name: "bad file in a directory",
			write: func(p string) {
				os.WriteFile(filepath.Join(filepath.Dir(p), "a.parquet"), data, 0o644)
				writeColumns(t, p, false, base(column{name: "-trip_distance"})...)
			},
			input: "dir",
			want:  []string{"missing column", `"trip_distance"`},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "in", "bad.parquet")
			os.MkdirAll(filepath.Dir(p), 0o755)
			c.write(p)
			input := p
			if c.input == "dir" {
				input = filepath.Dir(p)
			}
			_, err := runDailyStats(t, input)
			if err == nil {
				t.Fatal("the pipeline succeeded")
			}
			msg := err.Error()
			for _, w := range append(c.want, p) {
				if !strings.Contains(msg, w) {
					t.Errorf("error does not mention %q:\n%s", w, msg)
				}
			}
		})
	}
}
