package api

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// skillDoc is GET /v1/skill: the OpenAPI document reduced to what an agent
// needs to call each endpoint (schema Skill in api/openapi/base.yaml). It is derived
// from the parsed document at init and never written by hand.
type skillDoc struct {
	Name        string          `json:"name"`
	Version     string          `json:"version"`
	Description string          `json:"description"`
	BasePath    string          `json:"basePath"`
	OpenAPI     string          `json:"openapi"`
	Auth        []skillAuth     `json:"auth"`
	Pricing     skillPricing    `json:"pricing"`
	Errors      skillErrors     `json:"errors"`
	Endpoints   []skillEndpoint `json:"endpoints"`
}

type skillAuth struct {
	Name        string `json:"name"`
	Scheme      string `json:"scheme"`
	Format      string `json:"format,omitempty"`
	Description string `json:"description"`
}

type skillPricing struct {
	Endpoint       string  `json:"endpoint"`
	CreditPriceUSD float64 `json:"creditPriceUsd,omitempty"`
	Note           string  `json:"note"`
}

type skillErrors struct {
	ContentType string       `json:"contentType"`
	Fields      []skillField `json:"fields"`
	Codes       []string     `json:"codes"`
}

type skillEndpoint struct {
	OperationID string          `json:"operationId"`
	Method      string          `json:"method"`
	Path        string          `json:"path"`
	Summary     string          `json:"summary"`
	Description string          `json:"description,omitempty"`
	Auth        []string        `json:"auth"`
	AuthNote    string          `json:"authNote,omitempty"`
	Cost        *skillCost      `json:"cost"`
	Parameters  []skillParam    `json:"parameters,omitempty"`
	RequestBody *skillBody      `json:"requestBody,omitempty"`
	Responses   []skillResponse `json:"responses"`
}

// skillCost is the x-cairn-cost extension of a priced operation.
type skillCost struct {
	Operation string `json:"operation"`
	Credits   int64  `json:"credits"`
}

type skillParam struct {
	Name        string `json:"name"`
	In          string `json:"in"`
	Required    bool   `json:"required"`
	Type        string `json:"type"`
	Description string `json:"description,omitempty"`
}

type skillBody struct {
	ContentType string       `json:"contentType"`
	Required    bool         `json:"required"`
	Fields      []skillField `json:"fields"`
}

type skillResponse struct {
	Status       string       `json:"status"`
	Description  string       `json:"description"`
	ContentTypes []string     `json:"contentTypes,omitempty"`
	Code         string       `json:"code,omitempty"`
	Fields       []skillField `json:"fields,omitempty"`
}

type skillField struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Required    bool   `json:"required"`
	Description string `json:"description,omitempty"`
}

// methodOrder is the order of the operations of one path.
var methodOrder = []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"}

// buildSkill derives the skill from the document.
func buildSkill(doc *openapi3.T) (*skillDoc, error) {
	sk := &skillDoc{
		Name: doc.Info.Title, Version: doc.Info.Version,
		Description: strings.TrimSpace(doc.Info.Description),
		Errors:      skillErrors{ContentType: "application/problem+json"},
	}
	if err := extension(doc.Info.Extensions, "x-cairn-base-path", &sk.BasePath); err != nil {
		return nil, err
	}
	if err := extension(doc.Info.Extensions, "x-cairn-pricing", &sk.Pricing); err != nil {
		return nil, err
	}
	names := make([]string, 0, len(doc.Components.SecuritySchemes))
	for name := range doc.Components.SecuritySchemes {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		ss := doc.Components.SecuritySchemes[name].Value
		sk.Auth = append(sk.Auth, skillAuth{Name: name, Scheme: ss.Scheme, Format: ss.BearerFormat, Description: ss.Description})
	}
	problem := doc.Components.Schemas["Problem"]
	codes := doc.Components.Schemas["ErrorCode"]
	if problem == nil || codes == nil {
		return nil, fmt.Errorf("components/schemas must define Problem and ErrorCode")
	}
	sk.Errors.Fields = fields(problem, "", 0)
	for _, c := range codes.Value.Enum {
		sk.Errors.Codes = append(sk.Errors.Codes, fmt.Sprint(c))
	}

	paths := doc.Paths.Keys()
	sort.Strings(paths)
	for _, path := range paths {
		item := doc.Paths.Value(path)
		ops := item.Operations()
		for _, method := range methodOrder {
			op := ops[method]
			if op == nil {
				continue
			}
			ep, err := skillOperation(doc, path, method, item, op)
			if err != nil {
				return nil, fmt.Errorf("%s %s: %w", method, path, err)
			}
			if op.OperationID == "getOpenAPI" {
				sk.OpenAPI = path
			}
			sk.Endpoints = append(sk.Endpoints, ep)
		}
	}
	return sk, nil
}

func skillOperation(doc *openapi3.T, path, method string, item *openapi3.PathItem, op *openapi3.Operation) (skillEndpoint, error) {
	ep := skillEndpoint{
		OperationID: op.OperationID, Method: method, Path: path, Summary: op.Summary,
		Description: strings.TrimSpace(op.Description), Auth: []string{},
	}
	sec := doc.Security
	if op.Security != nil {
		sec = *op.Security
	}
	for _, req := range sec {
		for name := range req {
			if !slices.Contains(ep.Auth, name) {
				ep.Auth = append(ep.Auth, name)
			}
		}
	}
	sort.Strings(ep.Auth)
	if err := extension(op.Extensions, "x-cairn-auth", &ep.AuthNote); err != nil {
		return ep, err
	}
	if _, ok := op.Extensions["x-cairn-cost"]; ok {
		ep.Cost = new(skillCost)
		if err := extension(op.Extensions, "x-cairn-cost", ep.Cost); err != nil {
			return ep, err
		}
	}
	for _, p := range append(slices.Clone(item.Parameters), op.Parameters...) {
		v := p.Value
		ep.Parameters = append(ep.Parameters, skillParam{
			Name: v.Name, In: v.In, Required: v.Required, Type: typeName(v.Schema), Description: v.Description,
		})
	}
	if rb := op.RequestBody; rb != nil {
		for _, ct := range contentTypes(rb.Value.Content) {
			ep.RequestBody = &skillBody{ContentType: ct, Required: rb.Value.Required, Fields: fields(rb.Value.Content[ct].Schema, "", 0)}
			break // the first content type describes the body
		}
	}
	statuses := op.Responses.Keys()
	sort.Strings(statuses)
	for _, status := range statuses {
		r := op.Responses.Value(status).Value
		sr := skillResponse{Status: status, Description: strings.TrimSpace(*r.Description), ContentTypes: contentTypes(r.Content)}
		for _, ct := range sr.ContentTypes {
			mt := r.Content[ct]
			if ct == "application/problem+json" {
				sr.Code = problemCode(mt.Schema)
			} else if strings.HasSuffix(ct, "json") && status < "400" {
				sr.Fields = fields(mt.Schema, "", 0)
			}
		}
		ep.Responses = append(ep.Responses, sr)
	}
	return ep, nil
}

// extension decodes the extension key of ext into v; a missing key leaves
// v unchanged.
func extension(ext map[string]any, key string, v any) error {
	raw, ok := ext[key]
	if !ok {
		return nil
	}
	b, err := json.Marshal(raw)
	if err == nil {
		err = json.Unmarshal(b, v)
	}
	if err != nil {
		return fmt.Errorf("extension %s: %w", key, err)
	}
	return nil
}

func contentTypes(c openapi3.Content) []string {
	out := make([]string, 0, len(c))
	for ct := range c {
		out = append(out, ct)
	}
	// JSON first, then alphabetical.
	sort.Slice(out, func(i, j int) bool {
		ji, jj := strings.HasSuffix(out[i], "json"), strings.HasSuffix(out[j], "json")
		if ji != jj {
			return ji
		}
		return out[i] < out[j]
	})
	return out
}

// problemCode returns the code a problem response schema fixes with const.
func problemCode(ref *openapi3.SchemaRef) string {
	if ref == nil || ref.Value == nil {
		return ""
	}
	for _, part := range append(openapi3.SchemaRefs{ref}, ref.Value.AllOf...) {
		if code := part.Value.Properties["code"]; code != nil && code.Value.Const != nil {
			return fmt.Sprint(code.Value.Const)
		}
	}
	return ""
}
