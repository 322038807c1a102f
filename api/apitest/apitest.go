// Package apitest is the HTTP test kit of cairn: a test server (the real
// service in process, wired as cairn serve wires it, on Pebble and the fs
// blob store in a temporary directory), a client for the tests of any
// package that drives the service, the check of every response against
// the OpenAPI document (api.OpenAPIDocument), and of Go types against the
// document's schemas (SchemaDiff: the wire types in api's tests, the
// client's results in cmd/cairn's).
//
// Only tests import it (deps_test.go checks): it imports the api and wire
// packages, internal/wiring, the embedded store, the fs blob store and
// kin-openapi, nothing of cmd.
package apitest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"

	"github.com/cairn-dev/cairn/api"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
)

var (
	loadOnce sync.Once
	spec     *openapi3.T
	router   routers.Router
	loadErr  error
)

// Document returns the parsed and validated OpenAPI document.
func Document() (*openapi3.T, error) {
	loadOnce.Do(func() {
		// The text answers: the skill's Markdown, the proof report page and
		// the pages' assets.
		for _, ct := range []string{"text/markdown", "text/html", "text/css", "text/javascript", "image/svg+xml"} {
			openapi3filter.RegisterBodyDecoder(ct, openapi3filter.PlainBodyDecoder)
		}
		loader := openapi3.NewLoader()
		if spec, loadErr = loader.LoadFromData(api.OpenAPIDocument()); loadErr != nil {
			return
		}
		if loadErr = spec.Validate(loader.Context); loadErr != nil {
			return
		}
		router, loadErr = legacy.NewRouter(spec)
	})
	return spec, loadErr
}

// ValidateResponse fails the test unless the response is one the document
// allows for the request: the status is documented for the operation (an
// unknown path must answer the 404 problem, a known path with another
// method the 405 problem), the documented headers are present and valid,
// and the body has a documented content type and matches its schema. body
// is the response body, read by the caller.
func ValidateResponse(t testing.TB, req *http.Request, resp *http.Response, body []byte) {
	t.Helper()
	if err := Validate(req, resp.StatusCode, resp.Header, body); err != nil {
		t.Errorf("%s %s -> %d: response does not match the OpenAPI document: %v\nbody: %s",
			req.Method, req.URL.Path, resp.StatusCode, err, truncate(body))
	}
}

// Validate is ValidateResponse returning the mismatch as an error.
func Validate(req *http.Request, status int, header http.Header, body []byte) error {
	doc, err := Document()
	if err != nil {
		return fmt.Errorf("load OpenAPI document: %w", err)
	}
	// Route on the path alone: the document's server is relative.
	probe := req.Clone(context.Background())
	probe.URL.Scheme, probe.URL.Host, probe.Host = "", "", ""
	route, params, err := router.FindRoute(probe)
	var re *routers.RouteError
	if errors.As(err, &re) {
		// The router makes new errors; its sentinels match by reason.
		switch re.Reason {
		case routers.ErrPathNotFound.Error():
			route, err = unmatched(doc, "NotFound", http.StatusNotFound, status)
		case routers.ErrMethodNotAllowed.Error():
			route, err = unmatched(doc, "MethodNotAllowed", http.StatusMethodNotAllowed, status)
		}
	}
	if err != nil {
		return fmt.Errorf("find route: %w", err)
	}
	opts := &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request: req, PathParams: params, Route: route, Options: opts,
		},
		Status:  status,
		Header:  header,
		Body:    io.NopCloser(bytes.NewReader(body)),
		Options: opts,
	}
	return openapi3filter.ValidateResponse(context.Background(), in)
}

// unmatched is the route of a request the document has no operation for:
// the service must answer it with the named shared problem response.
func unmatched(doc *openapi3.T, name string, want, got int) (*routers.Route, error) {
	if got != want {
		return nil, fmt.Errorf("no operation matches the request, so the status must be %d, got %d", want, got)
	}
	resp := doc.Components.Responses[name]
	if resp == nil {
		return nil, fmt.Errorf("components/responses/%s is missing", name)
	}
	op := &openapi3.Operation{Responses: openapi3.NewResponses(openapi3.WithStatus(want, resp))}
	return &routers.Route{Spec: doc, Operation: op}, nil
}

func truncate(b []byte) []byte {
	if len(b) > 2000 {
		return append(b[:2000:2000], "..."...)
	}
	return b
}
