package api_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
)

func TestMemoryAudit(t *testing.T) {
	ts, a := memServer(t, 1000)
	b := ts.Register(t, "other")
	id := ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "k", "content": "x"}).Must(t, 201).Str("id")
	ts.Do(t, "GET", "/v1/memory/"+id, a.Key, nil).Must(t, 200)
	ts.Do(t, "PUT", "/v1/memory/"+id, a.Key, map[string]any{"content": "y"}).Must(t, 200)
	ts.Do(t, "GET", "/v1/memory", a.Key, nil).Must(t, 200)
	ts.Do(t, "POST", "/v1/memory/search", a.Key, map[string]any{"query": "k"}).Must(t, 200)
	ts.Do(t, "PATCH", "/v1/memory/"+id+"/pin", a.Key, nil).Must(t, 200)
	ts.Do(t, "PATCH", "/v1/memory/"+id+"/importance", a.Key, map[string]any{"importance": 0.1}).Must(t, 200)
	ts.MemUpload(t, a.Key, map[string]string{"type": "file", "key": "f"}, "f.txt", []byte("hello")).Must(t, 201)
	ts.Do(t, "DELETE", "/v1/memory/"+id, a.Key, nil).Must(t, 200)
	newKey := ts.Do(t, "POST", "/v1/agents/self/rotate-key", a.Key, map[string]any{"rotationSecret": a.Secret}).Must(t, 200).Str("apiKey")
	ts.Do(t, "GET", "/v1/memory/"+id, b.Key, nil).Problem(t, 404, cairn.ENOTFOUND) // nothing in a's log
	bal := ts.Balance(t, newKey)
	t.Run("WalkAllFree", func(t *testing.T) {
		var actions []string
		q := url.Values{"limit": {"3"}}
		for {
			r := ts.Do(t, "GET", "/v1/memory/audit?"+q.Encode(), newKey, nil).Must(t, 200)
			for _, e := range r.JSON["entries"].([]any) {
				actions = append(actions, e.(map[string]any)["action"].(string))
			}
			if r.JSON["hasMore"] != true {
				break
			}
			q.Set("cursor", r.Str("nextCursor"))
		}
		want := "rotate_key delete upload importance pin search list write read write"
		if got := strings.Join(actions, " "); !strings.HasPrefix(got, want) {
			t.Fatalf("actions %q, want prefix %q", got, want)
		}
		if ts.Balance(t, newKey) != bal {
			t.Fatal("audit reads are charged")
		}
	})
	t.Run("FilterAndErrors", func(t *testing.T) {
		r := ts.Do(t, "GET", "/v1/memory/audit?action=pin", newKey, nil).Must(t, 200)
		es := r.JSON["entries"].([]any)
		if len(es) != 1 || es[0].(map[string]any)["resource"] != id {
			t.Fatalf("pin entries: %s", r.Body)
		}
		ts.Do(t, "GET", "/v1/memory/audit?action=dance", newKey, nil).Problem(t, 400, cairn.EINVALID)
		ts.Do(t, "GET", "/v1/memory/audit?cursor=abc", newKey, nil).Problem(t, 400, cairn.EINVALID)
		first := ts.Do(t, "GET", "/v1/memory/audit?limit=1", newKey, nil).Must(t, 200).Str("nextCursor")
		ts.Do(t, "GET", "/v1/memory/audit?cursor="+url.QueryEscape(first), b.Key, nil).Problem(t, 400, cairn.EINVALID)
		if r := ts.Do(t, "GET", "/v1/memory/audit", b.Key, nil).Must(t, 200); len(r.JSON["entries"].([]any)) != 1 {
			t.Fatalf("b sees %s", r.Body)
		}
	})
}
