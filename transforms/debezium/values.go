package debezium

import (
	"encoding/base64"
	"errors"
	"math"
	"math/big"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/google/uuid"

	"github.com/icebeam/icebeam/transforms/internal/jsonscan"
)

// scalar is one parsed value of a column, held between checking a row and
// appending it, so that a row that does not fit appends nothing.
type scalar struct {
	i int64
	f float64
	s []byte // text or bytes; may alias the event's bytes or the column's buffer
	d decimal128.Num
}

// parse reads the JSON value v (not null) of a scalar column. buf is the
// column's own scratch for decoded bytes, reused row after row.
func (c *column) parse(v []byte, buf *[]byte) (scalar, error) {
	var x scalar
	switch c.kind {
	case kBool:
		switch string(v) {
		case "true":
			x.i = 1
		case "false":
		default:
			return x, errValue("a boolean", v)
		}
	case kInt32, kDate, kTimeMilli:
		n, err := parseInt(v)
		if err != nil {
			return x, err
		}
		if n < math.MinInt32 || n > math.MaxInt32 {
			return x, errValue("a 32-bit integer", v)
		}
		x.i = n
		switch c.kind {
		case kTimeMilli:
			x.i = n * 1000
		}
	case kInt64, kTimeMicro, kTsMicro:
		n, err := parseInt(v)
		if err != nil {
			return x, err
		}
		x.i = n
	case kTsMilli:
		n, err := parseInt(v)
		if err != nil {
			return x, err
		}
		if n > math.MaxInt64/1000 || n < math.MinInt64/1000 {
			return x, errValue("milliseconds within the range of microseconds", v)
		}
		x.i = n * 1000
	case kTimeNano, kTsNano:
		n, err := parseInt(v)
		if err != nil {
			return x, err
		}
		// Floor, not truncation toward zero: -1 ns is the microsecond
		// before the epoch, -1 µs.
		x.i = floorDiv(n, 1000)
	case kFloat32, kFloat64:
		if !jsonscan.Number(v) {
			return x, errValue("a number", v)
		}
		bits := 64
		if c.kind == kFloat32 {
			bits = 32
		}
		f, err := strconv.ParseFloat(jsonscan.UnsafeString(v), bits)
		if err != nil {
			return x, errValue("a number", v)
		}
		x.f = f
	case kString:
		s, ok := jsonscan.String(v)
		if !ok {
			return x, errValue("UTF-8 text", v)
		}
		x.s = s
	case kBinary:
		b, err := decodeBase64(v, buf)
		if err != nil {
			return x, err
		}
		x.s = b
	case kTsZoned:
		s, ok := jsonscan.String(v)
		if !ok {
			return x, errValue("an ISO-8601 timestamp", v)
		}
		us, err := parseZoned(s)
		if err != nil {
			return x, err
		}
		x.i = us
	case kUUID:
		s, ok := jsonscan.String(v)
		if !ok {
			return x, errValue("a UUID", v)
		}
		u, err := uuid.ParseBytes(s)
		if err != nil || len(s) != 36 {
			return x, errValue("a UUID", v)
		}
		x.s = append((*buf)[:0], u[:]...)
		*buf = x.s
	case kDecimal, kVarDecimal:
		if len(v) > 0 && v[0] == '{' {
			u, scale, err := parseVariable(v, buf)
			if err != nil {
				return x, err
			}
			d, err := rescale(u, scale, c.scale, c.prec)
			if err != nil {
				return x, err
			}
			x.d = d
			return x, nil
		}
		b, err := decodeBase64(v, buf)
		if err != nil {
			return x, err
		}
		d, ok := unscaled128(b)
		if !ok || !d.FitsInPrecision(c.prec) {
			return x, errValue("a decimal of at most "+strconv.Itoa(int(c.prec))+" digits", v)
		}
		x.d = d
	case kDecimalText:
		var u *big.Int
		scale := c.scale
		if len(v) > 0 && v[0] == '{' {
			var err error
			var sc int32
			if u, sc, err = parseVariable(v, buf); err != nil {
				return x, err
			}
			scale = sc
		} else {
			b, err := decodeBase64(v, buf)
			if err != nil {
				return x, err
			}
			u = bigFromTwos(b)
		}
		x.s = append((*buf)[:0], decimalText(u, scale)...)
		*buf = x.s
	default:
		return x, errors.New("not a scalar column")
	}
	return x, nil
}

// appendScalar appends x to b, the builder of column c.
func (c *column) appendScalar(b array.Builder, x *scalar) {
	switch c.kind {
	case kBool:
		b.(*array.BooleanBuilder).Append(x.i == 1)
	case kInt32:
		b.(*array.Int32Builder).Append(int32(x.i))
	case kInt64:
		b.(*array.Int64Builder).Append(x.i)
	case kFloat32:
		b.(*array.Float32Builder).Append(float32(x.f))
	case kFloat64:
		b.(*array.Float64Builder).Append(x.f)
	case kString, kDecimalText:
		b.(*array.StringBuilder).BinaryBuilder.Append(x.s)
	case kBinary:
		b.(*array.BinaryBuilder).Append(x.s)
	case kDate:
		b.(*array.Date32Builder).Append(arrow.Date32(x.i))
	case kTimeMilli, kTimeMicro, kTimeNano:
		b.(*array.Time64Builder).Append(arrow.Time64(x.i))
	case kTsMilli, kTsMicro, kTsNano, kTsZoned:
		b.(*array.TimestampBuilder).Append(arrow.Timestamp(x.i))
	case kDecimal, kVarDecimal:
		b.(*array.Decimal128Builder).Append(x.d)
	case kUUID:
		fixedOf(b).Append(x.s)
	}
}

// appendZero appends the zero value of column c, for the columns a
// delete's row image lacks (Debezium's before image holds only the key
// when the table's REPLICA IDENTITY is DEFAULT): the sink deletes by key
// and writes none of them, but a required column takes no null.
func (c *column) appendZero(b array.Builder) {
	switch c.kind {
	case kList:
		b.(*array.ListBuilder).Append(true)
	case kStruct:
		sb := b.(*array.StructBuilder)
		sb.Append(true)
		for i := range c.fields {
			c.fields[i].appendZero(sb.FieldBuilder(i))
		}
	case kUUID:
		fixedOf(b).Append(make([]byte, 16))
	default:
		c.appendScalar(b, &scalar{})
	}
}

func fixedOf(b array.Builder) *array.FixedSizeBinaryBuilder {
	switch b := b.(type) {
	case *extensions.UUIDBuilder:
		return b.ExtensionBuilder.Builder.(*array.FixedSizeBinaryBuilder)
	case *array.ExtensionBuilder:
		return b.Builder.(*array.FixedSizeBinaryBuilder)
	}
	return b.(*array.FixedSizeBinaryBuilder)
}

// nested checks (b nil) or appends (b the column's builder) the JSON value
// v of a list or struct column, or of any column within one. A value is
// checked whole before it is appended, so append cannot fail half way.
func (c *column) nested(b array.Builder, v []byte, buf *[]byte) error {
	if jsonscan.IsNull(v) {
		if !c.nullable {
			return errors.New("null in a required field")
		}
		if b != nil {
			b.AppendNull()
		}
		return nil
	}
	switch c.kind {
	case kList:
		var eb array.Builder
		if b != nil {
			lb := b.(*array.ListBuilder)
			lb.Append(true)
			eb = lb.ValueBuilder()
		}
		var err error
		n := 0
		ok := jsonscan.Array(v, func(e []byte) bool {
			if err = c.elem.nested(eb, e, buf); err != nil {
				err = wrapIndex(n, err)
				return false
			}
			n++
			return true
		})
		if err != nil {
			return err
		}
		if !ok {
			return errValue("a JSON array", v)
		}
		return nil
	case kStruct:
		raw := make([][]byte, len(c.fields))
		var err error
		ok := jsonscan.Object(v, func(k, fv []byte) bool {
			i, known := c.index[string(k)]
			if !known {
				err = errors.New("field " + strconv.Quote(jsonscan.Key(k)) + " is not in the struct's schema")
				return false
			}
			raw[i] = fv
			return true
		})
		if err != nil {
			return err
		}
		if !ok {
			return errValue("a JSON object", v)
		}
		var sb *array.StructBuilder
		if b != nil {
			sb = b.(*array.StructBuilder)
			sb.Append(true)
		}
		for i := range c.fields {
			f := &c.fields[i]
			fv := raw[i]
			if fv == nil {
				fv = nullJSON
			}
			var fb array.Builder
			if sb != nil {
				fb = sb.FieldBuilder(i)
			}
			if err := f.nested(fb, fv, buf); err != nil {
				return wrapField(f.name, err)
			}
		}
		return nil
	}
	x, err := c.parse(v, buf)
	if err != nil {
		return err
	}
	if b != nil {
		c.appendScalar(b, &x)
	}
	return nil
}

var nullJSON = []byte("null")

func parseInt(v []byte) (int64, error) {
	if n, ok := jsonscan.ParseInt(v); ok {
		return n, nil
	}
	n, err := strconv.ParseInt(jsonscan.UnsafeString(v), 10, 64)
	if err != nil {
		return 0, errValue("an integer", v)
	}
	return n, nil
}

func decodeBase64(v []byte, buf *[]byte) ([]byte, error) {
	s, ok := jsonscan.String(v)
	if !ok {
		return nil, errValue("base64 text", v)
	}
	n := base64.StdEncoding.DecodedLen(len(s))
	if cap(*buf) < n {
		*buf = make([]byte, n)
	}
	m, err := base64.StdEncoding.Decode((*buf)[:n], s)
	if err != nil {
		return nil, errValue("base64 text", v)
	}
	return (*buf)[:m], nil
}

// unscaled128 reads big-endian two's-complement bytes (Java's
// BigInteger.toByteArray, which Connect's Decimal writes) as a decimal128
// number, or reports that they need more than 128 bits.
func unscaled128(b []byte) (decimal128.Num, bool) {
	if len(b) == 0 {
		return decimal128.Num{}, true
	}
	neg := b[0]&0x80 != 0
	ext := byte(0)
	if neg {
		ext = 0xff
	}
	// Leading bytes beyond 16 must be sign extension only.
	for len(b) > 16 {
		if b[0] != ext || (b[1]&0x80 != 0) != neg {
			return decimal128.Num{}, false
		}
		b = b[1:]
	}
	var w [16]byte
	for i := range 16 - len(b) {
		w[i] = ext
	}
	copy(w[16-len(b):], b)
	hi := int64(uint64(w[0])<<56 | uint64(w[1])<<48 | uint64(w[2])<<40 | uint64(w[3])<<32 | uint64(w[4])<<24 | uint64(w[5])<<16 | uint64(w[6])<<8 | uint64(w[7]))
	lo := uint64(w[8])<<56 | uint64(w[9])<<48 | uint64(w[10])<<40 | uint64(w[11])<<32 | uint64(w[12])<<24 | uint64(w[13])<<16 | uint64(w[14])<<8 | uint64(w[15])
	return decimal128.New(hi, lo), true
}

// bigFromTwos reads big-endian two's-complement bytes of any length.
func bigFromTwos(b []byte) *big.Int {
	u := new(big.Int).SetBytes(b)
	if len(b) > 0 && b[0]&0x80 != 0 {
		u.Sub(u, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	return u
}

// parseVariable reads a VariableScaleDecimal struct: {"scale": s,
// "value": base64 of the unscaled value}.
func parseVariable(v []byte, buf *[]byte) (*big.Int, int32, error) {
	var scale, value []byte
	ok := jsonscan.Object(v, func(k, fv []byte) bool {
		switch string(k) {
		case "scale":
			scale = fv
		case "value":
			value = fv
		}
		return true
	})
	if !ok || scale == nil || value == nil {
		return nil, 0, errValue(`a VariableScaleDecimal {"scale", "value"}`, v)
	}
	s, err := parseInt(scale)
	if err != nil || s < math.MinInt32 || s > math.MaxInt32 {
		return nil, 0, errValue("a VariableScaleDecimal scale", scale)
	}
	b, err := decodeBase64(value, buf)
	if err != nil {
		return nil, 0, err
	}
	return bigFromTwos(b), int32(s), nil
}

// rescale is the unscaled value u at scale from as a decimal128 at scale
// to, exactly: a value that would need rounding, or more than prec
// digits, is an error.
func rescale(u *big.Int, from, to, prec int32) (decimal128.Num, error) {
	r := new(big.Int).Set(u)
	if to >= from {
		r.Mul(r, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(to-from)), nil))
	} else {
		var m big.Int
		r.QuoRem(r, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(from-to)), nil), &m)
		if m.Sign() != 0 {
			return decimal128.Num{}, errors.New("value " + decimalText(u, from) + " has more than " + strconv.Itoa(int(to)) + " decimal places")
		}
	}
	if r.BitLen() > 127 {
		return decimal128.Num{}, errors.New("value " + decimalText(u, from) + " does not fit decimal(" + strconv.Itoa(int(prec)) + ", " + strconv.Itoa(int(to)) + ")")
	}
	d := decimal128.FromBigInt(r)
	if !d.FitsInPrecision(prec) {
		return decimal128.Num{}, errors.New("value " + decimalText(u, from) + " does not fit decimal(" + strconv.Itoa(int(prec)) + ", " + strconv.Itoa(int(to)) + ")")
	}
	return d, nil
}

// decimalText is unscaled value u at scale as plain decimal text, every
// digit kept: 123456 at scale 2 is 1234.56, at scale -2 12345600.
func decimalText(u *big.Int, scale int32) string {
	digits := new(big.Int).Abs(u).String()
	sign := ""
	if u.Sign() < 0 {
		sign = "-"
	}
	if scale <= 0 {
		if u.Sign() == 0 {
			return "0"
		}
		for range -scale {
			digits += "0"
		}
		return sign + digits
	}
	for len(digits) <= int(scale) {
		digits = "0" + digits
	}
	return sign + digits[:len(digits)-int(scale)] + "." + digits[len(digits)-int(scale):]
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b < 0 {
		q--
	}
	return q
}
