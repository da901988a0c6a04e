package icebergio

// keyMap maps encoded row keys (appendKeyOf) to values. A table's key index
// holds a million keys and a pane's changes several million lookups, so
// the map matters: keys of up to shortKeyLen bytes (one or two integer
// columns, short strings) are stored inline as fixed-size arrays, which
// costs no allocation per key and gives the garbage collector no pointer
// to follow; only longer keys are strings.
type keyMap[V any] struct {
	short map[shortKey]V
	long  map[string]V
}

// shortKey is a key of up to shortKeyLen bytes, its length in the last byte
// so that keys that are prefixes of one another differ.
type shortKey [shortKeyLen + 1]byte

const shortKeyLen = 15

func newKeyMap[V any]() keyMap[V] {
	return keyMap[V]{short: map[shortKey]V{}, long: map[string]V{}}
}

func toShort(k []byte) (shortKey, bool) {
	var sk shortKey
	if len(k) > shortKeyLen {
		return sk, false
	}
	copy(sk[:], k)
	sk[shortKeyLen] = byte(len(k))
	return sk, true
}

func (m keyMap[V]) get(k []byte) (V, bool) {
	if sk, ok := toShort(k); ok {
		v, ok := m.short[sk]
		return v, ok
	}
	v, ok := m.long[string(k)]
	return v, ok
}

func (m keyMap[V]) put(k []byte, v V) {
	if sk, ok := toShort(k); ok {
		m.short[sk] = v
		return
	}
	m.long[string(k)] = v
}

func (m keyMap[V]) del(k []byte) {
	if sk, ok := toShort(k); ok {
		delete(m.short, sk)
		return
	}
	delete(m.long, string(k))
}

func (m keyMap[V]) len() int { return len(m.short) + len(m.long) }

// deleteFunc deletes the entries whose value del reports true for.
func (m keyMap[V]) deleteFunc(del func(V) bool) {
	for k, v := range m.short {
		if del(v) {
			delete(m.short, k)
		}
	}
	for k, v := range m.long {
		if del(v) {
			delete(m.long, k)
		}
	}
}
