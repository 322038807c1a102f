package main

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/client"
	"github.com/cairn-dev/cairn/wire"
	"github.com/getkin/kin-openapi/openapi3"
)

// TestClientTypesFollowOpenAPI keeps the Go client's result types in step
// with the OpenAPI document: for every operation with a JSON success
// response, the type its client method returns has exactly the members of
// the response schema (no more, no fewer, at every depth), each of a Go
// type of the schema's JSON type, and a member the schema makes optional
// is a pointer, omitempty or omitzero. The
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
			schema := jsonSuccess(op)
			out := m.Type.Out(0)
			if schema == nil || out.Kind() != reflect.Pointer || out.Elem().Kind() != reflect.Struct {
				continue // a stream, text, or the document itself
			}
			checked++
			c := schemaCheck{}
			c.compare(fmt.Sprintf("%s %s (%s) %s", verb, path, name, out.Elem().Name()), out, schema)
			errs = append(errs, c.errs...)
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

// jsonSuccess is the schema of an operation's first 2xx JSON response.
func jsonSuccess(op *openapi3.Operation) *openapi3.Schema {
	for status := 200; status < 300; status++ {
		r := op.Responses.Status(status)
		if r == nil || r.Value == nil {
			continue
		}
		if mt := r.Value.Content["application/json"]; mt != nil && mt.Schema != nil {
			return mt.Schema.Value
		}
		return nil
	}
	return nil
}

type schemaCheck struct{ errs []string }

func (c *schemaCheck) fail(path, format string, args ...any) {
	c.errs = append(c.errs, path+": "+fmt.Sprintf(format, args...))
}

// flat is a schema with its allOf merged and a nullable oneOf resolved.
type flat struct {
	types    []string
	props    map[string]*openapi3.Schema
	required map[string]bool
	items    *openapi3.Schema
	values   *openapi3.Schema // additionalProperties
}

func flatten(s *openapi3.Schema) flat {
	f := flat{props: map[string]*openapi3.Schema{}, required: map[string]bool{}}
	var add func(s *openapi3.Schema)
	add = func(s *openapi3.Schema) {
		if s.Type != nil {
			f.types = append(f.types, s.Type.Slice()...)
		}
		for k, p := range s.Properties {
			f.props[k] = p.Value
		}
		for _, k := range s.Required {
			f.required[k] = true
		}
		if s.Items != nil {
			f.items = s.Items.Value
		}
		if s.AdditionalProperties.Schema != nil {
			f.values = s.AdditionalProperties.Schema.Value
		}
		for _, sub := range s.AllOf {
			add(sub.Value)
		}
		for _, sub := range s.OneOf {
			if !sub.Value.Type.Is("null") {
				add(sub.Value)
			}
		}
	}
	add(s)
	return f
}

var rawMessage = reflect.TypeFor[json.RawMessage]()

// alwaysWritten are the members the server writes in every answer (for
// Anchor and Oracle: unless disabled) although the OpenAPI document leaves
// them optional (type.member): the wire type declares them without
// omitempty to keep the answer's bytes.
var alwaysWritten = map[string]bool{"Report.chain": true, "ListStats.sources": true, "ListVersion.communityLeafCount": true,
	"Anchor.chainId": true, "Anchor.contract": true, "Oracle.pending": true}

func (c *schemaCheck) compare(path string, typ reflect.Type, s *openapi3.Schema) {
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	f := flatten(s)
	wants := func(jsonType string) {
		if len(f.types) > 0 && !slices.Contains(f.types, jsonType) {
			c.fail(path, "Go %s is a JSON %s, the schema's type is %v", typ, jsonType, f.types)
		}
	}
	switch {
	case typ == rawMessage: // a free-form member, kept as sent
	case typ == reflect.TypeFor[time.Time]() || typ == reflect.TypeFor[wire.Time]():
		wants("string")
	case typ.Kind() == reflect.Struct:
		wants("object")
		fields := map[string]bool{}
		for name, field := range jsonFields(typ) {
			fields[name] = true
			p, ok := f.props[name]
			if !ok {
				c.fail(path, "member %q (field %s) is not in the schema", name, field.Name)
				continue
			}
			tag := field.Tag.Get("json")
			omit := strings.Contains(tag, ",omitempty") || strings.Contains(tag, ",omitzero")
			if !f.required[name] && !omit && field.Type.Kind() != reflect.Pointer && !alwaysWritten[typ.Name()+"."+name] {
				c.fail(path, "member %q is optional, field %s must be a pointer, omitempty or omitzero", name, field.Name)
			}
			c.compare(path+"."+name, field.Type, p)
		}
		for name := range f.props {
			if !fields[name] {
				c.fail(path, "schema member %q has no field", name)
			}
		}
	case typ.Kind() == reflect.Slice || typ.Kind() == reflect.Array:
		wants("array")
		if f.items != nil {
			c.compare(path+"[]", typ.Elem(), f.items)
		}
	case typ.Kind() == reflect.Map:
		wants("object")
		if f.values != nil {
			c.compare(path+"{}", typ.Elem(), f.values)
		}
	case typ.Kind() == reflect.String:
		wants("string")
	case typ.Kind() == reflect.Bool:
		wants("boolean")
	case typ.Kind() >= reflect.Int && typ.Kind() <= reflect.Uint64:
		wants("integer")
	case typ.Kind() == reflect.Float32 || typ.Kind() == reflect.Float64:
		wants("number")
	default:
		c.fail(path, "Go %s has no JSON counterpart here", typ)
	}
}

// jsonFields are the JSON members of a struct type, embedded structs
// flattened, by name.
func jsonFields(typ reflect.Type) map[string]reflect.StructField {
	out := map[string]reflect.StructField{}
	for f := range typ.Fields() {
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			for k, v := range jsonFields(f.Type) {
				out[k] = v
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f
	}
	return out
}
