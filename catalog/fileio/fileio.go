// Package fileio is the one way pipelines find and read their input files,
// on local disk or in Google Cloud Storage (gs://bucket/object): Match expands
// a file, a directory or a glob into files, and Open returns random-access
// readers, which Parquet needs. GCS access goes through a single
// cloud.google.com/go/storage client per process, created on first use with
// the application default credentials, pointed at an emulator when
// STORAGE_EMULATOR_HOST is set, and replaceable with Configure.
package fileio

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"cloud.google.com/go/storage"
	"google.golang.org/api/iterator"
	"google.golang.org/api/option"
)

// FileInfo names one matched file.
type FileInfo struct {
	Path string // local path or gs://bucket/object
	Size int64
}

// File is an open input file. Parquet readers need ReadAt and Size.
type File interface {
	io.ReaderAt
	io.Closer
	Size() int64
}

// Options configure the process-wide GCS client.
type Options struct {
	// Endpoint overrides the storage API endpoint (for example a
	// fake-gcs-server URL ending in /storage/v1/). Empty means Google's.
	Endpoint string
	// ClientOptions are passed to storage.NewClient after Endpoint; a later
	// option wins. Use option.WithTokenSource to plug in refreshed
	// credentials; emulators such as fake-gcs-server need
	// option.WithoutAuthentication and storage.WithJSONReads (they do not
	// serve the XML API that reads use by default).
	ClientOptions []option.ClientOption
}

var gcs struct {
	mu     sync.Mutex
	opts   Options
	client *storage.Client
}

// Configure sets the options used to create the GCS client and drops the
// cached client, so the next gs:// access builds a new one. Files already
// open keep using the old client, which is therefore not closed. Configure
// affects this process only: on distributed runners call it on workers too
// (for example from a DoFn's Setup) or rely on the default credentials.
func Configure(opts Options) {
	gcs.mu.Lock()
	defer gcs.mu.Unlock()
	gcs.opts = opts
	gcs.client = nil
}

func gcsClient(ctx context.Context) (*storage.Client, error) {
	gcs.mu.Lock()
	defer gcs.mu.Unlock()
	if gcs.client != nil {
		return gcs.client, nil
	}
	var opts []option.ClientOption
	if os.Getenv("STORAGE_EMULATOR_HOST") != "" {
		// Emulators such as fake-gcs-server serve reads on the JSON API only.
		opts = append(opts, storage.WithJSONReads())
	}
	if gcs.opts.Endpoint != "" {
		opts = append(opts, option.WithEndpoint(gcs.opts.Endpoint))
	}
	opts = append(opts, gcs.opts.ClientOptions...)
	// The client outlives ctx (it is shared), so it must not be tied to it.
	c, err := storage.NewClient(context.WithoutCancel(ctx), opts...)
	if err != nil {
		return nil, fmt.Errorf("fileio: creating GCS client: %w", err)
	}
	gcs.client = c
	return c, nil
}

// splitGCS splits gs://bucket/object into bucket and object.
func splitGCS(p string) (bucket, object string, err error) {
	rest, ok := strings.CutPrefix(p, "gs://")
	if !ok {
		return "", "", fmt.Errorf("fileio: %q is not a gs:// path", p)
	}
	bucket, object, _ = strings.Cut(rest, "/")
	if bucket == "" {
		return "", "", fmt.Errorf("fileio: %q has no bucket", p)
	}
	return bucket, object, nil
}

// gcsBucket is the bucket of a gs:// path, on the shared client, and the
// object (or pattern) the path names in it.
func gcsBucket(ctx context.Context, p string) (b *storage.BucketHandle, object string, err error) {
	bucket, object, err := splitGCS(p)
	if err != nil {
		return nil, "", err
	}
	client, err := gcsClient(ctx)
	if err != nil {
		return nil, "", err
	}
	return client.Bucket(bucket), object, nil
}

func isGCS(p string) bool { return strings.HasPrefix(p, "gs://") }

func hasMeta(p string) bool { return strings.ContainsAny(p, `*?[\`) }

// Match expands pattern into the files it names, sorted by path. pattern is a
// file, a directory (all *.parquet files below it, recursively) or a glob
// with path.Match semantics on the file or object name (* does not cross
// "/"); local or gs://bucket/.... A pattern that matches no file is an error
// naming the pattern.
func Match(ctx context.Context, pattern string) ([]FileInfo, error) {
	var (
		files []FileInfo
		err   error
	)
	if isGCS(pattern) {
		files, err = matchGCS(ctx, pattern)
	} else {
		files, err = matchLocal(pattern)
	}
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, noMatch(pattern)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, nil
}

// noMatch says why pattern named no file: a glob matched nothing, a
// directory holds no *.parquet file, or the path does not exist.
func noMatch(pattern string) error {
	if hasMeta(pattern) {
		return fmt.Errorf("fileio: no files match %q", pattern)
	}
	if !isGCS(pattern) {
		if st, err := os.Stat(pattern); err == nil && st.IsDir() {
			return fmt.Errorf("fileio: no *.parquet files under directory %s", pattern)
		}
		return fmt.Errorf("fileio: %s: no such file or directory", pattern)
	}
	return fmt.Errorf("fileio: no object %s, and no *.parquet objects under %s/", pattern, strings.TrimSuffix(pattern, "/"))
}

func matchLocal(pattern string) ([]FileInfo, error) {
	if hasMeta(pattern) {
		if _, err := filepath.Match(pattern, ""); err != nil {
			return nil, fmt.Errorf("fileio: bad pattern %q: %w", pattern, err)
		}
		paths, _ := filepath.Glob(pattern)
		var files []FileInfo
		for _, p := range paths {
			st, err := os.Stat(p)
			if err != nil {
				return nil, fmt.Errorf("fileio: %w", err)
			}
			if st.Mode().IsRegular() {
				files = append(files, FileInfo{Path: p, Size: st.Size()})
			}
		}
		return files, nil
	}
	st, err := os.Stat(pattern)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("fileio: %w", err)
	}
	if !st.IsDir() {
		return []FileInfo{{Path: pattern, Size: st.Size()}}, nil
	}
	var files []FileInfo
	err = filepath.WalkDir(pattern, func(p string, d fs.DirEntry, err error) error {
		// An entry removed while we walk (another program's temporary files)
		// was never part of the input.
		if errors.Is(err, fs.ErrNotExist) && p != pattern {
			return nil
		}
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".parquet") {
			return nil
		}
		info, err := d.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if info.Mode().IsRegular() {
			files = append(files, FileInfo{Path: p, Size: info.Size()})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("fileio: listing %s: %w", pattern, err)
	}
	return files, nil
}

func matchGCS(ctx context.Context, pattern string) ([]FileInfo, error) {
	b, object, err := gcsBucket(ctx, pattern)
	if err != nil {
		return nil, err
	}
	var keep func(name string) bool
	prefix := object
	switch {
	case hasMeta(object):
		if _, err := path.Match(object, ""); err != nil {
			return nil, fmt.Errorf("fileio: bad pattern %q: %w", pattern, err)
		}
		prefix = object[:strings.IndexAny(object, `*?[\`)]
		keep = func(name string) bool { ok, _ := path.Match(object, name); return ok }
	default:
		if object != "" && !strings.HasSuffix(object, "/") {
			attrs, err := b.Object(object).Attrs(ctx)
			if err == nil {
				return []FileInfo{{Path: pattern, Size: attrs.Size}}, nil
			}
			if !errors.Is(err, storage.ErrObjectNotExist) {
				return nil, fmt.Errorf("fileio: stat %s: %w", pattern, err)
			}
			prefix = object + "/"
		}
		keep = func(name string) bool { return strings.HasSuffix(name, ".parquet") }
	}
	var files []FileInfo
	it := b.Objects(ctx, &storage.Query{Prefix: prefix})
	for {
		attrs, err := it.Next()
		if err == iterator.Done {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("fileio: listing gs://%s/%s: %w", b.BucketName(), prefix, err)
		}
		if strings.HasSuffix(attrs.Name, "/") || !keep(attrs.Name) {
			continue // directory placeholder objects or non-matches
		}
		files = append(files, FileInfo{Path: "gs://" + b.BucketName() + "/" + attrs.Name, Size: attrs.Size})
	}
	return files, nil
}

// Open opens a local or gs:// file for random access. For gs:// files, ctx
// also bounds every later read from the returned File.
func Open(ctx context.Context, p string) (File, error) {
	if isGCS(p) {
		return openGCS(ctx, p)
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, fmt.Errorf("fileio: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("fileio: %w", err)
	}
	if st.IsDir() {
		f.Close()
		return nil, fmt.Errorf("fileio: %s is a directory", p)
	}
	return &localFile{File: f, size: st.Size()}, nil
}

type localFile struct {
	*os.File
	size int64
}

func (f *localFile) Size() int64 { return f.size }

func openGCS(ctx context.Context, p string) (File, error) {
	b, object, err := gcsBucket(ctx, p)
	if err != nil {
		return nil, err
	}
	obj := b.Object(object)
	attrs, err := obj.Attrs(ctx)
	if err != nil {
		return nil, fmt.Errorf("fileio: opening %s: %w", p, err)
	}
	// Pin the generation so that every range read sees the same bytes even if
	// the object is overwritten while we read it.
	return &gcsFile{ctx: ctx, path: p, obj: obj.Generation(attrs.Generation), size: attrs.Size}, nil
}

type gcsFile struct {
	ctx  context.Context
	path string
	obj  *storage.ObjectHandle
	size int64
}

func (f *gcsFile) Size() int64  { return f.size }
func (f *gcsFile) Close() error { return nil }

// ReadAt issues one ranged GET per call; Parquet readers read whole column
// chunks at a time, so calls are few and large.
func (f *gcsFile) ReadAt(b []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("fileio: %s: negative offset %d", f.path, off)
	}
	if off >= f.size {
		return 0, io.EOF
	}
	want := int64(len(b))
	if rem := f.size - off; want > rem {
		want = rem
	}
	r, err := f.obj.NewRangeReader(f.ctx, off, want)
	if err != nil {
		return 0, fmt.Errorf("fileio: reading %s at %d: %w", f.path, off, err)
	}
	defer r.Close()
	n, err := io.ReadFull(r, b[:want])
	if err != nil {
		return n, fmt.Errorf("fileio: reading %s at %d: %w", f.path, off, err)
	}
	if n < len(b) {
		return n, io.EOF
	}
	return n, nil
}
