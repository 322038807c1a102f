package api_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/cairn-dev/cairn/api/apitest"
)

// TestShareIsReadableBySiblings: visibility share makes a memory readable
// (read-only) by the other agents of its developer, by id, by key and in
// listings with ?agentId=; private memories and other developers' agents
// see a 404 as for an unknown id.
func TestShareIsReadableBySiblings(t *testing.T) {
	ls := apitest.NewServer(t)
	regA := ls.Register(t, "tester")
	keyA := regA.Key
	a := regA.ID
	sib := ls.Do(t, "POST", "/v1/agents", keyA, map[string]any{"name": "sibling"}).Must(t, http.StatusCreated)
	keyB := sib.Str("apiKey")
	keyC := ls.Register(t, "tester").Key // another developer

	shared := ls.Do(t, "POST", "/v1/memory", keyA, `{"key":"team/plan","content":"ship friday","metadata":{"visibility":"share"}}`).Must(t, http.StatusCreated)
	private := ls.Do(t, "POST", "/v1/memory", keyA, `{"key":"me/diary","content":"tired"}`).Must(t, http.StatusCreated)

	q := func(kv ...string) string {
		v := url.Values{"agentId": {a}}
		for i := 0; i+1 < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return "?" + v.Encode()
	}
	if r := ls.Do(t, "GET", "/v1/memory/by-key"+q("key", "team/plan"), keyB, nil).Must(t, http.StatusOK); r.Str("content") != "ship friday" {
		t.Fatalf("sibling by key: %s", r.Body)
	}
	if r := ls.Do(t, "GET", "/v1/memory/"+shared.Str("id")+q(), keyB, nil).Must(t, http.StatusOK); r.Str("key") != "team/plan" {
		t.Fatalf("sibling by id: %s", r.Body)
	}
	l := ls.Do(t, "GET", "/v1/memory"+q(), keyB, nil).Must(t, http.StatusOK)
	if ms := l.JSON["memories"].([]any); len(ms) != 1 || ms[0].(map[string]any)["key"] != "team/plan" {
		t.Fatalf("sibling listing: %s", l.Body)
	}
	ls.Do(t, "GET", "/v1/memory"+q("visibility", "private"), keyB, nil).Problem(t, http.StatusBadRequest, "invalid")
	ls.Do(t, "GET", "/v1/memory/by-key"+q("key", "me/diary"), keyB, nil).Problem(t, http.StatusNotFound, "not_found")
	ls.Do(t, "GET", "/v1/memory/"+private.Str("id")+q(), keyB, nil).Problem(t, http.StatusNotFound, "not_found")
	// Without agentId the sibling's own space is read: the id is not there.
	ls.Do(t, "GET", "/v1/memory/"+shared.Str("id"), keyB, nil).Problem(t, http.StatusNotFound, "not_found")
	// Read only: a sibling cannot change it.
	ls.Do(t, "PUT", "/v1/memory/"+shared.Str("id")+q(), keyB, `{"content":"ship monday"}`).Must(t, http.StatusNotFound)
	// Another developer's agent learns nothing.
	ls.Do(t, "GET", "/v1/memory/by-key"+q("key", "team/plan"), keyC, nil).Problem(t, http.StatusNotFound, "not_found")
	ls.Do(t, "GET", "/v1/memory"+q(), keyC, nil).Problem(t, http.StatusNotFound, "not_found")
}
