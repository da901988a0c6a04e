package icebergio

import (
	"context"
	"reflect"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/vet"
	"github.com/stretchr/testify/require"

	"github.com/icebeam/icebeam/catalog"
)

// TestReadRegistrations checks that the DoFns, emitters and types of Read
// and ReadChanges are all registered.
func TestReadRegistrations(t *testing.T) {
	p, s := beam.NewPipelineWithRoot()
	cat := catalog.Config{URI: "http://127.0.0.1:1"}
	Read(s, ReadConfig{Catalog: cat, Table: "a.b", Filter: "trips > 1"}, reflect.TypeFor[tripV1]())
	ReadRecords(s, ReadConfig{Catalog: cat, Table: "a.b", Columns: []string{"trips"}})
	ReadChanges(s, ChangesConfig{Catalog: cat, Table: "a.b", TimestampColumn: "ts"}, reflect.TypeFor[click]())
	ReadChanges(s, ChangesConfig{Catalog: cat, Table: "a.b", Mode: RowChanges}, reflect.TypeFor[accountChange]())
	_, err := vet.Execute(context.Background(), p)
	require.NoError(t, err)
}

// Invalid configurations panic at construction, naming what is wrong.
func TestReadConfigErrors(t *testing.T) {
	cat := catalog.Config{URI: "http://127.0.0.1:1"}
	rt := reflect.TypeFor[tripV1]()
	for cfg, want := range map[*ReadConfig]string{
		{Catalog: cat, Table: "nodot"}:                        "want namespace.table",
		{Catalog: cat, Table: "a.b", Filter: "trips >"}:       "expected a literal",
		{Catalog: cat, Table: "a.b", SnapshotID: 1, Ref: "x"}: "at most one of SnapshotID, Ref and AsOf",
		{Table: "a.b"}: "no catalog URI",
		{Catalog: cat, Table: "a.b", Columns: []string{"trips", "nope"}}:  `row type icebergio.tripV1 has no field tagged beam:"nope"`,
		{Catalog: cat, Table: "a.b", Columns: []string{"trips", "trips"}}: "listed twice",
	} {
		func() {
			defer func() {
				r := recover()
				require.NotNil(t, r, "%+v", *cfg)
				require.ErrorContains(t, r.(error), want)
			}()
			Read(beam.NewPipeline().Root(), *cfg, rt)
		}()
	}
	for cfg, want := range map[*ChangesConfig]string{
		{Catalog: cat, Table: "a.b", From: Start{Kind: "sometime"}}: `start "sometime"`,
		{Catalog: cat, Table: "a.b", From: FromSnapshot(0)}:         "FromSnapshot needs a snapshot id",
		{Catalog: cat, Table: "a.b", OnNonAppend: "ignore"}:         `OnNonAppend "ignore"`,
		{Catalog: cat, Table: "a.b", MaxSnapshots: -1}:              "negative MaxSnapshots",
	} {
		func() {
			defer func() {
				r := recover()
				require.NotNil(t, r, "%+v", *cfg)
				require.ErrorContains(t, r.(error), want)
			}()
			ReadChanges(beam.NewPipeline().Root(), *cfg, rt)
		}()
	}
}
