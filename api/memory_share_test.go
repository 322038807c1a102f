package api_test

import (
	"net/http"
	"net/url"
	"testing"
)

// TestShareIsReadableBySiblings: visibility share makes a memory readable
// (read-only) by the other agents of its developer, by id, by key and in
// listings with ?agentId=; private memories and other developers' agents
// see a 404 as for an unknown id.
func TestShareIsReadableBySiblings(t *testing.T) {
	ls := newLiveServer(t)
	keyA, regA := ls.register(t)
	a := regA.str("agentId")
	sib := ls.do(t, "POST", "/v1/agents", keyA, map[string]any{"name": "sibling"}).want(t, http.StatusCreated)
	keyB := sib.str("apiKey")
	keyC, _ := ls.register(t) // another developer

	shared := ls.do(t, "POST", "/v1/memory", keyA, `{"key":"team/plan","content":"ship friday","metadata":{"visibility":"share"}}`).want(t, http.StatusCreated)
	private := ls.do(t, "POST", "/v1/memory", keyA, `{"key":"me/diary","content":"tired"}`).want(t, http.StatusCreated)

	q := func(kv ...string) string {
		v := url.Values{"agentId": {a}}
		for i := 0; i+1 < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return "?" + v.Encode()
	}
	if r := ls.do(t, "GET", "/v1/memory/by-key"+q("key", "team/plan"), keyB, nil).want(t, http.StatusOK); r.str("content") != "ship friday" {
		t.Fatalf("sibling by key: %s", r.Body)
	}
	if r := ls.do(t, "GET", "/v1/memory/"+shared.str("id")+q(), keyB, nil).want(t, http.StatusOK); r.str("key") != "team/plan" {
		t.Fatalf("sibling by id: %s", r.Body)
	}
	l := ls.do(t, "GET", "/v1/memory"+q(), keyB, nil).want(t, http.StatusOK)
	if ms := l.JSON["memories"].([]any); len(ms) != 1 || ms[0].(map[string]any)["key"] != "team/plan" {
		t.Fatalf("sibling listing: %s", l.Body)
	}
	ls.do(t, "GET", "/v1/memory"+q("visibility", "private"), keyB, nil).want(t, http.StatusBadRequest, "invalid")
	ls.do(t, "GET", "/v1/memory/by-key"+q("key", "me/diary"), keyB, nil).want(t, http.StatusNotFound, "not_found")
	ls.do(t, "GET", "/v1/memory/"+private.str("id")+q(), keyB, nil).want(t, http.StatusNotFound, "not_found")
	// Without agentId the sibling's own space is read: the id is not there.
	ls.do(t, "GET", "/v1/memory/"+shared.str("id"), keyB, nil).want(t, http.StatusNotFound, "not_found")
	// Read only: a sibling cannot change it.
	ls.do(t, "PUT", "/v1/memory/"+shared.str("id")+q(), keyB, `{"content":"ship monday"}`).want(t, http.StatusNotFound)
	// Another developer's agent learns nothing.
	ls.do(t, "GET", "/v1/memory/by-key"+q("key", "team/plan"), keyC, nil).want(t, http.StatusNotFound, "not_found")
	ls.do(t, "GET", "/v1/memory"+q(), keyC, nil).want(t, http.StatusNotFound, "not_found")
}
