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
// It knows nothing of Beam or Kafka clients: a caller hands it each
// record's key and value bytes with a position string for messages
// (topic/partition/offset) and the record's offset, and takes the batches
// when it wants them (Decoder.Flush).
package debezium
