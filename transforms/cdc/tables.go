package cdc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/graph/mtime"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"

	"github.com/icebeam/icebeam/catalog"
	dbz "github.com/icebeam/icebeam/transforms/debezium"
	"github.com/icebeam/icebeam/transforms/internal/arrowipc"
	"github.com/icebeam/icebeam/transforms/internal/blocks"
)

// The op and order columns of the batches ReadTables emits: icebergio's
// Config.Op and Config.Order, not written to the tables.
const (
	OpColumn    = "__op"
	OrderColumn = "__order"
)

// DefaultTable is PlanConfig.Table's default: the source table's schema
// and name ({db} for MySQL, whose events name no schema).
const DefaultTable = "{schema}.{table}"

// SourceTable is a source table of Debezium files and the Iceberg table
// its changes land in.
type SourceTable struct {
	Source string // dbz.Table's text: db.schema.table
	Name   string // the Iceberg table, namespace.table
	// Schema is the Arrow IPC form of the batches' columns: every column
	// the table's events had in the files (types as their newest events
	// have them), then OpColumn and OrderColumn.
	Schema []byte
	Key    []string
}

// PlanConfig says which files PlanTables reads and where their tables
// land.
type PlanConfig struct {
	Pattern string // as ReadConfig.Pattern
	// Table is the Iceberg table of each source table: a name, or a
	// template over the source's {db}, {schema} and {table}; default
	// DefaultTable.
	Table string
	// Key names the key columns of every table, for files, which carry
	// Debezium's values without their record keys. Empty: the existing
	// Iceberg table's identifier fields.
	Key []string
}

// Plan is what PlanTables found.
type Plan struct {
	// Accounts says the files are the accounts table's change log as
	// ParseDebezium reads it (events that name no source table): replay
	// them with ReadDebezium.
	Accounts bool
	Tables   []SourceTable
}

// PlanTables reads the Debezium files of pc through the shared decoder
// (transforms/debezium) before the job starts, so that the job knows its
// tables and their columns when it is built: every event is decoded once
// here and again when the job replays it. Types come from the events'
// schema envelope, or for bare payloads from the existing Iceberg table;
// keys from pc.Key, else from the existing table's identifier fields. A
// line that cannot be applied (invalid JSON, a table it cannot type or
// key) is an error naming its file and line: nothing lands.
//
// Files whose first event names no source table (source.table) are the
// accounts change log ParseDebezium reads, which predates the decoder:
// Plan.Accounts says so. Their lines are only checked to be of accounts:
// one that names a table or has another column is an error.
func PlanTables(ctx context.Context, cat icecatalog.Catalog, pc PlanConfig) (Plan, error) {
	if pc.Table == "" {
		pc.Table = DefaultTable
	}
	fsys, err := filesystem.New(ctx, pc.Pattern)
	if err != nil {
		return Plan{}, fmt.Errorf("cdc: reading %s: %w", pc.Pattern, err)
	}
	defer fsys.Close()
	files, err := expand(ctx, fsys, pc.Pattern)
	if err != nil {
		return Plan{}, err
	}
	dests := map[string]*dest{} // by Iceberg table name
	dest := func(t dbz.Table) (*dest, error) {
		name, err := TableName(pc.Table, t)
		if err != nil {
			return nil, err
		}
		if d := dests[name]; d != nil {
			return d, nil
		}
		d := &dest{name: name}
		tbl, err := cat.LoadTable(ctx, icecatalog.ToIdentifier(name))
		switch {
		case errors.Is(err, icecatalog.ErrNoSuchTable):
		case err != nil:
			return nil, fmt.Errorf("loading table %s: %w", name, err)
		default:
			d.tbl = tbl
		}
		dests[name] = d
		return d, nil
	}
	opts := dbz.Options{
		OpColumn: OpColumn, OrderColumn: OrderColumn,
		Schema: func(t dbz.Table) (*arrow.Schema, error) {
			d, err := dest(t)
			if err != nil {
				return nil, err
			}
			if d.tbl == nil {
				return nil, fmt.Errorf("an event without the schema envelope, and no table %s to take the columns from: write the events with their schema (Kafka Connect's JSON converter with schemas.enable=true) or create the table", d.name)
			}
			return table.SchemaToArrowSchema(d.tbl.Schema(), nil, false, false)
		},
		Keys: func(t dbz.Table) ([]string, error) {
			if len(pc.Key) > 0 {
				return pc.Key, nil
			}
			d, err := dest(t)
			if err != nil {
				return nil, err
			}
			if d.tbl != nil {
				sc := d.tbl.Schema()
				var keys []string
				for _, id := range sc.IdentifierFieldIDs {
					name, _ := sc.FindColumnName(id)
					keys = append(keys, name)
				}
				if len(keys) > 0 {
					return keys, nil
				}
			}
			if d.tbl == nil {
				return nil, fmt.Errorf("a file holds no record keys, and there is no table %s to take them from (its identifier fields): name the key columns (--key)", d.name)
			}
			return nil, fmt.Errorf("a file holds no record keys, and table %s has no identifier fields to take them from: name the key columns (--key)", d.name)
		},
	}
	dec := dbz.NewDecoder(opts)
	defer dec.Release()

	var plan Plan
	bySource := map[string]*planned{}
	var order []*planned
	take := func() error {
		for _, b := range dec.Flush() {
			if b.Record == nil {
				continue
			}
			src := b.Table.String()
			p := bySource[src]
			if p == nil {
				d, err := dest(b.Table)
				if err != nil {
					b.Record.Release()
					return err
				}
				p = &planned{t: SourceTable{Source: src, Name: d.name, Key: b.Keys}}
				bySource[src] = p
				order = append(order, p)
			}
			p.merge(b.Record.Schema())
			b.Record.Release()
		}
		return nil
	}
	var n int64 // the line's position across the files: the order without an LSN
	first := true
	for _, name := range files {
		err := eachLine(ctx, fsys, name, func(num int64, line []byte) error {
			defer func() { n++ }()
			trimmed := bytes.TrimSpace(line)
			if len(trimmed) == 0 || string(trimmed) == "null" {
				return nil
			}
			if first {
				first = false
				plan.Accounts = !namesTable(trimmed)
			}
			if plan.Accounts {
				// ParseDebezium reads accounts' columns and no others: a
				// row of another table would land as zeros.
				if err := accountsEvent(trimmed); err != nil {
					return fmt.Errorf("cdc: %s line %d: %v (the file's first event names no source table, so it is read as the accounts change log)", name, num, err)
				}
				return nil
			}
			if _, err := dec.Decode(dbz.Message{Value: trimmed, Where: fmt.Sprintf("%s line %d", name, num), Offset: n}); err != nil {
				return err
			}
			if n%4096 == 0 {
				return take()
			}
			return nil
		})
		if err != nil {
			return Plan{}, err
		}
	}
	if plan.Accounts {
		return plan, nil
	}
	if err := take(); err != nil {
		return Plan{}, err
	}
	if len(order) == 0 {
		return Plan{}, fmt.Errorf("cdc: %s holds no change event", pc.Pattern)
	}
	landed := map[string]string{}
	for _, p := range order {
		if other, ok := landed[p.t.Name]; ok {
			return Plan{}, fmt.Errorf("cdc: tables %s and %s both land in table %s: name {db}, {schema} and {table} in the table template", other, p.t.Source, p.t.Name)
		}
		landed[p.t.Name] = p.t.Source
		if p.t.Schema, err = encodeSchema(p.schema()); err != nil {
			return Plan{}, err
		}
		plan.Tables = append(plan.Tables, p.t)
	}
	return plan, nil
}

type dest struct {
	name string
	tbl  *table.Table // nil when the table does not exist
}

// planned is a source table's columns as the plan saw them.
type planned struct {
	t      SourceTable
	fields []arrow.Field // the row's columns, first seen first
	seen   int           // batches merged
}

// merge adds a batch schema's columns: new ones at the end, optional
// unless key columns (earlier rows lack them), types as sc has them (the
// decoder has refused any change but a widening).
func (p *planned) merge(sc *arrow.Schema) {
	in := map[string]bool{}
	for _, f := range sc.Fields() {
		if f.Name == OpColumn || f.Name == OrderColumn {
			continue
		}
		in[f.Name] = true
		i := slices.IndexFunc(p.fields, func(g arrow.Field) bool { return g.Name == f.Name })
		if i < 0 {
			if p.seen > 0 && !slices.Contains(p.t.Key, f.Name) {
				f.Nullable = true
			}
			p.fields = append(p.fields, f)
			continue
		}
		p.fields[i].Type = f.Type
		p.fields[i].Nullable = p.fields[i].Nullable || f.Nullable
	}
	for i, f := range p.fields {
		if !in[f.Name] && !slices.Contains(p.t.Key, f.Name) {
			p.fields[i].Nullable = true // dropped in the source: null from then on
		}
	}
	p.seen++
}

func (p *planned) schema() *arrow.Schema {
	fields := append(slices.Clone(p.fields),
		arrow.Field{Name: OpColumn, Type: arrow.BinaryTypes.String},
		arrow.Field{Name: OrderColumn, Type: arrow.PrimitiveTypes.Int64})
	return arrow.NewSchema(fields, nil)
}

// TableName fills template with t's names; {schema} is t's db where t has
// no schema (MySQL's events name the database only).
func TableName(template string, t dbz.Table) (string, error) {
	schema := t.Schema
	if schema == "" {
		schema = t.DB
	}
	name := strings.NewReplacer("{db}", t.DB, "{schema}", schema, "{table}", t.Table).Replace(template)
	if _, err := catalog.ParseTable(name); err != nil || strings.ContainsAny(name, "{}") {
		return "", fmt.Errorf("cdc: table %s lands in %q, not a table name (template %q)", t, name, template)
	}
	return name, nil
}

// event is what namesTable and accountsEvent read of a line: the
// payload's, or the line's own fields without the envelope.
type event struct {
	Payload *json.RawMessage `json:"payload"`
	Source  *struct {
		Table *string `json:"table"`
	} `json:"source"`
	Before, After map[string]json.RawMessage
}

func parseEvent(line []byte) (event, error) {
	var ev event
	if err := json.Unmarshal(line, &ev); err != nil {
		return ev, err
	}
	if ev.Payload != nil {
		p := *ev.Payload
		ev = event{}
		if err := json.Unmarshal(p, &ev); err != nil {
			return ev, err
		}
	}
	return ev, nil
}

// namesTable reports whether a line is an event whose source block names
// its table, as every Debezium connector's do; the accounts log
// ParseDebezium reads has none (or no source at all). A line that is not
// a JSON object says yes: the decoder then says what is wrong with it.
func namesTable(line []byte) bool {
	ev, err := parseEvent(line)
	return err != nil || ev.Source != nil && ev.Source.Table != nil
}

// accountsColumns are the columns ParseDebezium reads.
var accountsColumns = []string{"id", "owner", "balance_cents", "updated_at"}

// accountsEvent refuses a line of the accounts log that names a source
// table or has a column accounts lacks. Other faults are ParseDebezium's
// to report, naming the line, when the job reads it.
func accountsEvent(line []byte) error {
	ev, err := parseEvent(line)
	if err != nil {
		return nil
	}
	if ev.Source != nil && ev.Source.Table != nil {
		return fmt.Errorf("an event of table %s among events that name no table", *ev.Source.Table)
	}
	for _, row := range []map[string]json.RawMessage{ev.Before, ev.After} {
		for col := range row {
			if !slices.Contains(accountsColumns, col) {
				return fmt.Errorf("column %s is not one of the accounts table's (%s)", col, strings.Join(accountsColumns, ", "))
			}
		}
	}
	return nil
}

// eachLine calls fn with each line of name and its number, from 1.
func eachLine(ctx context.Context, fsys filesystem.Interface, name string, fn func(num int64, line []byte) error) error {
	rc, err := fsys.OpenRead(ctx, name)
	if err != nil {
		return fmt.Errorf("cdc: opening %s: %w", name, err)
	}
	defer rc.Close()
	br := bufio.NewReaderSize(rc, 256<<10)
	var buf []byte
	for num := int64(1); ; num++ {
		buf, err = readLine(br, buf)
		if len(buf) == 0 && err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("cdc: reading %s after line %d: %w", name, num-1, err)
		}
		if err := fn(num, buf); err != nil {
			return err
		}
	}
}

// encodeSchema and decodeSchema carry a schema in SourceTable and a DoFn's
// fields as icebergio.EncodeSchema does (an IPC stream with no batches),
// which this package cannot import: icebergio's tests import it.
func encodeSchema(sc *arrow.Schema) ([]byte, error) {
	var buf bytes.Buffer
	if err := ipc.NewWriter(&buf, ipc.WithSchema(sc)).Close(); err != nil {
		return nil, fmt.Errorf("cdc: encoding the Arrow schema %s: %w", sc, err)
	}
	return buf.Bytes(), nil
}

func decodeSchema(b []byte) (*arrow.Schema, error) {
	r, err := ipc.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("cdc: decoding an Arrow schema: %w", err)
	}
	defer r.Release()
	return r.Schema(), nil
}

// ReadTables replays the files of cfg as ReadDebezium does (same order,
// Rate and end), each line decoded by the shared decoder into its source
// table's batch: a PCollection<KV<string, []byte>> of an Iceberg table's
// name (tables, from PlanTables) and an Arrow IPC batch of its changes
// with the columns of its SourceTable.Schema, for icebergio.WriteRecords
// in Changes mode (SelectTable picks a table's). The order column is
// source.lsn (PostgreSQL), the binlog position (MySQL), else the line's
// position across the files. A line that cannot be applied fails the
// replay, naming its file and line: PlanTables has read every line, so
// only a file changed since fails here.
func ReadTables(s beam.Scope, cfg ReadConfig, tables []SourceTable) beam.PCollection {
	s, replays := replays(s.Scope("cdc.ReadTables"), cfg)
	return beam.ParDo(s, &readTablesFn{BundleNanos: int64(blocks.BundleLength()), Tables: tables}, replays)
}

// SelectTable is the batches of table name among ReadTables' output.
func SelectTable(s beam.Scope, name string, batches beam.PCollection) beam.PCollection {
	return beam.ParDo(s.Scope("cdc.SelectTable "+name), &selectFn{Table: name}, batches)
}

type selectFn struct {
	Table string
}

func (f *selectFn) ProcessElement(table string, b []byte, emit func([]byte)) {
	if table == f.Table {
		emit(b)
	}
}

// readTablesFn is readFn for ReadTables.
type readTablesFn struct {
	blocks.Restrictions[replay]
	BundleNanos int64
	Tables      []SourceTable

	bySource map[string]*tableOut
	dec      *dbz.Decoder
	cur      *cursor
}

type tableOut struct {
	t      SourceTable
	schema *arrow.Schema
}

func (f *readTablesFn) Setup() error {
	f.bySource = map[string]*tableOut{}
	for _, t := range f.Tables {
		sc, err := decodeSchema(t.Schema)
		if err != nil {
			return err
		}
		f.bySource[t.Source] = &tableOut{t: t, schema: sc}
	}
	planned := func(t dbz.Table) (*tableOut, error) {
		if o := f.bySource[t.String()]; o != nil {
			return o, nil
		}
		return nil, fmt.Errorf("table %s was in no file when the job was planned (did the files change?)", t)
	}
	f.dec = dbz.NewDecoder(dbz.Options{
		OpColumn: OpColumn, OrderColumn: OrderColumn,
		Schema: func(t dbz.Table) (*arrow.Schema, error) {
			o, err := planned(t)
			if err != nil {
				return nil, err
			}
			return o.schema, nil
		},
		Keys: func(t dbz.Table) ([]string, error) {
			o, err := planned(t)
			if err != nil {
				return nil, err
			}
			return o.t.Key, nil
		},
	})
	return nil
}

func (f *readTablesFn) ProcessElement(ctx context.Context, we *sdf.ManualWatermarkEstimator, rt *blocks.Tracker, r replay, emit func(beam.EventTime, string, []byte)) (sdf.ProcessContinuation, error) {
	if f.cur == nil || !f.cur.reads(r) {
		f.closeCursor()
		f.cur = newCursor(r)
	}
	cont, err := blocks.Pace(ctx, we, rt, r, time.Duration(f.BundleNanos), nil, func(from, to int64, now time.Time) error {
		at := now
		if r.Rate > 0 {
			at = r.DueAt(from)
		}
		return f.emitLines(ctx, from, to, mtime.FromTime(at), emit)
	})
	if err != nil || !cont.ShouldResume() {
		f.closeCursor()
	}
	return cont, err
}

// emitLines decodes lines [from, to) and emits their tables' batches, all
// stamped at: the first line's due time, which the watermark has not
// passed before the block is emitted.
func (f *readTablesFn) emitLines(ctx context.Context, from, to int64, at beam.EventTime, emit func(beam.EventTime, string, []byte)) error {
	if err := f.cur.seek(ctx, from); err != nil {
		return err
	}
	for n := from; n < to; n++ {
		line, err := f.cur.next(ctx)
		if err != nil {
			return err
		}
		trimmed := bytes.TrimSpace(line)
		if len(trimmed) == 0 || string(trimmed) == "null" {
			continue
		}
		name, num := f.cur.where()
		if _, err := f.dec.Decode(dbz.Message{Value: trimmed, Where: fmt.Sprintf("%s line %d", name, num), Offset: n}); err != nil {
			f.releasePending()
			return fmt.Errorf("cdc: %w", err)
		}
	}
	batches := f.dec.Flush()
	defer func() {
		for _, b := range batches {
			if b.Record != nil {
				b.Record.Release()
			}
		}
	}()
	for _, b := range batches {
		o := f.bySource[b.Table.String()]
		if o == nil {
			return fmt.Errorf("cdc: a batch of table %s, which the job does not land", b.Table)
		}
		rec, err := f.dec.Changes(b, o.schema)
		if err != nil {
			return fmt.Errorf("cdc: table %s: %w", o.t.Name, err)
		}
		enc, err := arrowipc.Encode(rec)
		rec.Release()
		if err != nil {
			return fmt.Errorf("cdc: table %s: %w", o.t.Name, err)
		}
		emit(at, o.t.Name, enc)
	}
	return nil
}

// releasePending drops what the decoder holds of a block that failed.
func (f *readTablesFn) releasePending() {
	for _, b := range f.dec.Flush() {
		if b.Record != nil {
			b.Record.Release()
		}
	}
}

func (f *readTablesFn) Teardown() {
	f.closeCursor()
	if f.dec != nil {
		f.dec.Release()
	}
}

func (f *readTablesFn) closeCursor() {
	if f.cur != nil {
		f.cur.close()
		f.cur = nil
	}
}

func init() {
	register.DoFn5x2[context.Context, *sdf.ManualWatermarkEstimator, *blocks.Tracker, replay,
		func(beam.EventTime, string, []byte), sdf.ProcessContinuation, error](&readTablesFn{})
	register.Emitter3[beam.EventTime, string, []byte]()
	register.DoFn3x0[string, []byte, func([]byte)](&selectFn{})
	register.Emitter1[[]byte]()
	beam.RegisterType(reflect.TypeOf((*SourceTable)(nil)).Elem())
}
