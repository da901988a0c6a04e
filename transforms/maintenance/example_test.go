package maintenance_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"runtime"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/catalog/localcatalog"
	"github.com/icebeam/icebeam/transforms/icebergio"
	"github.com/icebeam/icebeam/transforms/maintenance"
)

// Click is a row of the example's table.
type Click struct {
	UserID string `beam:"user_id"`
	Count  int64  `beam:"click_count"`
}

// smallFiles starts the local REST catalog in a temporary directory, so
// that the example runs anywhere, and appends n commits of one small file
// each to table, as a stream with a short trigger leaves them.
func smallFiles(table string, n int) (cfg catalog.Config, stop func()) {
	dir, err := os.MkdirTemp("", "maintenance-example-")
	if err != nil {
		log.Fatal(err)
	}
	srv, err := localcatalog.Listen("127.0.0.1:0", localcatalog.Options{Dir: dir})
	if err != nil {
		log.Fatal(err)
	}
	cfg = catalog.Config{URI: srv.URL(), Name: catalog.DefaultName}
	for i := range n {
		p, s := beam.NewPipelineWithRoot()
		icebergio.Write(s, icebergio.Config{Catalog: cfg, Table: table}, beam.Create(s, Click{fmt.Sprint("user", i), int64(i)}))
		if err := beamx.Run(context.Background(), p); err != nil {
			log.Fatal(err)
		}
	}
	return cfg, func() {
		srv.Close()
		os.RemoveAll(dir)
	}
}

// Keeping a streaming table fast to read: small files compacted, equality
// deletes turned into position deletes, snapshots older than a week
// expired (with the files only they held), in the order that leaves least
// behind, on this machine's cores. OnBeam runs the rewrite's groups as a
// Beam pipeline instead, for tables too large for one machine.
func ExampleRun() {
	cfg, stop := smallFiles("clicks.user_clicks", 6)
	defer stop()

	ctx := context.Background()
	cat, err := catalog.Open(ctx, cfg)
	if err != nil {
		log.Fatal(err)
	}
	sum, err := maintenance.Run(ctx, cat, maintenance.Options{
		Table:                  "clicks.user_clicks",
		RewriteDataFiles:       true,
		MinInputFiles:          5,
		ConvertEqualityDeletes: true,
		ExpireSnapshots:        true,
		OlderThan:              7 * 24 * time.Hour,
		RetainLast:             10,
	}, maintenance.InProcess(runtime.GOMAXPROCS(0)))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("data files: %d before, %d after\n", sum.Rewrite.TableFilesBefore, sum.Rewrite.TableFilesAfter)
	// Output:
	// data files: 6 before, 1 after
}
