package api

import (
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/gin-gonic/gin"
)

// documentedStatuses reads the status each code's comment in the root
// package's errors.go names ("... (404)"), the contract the one table of
// errors.go implements: the test checks the table against it instead of
// holding a copy of the table.
func documentedStatuses(t *testing.T) map[string]int {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "../errors.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	status := regexp.MustCompile(`\((\d{3})[,)]`)
	want := map[string]int{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			v := spec.(*ast.ValueSpec)
			if v.Comment == nil || len(v.Values) != 1 {
				continue
			}
			lit, ok := v.Values[0].(*ast.BasicLit)
			m := status.FindStringSubmatch(v.Comment.Text())
			if !ok || lit.Kind != token.STRING || m == nil {
				continue
			}
			code, _ := strconv.Unquote(lit.Value)
			want[code], _ = strconv.Atoi(m[1])
		}
	}
	return want
}

// TestErrorTable checks every code of the root package against the status
// its comment documents and the problem document it renders.
func TestErrorTable(t *testing.T) {
	want := documentedStatuses(t)
	if len(want) != len(cairn.Codes) || len(statusOf) != len(cairn.Codes) {
		t.Fatalf("table covers %d codes, root package has %d, its comments document %d", len(statusOf), len(cairn.Codes), len(want))
	}
	gin.SetMode(gin.TestMode)
	for _, code := range cairn.Codes {
		t.Run(code, func(t *testing.T) {
			status, ok := want[code]
			if !ok {
				t.Fatalf("code %q documents no status in errors.go", code)
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
