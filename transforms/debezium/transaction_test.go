package debezium

import (
	"bytes"
	"maps"
	"os"
	"testing"
)

// testdata/pg-*.json*: what Debezium 3.6.1's PostgreSQL connector wrote
// (provide.transaction.metadata=true, JSON converter with schemas) for
// one transaction that inserted an order, two lines and updated another
// order: its BEGIN and END on the transaction topic, and the insert of
// the order. PostgreSQL's ids are xid:lsn, each with its own LSN.
func TestTransactionIDsMatchTheirEnd(t *testing.T) {
	topic, err := os.ReadFile("testdata/pg-transaction-topic.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(topic), []byte("\n"))
	begin, err := DecodeTransaction(lines[0])
	if err != nil {
		t.Fatal(err)
	}
	end, err := DecodeTransaction(lines[1])
	if err != nil {
		t.Fatal(err)
	}
	if begin.Status != "BEGIN" || begin.ID != "729" || begin.Events != nil {
		t.Errorf("BEGIN 729:22042992 read as %+v", begin)
	}
	if want := map[string]int64{"public.orders": 2, "public.lines": 2}; end.Status != "END" || end.ID != "729" || !maps.Equal(end.Events, want) {
		t.Errorf("END 729:22043600 read as %+v, want ID 729 and events %v", end, want)
	}

	value, err := os.ReadFile("testdata/pg-event-in-transaction.json")
	if err != nil {
		t.Fatal(err)
	}
	d := NewDecoder(Options{})
	defer d.Release()
	ev, err := d.Decode(Message{Value: bytes.TrimSpace(value), Where: "px.public.orders/0/1", Offset: 1})
	if err != nil {
		t.Fatal(err)
	}
	if ev.Transaction != end.ID || ev.Table.Collection() != "public.orders" {
		t.Errorf("the insert (transaction 729:22042992) read as transaction %q of %q, want %q of public.orders", ev.Transaction, ev.Table.Collection(), end.ID)
	}
	// Ids of other connectors are the same for a transaction's every
	// event, and stay whole.
	for _, id := range []string{"3E11FA47-71CA-11E1-9E33-C80AA9429562:23", "00000025:00000d08:0025", "1462833718356672513"} {
		if got := transactionKey(id); got != id {
			t.Errorf("transactionKey(%q) = %q, want it whole", id, got)
		}
	}
	// A refused event still names its transaction, for the END's count.
	bad := bytes.Replace(bytes.TrimSpace(value), []byte(`"op":"c"`), []byte(`"op":"x"`), 1)
	if ev, err := d.Decode(Message{Value: bad, Where: "px.public.orders/0/1"}); err == nil || ev.Transaction != "729" {
		t.Errorf("an event of unknown op: error %v, transaction %q; want an error and transaction 729", err, ev.Transaction)
	}
}
