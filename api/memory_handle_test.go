package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestMemoryHandles: the key reads the latest version, a whole memory is
// deleted in one request, the memoryId keeps naming the memory after its
// first version is deleted, and a duplicate key says which memory holds it.
func TestMemoryHandles(t *testing.T) {
	ls := newLiveServer(t)
	key, _ := ls.register(t)
	v1 := ls.do(t, "POST", "/v1/memory", key, `{"key":"team/notes","content":"one"}`).want(t, http.StatusCreated)
	memoryID := v1.str("memoryId")
	ls.do(t, "PUT", "/v1/memory/"+v1.str("id"), key, `{"content":"two"}`).want(t, http.StatusOK)
	v3 := ls.do(t, "PUT", "/v1/memory/"+v1.str("id"), key, `{"content":"three"}`).want(t, http.StatusOK)

	byKey := "/v1/memory/by-key?" + url.Values{"key": {"team/notes"}}.Encode()
	r := ls.do(t, "GET", byKey, key, nil).want(t, http.StatusOK)
	if r.num("version") != 3 || r.str("content") != "three" || r.str("id") != v3.str("id") || r.Header.Get("ETag") != `"3"` {
		t.Fatalf("by key: %s", r.Body)
	}
	ls.do(t, "GET", "/v1/memory/by-key", key, nil).want(t, http.StatusBadRequest, "invalid")
	ls.do(t, "GET", "/v1/memory/by-key?key=%2Fbad%2F%2Fkey", key, nil).want(t, http.StatusBadRequest, "invalid")
	ls.do(t, "GET", "/v1/memory/by-key?key=team%2Fnone", key, nil).want(t, http.StatusNotFound, "not_found")
	ls.do(t, "POST", "/v1/memory/by-key", key, `{}`).want(t, http.StatusMethodNotAllowed)

	dup := ls.do(t, "POST", "/v1/memory", key, `{"key":"team/notes","content":"again"}`).want(t, http.StatusConflict, "conflict")
	if dup.str("memoryId") != memoryID || dup.str("latestId") != v3.str("id") || !strings.Contains(dup.str("detail"), "PUT /v1/memory/"+v3.str("id")) {
		t.Fatalf("409: %s", dup.Body)
	}

	// Deleting version 1 (whose id is the memoryId) leaves the memory.
	del := ls.do(t, "DELETE", "/v1/memory/"+v1.str("id"), key, nil).want(t, http.StatusOK)
	if del.str("memoryId") != memoryID || del.num("version") != 1 || del.str("scope") != "version" || del.num("latestVersion") != 3 {
		t.Fatalf("delete v1: %s", del.Body)
	}
	gone := ls.do(t, "GET", "/v1/memory/"+memoryID, key, nil).want(t, http.StatusNotFound, "not_found")
	if gone.str("latestId") != v3.str("id") || gone.str("key") != "team/notes" {
		t.Fatalf("read of the memoryId after v1 was deleted: %s", gone.Body)
	}
	if h := ls.do(t, "GET", "/v1/memory/"+memoryID+"/history", key, nil).want(t, http.StatusOK); h.num("totalVersions") != 2 {
		t.Fatalf("history by memoryId: %s", h.Body)
	}

	ls.do(t, "DELETE", "/v1/memory/"+memoryID+"?scope=everything", key, nil).want(t, http.StatusBadRequest, "invalid")
	ls.do(t, "DELETE", "/v1/memory/"+memoryID+"?scope=memory", key, nil, "If-Match", `"2"`).want(t, http.StatusPreconditionFailed)
	all := ls.do(t, "DELETE", "/v1/memory/"+memoryID+"?scope=memory", key, nil).want(t, http.StatusOK)
	if all.num("versionsDeleted") != 2 || all.JSON["memoryDeleted"] != true || all.str("key") != "team/notes" || all.str("memoryId") != memoryID {
		t.Fatalf("delete the memory: %s", all.Body)
	}
	ls.do(t, "GET", byKey, key, nil).want(t, http.StatusNotFound, "not_found")
	ls.do(t, "GET", "/v1/memory/"+memoryID+"/history", key, nil).want(t, http.StatusNotFound, "not_found")
	if s := ls.do(t, "POST", "/v1/memory/search", key, `{"query":"team"}`).want(t, http.StatusOK); s.num("count") != 0 {
		t.Fatalf("search after the delete: %s", s.Body)
	}
	ls.do(t, "POST", "/v1/memory", key, `{"key":"team/notes","content":"fresh"}`).want(t, http.StatusCreated)
}
