// Package jsonscan finds the values of JSON documents by scanning their
// bytes, without a token stream or reflection: the hot paths that turn JSON
// messages into Arrow columns (kafkaiceberg's rows, debezium's change
// events) look up a few fields of each message and parse each value
// straight into its column. The scan checks the document's structure
// (braces, brackets, strings, separators), not each value's own syntax,
// which the value's parser checks.
package jsonscan

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
	"unsafe"
)

// SkipSpace returns the index of the first byte at or after i that is not
// JSON whitespace.
func SkipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// SkipString returns the index after the string starting at b[i] ('"'),
// or -1.
func SkipString(b []byte, i int) int {
	j := i + 1
	for {
		// The closing quote is usually the next quote: IndexByte finds it
		// many bytes at a time.
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return -1
		}
		j += k
		// A quote preceded by an odd number of backslashes is escaped.
		n := 0
		for p := j - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return j + 1
		}
		j++
	}
}

// SkipValue returns the index after the value starting at b[i], or -1.
func SkipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return SkipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				j = SkipString(b, j)
				if j < 0 {
					return -1
				}
				j--
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

// Object calls fn with each key of the JSON object in b (its bytes between
// the quotes, escapes as written) and the text of its value, in order,
// until fn returns false. It reports whether b is one well-formed object
// as far as the scan checks and fn did not stop it.
func Object(b []byte, fn func(key, value []byte) bool) bool {
	i := SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return SkipSpace(b, i+1) == len(b)
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return false
		}
		end := SkipString(b, i)
		if end < 0 {
			return false
		}
		key := b[i+1 : end-1]
		i = SkipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = SkipSpace(b, i+1)
		vend := SkipValue(b, i)
		if vend < 0 {
			return false
		}
		if !fn(key, b[i:vend]) {
			return false
		}
		i = SkipSpace(b, vend)
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case ',':
			i = SkipSpace(b, i+1)
		case '}':
			return SkipSpace(b, i+1) == len(b)
		default:
			return false
		}
	}
}

// Array calls fn with the text of each element of the JSON array in b, in
// order, until fn returns false. It reports whether b is one well-formed
// array as far as the scan checks and fn did not stop it.
func Array(b []byte, fn func(elem []byte) bool) bool {
	i := SkipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return false
	}
	i = SkipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return SkipSpace(b, i+1) == len(b)
	}
	for {
		end := SkipValue(b, i)
		if end < 0 {
			return false
		}
		if !fn(b[i:end]) {
			return false
		}
		i = SkipSpace(b, end)
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case ',':
			i = SkipSpace(b, i+1)
		case ']':
			return SkipSpace(b, i+1) == len(b)
		default:
			return false
		}
	}
}

// IsNull reports whether v is the JSON null.
func IsNull(v []byte) bool { return len(v) == 4 && string(v) == "null" }

// ParseInt parses a plain JSON integer of at most 18 digits, which cannot
// overflow an int64; longer ones are for strconv.
func ParseInt(b []byte) (int64, bool) {
	neg := false
	if len(b) > 0 && b[0] == '-' {
		neg, b = true, b[1:]
	}
	if len(b) == 0 || len(b) > 18 || (b[0] == '0' && len(b) > 1) {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// Number reports whether b is a number as JSON writes them:
// -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func Number(b []byte) bool {
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	digits := func() int {
		j := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i - j
	}
	switch n := digits(); {
	case n == 0, n > 1 && b[i-n] == '0':
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(b)
}

// String returns the text of the JSON string v, unescaped: v's own bytes
// when it holds no escapes (the common case, no copy), else a copy.
func String(v []byte) ([]byte, bool) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return nil, false
	}
	s := v[1 : len(v)-1]
	if bytes.IndexByte(s, '\\') < 0 {
		// Arrow's strings are UTF-8, and json.Unmarshal would replace bad
		// bytes rather than refuse them.
		return s, utf8.Valid(s)
	}
	var u string
	if err := json.Unmarshal(v, &u); err != nil {
		return nil, false
	}
	return []byte(u), true
}

// Key returns an object key as String returns a string's text, for
// messages: escapes resolved where they can be.
func Key(key []byte) string {
	if bytes.IndexByte(key, '\\') < 0 {
		return string(key)
	}
	var s string
	if json.Unmarshal(append(append([]byte{'"'}, key...), '"'), &s) != nil {
		return string(key)
	}
	return s
}

// UnsafeString is b as a string without a copy, for parsers that do not
// keep it (strconv).
func UnsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// Short is a value as an error message quotes it: its first 40 bytes.
func Short(v []byte) string {
	if len(v) > 40 {
		return string(v[:40]) + "..."
	}
	return string(v)
}
