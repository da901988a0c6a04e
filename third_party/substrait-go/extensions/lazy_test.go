// SPDX-License-Identifier: Apache-2.0

// icebeam patch: the default collection, parsed on first use.

package extensions

import (
	"errors"
	"strings"
	"testing"

	substraitgo "github.com/substrait-io/substrait-go/v8"
)

const setYAML = `%YAML 1.2
---
urn: extension:test:functions_set
scalar_functions:
  -
    name: "is_in"
    impls:
      - args:
        - name: needle
          value: any1
        - name: haystack
          value: list<any1>
        return: "boolean"
`

// What iceberg-go/table/substrait does at init, then what a filter
// conversion does: the first leaves the YAML unparsed, the second finds both
// the default and the queued definitions.
func TestDefaultCollectionParsesOnFirstUse(t *testing.T) {
	c := GetDefaultCollectionWithNoError()
	const setURI = "extension:test:functions_set_uri"
	boolURI := SubstraitDefaultURIPrefix + "functions_boolean.yaml"

	if !c.URILoaded(boolURI) {
		t.Errorf("URILoaded(%q) = false before parsing, want true", boolURI)
	}
	if c.URILoaded(setURI) {
		t.Errorf("URILoaded(%q) = true before Load", setURI)
	}
	if err := c.Load(setURI, strings.NewReader(setYAML)); err != nil {
		t.Fatalf("Load: %v", err)
	}
	if !c.URILoaded(setURI) {
		t.Errorf("URILoaded(%q) = false after Load", setURI)
	}
	if err := c.Load(setURI, strings.NewReader(setYAML)); !errors.Is(err, substraitgo.ErrKeyExists) {
		t.Errorf("second Load: %v, want ErrKeyExists", err)
	}
	if c.lazy.parsed {
		t.Fatal("URILoaded and Load parsed the definitions; want them parsed on first use")
	}

	if _, ok := c.GetScalarFunc(ID{URN: SubstraitDefaultURNPrefix + "functions_boolean", Name: "and"}); !ok {
		t.Error(`default function "and" not found`)
	}
	if !c.lazy.parsed {
		t.Error("GetScalarFunc did not parse the definitions")
	}
	if _, ok := c.GetScalarFunc(ID{URN: "extension:test:functions_set", Name: "is_in"}); !ok {
		t.Error(`queued function "is_in" not found`)
	}
	if !c.URNLoaded("extension:test:functions_set") || !c.URILoaded(setURI) || c.URILoaded("nothing") {
		t.Error("URNLoaded/URILoaded wrong after parsing")
	}
	if err := c.Load(setURI, strings.NewReader(setYAML)); !errors.Is(err, substraitgo.ErrKeyExists) {
		t.Errorf("Load after parsing: %v, want ErrKeyExists", err)
	}
}
