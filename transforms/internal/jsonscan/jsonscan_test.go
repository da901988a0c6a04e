package jsonscan

import (
	"encoding/json"
	"testing"
)

func TestObject(t *testing.T) {
	doc := []byte(` { "a" : 1, "b\"q": "x\\\"y\\\\", "c": {"d": [1, "]}", {"e": null}]}, "f": -2.5e3 } `)
	var keys, vals []string
	ok := Object(doc, func(k, v []byte) bool {
		keys = append(keys, string(k))
		vals = append(vals, string(v))
		return true
	})
	if !ok {
		t.Fatal("not well formed")
	}
	want := map[string]string{`a`: `1`, `b\"q`: `"x\\\"y\\\\"`, `c`: `{"d": [1, "]}", {"e": null}]}`, `f`: `-2.5e3`}
	if len(keys) != len(want) {
		t.Fatalf("keys %q", keys)
	}
	for i, k := range keys {
		if want[k] != vals[i] {
			t.Errorf("%s = %s, want %s", k, vals[i], want[k])
		}
	}
	// The string's text is what encoding/json makes of it.
	s, ok := String([]byte(vals[1]))
	var u string
	if err := json.Unmarshal([]byte(vals[1]), &u); err != nil || !ok || string(s) != u {
		t.Errorf("String = %q, %v; want %q", s, ok, u)
	}
	for _, bad := range []string{`{"a":1`, `{"a" 1}`, `{"a":"x}`, `[1]`, `{"a":1,}`, `{"a":1} x`} {
		if Object([]byte(bad), func(k, v []byte) bool { return true }) {
			t.Errorf("Object(%s) reported well formed", bad)
		}
	}
}

func TestArray(t *testing.T) {
	var got []string
	if !Array([]byte(`[ 1 ,"a,b", [2,3], {"x":"]"} ]`), func(e []byte) bool { got = append(got, string(e)); return true }) {
		t.Fatal("not well formed")
	}
	want := []string{`1`, `"a,b"`, `[2,3]`, `{"x":"]"}`}
	if len(got) != len(want) {
		t.Fatalf("got %q", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("element %d = %s, want %s", i, got[i], want[i])
		}
	}
	if !Array([]byte(`[]`), func([]byte) bool { t.Error("element of []"); return true }) {
		t.Error("[] not well formed")
	}
	if _, ok := String([]byte("\"\xff\"")); ok {
		t.Error("String took invalid UTF-8")
	}
}
