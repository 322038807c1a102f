package main

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/client"
)

// TestClientTypesFollowOpenAPI keeps the Go client's result types in step
// with the OpenAPI document: for every operation with a JSON success
// response, the type its client method returns has exactly the members of
// the response schema (no more, no fewer, at every depth), each of a Go
// type of the schema's JSON type, and a member the schema makes optional
// is a pointer, omitempty or omitzero (apitest.SchemaDiff). The
// end-to-end client tests decode strictly, so the server cannot send a
// member the document and the type lack.
func TestClientTypesFollowOpenAPI(t *testing.T) {
	doc, err := apitest.Document()
	if err != nil {
		t.Fatal(err)
	}
	ct := reflect.TypeFor[*client.Client]()
	checked := 0
	var errs []string
	for path, item := range doc.Paths.Map() {
		for verb, op := range item.Operations() {
			name := string(unicode.ToUpper(rune(op.OperationID[0]))) + op.OperationID[1:]
			m, ok := ct.MethodByName(name)
			if !ok {
				continue // TestEveryOperationHasAMethod names it
			}
			schema := apitest.SuccessSchema(op)
			out := m.Type.Out(0)
			if schema == nil || out.Kind() != reflect.Pointer || out.Elem().Kind() != reflect.Struct {
				continue // a stream, text, or the document itself
			}
			checked++
			errs = append(errs, apitest.SchemaDiff(fmt.Sprintf("%s %s (%s) %s", verb, path, name, out.Elem().Name()), out, schema)...)
		}
	}
	if checked < 45 {
		t.Fatalf("checked only %d operations", checked)
	}
	if len(errs) > 0 {
		slices.Sort(errs)
		t.Fatalf("%d differences between the client's result types and the OpenAPI document:\n  %s", len(errs), strings.Join(errs, "\n  "))
	}
}
