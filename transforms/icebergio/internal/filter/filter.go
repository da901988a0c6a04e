// Package filter parses the small SQL-like row filter language of
// icebergio's ReadConfig.Filter and ChangesConfig.Filter into iceberg-go
// expressions; the grammar is documented on icebergio.ParseFilter, which
// users call.
package filter

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/apache/iceberg-go"
)

// Parse parses filter text into an iceberg-go expression; the empty
// string is no filter (AlwaysTrue). Errors say "filter <text>: <what>".
func Parse(s string) (_ iceberg.BooleanExpression, err error) {
	// iceberg-go's constructors panic on some invalid input (an IN list
	// mixing types): report those as errors too.
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("filter %q: %v", s, r)
		}
	}()
	if strings.TrimSpace(s) == "" {
		return iceberg.AlwaysTrue{}, nil
	}
	toks, err := lexFilter(s)
	if err != nil {
		return nil, fmt.Errorf("filter %q: %w", s, err)
	}
	p := &filterParser{toks: toks}
	e, err := p.or()
	if err == nil && !p.at(tokEOF) {
		err = p.errorf("unexpected %s", p.peek())
	}
	if err != nil {
		return nil, fmt.Errorf("filter %q: %w", s, err)
	}
	return e, nil
}

type tokKind int

const (
	tokEOF tokKind = iota
	tokIdent
	tokQuoted // a quoted column name
	tokString
	tokNumber
	tokOp
	tokLParen
	tokRParen
	tokComma
	tokDot
)

type token struct {
	kind tokKind
	text string
	pos  int
}

func (t token) String() string {
	switch t.kind {
	case tokEOF:
		return "end of filter"
	case tokString:
		return fmt.Sprintf("string '%s' at offset %d", t.text, t.pos)
	}
	return fmt.Sprintf("%q at offset %d", t.text, t.pos)
}

func lexFilter(s string) ([]token, error) {
	var toks []token
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '(':
			toks = append(toks, token{tokLParen, "(", i})
			i++
		case c == ')':
			toks = append(toks, token{tokRParen, ")", i})
			i++
		case c == ',':
			toks = append(toks, token{tokComma, ",", i})
			i++
		case c == '.' && !(i+1 < len(s) && isDigit(s[i+1])):
			toks = append(toks, token{tokDot, ".", i})
			i++
		case c == '\'':
			var b strings.Builder
			j := i + 1
			for {
				if j >= len(s) {
					return nil, fmt.Errorf("unterminated string at offset %d", i)
				}
				if s[j] == '\'' {
					if j+1 < len(s) && s[j+1] == '\'' {
						b.WriteByte('\'')
						j += 2
						continue
					}
					break
				}
				b.WriteByte(s[j])
				j++
			}
			toks = append(toks, token{tokString, b.String(), i})
			i = j + 1
		case c == '"' || c == '`':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				return nil, fmt.Errorf("unterminated quoted name at offset %d", i)
			}
			toks = append(toks, token{tokQuoted, s[i+1 : i+1+j], i})
			i += j + 2
		case strings.ContainsRune("=!<>", rune(c)):
			j := i + 1
			if j < len(s) && (s[j] == '=' || (c == '<' && s[j] == '>')) {
				j++
			}
			op := s[i:j]
			if op == "!" {
				return nil, fmt.Errorf("unexpected '!' at offset %d (did you mean != ?)", i)
			}
			toks = append(toks, token{tokOp, op, i})
			i = j
		case isDigit(c) || c == '.' || (c == '-' && i+1 < len(s) && (isDigit(s[i+1]) || s[i+1] == '.')):
			j := i + 1
			for j < len(s) && (isDigit(s[j]) || s[j] == '.' || s[j] == 'e' || s[j] == 'E' ||
				((s[j] == '-' || s[j] == '+') && (s[j-1] == 'e' || s[j-1] == 'E'))) {
				j++
			}
			toks = append(toks, token{tokNumber, s[i:j], i})
			i = j
		case c == '_' || unicode.IsLetter(rune(c)):
			j := i + 1
			for j < len(s) && (s[j] == '_' || isDigit(s[j]) || unicode.IsLetter(rune(s[j]))) {
				j++
			}
			toks = append(toks, token{tokIdent, s[i:j], i})
			i = j
		default:
			return nil, fmt.Errorf("unexpected character %q at offset %d", c, i)
		}
	}
	return append(toks, token{kind: tokEOF, pos: len(s)}), nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

type filterParser struct {
	toks []token
	i    int
}

func (p *filterParser) peek() token { return p.toks[p.i] }

func (p *filterParser) next() token {
	t := p.toks[p.i]
	if t.kind != tokEOF {
		p.i++
	}
	return t
}

func (p *filterParser) at(k tokKind) bool { return p.peek().kind == k }

// keyword reports whether the next token is the keyword kw, and consumes it.
func (p *filterParser) keyword(kw string) bool {
	t := p.peek()
	if t.kind == tokIdent && strings.EqualFold(t.text, kw) {
		p.i++
		return true
	}
	return false
}

func (p *filterParser) isKeyword(off int, kw string) bool {
	if p.i+off >= len(p.toks) {
		return false
	}
	t := p.toks[p.i+off]
	return t.kind == tokIdent && strings.EqualFold(t.text, kw)
}

func (p *filterParser) errorf(format string, args ...any) error {
	return fmt.Errorf(format, args...)
}

func (p *filterParser) or() (iceberg.BooleanExpression, error) {
	return p.joined("or", p.and, iceberg.NewOr)
}

func (p *filterParser) and() (iceberg.BooleanExpression, error) {
	return p.joined("and", p.not, iceberg.NewAnd)
}

// joined parses operands separated by the keyword op, as operand parses
// them, and joins them left to right (iceberg.NewOr, iceberg.NewAnd).
func (p *filterParser) joined(op string, operand func() (iceberg.BooleanExpression, error),
	join func(l, r iceberg.BooleanExpression, more ...iceberg.BooleanExpression) iceberg.BooleanExpression) (iceberg.BooleanExpression, error) {
	left, err := operand()
	if err != nil {
		return nil, err
	}
	for p.keyword(op) {
		right, err := operand()
		if err != nil {
			return nil, err
		}
		left = join(left, right)
	}
	return left, nil
}

func (p *filterParser) not() (iceberg.BooleanExpression, error) {
	if p.keyword("not") {
		e, err := p.not()
		if err != nil {
			return nil, err
		}
		return iceberg.NewNot(e), nil
	}
	return p.primary()
}

var reserved = map[string]bool{"and": true, "or": true, "not": true, "is": true, "in": true, "between": true,
	"like": true, "starts": true, "with": true, "null": true, "nan": true, "true": true, "false": true}

func (p *filterParser) primary() (iceberg.BooleanExpression, error) {
	if p.at(tokLParen) {
		p.next()
		e, err := p.or()
		if err != nil {
			return nil, err
		}
		if !p.at(tokRParen) {
			return nil, p.errorf("expected ')' but found %s", p.peek())
		}
		p.next()
		return e, nil
	}
	// TRUE / FALSE alone, unless compared: "true = flag".
	if (p.isKeyword(0, "true") || p.isKeyword(0, "false")) && p.toks[p.i+1].kind != tokOp {
		if p.keyword("true") {
			return iceberg.AlwaysTrue{}, nil
		}
		p.next()
		return iceberg.AlwaysFalse{}, nil
	}
	if p.at(tokNumber) || p.at(tokString) || p.isKeyword(0, "true") || p.isKeyword(0, "false") {
		// literal op column
		lit, err := p.literal()
		if err != nil {
			return nil, err
		}
		if !p.at(tokOp) {
			return nil, p.errorf("expected a comparison after %s but found %s", lit, p.peek())
		}
		op := p.next().text
		ref, err := p.column()
		if err != nil {
			return nil, err
		}
		return compare(flip(op), ref, lit)
	}
	ref, err := p.column()
	if err != nil {
		return nil, err
	}
	switch {
	case p.at(tokOp):
		op := p.next().text
		lit, err := p.literal()
		if err != nil {
			return nil, err
		}
		return compare(op, ref, lit)
	case p.keyword("is"):
		negate := p.keyword("not")
		switch {
		case p.keyword("null"):
			if negate {
				return iceberg.NotNull(ref), nil
			}
			return iceberg.IsNull(ref), nil
		case p.keyword("nan"):
			if negate {
				return iceberg.NotNaN(ref), nil
			}
			return iceberg.IsNaN(ref), nil
		}
		return nil, p.errorf("expected NULL or NAN after IS but found %s", p.peek())
	}
	negate := p.keyword("not")
	switch {
	case p.keyword("in"):
		if !p.at(tokLParen) {
			return nil, p.errorf("expected '(' after IN but found %s", p.peek())
		}
		p.next()
		var lits []iceberg.Literal
		for {
			lit, err := p.literal()
			if err != nil {
				return nil, err
			}
			lits = append(lits, lit)
			if p.at(tokComma) {
				p.next()
				continue
			}
			if p.at(tokRParen) {
				p.next()
				break
			}
			return nil, p.errorf("expected ',' or ')' in the IN list but found %s", p.peek())
		}
		op := iceberg.OpIn
		if negate {
			op = iceberg.OpNotIn
		}
		return iceberg.SetPredicate(op, ref, lits), nil
	case p.keyword("between"):
		lo, err := p.literal()
		if err != nil {
			return nil, err
		}
		if !p.keyword("and") {
			return nil, p.errorf("expected AND in BETWEEN but found %s", p.peek())
		}
		hi, err := p.literal()
		if err != nil {
			return nil, err
		}
		e := iceberg.NewAnd(iceberg.LiteralPredicate(iceberg.OpGTEQ, ref, lo), iceberg.LiteralPredicate(iceberg.OpLTEQ, ref, hi))
		if negate {
			return iceberg.NewNot(e), nil
		}
		return e, nil
	case p.keyword("starts"):
		if !p.keyword("with") {
			return nil, p.errorf("expected WITH after STARTS but found %s", p.peek())
		}
		if !p.at(tokString) {
			return nil, p.errorf("STARTS WITH takes a string, found %s", p.peek())
		}
		prefix := p.next().text
		if negate {
			return iceberg.NotStartsWith(ref, prefix), nil
		}
		return iceberg.StartsWith(ref, prefix), nil
	case p.keyword("like"):
		if !p.at(tokString) {
			return nil, p.errorf("LIKE takes a string, found %s", p.peek())
		}
		t := p.next()
		prefix, ok := strings.CutSuffix(t.text, "%")
		if !ok || strings.ContainsAny(prefix, "%_") {
			return nil, p.errorf("LIKE supports only a prefix pattern such as 'abc%%', not '%s' (offset %d)", t.text, t.pos)
		}
		if negate {
			return iceberg.NotStartsWith(ref, prefix), nil
		}
		return iceberg.StartsWith(ref, prefix), nil
	}
	if negate {
		return nil, p.errorf("expected IN, BETWEEN, LIKE or STARTS WITH after NOT but found %s", p.peek())
	}
	return nil, p.errorf("expected a comparison, IS, IN, BETWEEN, LIKE or STARTS WITH after column %q but found %s", string(ref), p.peek())
}

func (p *filterParser) column() (iceberg.Reference, error) {
	var parts []string
	for {
		t := p.peek()
		switch {
		case t.kind == tokQuoted:
		case t.kind == tokIdent && !reserved[strings.ToLower(t.text)]:
		default:
			if len(parts) == 0 {
				return "", p.errorf("expected a column name but found %s", t)
			}
			return "", p.errorf("expected a field name after '.' but found %s", t)
		}
		p.next()
		parts = append(parts, t.text)
		if !p.at(tokDot) {
			return iceberg.Reference(strings.Join(parts, ".")), nil
		}
		p.next()
	}
}

func (p *filterParser) literal() (iceberg.Literal, error) {
	t := p.peek()
	switch {
	case t.kind == tokString:
		p.next()
		return iceberg.NewLiteral(t.text), nil
	case t.kind == tokNumber:
		p.next()
		if !strings.ContainsAny(t.text, ".eE") {
			n, err := strconv.ParseInt(t.text, 10, 64)
			if err != nil {
				return nil, p.errorf("bad integer %s: %v", t, err)
			}
			return iceberg.NewLiteral(n), nil
		}
		f, err := strconv.ParseFloat(t.text, 64)
		if err != nil {
			return nil, p.errorf("bad number %s", t)
		}
		return iceberg.NewLiteral(f), nil
	case p.keyword("true"):
		return iceberg.NewLiteral(true), nil
	case p.keyword("false"):
		return iceberg.NewLiteral(false), nil
	}
	return nil, p.errorf("expected a literal (number, 'string', TRUE or FALSE) but found %s", t)
}

// flip mirrors a comparison so that "5 < x" becomes "x > 5".
func flip(op string) string {
	switch op {
	case "<":
		return ">"
	case "<=":
		return ">="
	case ">":
		return "<"
	case ">=":
		return "<="
	}
	return op
}

func compare(op string, ref iceberg.Reference, lit iceberg.Literal) (iceberg.BooleanExpression, error) {
	var o iceberg.Operation
	switch op {
	case "=", "==":
		o = iceberg.OpEQ
	case "!=", "<>":
		o = iceberg.OpNEQ
	case "<":
		o = iceberg.OpLT
	case "<=":
		o = iceberg.OpLTEQ
	case ">":
		o = iceberg.OpGT
	case ">=":
		o = iceberg.OpGTEQ
	default:
		return nil, fmt.Errorf("unknown operator %q", op)
	}
	return iceberg.LiteralPredicate(o, ref, lit), nil
}
