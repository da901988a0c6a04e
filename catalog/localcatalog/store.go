package localcatalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/apache/iceberg-go/table"
)

// The handler reads and moves its rows of catalog.db itself rather than
// through iceberg-go's SQL catalog where a name must be taken as it is:
// that catalog refuses a "/" in a table name (it derives paths from names),
// which the REST spec and Iceberg's reference allow. Rows are iceberg-go's
// and Iceberg JDBC's layout: iceberg_tables(catalog_name, table_namespace,
// table_name, iceberg_type, metadata_location, previous_metadata_location),
// with iceberg_type 'TABLE' (or NULL, from older catalogs) or 'VIEW'.

// object is what a row names.
type object string

const (
	tableObject object = "TABLE"
	viewObject  object = "VIEW"
)

// typeIs is the SQL condition selecting rows of kind o.
func (o object) typeIs() string {
	if o == viewObject {
		return "iceberg_type = 'VIEW'"
	}
	return "(iceberg_type = 'TABLE' OR iceberg_type IS NULL)"
}

// pointer returns the metadata location the row of a table (or view) of
// catalog cat points at; "" if there is no such row.
func (h *Handler) pointer(ctx context.Context, cat string, ident table.Identifier, o object) (string, error) {
	var loc sql.NullString
	err := h.db.QueryRowContext(ctx, `SELECT metadata_location FROM iceberg_tables
		WHERE catalog_name = ? AND table_namespace = ? AND table_name = ? AND `+o.typeIs(),
		cat, namespaceKey(ident[:len(ident)-1]), ident[len(ident)-1]).Scan(&loc)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading the catalog's row of %s: %w", dotted(ident), err)
	}
	return loc.String, nil
}

// exists reports whether a table (or view) named ident exists.
func (c *call) exists(ctx context.Context, ident table.Identifier, o object) (bool, error) {
	var n int
	err := c.h.db.QueryRowContext(ctx, `SELECT count(*) FROM iceberg_tables
		WHERE catalog_name = ? AND table_namespace = ? AND table_name = ? AND `+o.typeIs(),
		c.cat.Name(), namespaceKey(ident[:len(ident)-1]), ident[len(ident)-1]).Scan(&n)
	return n > 0, err
}

// remove deletes the row of a table (or view) and its place; false if
// there was none.
func (c *call) remove(ctx context.Context, ident table.Identifier, o object) (bool, error) {
	var ok bool
	err := c.h.inTx(ctx, func(tx *sql.Tx) error {
		ns, name := namespaceKey(ident[:len(ident)-1]), ident[len(ident)-1]
		res, err := tx.ExecContext(ctx, `DELETE FROM iceberg_tables
			WHERE catalog_name = ? AND table_namespace = ? AND table_name = ? AND `+o.typeIs(),
			c.cat.Name(), ns, name)
		n, err := rowsAffected(res, err)
		if err != nil || n != 1 {
			return err
		}
		ok = true
		_, err = tx.ExecContext(ctx, `DELETE FROM icebeam_places
			WHERE catalog_name = ? AND table_namespace = ? AND table_name = ?`, c.cat.Name(), ns, name)
		return err
	})
	return ok, err
}

// rename moves the row of a table (or view) and its place to a new name;
// false if there was no row to move, errRenameOnto if the new name is taken.
func (c *call) rename(ctx context.Context, from, to table.Identifier, o object) (bool, error) {
	var ok bool
	err := c.h.inTx(ctx, func(tx *sql.Tx) error {
		args := []any{namespaceKey(to[:len(to)-1]), to[len(to)-1], c.cat.Name(),
			namespaceKey(from[:len(from)-1]), from[len(from)-1]}
		res, err := tx.ExecContext(ctx, `UPDATE iceberg_tables SET table_namespace = ?, table_name = ?
			WHERE catalog_name = ? AND table_namespace = ? AND table_name = ? AND `+o.typeIs(), args...)
		if err != nil && strings.Contains(err.Error(), "UNIQUE") {
			what := "Table"
			if o == viewObject {
				what = "View"
			}
			return errRenameOnto(from, to, what)
		}
		n, err := rowsAffected(res, err)
		if err != nil || n != 1 {
			return err
		}
		ok = true
		_, err = tx.ExecContext(ctx, `UPDATE icebeam_places SET table_namespace = ?, table_name = ?
			WHERE catalog_name = ? AND table_namespace = ? AND table_name = ?`, args...)
		return err
	})
	return ok, err
}

// inTx runs f in one catalog.db transaction, committed if f returns nil.
func (h *Handler) inTx(ctx context.Context, f func(*sql.Tx) error) error {
	tx, err := h.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := f(tx); err != nil {
		return err
	}
	return tx.Commit()
}
