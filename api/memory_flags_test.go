package api_test

import (
	"net/http"
	"testing"
)

// TestPinSetsWithABody: {"pinned": true|false} sets the pin, so a retry
// does not undo it; no body toggles; any other body is 400.
func TestPinSetsWithABody(t *testing.T) {
	ls := newLiveServer(t)
	key, _ := ls.register(t)
	id := ls.do(t, "POST", "/v1/memory", key, `{"key":"a/b","content":"x"}`).want(t, http.StatusCreated).str("id")
	pinned := func(r *reply) bool { b, _ := r.JSON["pinned"].(bool); return b }
	for i := range 2 {
		if r := ls.do(t, "PATCH", "/v1/memory/"+id+"/pin", key, `{"pinned":true}`).want(t, http.StatusOK); !pinned(r) {
			t.Fatalf("pinned:true sent %d times left pinned false", i+1)
		}
	}
	for i := range 2 {
		if r := ls.do(t, "PATCH", "/v1/memory/"+id+"/pin", key, `{"pinned":false}`).want(t, http.StatusOK); pinned(r) {
			t.Fatalf("pinned:false sent %d times left pinned true", i+1)
		}
	}
	if r := ls.do(t, "PATCH", "/v1/memory/"+id+"/pin", key, nil).want(t, http.StatusOK); !pinned(r) {
		t.Fatal("no body did not toggle")
	}
	for _, body := range []string{`{"pinned":"yes"}`, `{"pinned":null}`, `{}`, `{"pin":true}`, `true`} {
		r := ls.do(t, "PATCH", "/v1/memory/"+id+"/pin", key, body).want(t, http.StatusBadRequest, "invalid")
		if r.str("field") == "" && body != "true" {
			t.Errorf("%s: no field named: %s", body, r.Body)
		}
	}
	if r := ls.do(t, "GET", "/v1/memory/"+id, key, nil).want(t, http.StatusOK); !pinned(r) {
		t.Fatal("refused bodies changed the pin")
	}
}
