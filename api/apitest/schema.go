package apitest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/wire"
	"github.com/getkin/kin-openapi/openapi3"
)

// AlwaysWritten are the members the server writes in every answer (for
// wire.Anchor and wire.Oracle: unless disabled) although the OpenAPI
// document leaves them optional, as type.member: the wire type declares
// them without omitempty to keep the answer's bytes.
var AlwaysWritten = map[string]bool{
	"Report.chain": true, "ListStats.sources": true, "ListVersion.communityLeafCount": true,
	"Anchor.chainId": true, "Anchor.contract": true, "Oracle.pending": true,
}

// SuccessSchema is the schema of an operation's first 2xx response when
// that response is JSON, else nil.
func SuccessSchema(op *openapi3.Operation) *openapi3.Schema {
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

// RequestSchema is the schema of an operation's JSON request body, or
// nil.
func RequestSchema(op *openapi3.Operation) *openapi3.Schema {
	if op.RequestBody == nil || op.RequestBody.Value == nil {
		return nil
	}
	if mt := op.RequestBody.Value.Content["application/json"]; mt != nil && mt.Schema != nil {
		return mt.Schema.Value
	}
	return nil
}

// SchemaDiff lists how the JSON of Go type typ differs from schema s, each
// line prefixed with path: a member on one side only (at every depth), a
// Go type of another JSON type than the schema's, and a member the schema
// makes optional that typ always writes (neither a pointer, omitempty nor
// omitzero, nor in AlwaysWritten). A json.RawMessage stands for any
// value.
func SchemaDiff(path string, typ reflect.Type, s *openapi3.Schema) []string {
	c := schemaCheck{}
	c.compare(path, typ, s)
	return c.errs
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
		c.members(path, typ, f)
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

// members compares the fields of struct type typ with the properties of f.
func (c *schemaCheck) members(path string, typ reflect.Type, f flat) {
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
		if !f.required[name] && !omit && field.Type.Kind() != reflect.Pointer && !AlwaysWritten[typ.Name()+"."+name] {
			c.fail(path, "member %q is optional, field %s must be a pointer, omitempty or omitzero", name, field.Name)
		}
		c.compare(path+"."+name, field.Type, p)
	}
	for name := range f.props {
		if !fields[name] {
			c.fail(path, "schema member %q has no field", name)
		}
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
