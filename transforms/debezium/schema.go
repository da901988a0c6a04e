package debezium

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/extensions"
)

// Semantic type names (a Connect schema's "name") the decoder maps.
const (
	connectDecimal   = "org.apache.kafka.connect.data.Decimal"
	connectDate      = "org.apache.kafka.connect.data.Date"
	connectTime      = "org.apache.kafka.connect.data.Time"
	connectTimestamp = "org.apache.kafka.connect.data.Timestamp"
	varScaleDecimal  = "io.debezium.data.VariableScaleDecimal"
	dbzDate          = "io.debezium.time.Date"
	dbzTime          = "io.debezium.time.Time"
	dbzMicroTime     = "io.debezium.time.MicroTime"
	dbzNanoTime      = "io.debezium.time.NanoTime"
	dbzTimestamp     = "io.debezium.time.Timestamp"
	dbzMicroTs       = "io.debezium.time.MicroTimestamp"
	dbzNanoTs        = "io.debezium.time.NanoTimestamp"
	dbzZonedTs       = "io.debezium.time.ZonedTimestamp"
	dbzUUID          = "io.debezium.data.Uuid"
)

// maxDecimal128 is the widest precision decimal128 (and Iceberg's decimal)
// holds.
const maxDecimal128 = 38

// connectSchema is a Kafka Connect schema as the JSON converter writes it.
// It is parsed with encoding/json: a schema block is the same in every
// event of a table, so it is parsed once and memoised (see schemaCache).
type connectSchema struct {
	Type       string            `json:"type"`
	Optional   bool              `json:"optional"`
	Name       string            `json:"name"`
	Field      string            `json:"field"`
	Parameters map[string]string `json:"parameters"`
	Fields     []connectSchema   `json:"fields"`
	Items      *connectSchema    `json:"items"`
}

// kind is how a column's JSON value becomes its Arrow value.
type kind uint8

const (
	kBool kind = iota
	kInt32
	kInt64
	kFloat32
	kFloat64
	kString
	kBinary      // base64 text
	kDate        // int days
	kTimeMilli   // int milliseconds of the day
	kTimeMicro   // int microseconds of the day
	kTimeNano    // int nanoseconds of the day
	kTsMilli     // int milliseconds since the epoch
	kTsMicro     // int microseconds since the epoch
	kTsNano      // int nanoseconds since the epoch
	kTsZoned     // ISO-8601 text with an offset
	kDecimal     // base64 of the unscaled two's-complement value, fixed scale
	kVarDecimal  // {"scale","value"} into a fixed decimal128 scale
	kDecimalText // a decimal as exact text: VariableScaleDecimal, or precision over 38
	kUUID        // text into 16 bytes
	kList
	kStruct
)

// column is one field of a row image: its name, how its JSON value is
// read and the Arrow type it lands as.
type column struct {
	name     string
	kind     kind
	typ      arrow.DataType
	nullable bool
	scale    int32 // kDecimal, kVarDecimal: the column's; kDecimalText: the fixed scale of a Decimal, else -1
	prec     int32 // kDecimal, kVarDecimal
	source   string
	elem     *column  // kList
	fields   []column // kStruct
	index    map[string]int
}

func (c *column) field() arrow.Field {
	return arrow.Field{Name: c.name, Type: c.typ, Nullable: c.nullable}
}

// fromConnect is the column of Connect field s.
func fromConnect(s *connectSchema, name string, opts *Options) (column, error) {
	c := column{name: name, nullable: s.Optional, source: s.Type}
	if s.Name != "" {
		c.source += " " + s.Name
	}
	bad := func() (column, error) {
		return column{}, fmt.Errorf("column %s: Connect type %s is not mapped to an Arrow type", name, c.source)
	}
	switch s.Name {
	case connectDecimal:
		if s.Type != "bytes" {
			return bad()
		}
		sc, err := strconv.Atoi(s.Parameters["scale"])
		if err != nil {
			return column{}, fmt.Errorf("column %s: %s without an integer scale parameter", name, c.source)
		}
		prec := maxDecimal128
		if p, ok := s.Parameters["connect.decimal.precision"]; ok {
			if prec, err = strconv.Atoi(p); err != nil || prec < 1 {
				return column{}, fmt.Errorf("column %s: %s with precision %q", name, c.source, p)
			}
		}
		c.scale, c.prec = int32(sc), int32(prec)
		if prec > maxDecimal128 || sc < 0 || sc > prec {
			// Iceberg's decimals stop at 38 digits and take no negative
			// scale: the exact text keeps every digit instead.
			c.kind, c.typ = kDecimalText, arrow.BinaryTypes.String
			return c, nil
		}
		c.kind, c.typ = kDecimal, &arrow.Decimal128Type{Precision: int32(prec), Scale: int32(sc)}
		return c, nil
	case varScaleDecimal:
		if s.Type != "struct" {
			return bad()
		}
		if d := opts.VariableScaleDecimal; d != nil {
			c.kind, c.typ, c.prec, c.scale = kVarDecimal, d, d.Precision, d.Scale
			return c, nil
		}
		c.kind, c.typ, c.scale = kDecimalText, arrow.BinaryTypes.String, -1
		return c, nil
	case dbzDate, connectDate:
		c.kind, c.typ = kDate, arrow.FixedWidthTypes.Date32
	case dbzTime, connectTime:
		c.kind, c.typ = kTimeMilli, arrow.FixedWidthTypes.Time64us
	case dbzMicroTime:
		c.kind, c.typ = kTimeMicro, arrow.FixedWidthTypes.Time64us
	case dbzNanoTime:
		c.kind, c.typ = kTimeNano, arrow.FixedWidthTypes.Time64us
	case dbzTimestamp, connectTimestamp:
		c.kind, c.typ = kTsMilli, &arrow.TimestampType{Unit: arrow.Microsecond}
	case dbzMicroTs:
		c.kind, c.typ = kTsMicro, &arrow.TimestampType{Unit: arrow.Microsecond}
	case dbzNanoTs:
		c.kind, c.typ = kTsNano, &arrow.TimestampType{Unit: arrow.Microsecond}
	case dbzZonedTs:
		c.kind, c.typ = kTsZoned, &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
	case dbzUUID:
		c.kind, c.typ = kUUID, extensions.NewUUIDType()
	}
	if c.typ != nil {
		if want := physical(c.kind); want != s.Type {
			return column{}, fmt.Errorf("column %s: %s, but %s is written as %s", name, c.source, s.Name, want)
		}
		return c, nil
	}
	// Every other semantic type (io.debezium.data.Json, Xml, Enum,
	// ZonedTime, MicroDuration, Bits...) is read as what it is written as.
	switch s.Type {
	case "boolean":
		c.kind, c.typ = kBool, arrow.FixedWidthTypes.Boolean
	case "int8", "int16", "int32":
		// Iceberg's smallest integer is int.
		c.kind, c.typ = kInt32, arrow.PrimitiveTypes.Int32
	case "int64":
		c.kind, c.typ = kInt64, arrow.PrimitiveTypes.Int64
	case "float32":
		c.kind, c.typ = kFloat32, arrow.PrimitiveTypes.Float32
	case "float64":
		c.kind, c.typ = kFloat64, arrow.PrimitiveTypes.Float64
	case "string":
		c.kind, c.typ = kString, arrow.BinaryTypes.String
	case "bytes":
		c.kind, c.typ = kBinary, arrow.BinaryTypes.Binary
	case "array":
		if s.Items == nil {
			return column{}, fmt.Errorf("column %s: array without items", name)
		}
		e, err := fromConnect(s.Items, "element", opts)
		if err != nil {
			return column{}, fmt.Errorf("column %s: %w", name, err)
		}
		c.kind, c.elem = kList, &e
		c.typ = arrow.ListOfField(e.field())
	case "struct":
		if len(s.Fields) == 0 {
			return column{}, fmt.Errorf("column %s: struct without fields", name)
		}
		c.kind, c.index = kStruct, make(map[string]int, len(s.Fields))
		fs := make([]arrow.Field, len(s.Fields))
		for i := range s.Fields {
			f, err := fromConnect(&s.Fields[i], s.Fields[i].Field, opts)
			if err != nil {
				return column{}, fmt.Errorf("column %s: %w", name, err)
			}
			c.fields = append(c.fields, f)
			c.index[f.name] = i
			fs[i] = f.field()
		}
		c.typ = arrow.StructOf(fs...)
	default:
		// map: no Debezium relational connector writes one for a column
		// (PostgreSQL's hstore is JSON text by default).
		return bad()
	}
	return c, nil
}

// physical is the Connect type a semantic kind is written as.
func physical(k kind) string {
	switch k {
	case kDate, kTimeMilli:
		return "int32"
	case kTimeMicro, kTimeNano, kTsMilli, kTsMicro, kTsNano:
		return "int64"
	case kTsZoned, kUUID:
		return "string"
	}
	return ""
}

// fromArrow is the column that reads Debezium's JSON of a table column of
// Arrow field f, for events without the schema envelope. The JSON alone
// does not say a number's unit: timestamps are read as microseconds and
// times as microseconds of the day (Debezium's MicroTimestamp and
// MicroTime, what PostgreSQL's TIMESTAMP and TIME columns get by default),
// decimals as base64 of the unscaled value at the column's scale (or a
// VariableScaleDecimal struct).
func fromArrow(f arrow.Field) (column, error) {
	c := column{name: f.Name, typ: f.Type, nullable: f.Nullable, source: "Arrow " + f.Type.String()}
	switch t := f.Type.(type) {
	case *arrow.BooleanType:
		c.kind = kBool
	case *arrow.Int8Type, *arrow.Int16Type, *arrow.Int32Type:
		c.kind, c.typ = kInt32, arrow.PrimitiveTypes.Int32
	case *arrow.Int64Type:
		c.kind = kInt64
	case *arrow.Float32Type:
		c.kind = kFloat32
	case *arrow.Float64Type:
		c.kind = kFloat64
	case *arrow.StringType:
		c.kind = kString
	case *arrow.BinaryType:
		c.kind = kBinary
	case *arrow.Date32Type:
		c.kind = kDate
	case *arrow.Time64Type:
		if t.Unit != arrow.Microsecond {
			return column{}, fmt.Errorf("column %s: %s (want time64[us])", f.Name, t)
		}
		c.kind = kTimeMicro
	case *arrow.TimestampType:
		switch {
		case t.Unit != arrow.Microsecond:
			return column{}, fmt.Errorf("column %s: %s (want timestamp[us])", f.Name, t)
		case t.TimeZone == "":
			c.kind = kTsMicro
		default:
			c.kind = kTsZoned
		}
	case *arrow.Decimal128Type:
		c.kind, c.prec, c.scale = kDecimal, t.Precision, t.Scale
	case *extensions.UUIDType:
		c.kind = kUUID
	case *arrow.ListType:
		e, err := fromArrow(t.ElemField())
		if err != nil {
			return column{}, fmt.Errorf("column %s: %w", f.Name, err)
		}
		c.kind, c.elem = kList, &e
		c.typ = arrow.ListOfField(e.field())
	case *arrow.StructType:
		c.kind, c.index = kStruct, make(map[string]int, t.NumFields())
		fs := make([]arrow.Field, t.NumFields())
		for i, sf := range t.Fields() {
			e, err := fromArrow(sf)
			if err != nil {
				return column{}, fmt.Errorf("column %s: %w", f.Name, err)
			}
			c.fields = append(c.fields, e)
			c.index[e.name] = i
			fs[i] = e.field()
		}
		c.typ = arrow.StructOf(fs...)
	default:
		return column{}, fmt.Errorf("column %s: Arrow type %s is not one the decoder reads", f.Name, f.Type)
	}
	return c, nil
}

// parseConnect parses a schema block.
func parseConnect(block []byte) (*connectSchema, error) {
	var s connectSchema
	if err := json.Unmarshal(block, &s); err != nil {
		return nil, fmt.Errorf("schema block: %w", err)
	}
	return &s, nil
}
