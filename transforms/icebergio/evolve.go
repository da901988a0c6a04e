package icebergio

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/transforms/icebergio/internal/rowcodec"
	"github.com/icebeam/icebeam/transforms/internal/commit"
)

// SchemaEvolution says which existing tables an appending sink may change so
// that its rows fit: new struct fields become optional columns, columns are
// widened (int to long, float to double, decimal precision up) and required
// columns the rows may leave null become optional. Nothing is ever dropped,
// renamed or narrowed; rows that need that fail before any file is written.
type SchemaEvolution string

const (
	// EvolveCreatedTables (the default) evolves tables the sink created,
	// which carry the table property CreatedByKey, and leaves other
	// engines' tables as their owners made them.
	EvolveCreatedTables SchemaEvolution = ""
	// EvolveAlways evolves any table the sink writes to.
	EvolveAlways SchemaEvolution = "always"
	// EvolveNever never changes a table's schema: rows must fit it as it is.
	EvolveNever SchemaEvolution = "never"
)

// CreatedByKey is the table property the sink sets on tables it creates.
// Set it on another table to let EvolveCreatedTables evolve it too.
const CreatedByKey = "icebeam.created-by"

// schemaChange is one change to a table's schema that its rows need.
type schemaChange struct {
	path     []string
	add      iceberg.Type // add an optional column of this type
	widen    iceberg.Type // promote the column to this type
	optional bool         // make the required column optional
}

func (c schemaChange) String() string {
	name := strings.Join(c.path, ".")
	switch {
	case c.add != nil:
		return fmt.Sprintf("add optional column %s %s", name, c.add)
	case c.widen != nil:
		return fmt.Sprintf("widen column %s to %s", name, c.widen)
	default:
		return fmt.Sprintf("make column %s optional", name)
	}
}

// schemaChanges compares the rows' schema with the table's current one,
// field by field by name at every level (ids come from the table), and
// returns what the table must change to take the rows. A row column the
// table holds in a wider type fits as it is (its values are widened when
// written); a table column the rows lack is written as null. It fails when
// no evolution can make the rows fit: a required column the rows lack, a
// type that is neither equal nor a widening either way, or a row field
// named as a column was named before the table renamed it.
func schemaChanges(meta table.Metadata, rows *iceberg.Schema) ([]schemaChange, error) {
	fit := schemaFit{meta: meta}
	_, err := rowcodec.Match{Missing: fit.add, Unwritten: fit.unwritten, Pair: fit.pair, Leaf: fit.leaf}.
		Fields(rows.Fields(), meta.CurrentSchema().Fields())
	if err != nil {
		return nil, err
	}
	return fit.changes, nil
}

type schemaFit struct {
	meta    table.Metadata
	changes []schemaChange
}

func (f *schemaFit) add(path []string, rf iceberg.NestedField) error {
	if err := f.renamed(path); err != nil {
		return err
	}
	f.changes = append(f.changes, schemaChange{path: path, add: rf.Type})
	return nil
}

func (f *schemaFit) unwritten(path []string, tf iceberg.NestedField) error {
	return fmt.Errorf("required column %s (%s) is not in the row type", strings.Join(path, "."), tf.Type)
}

func (f *schemaFit) pair(path []string, rf, tf iceberg.NestedField) error {
	if tf.Required && !rf.Required {
		f.changes = append(f.changes, schemaChange{path: path, optional: true})
	}
	return nil
}

func (f *schemaFit) leaf(path []string, rows, tbl iceberg.Type) error {
	switch {
	case rows.Equals(tbl), widens(rows, tbl):
		return nil
	case widens(tbl, rows):
		f.changes = append(f.changes, schemaChange{path: path, widen: rows})
		return nil
	}
	return fmt.Errorf("column %s is %s in the row type and %s in the table: neither widens to the other",
		strings.Join(path, "."), rows, tbl)
}

// renamed fails when path names a field that an earlier schema of the table
// had and that is still there under another name: matching by name would
// otherwise add a second column and split the field's values in two.
func (f *schemaFit) renamed(path []string) error {
	name := strings.Join(path, ".")
	current := f.meta.CurrentSchema()
	for _, old := range f.meta.Schemas() {
		field, ok := old.FindFieldByName(name)
		if !ok {
			continue
		}
		if now, ok := current.FindColumnName(field.ID); ok && now != name {
			return fmt.Errorf("column %s of the row type was renamed to %s in the table (schema %d); rename the struct field to match",
				name, now, current.ID)
		}
	}
	return nil
}

// widens reports whether Iceberg allows promoting a column of type from to
// type to.
func widens(from, to iceberg.Type) bool {
	switch from := from.(type) {
	case iceberg.Int32Type:
		return to.Equals(iceberg.PrimitiveTypes.Int64)
	case iceberg.Float32Type:
		return to.Equals(iceberg.PrimitiveTypes.Float64)
	case iceberg.DecimalType:
		d, ok := to.(iceberg.DecimalType)
		return ok && d.Scale() == from.Scale() && d.Precision() > from.Precision()
	}
	return false
}

// mayEvolve says whether the config lets the sink change tbl's schema.
func (s *sink) mayEvolve(tbl *table.Table) bool {
	switch s.cfg.SchemaEvolution {
	case EvolveAlways:
		return true
	case EvolveNever:
		return false
	}
	return tbl.Properties()[CreatedByKey] != ""
}

// fitSchema makes tbl's schema take the rows (their columns as the sink
// writes them: not Changes' Op), committing one schema update before any
// data file is written, and returns the table as the files must be written
// for. Two writers that race to make the same change both
// succeed: the loser's update is refused (it asserts the schema it
// started from), and on the reloaded table there is nothing left to do.
func (s *sink) fitSchema(ctx context.Context, deadline time.Time, dest string, tbl *table.Table) (*table.Table, error) {
	ident, err := parseIdent(dest)
	if err != nil {
		return nil, err
	}
	var changes []schemaChange
	done, err := commit.Commit(ctx, s.cat, commit.Request{
		Ident: ident,
		Name:  "icebergio: table " + dest,
		Base:  tbl,
		Stage: func(ctx context.Context, tbl *table.Table, tx *table.Transaction, _ int) (err error) {
			if changes, err = schemaChanges(tbl.Metadata(), s.table.schema); err != nil {
				return fmt.Errorf("the rows (%s) do not fit: %w", s.rows, err)
			}
			if len(changes) == 0 {
				return commit.ErrNothingToCommit
			}
			if !s.mayEvolve(tbl) {
				return fmt.Errorf("the rows (%s) need schema changes (%s), but %s", s.rows, joinChanges(changes), s.evolutionRule())
			}
			return stageSchemaChanges(tbl, tx, changes)
		},
		Deadline: deadline,
		Window:   s.retryFor(),
	})
	if errors.Is(err, commit.ErrNothingToCommit) {
		return done.Table, nil
	}
	if err != nil {
		return nil, err
	}
	schemaUpdatesCounter.Inc(ctx, 1)
	log.Infof(ctx, "icebergio: table %s: schema %d: %s", dest, done.Table.Schema().ID, joinChanges(changes))
	return done.Table, nil
}

// stageSchemaChanges stages changes to tbl's schema on tx as one update.
func stageSchemaChanges(tbl *table.Table, tx *table.Transaction, changes []schemaChange) error {
	var opts []table.UpdateSchemaOption
	if m := tbl.NameMapping(); m != nil {
		// Readers map files without field ids through it: keep it whole.
		opts = append(opts, table.WithNameMapping(m))
	}
	u := tx.UpdateSchema(true, false, opts...)
	for _, c := range changes {
		switch {
		case c.add != nil:
			u.AddColumn(c.path, c.add, "", false, nil)
		case c.widen != nil:
			u.UpdateColumn(c.path, table.ColumnUpdate{FieldType: iceberg.Optional[iceberg.Type]{Val: c.widen, Valid: true}})
		default:
			u.UpdateColumn(c.path, table.ColumnUpdate{Required: iceberg.Optional[bool]{Val: false, Valid: true}})
		}
	}
	return u.Commit()
}

func (s *sink) evolutionRule() string {
	if s.cfg.SchemaEvolution == EvolveNever {
		return "Config.SchemaEvolution is EvolveNever"
	}
	return fmt.Sprintf("the sink did not create the table (it has no property %s): set Config.SchemaEvolution to EvolveAlways, or change the table first", CreatedByKey)
}

func joinChanges(changes []schemaChange) string {
	s := make([]string, len(changes))
	for i, c := range changes {
		s[i] = c.String()
	}
	return strings.Join(s, "; ")
}

// withTableIDs is the rows' schema with the ids of the table's columns of
// the same names, so that the rows' batches can be read as the table's.
// Types need not agree: values are widened as they are read.
func withTableIDs(rows, tbl *iceberg.Schema) (*iceberg.Schema, error) {
	fields, err := rowcodec.Match{
		Missing: func(path []string, _ iceberg.NestedField) error {
			return fmt.Errorf("column %s is not in the table", strings.Join(path, "."))
		},
		Leaf: func(path []string, rows, tbl iceberg.Type) error {
			if _, nested := rows.(iceberg.NestedType); nested {
				return fmt.Errorf("column %s is %s in the rows and %s in the table", strings.Join(path, "."), rows, tbl)
			}
			return nil
		},
	}.Fields(rows.Fields(), tbl.Fields())
	if err != nil {
		return nil, err
	}
	return iceberg.NewSchema(tbl.ID, fields...), nil
}
