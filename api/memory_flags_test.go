package api_test

import (
	"net/http"
	"testing"

	"github.com/cairn-dev/cairn/api/apitest"
)

// TestPinSetsWithABody: {"pinned": true|false} sets the pin, so a retry
// does not undo it; no body toggles; any other body is 400.
func TestPinSetsWithABody(t *testing.T) {
	ls, key := testerServer(t)
	id := ls.Do(t, "POST", "/v1/memory", key, `{"key":"a/b","content":"x"}`).Must(t, http.StatusCreated).Str("id")
	pinned := func(r *apitest.Response) bool { b, _ := r.JSON["pinned"].(bool); return b }
	for i := range 2 {
		if r := ls.Do(t, "PATCH", "/v1/memory/"+id+"/pin", key, `{"pinned":true}`).Must(t, http.StatusOK); !pinned(r) {
			t.Fatalf("pinned:true sent %d times left pinned false", i+1)
		}
	}
	for i := range 2 {
		if r := ls.Do(t, "PATCH", "/v1/memory/"+id+"/pin", key, `{"pinned":false}`).Must(t, http.StatusOK); pinned(r) {
			t.Fatalf("pinned:false sent %d times left pinned true", i+1)
		}
	}
	if r := ls.Do(t, "PATCH", "/v1/memory/"+id+"/pin", key, nil).Must(t, http.StatusOK); !pinned(r) {
		t.Fatal("no body did not toggle")
	}
	for _, body := range []string{`{"pinned":"yes"}`, `{"pinned":null}`, `{}`, `{"pin":true}`, `true`} {
		r := ls.Do(t, "PATCH", "/v1/memory/"+id+"/pin", key, body).Problem(t, http.StatusBadRequest, "invalid")
		if r.Str("field") == "" && body != "true" {
			t.Errorf("%s: no field named: %s", body, r.Body)
		}
	}
	if r := ls.Do(t, "GET", "/v1/memory/"+id, key, nil).Must(t, http.StatusOK); !pinned(r) {
		t.Fatal("refused bodies changed the pin")
	}
}
