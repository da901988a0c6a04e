package debezium

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icebeam/icebeam/transforms/internal/jsonscan"
)

// Op is a change event's operation, as Debezium writes it.
type Op byte

const (
	OpCreate   Op = 'c'
	OpRead     Op = 'r' // a snapshot's row
	OpUpdate   Op = 'u'
	OpDelete   Op = 'd'
	OpTruncate Op = 't'
)

// Table is a source table as the event's source block names it.
type Table struct {
	Connector string // source.connector: postgresql, mysql, ...
	Server    string // source.name: the connector's topic.prefix
	DB        string
	Schema    string // "" for MySQL, whose db is the schema
	Table     string
}

// String is db.schema.table (db.table without a schema).
func (t Table) String() string {
	if t.Schema == "" {
		return t.DB + "." + t.Table
	}
	return t.DB + "." + t.Schema + "." + t.Table
}

// Position is where the source's log had the change, for ordering.
type Position struct {
	LSN  int64  // PostgreSQL's source.lsn; 0 when none
	File string // MySQL's binlog file (source.file); "" when none
	Pos  int64  // MySQL's source.pos
	Row  int64  // MySQL's source.row: the row within the binlog event
}

// Event is what Decode read of one record.
type Event struct {
	Table     Table // zero for a tombstone
	Op        Op    // 0 for a tombstone
	Tombstone bool  // a null value: Kafka's log compaction marker after a delete
	Snapshot  bool  // source.snapshot is true, last, first...: a snapshot's row
	TsMs      int64 // payload ts_ms: when the connector processed the event
	Source    Position
	Order     int64 // the value of the batch's order column
	// Transaction is the source transaction's id as its END on the
	// transaction topic has it (TransactionEvent.ID), "" without a
	// transaction block: the connector's provide.transaction.metadata is
	// off, or the event is a snapshot read. Set also with an error after
	// the payload was read, so that a refused event still counts as one of
	// its transaction's.
	Transaction string
}

// Message is one Kafka record as the decoder takes it.
type Message struct {
	Key, Value []byte // the JSON converter's bytes; Value nil for a tombstone
	// Where says where the record was read, for errors:
	// topic/partition/offset.
	Where string
	// Offset is the record's offset in its partition, the order of
	// changes whose connector writes no position the decoder reads, and
	// of every change with OrderByOffset.
	Offset int64
}

// Batch is a run of one table's changes, in the order Decode took them,
// or a truncate of the table between two runs.
type Batch struct {
	Table Table
	// Keys are the key columns (from the record key's fields); nil when
	// the records had no key (a table without a primary key).
	Keys []string
	// Truncate is a truncate of the table (op t) at this point of its
	// changes, at Order; Record is then nil.
	Truncate bool
	Order    int64
	// Record holds the changes: the row image's columns, then the op
	// column (string c, r, u or d: icebergio's Config.Op) and the order
	// column (int64: Config.Order). The caller releases it.
	Record arrow.RecordBatch
}

// OrderBy says where the order column's values come from.
type OrderBy int

const (
	// OrderBySource orders by the source's log position where the
	// connector writes one the decoder reads (PostgreSQL's lsn, MySQL's
	// binlog file, position and row), else by Message.Offset.
	OrderBySource OrderBy = iota
	// OrderByOffset orders every change by Message.Offset (a key's
	// changes are in one partition, in the order Debezium wrote them).
	OrderByOffset
)

// Options configures a Decoder. The zero value is usable.
type Options struct {
	// OpColumn and OrderColumn name the op and order columns of batches;
	// default __op and __order. A source column of either name is an
	// error.
	OpColumn, OrderColumn string
	Order                 OrderBy
	// MaxRows cuts a table's batch at this many rows; default 65,536.
	MaxRows int
	// Schema gives a table's Arrow schema (its existing Iceberg table's)
	// for events without the schema envelope; asked once a table. Its op
	// and order columns, if it has them, are not read from events.
	Schema func(Table) (*arrow.Schema, error)
	// Keys gives a table's key columns for records without a key (files
	// of Debezium values, which carry no record key); asked once a table,
	// when its first such record comes. An error refuses each of the
	// table's keyless events, with the error as its reason. Unset, such
	// records' batches have no Keys.
	Keys func(Table) ([]string, error)
	// VariableScaleDecimal, when set, is the decimal type of
	// VariableScaleDecimal columns (PostgreSQL NUMERIC without a scale):
	// each value goes in exactly or is an error. By default such columns
	// are exact decimal text (see the package's type mapping).
	VariableScaleDecimal *arrow.Decimal128Type
	Allocator            memory.Allocator
	// Accept, when set, is asked before a table's events start a batch of
	// a new schema (the first, or a changed one): an error refuses each
	// event of that schema, with the error as its reason, and the table
	// keeps the schema it had. A sink that can take only some schemas
	// (its table's) says so here, before any row is appended.
	Accept func(Table, *arrow.Schema) error
	// Refuse, when set, is asked once per table and op, at the first
	// change event of that op: an error refuses the event and every later
	// one of the table with that op, with the error as its reason, before
	// it touches the batches. A sink that applies only some operations to
	// a table (an append-only one, of a table without a primary key) says
	// so here.
	Refuse func(Table, Op) error
}

// Decoder decodes change events into per-table batches. It is not safe
// for concurrent use.
type Decoder struct {
	opts    Options
	mem     memory.Allocator
	schemas memo[*rowSchema] // value schema blocks
	keys    memo[[]string]   // key schema blocks
	tables  map[string]*tableState
	order   []*tableState // tables in the order first seen, for Flush
	pending []Batch
	tkey    []byte

	raw  [][]byte
	vals []scalar
	null []bool
	bufs [][]byte
}

// NewDecoder returns a decoder with opts.
func NewDecoder(opts Options) *Decoder {
	if opts.OpColumn == "" {
		opts.OpColumn = "__op"
	}
	if opts.OrderColumn == "" {
		opts.OrderColumn = "__order"
	}
	if opts.MaxRows <= 0 {
		opts.MaxRows = 65536
	}
	d := &Decoder{opts: opts, mem: opts.Allocator, tables: map[string]*tableState{}}
	if d.mem == nil {
		d.mem = memory.DefaultAllocator
	}
	return d
}

// rowSchema is the columns of a table's row image.
type rowSchema struct {
	cols  []column
	index map[string]int
}

// layout is a table's batch schema: a row schema with its key columns.
type layout struct {
	rs     *rowSchema
	keys   []string
	isKey  []bool
	schema *arrow.Schema
}

type tableState struct {
	id     Table
	name   string
	keys   []string
	bare   *rowSchema // from Options.Schema
	keyErr error      // Options.Keys's refusal, asked once
	asked  bool       // Options.Keys was asked
	// refused holds Options.Refuse's answers, by op.
	refused map[Op]error
	lay     *layout
	rb      *array.RecordBuilder
	bs      []array.Builder
	rows    int
	file    string // the last binlog file name, kept to not allocate it per event
	fileNo  int64
}

// memo maps schema blocks to what they parse to. A table's events repeat
// one block, so the last few blocks are first tried as prefixes of the
// event's bytes: a match skips the block with one comparison instead of a
// scan of its several kilobytes.
type memo[T any] struct {
	recent []*memoEntry[T] // most recent first
	all    map[string]*memoEntry[T]
}

type memoEntry[T any] struct {
	block []byte
	val   T
	err   error
}

const memoRecent = 8

// lookup returns the entry of the block that starts at b[i] and its end,
// or nil when the block is new (then end is where it ends, or -1).
func (m *memo[T]) lookup(b []byte, i int) (*memoEntry[T], int) {
	for k, e := range m.recent {
		if bytes.HasPrefix(b[i:], e.block) {
			if k > 0 {
				copy(m.recent[1:k+1], m.recent[:k])
				m.recent[0] = e
			}
			return e, i + len(e.block)
		}
	}
	end := jsonscan.SkipValue(b, i)
	if end < 0 {
		return nil, -1
	}
	if e, ok := m.all[string(b[i:end])]; ok {
		m.promote(e)
		return e, end
	}
	return nil, end
}

func (m *memo[T]) add(block []byte, val T, err error) *memoEntry[T] {
	if m.all == nil || len(m.all) >= 4096 {
		m.all = map[string]*memoEntry[T]{}
	}
	e := &memoEntry[T]{block: bytes.Clone(block), val: val, err: err}
	m.all[string(e.block)] = e
	m.promote(e)
	return e
}

func (m *memo[T]) promote(e *memoEntry[T]) {
	if len(m.recent) < memoRecent {
		m.recent = append(m.recent, nil)
	}
	copy(m.recent[1:], m.recent[:len(m.recent)-1])
	m.recent[0] = e
}

// envelope finds the schema block and the payload of a record's JSON;
// fast guesses where the payload ends (see there). Without a payload field the whole document is the payload (the JSON
// converter with schemas disabled); schema is nil then, or when null.
func envelope[T any](b []byte, m *memo[T], fast bool) (schema *memoEntry[T], block, payload []byte, err error) {
	i := jsonscan.SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, nil, nil, errors.New("not a JSON object")
	}
	i = jsonscan.SkipSpace(b, i+1)
	var sawSchema, sawPayload bool
	for i < len(b) && b[i] != '}' {
		if b[i] != '"' {
			return nil, nil, nil, errors.New("not valid JSON")
		}
		end := jsonscan.SkipString(b, i)
		if end < 0 {
			return nil, nil, nil, errors.New("not valid JSON")
		}
		key := b[i+1 : end-1]
		i = jsonscan.SkipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return nil, nil, nil, errors.New("not valid JSON")
		}
		i = jsonscan.SkipSpace(b, i+1)
		var vend int
		switch string(key) {
		case "schema":
			sawSchema = true
			if i < len(b) && b[i] == '{' {
				schema, vend = m.lookup(b, i)
				if vend > 0 {
					block = b[i:vend]
				}
			} else {
				vend = jsonscan.SkipValue(b, i)
			}
		case "payload":
			sawPayload = true
			if fast && sawSchema && i < len(b) && b[i] == '{' {
				// The JSON converter writes the payload last: it ends
				// where the document's last brace is. The caller's scan of
				// the payload checks that guess, which saves a scan of it
				// here; a payload that is not last fails that check and
				// the caller asks again, not fast.
				if last := bytes.LastIndexByte(b, '}'); last > i {
					return schema, block, bytes.TrimRight(b[i:last], " \t\r\n"), nil
				}
			}
			vend = jsonscan.SkipValue(b, i)
			if vend > 0 {
				payload = b[i:vend]
			}
		default:
			vend = jsonscan.SkipValue(b, i)
		}
		if vend < 0 {
			return nil, nil, nil, errors.New("not valid JSON")
		}
		i = jsonscan.SkipSpace(b, vend)
		if i < len(b) && b[i] == ',' {
			i = jsonscan.SkipSpace(b, i+1)
		}
	}
	if i >= len(b) {
		return nil, nil, nil, errors.New("not valid JSON")
	}
	if !sawPayload {
		// The bare payload: its own fields are before, after, source...
		return nil, nil, b, nil
	}
	if !sawSchema || schema == nil && block == nil {
		return nil, nil, payload, nil
	}
	return schema, block, payload, nil
}

// Decode reads one record: it appends a change's row to its table's batch,
// cuts the batch before a truncate, and returns what the event was. An
// event that cannot be decoded returns an *Error and leaves the batches as
// they were.
func (d *Decoder) Decode(m Message) (Event, error) {
	var ev Event
	if len(m.Value) == 0 || jsonscan.IsNull(bytes.TrimSpace(m.Value)) {
		ev.Tombstone = true
		return ev, nil
	}
	fail := func(ts *tableState, column, reason string) (Event, error) {
		e := &Error{Where: m.Where, Column: column, Reason: reason}
		if ts != nil {
			e.Table = ts.name
		}
		return Event{Transaction: ev.Transaction}, e
	}
	se, block, payload, err := envelope(m.Value, &d.schemas, true)
	if err != nil {
		return fail(nil, "", "value: "+err.Error())
	}

	if jsonscan.IsNull(payload) {
		// {"schema":null,"payload":null}: a null value through a converter
		// that wraps even that.
		ev.Tombstone = true
		return ev, nil
	}
	var before, after, source, op, tsMs, txn []byte
	scan := func(k, v []byte) bool {
		switch string(k) {
		case "before":
			before = v
		case "after":
			after = v
		case "source":
			source = v
		case "op":
			op = v
		case "ts_ms":
			tsMs = v
		case "transaction":
			txn = v
		}
		return true
	}
	ok := jsonscan.Object(payload, scan)
	if !ok && block != nil {
		before, after, source, op, tsMs, txn = nil, nil, nil, nil, nil, nil
		if se, block, payload, err = envelope(m.Value, &d.schemas, false); err != nil {
			return fail(nil, "", "value: "+err.Error())
		}
		ok = jsonscan.Object(payload, scan)
	}
	if !ok {
		return fail(nil, "", "payload is not a JSON object")
	}
	if txn != nil && !jsonscan.IsNull(txn) {
		if ev.Transaction, err = transactionID(txn); err != nil {
			return fail(nil, "", "transaction: "+err.Error())
		}
	}
	if op == nil || source == nil {
		return fail(nil, "", "not a change event: no op or source in the payload")
	}
	if len(op) != 3 || op[0] != '"' || op[2] != '"' {
		return fail(nil, "", "unknown op "+jsonscan.Short(op))
	}
	ev.Op = Op(op[1])
	switch ev.Op {
	case OpCreate, OpRead, OpUpdate, OpDelete, OpTruncate:
	default:
		return fail(nil, "", "unknown op "+jsonscan.Short(op)+" (want c, r, u, d or t)")
	}
	if tsMs != nil && !jsonscan.IsNull(tsMs) {
		if ev.TsMs, err = parseInt(tsMs); err != nil {
			return fail(nil, "", "ts_ms: "+err.Error())
		}
	}
	ts, src, err := d.source(source)
	if err != nil {
		return fail(ts, "", "source: "+err.Error())
	}
	ev.Table, ev.Snapshot = ts.id, src.snapshot
	ev.Source = Position{LSN: src.lsn, Pos: src.pos, Row: src.row}
	if src.file != nil {
		if string(src.file) != ts.file {
			ts.file = string(src.file)
			ts.fileNo, err = binlogNumber(ts.file)
			if err != nil && d.opts.Order == OrderBySource {
				return fail(ts, "", "source.file: "+err.Error())
			}
		}
		ev.Source.File = ts.file
	}
	switch {
	case d.opts.Order == OrderByOffset:
		ev.Order = m.Offset
	case !src.hasLSN && ts.id.Connector == "postgresql":
		// An offset among LSNs would order this change against the
		// table's others by nothing.
		return fail(ts, "", "source has no lsn: a PostgreSQL change cannot be ordered (OrderByOffset orders by the offset)")
	case src.hasLSN:
		ev.Order = src.lsn
	case src.file != nil:
		if ev.Order, err = binlogOrder(ts.fileNo, src.pos, src.row); err != nil {
			return fail(ts, "", err.Error())
		}
	default:
		ev.Order = m.Offset
	}

	// The key's fields name the key columns.
	if m.Key != nil && !jsonscan.IsNull(m.Key) {
		keys, err := d.keyNames(m.Key, ts.keys)
		if err != nil {
			return fail(ts, "", "key: "+err.Error())
		}
		ts.keys = keys
	} else if d.opts.Keys != nil && ts.keys == nil {
		if !ts.asked {
			ts.asked = true
			ts.keys, ts.keyErr = d.opts.Keys(ts.id)
		}
		if ts.keyErr != nil {
			return fail(ts, "", ts.keyErr.Error())
		}
	}

	if d.opts.Refuse != nil {
		err, asked := ts.refused[ev.Op]
		if !asked {
			err = d.opts.Refuse(ts.id, ev.Op)
			if ts.refused == nil {
				ts.refused = map[Op]error{}
			}
			ts.refused[ev.Op] = err
		}
		if err != nil {
			return fail(ts, "", err.Error())
		}
	}

	if ev.Op == OpTruncate {
		d.cut(ts)
		d.pending = append(d.pending, Batch{Table: ts.id, Keys: ts.keys, Truncate: true, Order: ev.Order})
		return ev, nil
	}

	var rs *rowSchema
	switch {
	case se != nil:
		if se.err != nil {
			return fail(ts, "", se.err.Error())
		}
		rs = se.val
	case block != nil:
		rs, err = d.valueSchema(block)
		se = d.schemas.add(block, rs, err)
		if err != nil {
			return fail(ts, "", err.Error())
		}
	default:
		if ts.bare == nil {
			if ts.bare, err = d.bareSchema(ts); err != nil {
				return fail(ts, "", err.Error())
			}
		}
		rs = ts.bare
	}

	image := after
	if ev.Op == OpDelete {
		image = before
	}
	if image == nil || jsonscan.IsNull(image) {
		which := "after"
		if ev.Op == OpDelete {
			which = "before"
		}
		return fail(ts, "", fmt.Sprintf("op %c without its %s image (a table without a primary key needs REPLICA IDENTITY FULL)", ev.Op, which))
	}
	if err := d.setLayout(ts, rs); err != nil {
		var ce *Error
		if errors.As(err, &ce) {
			return fail(ts, ce.Column, ce.Reason)
		}
		return fail(ts, "", err.Error())
	}
	if col, reason := d.row(ts, image, ev.Op == OpDelete); reason != "" {
		return fail(ts, col, reason)
	}
	d.appendRow(ts, ev.Op, ev.Order)
	return ev, nil
}

type sourceInfo struct {
	lsn, pos, row int64
	hasLSN        bool
	file          []byte
	snapshot      bool
}

// source reads the source block: the table's state and the position.
func (d *Decoder) source(b []byte) (*tableState, sourceInfo, error) {
	var si sourceInfo
	var conn, name, db, schema, table []byte
	var err error
	ok := jsonscan.Object(b, func(k, v []byte) bool {
		if jsonscan.IsNull(v) {
			return true
		}
		str := func(dst *[]byte) {
			s, ok := jsonscan.String(v)
			if !ok {
				err = errors.New(string(k) + " is not a string")
			}
			*dst = s
		}
		num := func(dst *int64) {
			n, e := parseInt(v)
			if e != nil {
				err = errors.New(string(k) + ": " + e.Error())
			}
			*dst = n
		}
		switch string(k) {
		case "connector":
			str(&conn)
		case "name":
			str(&name)
		case "db":
			str(&db)
		case "schema":
			str(&schema)
		case "table":
			str(&table)
		case "lsn":
			num(&si.lsn)
			si.hasLSN = true
		case "file":
			str(&si.file)
		case "pos":
			num(&si.pos)
		case "row":
			num(&si.row)
		case "snapshot":
			// true, or "true", "first", "last"... (a string since 1.6).
			si.snapshot = string(v) != "false" && string(v) != `"false"`
		}
		return err == nil
	})
	if err != nil {
		return nil, si, err
	}
	if !ok {
		return nil, si, errors.New("not a JSON object")
	}
	if table == nil {
		return nil, si, errors.New("no table")
	}
	k := d.tkey[:0]
	for _, p := range [][]byte{conn, name, db, schema, table} {
		k = append(k, p...)
		k = append(k, 0)
	}
	d.tkey = k
	ts, found := d.tables[string(k)]
	if !found {
		id := Table{Connector: string(conn), Server: string(name), DB: string(db), Schema: string(schema), Table: string(table)}
		ts = &tableState{id: id, name: id.String()}
		d.tables[string(k)] = ts
		d.order = append(d.order, ts)
	}
	return ts, si, nil
}

// binlogNumber is the number of a MySQL binlog file: mysql-bin.000003 is 3.
func binlogNumber(file string) (int64, error) {
	dot := bytes.LastIndexByte([]byte(file), '.')
	n, err := strconv.ParseInt(file[dot+1:], 10, 64)
	if dot < 0 || err != nil || n < 0 {
		return 0, fmt.Errorf("binlog file %q has no number after its last dot", file)
	}
	return n, nil
}

// binlogOrder packs a MySQL position into one int64 that orders as the
// binlog does: 20 bits of file number, 32 of position, 11 of row.
func binlogOrder(file, pos, row int64) (int64, error) {
	if file >= 1<<20 || pos < 0 || pos >= 1<<32 || row < 0 || row >= 1<<11 {
		return 0, fmt.Errorf("binlog position %d/%d/%d does not fit the order column's 20/32/11 bits: use OrderByOffset", file, pos, row)
	}
	return file<<43 | pos<<11 | row, nil
}

// keyNames reads the key columns' names from a record key: its schema
// block's fields, else its own fields. prev is returned when they are the
// same, so that a table's keys are allocated once.
func (d *Decoder) keyNames(b []byte, prev []string) ([]string, error) {
	ke, block, payload, err := envelope(b, &d.keys, false)
	if err != nil {
		return nil, err
	}
	if ke != nil {
		return ke.val, ke.err
	}
	if block != nil {
		s, err := parseConnect(block)
		var names []string
		if err == nil {
			if s.Type != "struct" {
				err = errors.New("the key schema is not a struct")
			}
			for _, f := range s.Fields {
				names = append(names, f.Field)
			}
		}
		d.keys.add(block, names, err)
		return names, err
	}
	i := 0
	same := true
	ok := jsonscan.Object(payload, func(k, _ []byte) bool {
		same = same && i < len(prev) && string(k) == prev[i]
		i++
		return true
	})
	if !ok {
		return nil, errors.New("not a JSON object")
	}
	if same && i == len(prev) {
		return prev, nil
	}
	var names []string
	jsonscan.Object(payload, func(k, _ []byte) bool {
		names = append(names, jsonscan.Key(k))
		return true
	})
	return names, nil
}

// valueSchema is the row schema of a value schema block: its after (or
// before) field's struct.
func (d *Decoder) valueSchema(block []byte) (*rowSchema, error) {
	s, err := parseConnect(block)
	if err != nil {
		return nil, err
	}
	var row *connectSchema
	for i := range s.Fields {
		if f := &s.Fields[i]; f.Field == "after" || f.Field == "before" && row == nil {
			row = f
		}
	}
	if row == nil || row.Type != "struct" {
		return nil, errors.New("the value schema has no after or before struct: not a Debezium change event")
	}
	rs := &rowSchema{index: map[string]int{}}
	for i := range row.Fields {
		c, err := fromConnect(&row.Fields[i], row.Fields[i].Field, &d.opts)
		if err != nil {
			return nil, err
		}
		if err := d.addColumn(rs, c); err != nil {
			return nil, err
		}
	}
	return rs, nil
}

func (d *Decoder) addColumn(rs *rowSchema, c column) error {
	if c.name == d.opts.OpColumn || c.name == d.opts.OrderColumn {
		return fmt.Errorf("column %s has the name of the op or order column (Options.OpColumn, OrderColumn)", c.name)
	}
	if _, dup := rs.index[c.name]; dup {
		return fmt.Errorf("column %s appears twice", c.name)
	}
	rs.index[c.name] = len(rs.cols)
	rs.cols = append(rs.cols, c)
	return nil
}

// bareSchema is the row schema of table ts from Options.Schema.
func (d *Decoder) bareSchema(ts *tableState) (*rowSchema, error) {
	if d.opts.Schema == nil {
		return nil, errors.New("an event without the schema envelope, and no Options.Schema to give the table's types")
	}
	sc, err := d.opts.Schema(ts.id)
	if err != nil {
		return nil, fmt.Errorf("the table's schema: %w", err)
	}
	if sc == nil {
		return nil, errors.New("an event without the schema envelope of a table Options.Schema does not know")
	}
	rs := &rowSchema{index: map[string]int{}}
	for _, f := range sc.Fields() {
		if f.Name == d.opts.OpColumn || f.Name == d.opts.OrderColumn {
			continue
		}
		c, err := fromArrow(f)
		if err != nil {
			return nil, err
		}
		if err := d.addColumn(rs, c); err != nil {
			return nil, err
		}
	}
	return rs, nil
}

// setLayout makes rs, with the table's keys, the table's batch schema,
// cutting the batch when its Arrow schema changes. A column whose type
// the table cannot widen to is an error, and the table keeps its schema.
func (d *Decoder) setLayout(ts *tableState, rs *rowSchema) error {
	if l := ts.lay; l != nil && l.rs == rs && slices.Equal(l.keys, ts.keys) {
		return nil
	}
	l := &layout{rs: rs, keys: ts.keys, isKey: make([]bool, len(rs.cols))}
	for _, k := range ts.keys {
		i, ok := rs.index[k]
		if !ok {
			return &Error{Column: k, Reason: "key column is not a column of the row image"}
		}
		l.isKey[i] = true
	}
	fields := make([]arrow.Field, 0, len(rs.cols)+2)
	for i := range rs.cols {
		f := rs.cols[i].field()
		if l.isKey[i] {
			// icebergio takes only required key columns; Debezium's are
			// never null.
			f.Nullable = false
		}
		fields = append(fields, f)
	}
	fields = append(fields,
		arrow.Field{Name: d.opts.OpColumn, Type: arrow.BinaryTypes.String},
		arrow.Field{Name: d.opts.OrderColumn, Type: arrow.PrimitiveTypes.Int64})
	l.schema = arrow.NewSchema(fields, nil)
	if old := ts.lay; old != nil && old.schema.Equal(l.schema) {
		ts.lay = l // the same columns: the batch goes on
		return nil
	}
	if old := ts.lay; old != nil {
		for _, of := range old.schema.Fields() {
			i, ok := rs.index[of.Name]
			if !ok {
				continue // dropped: the table keeps it, null from now on
			}
			nf := fields[i]
			if !widens(of.Type, nf.Type) {
				oc := old.rs.cols[old.rs.index[of.Name]]
				return &Error{Column: of.Name, Reason: fmt.Sprintf("type changed from %s (%s) to %s (%s), which the table cannot take: not a widening", of.Type, oc.source, nf.Type, rs.cols[i].source)}
			}
		}
	}
	if d.opts.Accept != nil {
		if err := d.opts.Accept(ts.id, l.schema); err != nil {
			return &Error{Reason: err.Error()}
		}
	}
	d.cut(ts)
	if ts.rb != nil {
		ts.rb.Release()
	}
	ts.lay = l
	ts.rb = array.NewRecordBuilder(d.mem, l.schema)
	ts.bs = ts.rb.Fields()
	return nil
}

// widens reports whether a table column of type from can take values of
// type to: the same type, or one of Iceberg's promotions (int to long,
// float to double, a decimal's precision raised at the same scale), and
// within lists and structs likewise (a struct may gain fields).
func widens(from, to arrow.DataType) bool {
	if arrow.TypeEqual(from, to) {
		return true
	}
	switch f := from.(type) {
	case *arrow.Int32Type:
		return to.ID() == arrow.INT64
	case *arrow.Float32Type:
		return to.ID() == arrow.FLOAT64
	case *arrow.Decimal128Type:
		t, ok := to.(*arrow.Decimal128Type)
		return ok && t.Scale == f.Scale && t.Precision >= f.Precision
	case *arrow.ListType:
		t, ok := to.(*arrow.ListType)
		return ok && widens(f.Elem(), t.Elem())
	case *arrow.StructType:
		t, ok := to.(*arrow.StructType)
		if !ok {
			return false
		}
		for _, ff := range f.Fields() {
			if i, ok := t.FieldIdx(ff.Name); ok && !widens(ff.Type, t.Field(i).Type) {
				return false
			}
		}
		return true
	}
	return false
}

// row parses the row image b into the decoder's per-column scratch, or
// returns the column and why it does not fit. A delete's image may lack
// columns (REPLICA IDENTITY DEFAULT gives only the key).
func (d *Decoder) row(ts *tableState, b []byte, isDelete bool) (string, string) {
	l := ts.lay
	cols := l.rs.cols
	n := len(cols)
	if cap(d.raw) < n {
		d.raw = make([][]byte, n)
		d.vals = make([]scalar, n)
		d.null = make([]bool, n)
		d.bufs = make([][]byte, n)
	}
	raw, vals, null, bufs := d.raw[:n], d.vals[:n], d.null[:n], d.bufs[:n]
	clear(raw)
	var unknown []byte
	ok := jsonscan.Object(b, func(k, v []byte) bool {
		i, known := l.rs.index[string(k)]
		if !known {
			unknown = k
			return false
		}
		raw[i] = v
		return true
	})
	if unknown != nil {
		return jsonscan.Key(unknown), "not a column of the table's schema"
	}
	if !ok {
		return "", "the row image is not a JSON object"
	}
	for i := range cols {
		c := &cols[i]
		v := raw[i]
		null[i] = v == nil || jsonscan.IsNull(v)
		if null[i] {
			switch {
			case l.isKey[i]:
				return c.name, "a key column is missing or null"
			case c.nullable:
			case isDelete:
				// Only the key matters to a delete.
			case v == nil:
				return c.name, "missing, and the column is required"
			default:
				return c.name, "null in a required column"
			}
			continue
		}
		var err error
		if c.kind == kList || c.kind == kStruct {
			err = c.nested(nil, v, &bufs[i])
		} else {
			vals[i], err = c.parse(v, &bufs[i])
		}
		if err != nil {
			return columnError(c.name, err)
		}
	}
	return "", ""
}

// appendRow appends the row row parsed, with its op and order.
func (d *Decoder) appendRow(ts *tableState, op Op, order int64) {
	cols := ts.lay.rs.cols
	for i := range cols {
		c := &cols[i]
		b := ts.bs[i]
		switch {
		case d.null[i] && c.nullable:
			b.AppendNull()
		case d.null[i]:
			c.appendZero(b)
		case c.kind == kList || c.kind == kStruct:
			_ = c.nested(b, d.raw[i], &d.bufs[i]) // checked by row
		default:
			c.appendScalar(b, &d.vals[i])
		}
	}
	n := len(cols)
	ob := ts.bs[n].(*array.StringBuilder)
	ob.BinaryBuilder.Append(opText[op : op+1])
	ts.bs[n+1].(*array.Int64Builder).Append(order)
	ts.rows++
	if ts.rows >= d.opts.MaxRows {
		d.cut(ts)
	}
}

// opText holds every byte value, so that an op's text is a slice of it.
var opText = func() []byte {
	b := make([]byte, 256)
	for i := range b {
		b[i] = byte(i)
	}
	return b
}()

// cut ends the table's batch, if it has rows.
func (d *Decoder) cut(ts *tableState) {
	if ts.rows == 0 {
		return
	}
	rec := ts.rb.NewRecordBatch()
	d.pending = append(d.pending, Batch{Table: ts.id, Keys: ts.lay.keys, Record: rec})
	ts.rows = 0
}

// Flush returns the batches decoded since the last Flush, every table's
// open batch included, in the order they were cut: a table's batches and
// truncates in the order of its events.
func (d *Decoder) Flush() []Batch {
	for _, ts := range d.order {
		d.cut(ts)
	}
	out := d.pending
	d.pending = nil
	return out
}

// Release releases the decoder's builders (not the batches Flush
// returned).
func (d *Decoder) Release() {
	for _, ts := range d.order {
		if ts.rb != nil {
			ts.rb.Release()
			ts.rb = nil
		}
	}
	for _, b := range d.pending {
		if b.Record != nil {
			b.Record.Release()
		}
	}
	d.pending = nil
}
