package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog/rest"
	"github.com/apache/iceberg-go/table"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/internal/syncbuf"
)

// serve runs `icebeam serve args...` in-process and returns the URL and
// warehouse it printed, and a stop function that sends the equivalent of
// SIGINT and returns serve's error.
func serve(t *testing.T, args ...string) (url, warehouse string, stop func() error) {
	t.Helper()
	lines, _, stop := serveOutput(t, args...)
	for _, l := range lines {
		if w, ok := strings.CutPrefix(l, "icebeam: warehouse "); ok {
			warehouse = w
		}
	}
	return servedURL(t, lines), warehouse, stop
}

// serveOutput runs `icebeam serve args...` in-process and returns the lines
// it printed up to its warehouse line (all of them if it stopped before),
// what it wrote to stderr so far, and stop as serve returns it.
func serveOutput(t *testing.T, args ...string) (lines []string, stderr func() string, stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	var errOut syncbuf.Buffer
	done := make(chan error, 1)
	go func() {
		err := run(ctx, append([]string{"serve"}, args...), pw, &errOut)
		pw.CloseWithError(io.EOF)
		done <- err
	}()
	scanner := bufio.NewScanner(pr)
	for scanner.Scan() {
		lines = append(lines, scanner.Text())
		if strings.HasPrefix(scanner.Text(), "icebeam: warehouse ") {
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	var stopped bool
	stop = func() error {
		if stopped {
			return nil
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(15 * time.Second):
			return errors.New("serve did not stop within 15s")
		}
	}
	t.Cleanup(func() { _ = stop() })
	return lines, errOut.String, stop
}

func TestServe(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "lake")
	wh := filepath.Join(t.TempDir(), "wh")
	url, warehouse, stop := serve(t, "--addr", "127.0.0.1:0", "--local_dir", dir, "--warehouse", wh)
	require.Equal(t, "file://"+filepath.ToSlash(wh), warehouse)

	cat, err := rest.NewCatalog(ctx, "lakehouse", url)
	require.NoError(t, err)
	require.NoError(t, cat.CreateNamespace(ctx, table.Identifier{"db"}, nil))
	tbl, err := cat.CreateTable(ctx, table.Identifier{"db", "t"}, iceberg.NewSchema(0,
		iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.PrimitiveTypes.Int64, Required: true}))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(tbl.Location(), warehouse+"/db.db/t"), tbl.Location())
	cat.Close()
	require.NoError(t, stop())

	// The same directory serves the same catalog again.
	url, _, stop = serve(t, "--addr", "127.0.0.1:0", "--local_dir", dir, "--warehouse", wh)
	cat, err = rest.NewCatalog(ctx, "lakehouse", url)
	require.NoError(t, err)
	defer cat.Close()
	loaded, err := cat.LoadTable(ctx, table.Identifier{"db", "t"})
	require.NoError(t, err)
	require.Equal(t, tbl.MetadataLocation(), loaded.MetadataLocation())
	require.NoError(t, stop())
}

func TestUsage(t *testing.T) {
	ctx := context.Background()
	var out, errOut bytes.Buffer
	require.NoError(t, run(ctx, []string{"help"}, &out, &errOut))
	require.Contains(t, out.String(), "serve")

	out.Reset()
	require.NoError(t, run(ctx, []string{"help", "serve"}, &out, &errOut))
	require.Contains(t, out.String(), "-local_dir")
	require.Contains(t, out.String(), `(default "lakehouse")`)

	errOut.Reset()
	require.ErrorIs(t, run(ctx, []string{"bogus"}, &out, &errOut), errUsage)
	require.Contains(t, errOut.String(), `unknown command "bogus"`)

	require.ErrorIs(t, run(ctx, nil, &out, &errOut), errUsage)
	require.ErrorIs(t, run(ctx, []string{"serve", "--dir", "x"}, &out, &errOut), errUsage, "--dir is not a flag")
	require.ErrorIs(t, run(ctx, []string{"serve", "extra"}, &out, &errOut), errUsage)

	// A port already in use is a clear error, not a hang.
	url, _, _ := serve(t, "--addr", "127.0.0.1:0", "--local_dir", t.TempDir())
	err := run(ctx, []string{"serve", "--addr", strings.TrimPrefix(url, "http://"), "--local_dir", t.TempDir()}, &out, &errOut)
	require.ErrorContains(t, err, "listening on")
}
