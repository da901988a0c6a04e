package debezium

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/icebeam/icebeam/transforms/internal/jsonscan"
)

// TransactionEvent is a record of the connector's transaction topic
// (provide.transaction.metadata, topic PREFIX.transaction): a source
// transaction's BEGIN, or its END with how many change events it wrote
// of each table.
type TransactionEvent struct {
	Status string // BEGIN or END
	// ID is the transaction's id as Event.Transaction has it.
	ID string
	// Events is, for an END, the transaction's change events by data
	// collection, as the connector names tables there (PostgreSQL:
	// schema.table; MySQL: db.table).
	Events map[string]int64
}

// DecodeTransaction decodes a record of the transaction topic, with or
// without the schema envelope.
func DecodeTransaction(value []byte) (TransactionEvent, error) {
	var env struct {
		Payload json.RawMessage `json:"payload"`
		Schema  json.RawMessage `json:"schema"`
	}
	body := value
	if err := json.Unmarshal(value, &env); err == nil && env.Payload != nil && env.Schema != nil {
		body = env.Payload
	}
	var p struct {
		Status          string `json:"status"`
		ID              string `json:"id"`
		DataCollections []struct {
			DataCollection string `json:"data_collection"`
			EventCount     int64  `json:"event_count"`
		} `json:"data_collections"`
	}
	if err := json.Unmarshal(body, &p); err != nil {
		return TransactionEvent{}, fmt.Errorf("a transaction event: %w", err)
	}
	ev := TransactionEvent{Status: p.Status, ID: transactionKey(p.ID)}
	switch {
	case p.ID == "":
		return ev, errors.New("a transaction event without an id")
	case p.Status == "BEGIN":
	case p.Status == "END":
		ev.Events = make(map[string]int64, len(p.DataCollections))
		for _, c := range p.DataCollections {
			ev.Events[c.DataCollection] += c.EventCount
		}
	default:
		return ev, fmt.Errorf("transaction %s: status %q (want BEGIN or END)", p.ID, p.Status)
	}
	return ev, nil
}

// Collection is how the transaction topic names t: schema.table where
// the source has schemas (PostgreSQL), db.table where it has not.
func (t Table) Collection() string {
	if t.Schema == "" {
		return t.DB + "." + t.Table
	}
	return t.Schema + "." + t.Table
}

// transactionID is the id of an event's transaction block.
func transactionID(block []byte) (string, error) {
	var id string
	found := false
	ok := jsonscan.Object(block, func(k, v []byte) bool {
		if string(k) != "id" {
			return true
		}
		s, isStr := jsonscan.String(v)
		if !isStr {
			return false
		}
		id, found = transactionKey(string(s)), true
		return false
	})
	if !found {
		if !ok {
			return "", errors.New("not a JSON object with a string id")
		}
		return "", errors.New("no id")
	}
	return id, nil
}

// transactionKey is what the ids of one source transaction's events and
// its BEGIN and END share. PostgreSQL's ids are xid:lsn with each event's
// own LSN (the END's is the commit's), so they share the xid; the other
// connectors give every event of a transaction the same id (MySQL's GTID
// uuid:n, SQL Server's three hex parts, ...), which stays whole.
func transactionKey(id string) string {
	xid, lsn, ok := strings.Cut(id, ":")
	if !ok || !digits(xid) || !digits(lsn) {
		return id
	}
	return xid
}

func digits(s string) bool {
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}
