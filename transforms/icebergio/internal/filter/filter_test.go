package filter

import (
	"testing"

	"github.com/apache/iceberg-go"
	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	ref := func(n string) iceberg.UnboundTerm { return iceberg.Reference(n) }
	lit := func(v any) iceberg.Literal {
		switch v := v.(type) {
		case int:
			return iceberg.NewLiteral(int64(v))
		case float64:
			return iceberg.NewLiteral(v)
		case string:
			return iceberg.NewLiteral(v)
		case bool:
			return iceberg.NewLiteral(v)
		}
		panic(v)
	}
	pred := func(op iceberg.Operation, col string, v any) iceberg.BooleanExpression {
		return iceberg.LiteralPredicate(op, ref(col), lit(v))
	}
	cases := map[string]iceberg.BooleanExpression{
		"":                                       iceberg.AlwaysTrue{},
		"  ":                                     iceberg.AlwaysTrue{},
		"TRUE":                                   iceberg.AlwaysTrue{},
		"click_count > 5 AND user_id = 'user-1'": iceberg.NewAnd(pred(iceberg.OpGT, "click_count", 5), pred(iceberg.OpEQ, "user_id", "user-1")),
		"a = 1 or b <> 'x' and not c <= -2.5e3": iceberg.NewOr(pred(iceberg.OpEQ, "a", 1),
			iceberg.NewAnd(pred(iceberg.OpNEQ, "b", "x"), iceberg.NewNot(pred(iceberg.OpLTEQ, "c", -2500.0)))),
		"(a == 1 OR b != 2) AND c >= 3":     iceberg.NewAnd(iceberg.NewOr(pred(iceberg.OpEQ, "a", 1), pred(iceberg.OpNEQ, "b", 2)), pred(iceberg.OpGTEQ, "c", 3)),
		"5 < a":                             pred(iceberg.OpGT, "a", 5),
		"'x' = s":                           pred(iceberg.OpEQ, "s", "x"),
		"s = 'it''s'":                       pred(iceberg.OpEQ, "s", "it's"),
		"flag = true":                       pred(iceberg.OpEQ, "flag", true),
		"a IS NULL":                         iceberg.IsNull(ref("a")),
		"a is not null":                     iceberg.NotNull(ref("a")),
		"f IS NAN AND g IS NOT NAN":         iceberg.NewAnd(iceberg.IsNaN(ref("f")), iceberg.NotNaN(ref("g"))),
		"u IN ('a', 'b')":                   iceberg.SetPredicate(iceberg.OpIn, ref("u"), []iceberg.Literal{lit("a"), lit("b")}),
		"u NOT IN (1, 2, 3)":                iceberg.SetPredicate(iceberg.OpNotIn, ref("u"), []iceberg.Literal{lit(1), lit(2), lit(3)}),
		"n BETWEEN 1 AND 10":                iceberg.NewAnd(pred(iceberg.OpGTEQ, "n", 1), pred(iceberg.OpLTEQ, "n", 10)),
		"n NOT BETWEEN 1 AND 10":            iceberg.NewNot(iceberg.NewAnd(pred(iceberg.OpGTEQ, "n", 1), pred(iceberg.OpLTEQ, "n", 10))),
		"s LIKE 'ab%'":                      iceberg.StartsWith(ref("s"), "ab"),
		"s NOT LIKE 'ab%'":                  iceberg.NotStartsWith(ref("s"), "ab"),
		"s STARTS WITH 'ab'":                iceberg.StartsWith(ref("s"), "ab"),
		`loc.city = 'Paris'`:                pred(iceberg.OpEQ, "loc.city", "Paris"),
		`"odd name" = 1 AND ` + "`and` = 2": iceberg.NewAnd(pred(iceberg.OpEQ, "odd name", 1), pred(iceberg.OpEQ, "and", 2)),
		"ts >= '2024-01-31T10:00:00'":       pred(iceberg.OpGTEQ, "ts", "2024-01-31T10:00:00"),
	}
	for in, want := range cases {
		got, err := Parse(in)
		require.NoError(t, err, in)
		require.True(t, want.Equals(got), "%s: got %v, want %v", in, got, want)
	}
	errs := map[string]string{
		"a >":                      "expected a literal",
		"a = 1 b":                  `unexpected "b" at offset 6`,
		"(a = 1":                   "expected ')'",
		"a = 'x":                   "unterminated string",
		"s LIKE '%x'":              "LIKE supports only a prefix pattern",
		"a IN ()":                  "expected a literal",
		"a IS 3":                   "expected NULL or NAN",
		"and = 1":                  "expected a column name",
		"a ! 1":                    "did you mean !=",
		"a = 1 AND":                "expected a column name but found end of filter",
		"a NOT = 1":                "after NOT",
		"a = 99999999999999999999": "bad integer",
	}
	for in, want := range errs {
		_, err := Parse(in)
		require.ErrorContains(t, err, want, in)
	}
}
