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
	ls, key := testerServer(t)
	v1 := ls.Do(t, "POST", "/v1/memory", key, `{"key":"team/notes","content":"one"}`).Must(t, http.StatusCreated)
	memoryID := v1.Str("memoryId")
	ls.Do(t, "PUT", "/v1/memory/"+v1.Str("id"), key, `{"content":"two"}`).Must(t, http.StatusOK)
	v3 := ls.Do(t, "PUT", "/v1/memory/"+v1.Str("id"), key, `{"content":"three"}`).Must(t, http.StatusOK)

	byKey := "/v1/memory/by-key?" + url.Values{"key": {"team/notes"}}.Encode()
	r := ls.Do(t, "GET", byKey, key, nil).Must(t, http.StatusOK)
	if r.Num("version") != 3 || r.Str("content") != "three" || r.Str("id") != v3.Str("id") || r.Header.Get("ETag") != `"3"` {
		t.Fatalf("by key: %s", r.Body)
	}
	ls.Do(t, "GET", "/v1/memory/by-key", key, nil).Problem(t, http.StatusBadRequest, "invalid")
	ls.Do(t, "GET", "/v1/memory/by-key?key=%2Fbad%2F%2Fkey", key, nil).Problem(t, http.StatusBadRequest, "invalid")
	ls.Do(t, "GET", "/v1/memory/by-key?key=team%2Fnone", key, nil).Problem(t, http.StatusNotFound, "not_found")
	ls.Do(t, "POST", "/v1/memory/by-key", key, `{}`).Must(t, http.StatusMethodNotAllowed)

	dup := ls.Do(t, "POST", "/v1/memory", key, `{"key":"team/notes","content":"again"}`).Problem(t, http.StatusConflict, "conflict")
	if dup.Str("memoryId") != memoryID || dup.Str("latestId") != v3.Str("id") || !strings.Contains(dup.Str("detail"), "PUT /v1/memory/"+v3.Str("id")) {
		t.Fatalf("409: %s", dup.Body)
	}

	// Deleting version 1 (whose id is the memoryId) leaves the memory.
	del := ls.Do(t, "DELETE", "/v1/memory/"+v1.Str("id"), key, nil).Must(t, http.StatusOK)
	if del.Str("memoryId") != memoryID || del.Num("version") != 1 || del.Str("scope") != "version" || del.Num("latestVersion") != 3 {
		t.Fatalf("delete v1: %s", del.Body)
	}
	gone := ls.Do(t, "GET", "/v1/memory/"+memoryID, key, nil).Problem(t, http.StatusNotFound, "not_found")
	if gone.Str("latestId") != v3.Str("id") || gone.Str("key") != "team/notes" {
		t.Fatalf("read of the memoryId after v1 was deleted: %s", gone.Body)
	}
	if h := ls.Do(t, "GET", "/v1/memory/"+memoryID+"/history", key, nil).Must(t, http.StatusOK); h.Num("totalVersions") != 2 {
		t.Fatalf("history by memoryId: %s", h.Body)
	}

	ls.Do(t, "DELETE", "/v1/memory/"+memoryID+"?scope=everything", key, nil).Problem(t, http.StatusBadRequest, "invalid")
	ls.Do(t, "DELETE", "/v1/memory/"+memoryID+"?scope=memory", key, nil, "If-Match", `"2"`).Must(t, http.StatusPreconditionFailed)
	all := ls.Do(t, "DELETE", "/v1/memory/"+memoryID+"?scope=memory", key, nil).Must(t, http.StatusOK)
	if all.Num("versionsDeleted") != 2 || all.JSON["memoryDeleted"] != true || all.Str("key") != "team/notes" || all.Str("memoryId") != memoryID {
		t.Fatalf("delete the memory: %s", all.Body)
	}
	ls.Do(t, "GET", byKey, key, nil).Problem(t, http.StatusNotFound, "not_found")
	ls.Do(t, "GET", "/v1/memory/"+memoryID+"/history", key, nil).Problem(t, http.StatusNotFound, "not_found")
	if s := ls.Do(t, "POST", "/v1/memory/search", key, `{"query":"team"}`).Must(t, http.StatusOK); s.Num("count") != 0 {
		t.Fatalf("search after the delete: %s", s.Body)
	}
	ls.Do(t, "POST", "/v1/memory", key, `{"key":"team/notes","content":"fresh"}`).Must(t, http.StatusCreated)
}
