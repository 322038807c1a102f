package client

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestNoUntypedResults keeps the results typed: no exported method of
// *Client returns, and no type reachable from a result holds, an any or a
// map[string]any (an untyped JSON value). A member the OpenAPI document leaves free-form is a
// json.RawMessage, kept as the server sent it.
func TestNoUntypedResults(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var bad []string
	var walk func(typ reflect.Type, path string)
	walk = func(typ reflect.Type, path string) {
		if typ.Kind() == reflect.Interface {
			if typ.NumMethod() == 0 {
				bad = append(bad, path+" is "+typ.String())
			}
			return
		}
		if seen[typ] {
			return
		}
		seen[typ] = true
		switch typ.Kind() {
		case reflect.Map:
			walk(typ.Key(), path+"[key]")
			walk(typ.Elem(), path+"[]")
		case reflect.Pointer, reflect.Slice, reflect.Array:
			walk(typ.Elem(), path)
		case reflect.Struct:
			for f := range typ.Fields() {
				if f.IsExported() {
					walk(f.Type, path+"."+f.Name)
				}
			}
		case reflect.Func: // an iterator: what it yields
			for i := range typ.NumIn() {
				walk(typ.In(i), path)
			}
			for i := range typ.NumOut() {
				walk(typ.Out(i), path)
			}
		}
	}
	ct := reflect.TypeFor[*Client]()
	n := 0
	for m := range ct.Methods() {
		for i := range m.Type.NumOut() {
			walk(m.Type.Out(i), "(*Client)."+m.Name+" result "+m.Type.Out(i).String())
			n++
		}
	}
	walk(reflect.TypeFor[Error](), "Error")
	if n < 60 {
		t.Fatalf("walked only %d results", n)
	}
	if len(bad) > 0 {
		t.Fatalf("untyped JSON in the client's results (type it after the OpenAPI document's schema, "+
			"or json.RawMessage where the schema is free-form):\n  %s", strings.Join(bad, "\n  "))
	}
}

// TestStrictDecoding: with WithStrictDecoding a member the result type
// lacks fails the call; without it the member is ignored.
func TestStrictDecoding(t *testing.T) {
	srv := jsonServer(`{"developerId":"d","creditBalance":7,"surprise":1}`)
	defer srv.Close()
	if b, err := New(srv.URL, "k").GetBalance(t.Context()); err != nil || b.CreditBalance != 7 {
		t.Fatalf("lenient: %+v %v", b, err)
	}
	_, err := New(srv.URL, "k", WithStrictDecoding()).GetBalance(t.Context())
	if err == nil || !strings.Contains(err.Error(), `unknown field "surprise"`) {
		t.Fatalf("strict decoding of an unknown member: %v", err)
	}
}

// TestRawMembers: free-form members and the screened results come back as
// the bytes the server sent.
func TestRawMembers(t *testing.T) {
	results := `[{"address":"a","chain":"ethereum","status":"clear","family":"evm","canonicalAddress":"a","checksum":"none","matches":[],"screenedAt":"2025-01-02T03:04:05Z"}]`
	srv := jsonServer(`{"results":` + results + `,"screeningId":"s","timestamp":"2025-01-02T03:04:05Z","resultsHash":"00",` +
		`"dataSources":[],"dataSnapshots":{},"listVersion":3,"merkleRoot":"0x01"}`)
	defer srv.Close()
	p, err := New(srv.URL, "", WithStrictDecoding()).GetScreeningProof(t.Context(), "s")
	if err != nil || string(p.ResultsJSON) != results || len(p.Results) != 1 || p.ListVersion != 3 {
		t.Fatalf("proof %+v %v", p, err)
	}
	var back []ScreeningResult
	if err := json.Unmarshal(p.ResultsJSON, &back); err != nil || back[0].Status != "clear" {
		t.Fatalf("raw results %s: %v", p.ResultsJSON, err)
	}
}
