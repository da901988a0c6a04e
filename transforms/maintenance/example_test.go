package maintenance_test

import (
	"context"
	"fmt"
	"log"
	"runtime"
	"time"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/transforms/maintenance"
)

// Keeping a streaming table fast to read: small files compacted, equality
// deletes turned into position deletes, snapshots older than a week
// expired (with the files only they held), in the order that leaves least
// behind, on this machine's cores. OnBeam runs the rewrite's groups as a
// Beam pipeline instead, for tables too large for one machine.
func ExampleRun() {
	ctx := context.Background()
	cat, err := catalog.Open(ctx, catalog.Config{URI: "http://localhost:8181", Name: catalog.DefaultName})
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
	fmt.Printf("%+v\n", sum)
}
