package fileio

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cloud.google.com/go/storage"
	"github.com/fsouza/fake-gcs-server/fakestorage"
	"google.golang.org/api/option"
)

func write(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func paths(files []FileInfo) []string {
	var out []string
	for _, f := range files {
		out = append(out, f.Path)
	}
	return out
}

func equal(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s: got %q, want %q", what, got, want)
	}
}

func TestMatchLocal(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a := filepath.Join(dir, "a.parquet")
	b := filepath.Join(dir, "sub", "b.parquet")
	c := filepath.Join(dir, "c.csv")
	write(t, a, "aaaa")
	write(t, b, "bb")
	write(t, c, "c")

	files, err := Match(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0] != (FileInfo{Path: a, Size: 4}) {
		t.Errorf("single file: got %+v", files)
	}

	files, err = Match(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "directory", paths(files), []string{a, b})

	files, err = Match(ctx, filepath.Join(dir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "glob *", paths(files), []string{a, c}) // directories are skipped, * does not recurse

	files, err = Match(ctx, filepath.Join(dir, "*", "*.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "glob */*.parquet", paths(files), []string{b})

	empty := filepath.Join(dir, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	for p, why := range map[string]string{
		filepath.Join(dir, "missing.parquet"): "no such file or directory",
		filepath.Join(dir, "*.json"):          "no files match",
		filepath.Join(dir, "sub", "x["):       "bad pattern",
		empty:                                 "no *.parquet files under directory",
	} {
		if _, err := Match(ctx, p); err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), why) {
			t.Errorf("Match(%q): got error %v, want one naming the pattern and %q", p, err, why)
		}
	}

	f, err := Open(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Size() != 4 {
		t.Errorf("Size = %d, want 4", f.Size())
	}
	buf := make([]byte, 3)
	if n, err := f.ReadAt(buf, 2); n != 2 || err != io.EOF || string(buf[:n]) != "aa" {
		t.Errorf("ReadAt past end: %d %v %q", n, err, buf[:n])
	}
	if _, err := Open(ctx, filepath.Join(dir, "nope")); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("Open missing: %v", err)
	}
}

// fakeGCS starts an in-process fake-gcs-server over HTTP and points the
// package's client at it for the duration of the test.
func fakeGCS(t *testing.T, objects ...fakestorage.Object) {
	t.Helper()
	srv, err := fakestorage.NewServerWithOptions(fakestorage.Options{
		InitialObjects: objects,
		Scheme:         "http",
		Host:           "127.0.0.1",
		Port:           0,
		Writer:         io.Discard,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	Configure(Options{
		Endpoint:      srv.URL() + "/storage/v1/",
		ClientOptions: []option.ClientOption{option.WithoutAuthentication(), storage.WithJSONReads()},
	})
	t.Cleanup(func() { Configure(Options{}) })
}

func obj(bucket, name, content string) fakestorage.Object {
	return fakestorage.Object{
		ObjectAttrs: fakestorage.ObjectAttrs{BucketName: bucket, Name: name},
		Content:     []byte(content),
	}
}

func TestGCS(t *testing.T) {
	ctx := context.Background()
	big := bytes.Repeat([]byte("0123456789"), 100_000)
	fakeGCS(t,
		obj("bkt", "raw/a.parquet", string(big)),
		obj("bkt", "raw/2024/b.parquet", "bb"),
		obj("bkt", "raw/notes.txt", "n"),
		obj("bkt", "rawer/c.parquet", "c"),
		obj("other", "x.parquet", "x"),
	)

	cases := []struct {
		pattern string
		want    []string
	}{
		{"gs://bkt/raw/a.parquet", []string{"gs://bkt/raw/a.parquet"}},
		{"gs://bkt/raw", []string{"gs://bkt/raw/2024/b.parquet", "gs://bkt/raw/a.parquet"}},
		{"gs://bkt/raw/", []string{"gs://bkt/raw/2024/b.parquet", "gs://bkt/raw/a.parquet"}},
		{"gs://bkt", []string{"gs://bkt/raw/2024/b.parquet", "gs://bkt/raw/a.parquet", "gs://bkt/rawer/c.parquet"}},
		{"gs://bkt/raw/*", []string{"gs://bkt/raw/a.parquet", "gs://bkt/raw/notes.txt"}},
		{"gs://bkt/raw*/*.parquet", []string{"gs://bkt/raw/a.parquet", "gs://bkt/rawer/c.parquet"}},
		{"gs://bkt/raw/*/?.parquet", []string{"gs://bkt/raw/2024/b.parquet"}},
	}
	for _, c := range cases {
		files, err := Match(ctx, c.pattern)
		if err != nil {
			t.Errorf("Match(%q): %v", c.pattern, err)
			continue
		}
		equal(t, c.pattern, paths(files), c.want)
	}
	files, _ := Match(ctx, "gs://bkt/raw/a.parquet")
	if len(files) != 1 || files[0].Size != int64(len(big)) {
		t.Errorf("size: got %+v, want %d", files, len(big))
	}
	for _, p := range []string{"gs://bkt/raw/missing.parquet", "gs://bkt/none/*.parquet", "gs://nobucket/x.parquet"} {
		if _, err := Match(ctx, p); err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("Match(%q): got error %v, want one naming the pattern", p, err)
		}
	}

	f, err := Open(ctx, "gs://bkt/raw/a.parquet")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Size() != int64(len(big)) {
		t.Fatalf("Size = %d", f.Size())
	}
	// Random access: a section in the middle, then the tail past the end.
	buf := make([]byte, 12345)
	if n, err := f.ReadAt(buf, 500_003); n != len(buf) || err != nil || !bytes.Equal(buf, big[500_003:500_003+12345]) {
		t.Errorf("ReadAt middle: n=%d err=%v", n, err)
	}
	n, err := f.ReadAt(buf, int64(len(big))-10)
	if n != 10 || err != io.EOF || !bytes.Equal(buf[:n], big[len(big)-10:]) {
		t.Errorf("ReadAt tail: n=%d err=%v", n, err)
	}
	sr := io.NewSectionReader(f, 0, f.Size())
	all, err := io.ReadAll(sr)
	if err != nil || !bytes.Equal(all, big) {
		t.Errorf("ReadAll via SectionReader: %d bytes, %v", len(all), err)
	}
	if _, err := Open(ctx, "gs://bkt/raw/missing.parquet"); err == nil || !strings.Contains(err.Error(), "gs://bkt/raw/missing.parquet") {
		t.Errorf("Open missing: %v", err)
	}

	// One client per process: Match and Open reuse it.
	c1, _ := gcsClient(ctx)
	c2, _ := gcsClient(ctx)
	if c1 != c2 {
		t.Error("gcsClient built two clients")
	}
}

// STORAGE_EMULATOR_HOST, which the storage library honours, is enough to
// point the default client at an emulator.
func TestGCSEmulatorHost(t *testing.T) {
	srv, err := fakestorage.NewServerWithOptions(fakestorage.Options{
		InitialObjects: []fakestorage.Object{obj("bkt", "d/x.parquet", "hello world")},
		Scheme:         "http", Host: "127.0.0.1", Writer: io.Discard,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	t.Setenv("STORAGE_EMULATOR_HOST", strings.TrimPrefix(srv.URL(), "http://"))
	Configure(Options{})
	defer Configure(Options{})
	ctx := context.Background()
	files, err := Match(ctx, "gs://bkt/d")
	if err != nil || len(files) != 1 || files[0].Path != "gs://bkt/d/x.parquet" {
		t.Fatalf("Match: %+v, %v", files, err)
	}
	f, err := Open(ctx, files[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 5)
	if n, err := f.ReadAt(buf, 6); err != nil || string(buf[:n]) != "world" {
		t.Errorf("ReadAt: %q, %v", buf[:n], err)
	}
}
