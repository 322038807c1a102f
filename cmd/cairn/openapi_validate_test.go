package main

import (
	"net/http"
	"testing"

	"github.com/cairn-dev/cairn/api/apitest"
)

// validateAgainstDocument checks every end-to-end response against the
// OpenAPI document the service publishes.
func validateAgainstDocument(t *testing.T, req *http.Request, resp *http.Response, body []byte) {
	t.Helper()
	apitest.ValidateResponse(t, req, resp, body)
}
