package taxi

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/internal/tabletest"
	"github.com/icebeam/icebeam/transforms/icebergio"
)

func runIceberg(t *testing.T, cfg catalog.Config, name string) (map[string]DailyStat, error) {
	t.Helper()
	cols, err := IcebergColumns(ctx, cfg, name)
	if err != nil {
		return nil, err
	}
	return runStats(t, func(s beam.Scope) beam.PCollection {
		return DailyStatsFromIceberg(s, icebergio.ReadConfig{Catalog: cfg, Table: name}, cols)
	})
}

func TestDailyStatsFromIceberg(t *testing.T) {
	cfg, cat := tabletest.Catalog(t)
	dir := t.TempDir()

	// Two months in several row groups each, with NULLs: the table's files
	// are the Parquet files, so the numbers are those of the files, to the
	// bit, and equal to the reference's.
	var paths []string
	for i, month := range []time.Month{time.January, time.February} {
		p := filepath.Join(dir, "y2024", month.String()+".parquet")
		writeSampleFile(t, p, 40_000, int64(7+i), SampleOptions{
			RowGroupSize: 15_000, NullRate: 0.01, Month: time.Date(2024, month, 1, 0, 0, 0, 0, time.UTC),
		})
		paths = append(paths, p)
	}
	// The table's files are the Parquet files (add_files).
	tbl := tabletest.AddFiles(t, cat, "trips.y2024", paths...)
	want := referenceOf(t, paths...)
	t.Run("files of a table", func(t *testing.T) {
		got, err := runIceberg(t, cfg, "trips.y2024")
		if err != nil {
			t.Fatal(err)
		}
		compare(t, got, want)
		fromFiles, err := runDailyStats(t, filepath.Join(dir, "y2024"))
		if err != nil {
			t.Fatal(err)
		}
		compare(t, got, fromFiles)
	})

	// A delete rewrites the files that hold deleted rows (copy on write):
	// the table's rows are then those of its new data files, read here
	// straight from Parquet, in path order.
	t.Run("after a delete", func(t *testing.T) {
		tx := tbl.NewTransaction()
		if err := tx.Delete(ctx, iceberg.EqualTo(iceberg.Reference("payment_type"), int64(2)), nil); err != nil {
			t.Fatal(err)
		}
		after, err := tx.Commit(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var files []string
		tasks, err := after.Scan().PlanFiles(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, task := range tasks {
			if len(task.DeleteFiles) > 0 {
				t.Fatalf("%s has delete files; this test expects copy-on-write", task.File.FilePath())
			}
			files = append(files, strings.TrimPrefix(task.File.FilePath(), "file://"))
		}
		got, err := runIceberg(t, cfg, "trips.y2024")
		if err != nil {
			t.Fatal(err)
		}
		want := referenceOf(t, slices.Compact(slices.Sorted(slices.Values(files)))...)
		for k := range want {
			if strings.HasSuffix(k, "|2") {
				t.Fatalf("the delete left payment_type 2 in the table (%s)", k)
			}
		}
		compare(t, got, want)
	})

	// Older files: counts stored as doubles, times as INT96.
	t.Run("old layout", func(t *testing.T) {
		p := filepath.Join(dir, "old", "yellow_2019.parquet")
		writeSampleFile(t, p, 30_000, 3, SampleOptions{Layout: LayoutOld, RowGroupSize: 10_000})
		tabletest.AddFiles(t, cat, "trips.old", p)
		got, err := runIceberg(t, cfg, "trips.old")
		if err != nil {
			t.Fatal(err)
		}
		compare(t, got, referenceOf(t, p))
	})
}

func TestIcebergColumnsErrors(t *testing.T) {
	cfg, cat := tabletest.Catalog(t)
	if err := cat.CreateNamespace(ctx, table.Identifier{"trips"}, nil); err != nil {
		t.Fatal(err)
	}
	field := func(id int, name string, typ iceberg.Type) iceberg.NestedField {
		return iceberg.NestedField{ID: id, Name: name, Type: typ}
	}
	good := []iceberg.NestedField{
		field(1, "tpep_pickup_datetime", iceberg.PrimitiveTypes.TimestampTz),
		field(2, "Passenger_Count", iceberg.PrimitiveTypes.Int32),
		field(3, "trip_distance", iceberg.PrimitiveTypes.Float64),
		field(4, "payment_type", iceberg.PrimitiveTypes.Int64),
		field(5, "fare_amount", iceberg.PrimitiveTypes.Float32),
		field(6, "tip_amount", iceberg.PrimitiveTypes.Float64),
		field(7, "total_amount", iceberg.PrimitiveTypes.Float64),
	}
	create := func(name string, fields ...iceberg.NestedField) {
		t.Helper()
		if _, err := cat.CreateTable(ctx, table.Identifier{"trips", name}, iceberg.NewSchema(0, fields...)); err != nil {
			t.Fatal(err)
		}
	}
	create("good", good...)
	cols, err := IcebergColumns(ctx, cfg, "trips.good")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"tpep_pickup_datetime", "Passenger_Count", "trip_distance", "payment_type", "fare_amount", "tip_amount", "total_amount"}; !slices.Equal(cols, want) {
		t.Errorf("columns %q, want %q", cols, want)
	}

	create("nofare", slices.Delete(slices.Clone(good), 4, 5)...)
	decimal := slices.Clone(good)
	decimal[4] = field(5, "fare_amount", iceberg.DecimalTypeOf(10, 2))
	create("decimal", decimal...)
	for _, c := range []struct{ table, want string }{
		{"trips.nofare", `taxi: table trips.nofare: missing column "fare_amount"`},
		{"trips.decimal", `taxi: table trips.decimal: column "fare_amount" has type decimal(10, 2), want an integer or floating type`},
		{"trips.none", "taxi: table trips.none: "},
		{"nonamespace", "taxi: table name"},
	} {
		_, err := IcebergColumns(ctx, cfg, c.table)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one starting %q", c.table, err, c.want)
		}
		if c.table == "trips.none" && !errors.Is(err, icecatalog.ErrNoSuchTable) {
			t.Errorf("%s: error %v does not say the table does not exist", c.table, err)
		}
	}
}
