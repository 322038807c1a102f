package api

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/gin-gonic/gin"
)

// TestErrorTable checks every code of the root package against its status
// and the problem document it renders.
func TestErrorTable(t *testing.T) {
	want := map[string]int{
		cairn.EINVALID: 400, cairn.EUNAUTHORIZED: 401, cairn.EPAYMENT: 402, cairn.EFORBIDDEN: 403,
		cairn.ENOTFOUND: 404, cairn.EEXPIRED: 404, cairn.EMETHOD: 405, cairn.ECONFLICT: 409, cairn.EALREADYCREDITED: 409, cairn.EPENDING: 409, cairn.EPRECONDITION: 412,
		cairn.ETOOLARGE: 413, cairn.EUNSUPPORTEDMEDIA: 415, cairn.ERANGE: 416, cairn.EUNPROCESSABLE: 422,
		cairn.ERATELIMIT: 429, cairn.EINTERNAL: 500, cairn.EUPSTREAM: 502, cairn.EUNAVAILABLE: 503,
	}
	if len(want) != len(cairn.Codes) || len(statusOf) != len(cairn.Codes) {
		t.Fatalf("table covers %d codes, root package has %d, test names %d", len(statusOf), len(cairn.Codes), len(want))
	}
	gin.SetMode(gin.TestMode)
	for _, code := range cairn.Codes {
		t.Run(code, func(t *testing.T) {
			status, ok := want[code]
			if !ok {
				t.Fatalf("code %q has no expected status in this test", code)
			}
			if got := StatusOf(code); got != status {
				t.Fatalf("StatusOf(%q) = %d, want %d", code, got, status)
			}
			w := httptest.NewRecorder()
			c, _ := gin.CreateTestContext(w)
			c.Request = httptest.NewRequest(http.MethodGet, "/v1/x", nil)
			writeError(c, cairn.Errorf(code, "boom %d", 7).With("extra", 1).With("status", 999))
			if w.Code != status {
				t.Fatalf("HTTP status %d, want %d", w.Code, status)
			}
			if ct := w.Header().Get("Content-Type"); ct != "application/problem+json" {
				t.Fatalf("Content-Type %q", ct)
			}
			var doc map[string]any
			if err := json.Unmarshal(w.Body.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			if doc["code"] != code || doc["type"] != ProblemType+code || doc["detail"] != "boom 7" ||
				doc["status"] != float64(status) || doc["instance"] != "/v1/x" || doc["extra"] != float64(1) {
				t.Fatalf("problem document %v", doc)
			}
			if _, ok := doc["requestId"]; !ok {
				t.Fatalf("problem document lacks requestId: %v", doc)
			}
		})
	}
}

func TestInternalErrorTextNeverLeaks(t *testing.T) {
	gin.SetMode(gin.TestMode)
	w := httptest.NewRecorder()
	c, _ := gin.CreateTestContext(w)
	c.Request = httptest.NewRequest(http.MethodGet, "/v1/x", nil)
	writeError(c, errors.New("pebble: corrupt sstable /secret/path"))
	if w.Code != 500 {
		t.Fatalf("status %d", w.Code)
	}
	var doc map[string]any
	_ = json.Unmarshal(w.Body.Bytes(), &doc)
	if doc["detail"] != "Internal error." || doc["code"] != cairn.EINTERNAL {
		t.Fatalf("internal detail leaked or wrong: %v", doc)
	}
}
