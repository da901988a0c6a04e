package icebergio

import (
	"fmt"

	"github.com/apache/iceberg-go"

	"github.com/icebeam/icebeam/transforms/icebergio/internal/filter"
)

// ParseFilter parses a row filter written in a small SQL-like language into
// an iceberg-go expression. It is what ReadConfig.Filter and
// ChangesConfig.Filter hold, as text, so that a filter travels to workers
// with the rest of the configuration. The empty string is no filter.
//
// Grammar (keywords are case-insensitive):
//
//	expr      := or
//	or        := and { OR and }
//	and       := not { AND not }
//	not       := NOT not | primary
//	primary   := '(' expr ')' | TRUE | FALSE | predicate
//	predicate := column op literal | literal op column
//	           | column IS [NOT] NULL | column IS [NOT] NAN
//	           | column [NOT] IN '(' literal { ',' literal } ')'
//	           | column [NOT] BETWEEN literal AND literal
//	           | column [NOT] STARTS WITH string | column [NOT] LIKE 'prefix%'
//	op        := '=' | '==' | '!=' | '<>' | '<' | '<=' | '>' | '>='
//	column    := name { '.' name }      (a nested field: "location.city")
//	name      := [A-Za-z_][A-Za-z0-9_]* | "any text" | `any text`
//	literal   := ['-'] digits ['.' digits] [('e'|'E') ['-'|'+'] digits]
//	           | string | TRUE | FALSE
//	string    := 'text' with '' for a quote
//
// Integers are 64-bit and numbers with a fraction or exponent are doubles;
// both are converted to the column's type when the filter is bound to the
// table (an out-of-range value makes the comparison always true or false, as
// in Iceberg). Strings convert to the column's type too: '2024-01-31' for a
// date, '2024-01-31T10:00:00' for a timestamp, '2024-01-31T10:00:00+00:00'
// for a timestamptz, '12.5' for a number. LIKE takes only a prefix pattern
// ('abc%', no other wildcard). Column names are matched case-sensitively.
//
// Example: click_count > 5 AND user_id IN ('user-1', 'user-2') AND NOT (ts IS NULL)
func ParseFilter(s string) (iceberg.BooleanExpression, error) {
	e, err := filter.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("icebergio: %w", err)
	}
	return e, nil
}
