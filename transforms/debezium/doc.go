// Package debezium owns Debezium change events as Arrow record batches of
// their source table's columns: it reads the JSON that Kafka Connect's JSON
// converter writes for Debezium's connectors (with the schema envelope, or
// the bare payload with types from the table's own Arrow schema), maps each
// column's Connect type and Debezium semantic type to the Arrow type that
// icebergio's sink turns into the matching Iceberg type, and appends each
// event's row image column by column into per-table batches that carry
// what icebergio's Changes mode needs besides the row: the operation
// column, the order column (the source's log position) and the key
// columns (from the record key's schema).
//
// Values are exact: decimals go from their unscaled two's-complement bytes
// into decimal128 without a float, timestamps and times from their integer
// counts (or ISO-8601 text) into microseconds without a float.
//
// # Types
//
//	Connect type + semantic name               Arrow                Iceberg (icebergio)
//	boolean                                    bool                 boolean
//	int8, int16, int32                         int32                int
//	int64                                      int64                long
//	float32, float64                           float32, float64     float, double
//	string (also Json, Xml, Enum, ZonedTime)   string               string
//	bytes (base64 in JSON)                     binary               binary
//	Decimal (scale, connect.decimal.precision) decimal128(p, s)     decimal(p, s); p 38 when absent
//	Decimal with p > 38 or a negative scale    string, exact text   string
//	VariableScaleDecimal {scale, value}        string, exact text   string (or Options.VariableScaleDecimal)
//	io.debezium.time.Date, connect Date        date32               date
//	Time (ms), MicroTime, NanoTime, conn. Time time64[us]           time
//	Timestamp (ms), MicroTimestamp,            timestamp[us]        timestamp
//	  NanoTimestamp, connect Timestamp
//	ZonedTimestamp (ISO-8601 with offset)      timestamp[us, UTC]   timestamptz
//	io.debezium.data.Uuid                      arrow.uuid extension uuid
//	array                                      list                 list
//	struct (also geometry.Point...)            struct               struct
//
// VariableScaleDecimal (PostgreSQL NUMERIC without a declared scale) is
// text by default because no fixed decimal holds it: each value carries
// its own scale, and PostgreSQL allows up to 16383 digits after the point,
// so any decimal(38, s) would round some values or refuse them. The text
// keeps every digit and casts in SQL; a caller who knows the column's
// values sets Options.VariableScaleDecimal and gets a decimal, with a
// value that would need rounding reported as an error. NanoTimestamp and
// NanoTime keep microseconds (floored): Iceberg's timestamp is to the
// microsecond. Key columns are required in the batch schema whatever the
// source says, as icebergio's key columns must be.
//
// # Row images
//
// Creates, snapshot reads and updates land their after image, deletes
// their before image. With PostgreSQL's REPLICA IDENTITY DEFAULT a
// delete's before image holds only the key: the columns it lacks land as
// nulls where the column is optional and as their type's zero value where
// it is required, which icebergio's Changes mode never writes (it deletes
// by key). A truncate cuts the table's batch and adds a Batch with
// Truncate set, so that it applies between the changes around it; a
// tombstone (null value) adds nothing.
//
// # Schema changes
//
// The value's schema block is parsed once per distinct block. When a
// table's block changes, the table's next rows go into a new batch of the
// new schema: a new column, a dropped one (absent from the new batches), a
// widened type (int to long, float to double, a larger decimal precision
// at the same scale). A narrowed or otherwise changed type is an error for
// each event of that schema, naming the column and both types; the
// table's earlier schema stays, and events of it go on.
//
// # Transactions
//
// With the connector's provide.transaction.metadata, each event names its
// source transaction (Event.Transaction) and the transaction topic holds
// each transaction's BEGIN and END, the END counting its events per table
// (DecodeTransaction): a consumer can tell when all of a transaction's
// events have come. PostgreSQL's ids are xid:lsn with each event's own
// LSN; both are read as the xid, which a transaction's events share.
//
// It knows nothing of Beam or Kafka clients: a caller hands it each
// record's key and value bytes with a position string for messages
// (topic/partition/offset) and the record's offset, and takes the batches
// when it wants them (Decoder.Flush).
package debezium
