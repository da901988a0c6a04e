package taxi

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"cloud.google.com/go/storage"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/fsouza/fake-gcs-server/fakestorage"
	"google.golang.org/api/option"

	"github.com/icebeam/icebeam/catalog/fileio"
)

// A month split over files of every layout, in a directory tree with
// something that is not Parquet next to them.
func writeDrifted(t *testing.T, dir string) []string {
	t.Helper()
	files := []struct {
		name string
		n    int
		opts SampleOptions
	}{
		{"yellow_2022.parquet", 30_000, SampleOptions{Layout: LayoutOld, RowGroupSize: 10_000}},
		{"yellow_2024.parquet", 40_000, SampleOptions{Layout: Layout2024, RowGroupSize: 15_000, NullRate: 0.01}},
		{"more/yellow_2025.parquet", 20_000, SampleOptions{Layout: Layout2025}},
	}
	var paths []string
	for i, f := range files {
		p := filepath.Join(dir, f.name)
		writeSampleFile(t, p, f.n, int64(100+i), f.opts)
		paths = append(paths, p)
	}
	if err := os.WriteFile(filepath.Join(dir, "README.txt"), []byte("not data"), 0o644); err != nil {
		t.Fatal(err)
	}
	return paths
}

// referenceOf is the reference over the files at paths, in path order as
// DailyStats reads them.
func referenceOf(t *testing.T, paths ...string) map[string]DailyStat {
	paths = slices.Sorted(slices.Values(paths))
	var files [][]refTrip
	for _, p := range paths {
		files = append(files, refRead(t, p))
	}
	return reference(files...)
}

func TestInputs(t *testing.T) {
	dir := t.TempDir()
	paths := writeDrifted(t, dir)

	t.Run("directory", func(t *testing.T) {
		got, err := runDailyStats(t, dir)
		if err != nil {
			t.Fatal(err)
		}
		compare(t, got, referenceOf(t, paths...))
	})
	t.Run("glob", func(t *testing.T) {
		got, err := runDailyStats(t, filepath.Join(dir, "yellow_*.parquet"))
		if err != nil {
			t.Fatal(err)
		}
		compare(t, got, referenceOf(t, paths[0], paths[1]))
	})
	t.Run("gs", func(t *testing.T) {
		srv, err := fakestorage.NewServerWithOptions(fakestorage.Options{Scheme: "http", Host: "127.0.0.1", Writer: io.Discard})
		if err != nil {
			t.Fatal(err)
		}
		defer srv.Stop()
		srv.CreateBucketWithOpts(fakestorage.CreateBucketOpts{Name: "bkt"})
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(dir, p)
			srv.CreateObject(fakestorage.Object{
				ObjectAttrs: fakestorage.ObjectAttrs{BucketName: "bkt", Name: "raw/nyc_taxi/" + filepath.ToSlash(rel)},
				Content:     data,
			})
		}
		fileio.Configure(fileio.Options{
			Endpoint:      srv.URL() + "/storage/v1/",
			ClientOptions: []option.ClientOption{option.WithoutAuthentication(), storage.WithJSONReads()},
		})
		defer fileio.Configure(fileio.Options{})

		got, err := runDailyStats(t, "gs://bkt/raw/nyc_taxi/")
		if err != nil {
			t.Fatal(err)
		}
		compare(t, got, referenceOf(t, paths...))

		got, err = runDailyStats(t, "gs://bkt/raw/nyc_taxi/more/yellow_2025.parquet")
		if err != nil {
			t.Fatal(err)
		}
		compare(t, got, referenceOf(t, paths[2]))

		if _, err := runDailyStats(t, "gs://bkt/raw/nyc_taxi/*.csv"); err == nil {
			t.Error("a gs:// pattern matching nothing succeeded")
		}
	})
}

// The sample has the real 2024 layout exactly, and the drifted ones their
// differences.
func TestSampleLayout(t *testing.T) {
	want2024 := "VendorID:int32 tpep_pickup_datetime:timestamp[us] tpep_dropoff_datetime:timestamp[us] " +
		"passenger_count:int64 trip_distance:float64 RatecodeID:int64 store_and_fwd_flag:utf8 " +
		"PULocationID:int32 DOLocationID:int32 payment_type:int64 fare_amount:float64 extra:float64 " +
		"mta_tax:float64 tip_amount:float64 tolls_amount:float64 improvement_surcharge:float64 " +
		"total_amount:float64 congestion_surcharge:float64 Airport_fee:float64"
	cases := map[Layout]string{
		Layout2024: want2024,
		Layout2025: want2024 + " cbd_congestion_fee:float64",
		LayoutOld: "VendorID:int64 tpep_pickup_datetime:timestamp[ns, tz=UTC] tpep_dropoff_datetime:timestamp[ns, tz=UTC] " +
			"passenger_count:float64 trip_distance:float64 RatecodeID:float64 store_and_fwd_flag:utf8 " +
			"PULocationID:int64 DOLocationID:int64 payment_type:int64 fare_amount:float64 extra:float64 " +
			"mta_tax:float64 tip_amount:float64 tolls_amount:float64 improvement_surcharge:float64 " +
			"total_amount:float64 congestion_surcharge:float64 airport_fee:float64",
	}
	for layout, want := range cases {
		path := filepath.Join(t.TempDir(), "s.parquet")
		writeSampleFile(t, path, 50_000, 3, SampleOptions{Layout: layout, RowGroupSize: 20_000})
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		pf, err := file.NewParquetReader(f)
		if err != nil {
			t.Fatal(err)
		}
		fr, _ := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, nil)
		sc, _ := fr.Schema()
		got := ""
		for i, fld := range sc.Fields() {
			if i > 0 {
				got += " "
			}
			got += fld.Name + ":" + fld.Type.String()
			if !fld.Nullable {
				t.Errorf("layout %d: %s is required; TLC columns are all optional", layout, fld.Name)
			}
		}
		if got != want {
			t.Errorf("layout %d:\n got %s\nwant %s", layout, got, want)
		}
		if pf.NumRowGroups() != 3 || pf.NumRows() != 50_000 {
			t.Errorf("layout %d: %d rows in %d row groups, want 50000 in 3", layout, pf.NumRows(), pf.NumRowGroups())
		}
		// Timestamps are local times as in the TLC files; INT96 (old) reads as UTC.
		col := pf.MetaData().Schema.Column(1)
		if layout != LayoutOld && col.LogicalType().String() != "Timestamp(isAdjustedToUTC=false, timeUnit=microseconds, is_from_converted_type=false, force_set_converted_type=false)" {
			t.Errorf("layout %d: pickup is %s", layout, col.LogicalType())
		}
		f.Close()

		// The awkward rows are there.
		trips := refRead(t, path)
		var nullPC, pt0, odd, zeroDist, negFare int
		for _, tp := range trips {
			if tp.passengers == nil && tp.payment != nil && *tp.payment == 0 {
				nullPC++
			}
			if tp.payment != nil && *tp.payment == 0 {
				pt0++
			}
			if tp.pickup != nil && (tp.pickup.Year() == 2002 || tp.pickup.Month() != 1) {
				odd++
			}
			if tp.distance != nil && *tp.distance == 0 {
				zeroDist++
			}
			if tp.fare != nil && *tp.fare < 0 {
				negFare++
			}
		}
		if nullPC == 0 || nullPC != pt0 || odd == 0 || zeroDist == 0 || negFare == 0 {
			t.Errorf("layout %d: awkward rows missing: null passenger_count %d, payment_type 0 %d, odd pickups %d, zero distances %d, negative fares %d",
				layout, nullPC, pt0, odd, zeroDist, negFare)
		}
	}
}

// WriteSample is deterministic for a seed.
func TestSampleDeterministic(t *testing.T) {
	var a, b, c writerBuf
	for _, x := range []struct {
		w    *writerBuf
		seed int64
	}{{&a, 5}, {&b, 5}, {&c, 6}} {
		if err := WriteSample(x.w, 10_000, x.seed, SampleOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if string(a) != string(b) {
		t.Error("same seed, different files")
	}
	if string(a) == string(c) {
		t.Error("different seeds, same file")
	}
}

type writerBuf []byte

func (w *writerBuf) Write(p []byte) (int, error) { *w = append(*w, p...); return len(p), nil }
