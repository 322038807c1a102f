package openapi

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// maxFieldDepth bounds how deep nested objects are flattened into dotted
// field names in the skill.
const maxFieldDepth = 3

// fields flattens an object schema into dotted field names: required ones
// first, then alphabetical; nested objects and arrays of objects follow
// their parent as "parent.child" and "parent[].child".
func fields(ref *openapi3.SchemaRef, prefix string, depth int) []skillField {
	if ref == nil || ref.Value == nil || depth >= maxFieldDepth {
		return nil
	}
	props, required := properties(ref.Value)
	names := make([]string, 0, len(props))
	for name := range props {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool {
		ri, rj := required[names[i]], required[names[j]]
		if ri != rj {
			return ri
		}
		return names[i] < names[j]
	})
	var out []skillField
	for _, name := range names {
		p := props[name]
		out = append(out, skillField{
			Name: prefix + name, Type: typeName(p), Required: required[name], Description: describe(p.Value),
		})
		switch {
		case isObject(p.Value):
			out = append(out, fields(p, prefix+name+".", depth+1)...)
		case p.Value.Items != nil && isObject(p.Value.Items.Value):
			out = append(out, fields(p.Value.Items, prefix+name+"[].", depth+1)...)
		}
	}
	return out
}

// properties merges the properties and required names of a schema and of
// the parts of its allOf.
func properties(s *openapi3.Schema) (openapi3.Schemas, map[string]bool) {
	props := openapi3.Schemas{}
	required := map[string]bool{}
	var walk func(s *openapi3.Schema)
	walk = func(s *openapi3.Schema) {
		for name, p := range s.Properties {
			if _, seen := props[name]; !seen {
				props[name] = p
			}
		}
		for _, r := range s.Required {
			required[r] = true
		}
		for _, part := range s.AllOf {
			if part.Value != nil {
				walk(part.Value)
			}
		}
	}
	walk(s)
	return props, required
}

func isObject(s *openapi3.Schema) bool {
	if s == nil {
		return false
	}
	props, _ := properties(s)
	return len(props) > 0
}

// typeName renders a schema's type for people: "string (uuid)",
// "string|null", "array<Transaction>", "map<string, integer>".
func typeName(ref *openapi3.SchemaRef) string {
	if ref == nil || ref.Value == nil {
		return "any"
	}
	s := ref.Value
	var types []string
	if s.Type != nil {
		types = slices.Clone(s.Type.Slice())
	}
	if len(types) == 0 {
		switch {
		case len(s.AllOf) > 0:
			return typeName(s.AllOf[0])
		case len(s.Properties) > 0:
			types = []string{"object"}
		default:
			return "any"
		}
	}
	for i, t := range types {
		switch {
		case t == "array" && s.Items != nil:
			types[i] = "array<" + itemName(s.Items) + ">"
		case t == "object" && len(s.Properties) == 0 && s.AdditionalProperties.Schema != nil:
			key := "string"
			if s.PropertyNames != nil {
				key = typeName(s.PropertyNames)
			}
			types[i] = "map<" + key + ", " + typeName(s.AdditionalProperties.Schema) + ">"
		case t != "null" && s.Format != "":
			types[i] = t + " (" + s.Format + ")"
		}
	}
	return strings.Join(types, "|")
}

// itemName names an array's items by their component when they have one.
func itemName(ref *openapi3.SchemaRef) string {
	if i := strings.LastIndexByte(ref.Ref, '/'); i >= 0 && isObject(ref.Value) {
		return ref.Ref[i+1:]
	}
	return typeName(ref)
}

// describe is a field's description with its constraints in words.
func describe(s *openapi3.Schema) string {
	if s == nil {
		return ""
	}
	parts := []string{strings.TrimSpace(s.Description)}
	if len(s.Enum) > 0 {
		vals := make([]string, len(s.Enum))
		for i, v := range s.Enum {
			vals[i] = fmt.Sprint(v)
		}
		parts = append(parts, "One of: "+strings.Join(vals, ", ")+".")
	}
	if s.Const != nil {
		parts = append(parts, fmt.Sprintf("Always %v.", s.Const))
	}
	if s.Pattern != "" {
		parts = append(parts, "Pattern: `"+s.Pattern+"`")
	}
	parts = slices.DeleteFunc(parts, func(p string) bool { return p == "" })
	return strings.Join(parts, " ")
}
