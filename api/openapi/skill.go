package openapi

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
		Auth:        skillAuths(doc),
	}
	if err := extension(doc.Info.Extensions, "x-cairn-base-path", &sk.BasePath); err != nil {
		return nil, err
	}
	if err := extension(doc.Info.Extensions, "x-cairn-pricing", &sk.Pricing); err != nil {
		return nil, err
	}
	errs, err := skillErrorsOf(doc)
	if err != nil {
		return nil, err
	}
	sk.Errors = errs
	if err := addEndpoints(sk, doc); err != nil {
		return nil, err
	}
	return sk, nil
}

// skillAuths lists the document's security schemes by name.
func skillAuths(doc *openapi3.T) []skillAuth {
	names := make([]string, 0, len(doc.Components.SecuritySchemes))
	for name := range doc.Components.SecuritySchemes {
		names = append(names, name)
	}
	sort.Strings(names)
	var out []skillAuth
	for _, name := range names {
		ss := doc.Components.SecuritySchemes[name].Value
		out = append(out, skillAuth{Name: name, Scheme: ss.Scheme, Format: ss.BearerFormat, Description: ss.Description})
	}
	return out
}

// skillErrorsOf describes the problem documents: the fields of schema
// Problem and the codes of schema ErrorCode.
func skillErrorsOf(doc *openapi3.T) (skillErrors, error) {
	out := skillErrors{ContentType: "application/problem+json"}
	problem := doc.Components.Schemas["Problem"]
	codes := doc.Components.Schemas["ErrorCode"]
	if problem == nil || codes == nil {
		return out, fmt.Errorf("components/schemas must define Problem and ErrorCode")
	}
	out.Fields = fields(problem, "", 0)
	for _, c := range codes.Value.Enum {
		out.Codes = append(out.Codes, fmt.Sprint(c))
	}
	return out, nil
}

// addEndpoints appends every operation of the document to sk, by path
// and then in methodOrder, and sets sk.OpenAPI to the path of the
// document itself.
func addEndpoints(sk *skillDoc, doc *openapi3.T) error {
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
				return fmt.Errorf("%s %s: %w", method, path, err)
			}
			if op.OperationID == "getOpenAPI" {
				sk.OpenAPI = path
			}
			sk.Endpoints = append(sk.Endpoints, ep)
		}
	}
	return nil
}

// skillOperation describes one operation: its auth, cost, parameters,
// request body and responses.
func skillOperation(doc *openapi3.T, path, method string, item *openapi3.PathItem, op *openapi3.Operation) (skillEndpoint, error) {
	ep := skillEndpoint{
		OperationID: op.OperationID, Method: method, Path: path, Summary: op.Summary,
		Description: strings.TrimSpace(op.Description), Auth: operationAuth(doc, op),
		Parameters: skillParams(item, op), RequestBody: skillRequestBody(op), Responses: skillResponses(op),
	}
	if err := extension(op.Extensions, "x-cairn-auth", &ep.AuthNote); err != nil {
		return ep, err
	}
	if _, ok := op.Extensions["x-cairn-cost"]; ok {
		ep.Cost = new(skillCost)
		if err := extension(op.Extensions, "x-cairn-cost", ep.Cost); err != nil {
			return ep, err
		}
	}
	return ep, nil
}

// operationAuth names the security schemes an operation accepts (its own
// security, or the document's), sorted; empty, not nil, when none.
func operationAuth(doc *openapi3.T, op *openapi3.Operation) []string {
	sec := doc.Security
	if op.Security != nil {
		sec = *op.Security
	}
	auth := []string{}
	for _, req := range sec {
		for name := range req {
			if !slices.Contains(auth, name) {
				auth = append(auth, name)
			}
		}
	}
	sort.Strings(auth)
	return auth
}

// skillParams lists the parameters of the path, then of the operation.
func skillParams(item *openapi3.PathItem, op *openapi3.Operation) []skillParam {
	var out []skillParam
	for _, p := range append(slices.Clone(item.Parameters), op.Parameters...) {
		v := p.Value
		out = append(out, skillParam{
			Name: v.Name, In: v.In, Required: v.Required, Type: typeName(v.Schema), Description: v.Description,
		})
	}
	return out
}

// skillRequestBody describes the request body by its first content type
// (JSON first); nil when the operation takes none.
func skillRequestBody(op *openapi3.Operation) *skillBody {
	rb := op.RequestBody
	if rb == nil || len(rb.Value.Content) == 0 {
		return nil
	}
	ct := contentTypes(rb.Value.Content)[0]
	return &skillBody{ContentType: ct, Required: rb.Value.Required, Fields: fields(rb.Value.Content[ct].Schema, "", 0)}
}

// skillResponses describes the responses by status: the problem code of
// an error, the fields of a JSON success.
func skillResponses(op *openapi3.Operation) []skillResponse {
	statuses := op.Responses.Keys()
	sort.Strings(statuses)
	var out []skillResponse
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
		out = append(out, sr)
	}
	return out
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
