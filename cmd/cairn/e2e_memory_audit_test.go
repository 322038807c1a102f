package main

import (
	"net/url"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
)

func TestMemoryAudit(t *testing.T) {
	ts, a := memServer(t, 1000)
	b := ts.register(t, "other")
	id := ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "k", "content": "x"}).must(t, 201).str("id")
	ts.do(t, "GET", "/v1/memory/"+id, a.Key, nil).must(t, 200)
	ts.do(t, "PUT", "/v1/memory/"+id, a.Key, map[string]any{"content": "y"}).must(t, 200)
	ts.do(t, "GET", "/v1/memory", a.Key, nil).must(t, 200)
	ts.do(t, "POST", "/v1/memory/search", a.Key, map[string]any{"query": "k"}).must(t, 200)
	ts.do(t, "PATCH", "/v1/memory/"+id+"/pin", a.Key, nil).must(t, 200)
	ts.do(t, "PATCH", "/v1/memory/"+id+"/importance", a.Key, map[string]any{"importance": 0.1}).must(t, 200)
	ts.memUpload(t, a.Key, map[string]string{"type": "file", "key": "f"}, "f.txt", []byte("hello")).must(t, 201)
	ts.do(t, "DELETE", "/v1/memory/"+id, a.Key, nil).must(t, 200)
	newKey := ts.do(t, "POST", "/v1/agents/self/rotate-key", a.Key, map[string]any{"rotationSecret": a.Secret}).must(t, 200).str("apiKey")
	ts.do(t, "GET", "/v1/memory/"+id, b.Key, nil).problem(t, 404, cairn.ENOTFOUND) // nothing in a's log
	bal := ts.balance(t, newKey)
	t.Run("WalkAllFree", func(t *testing.T) {
		var actions []string
		q := url.Values{"limit": {"3"}}
		for {
			r := ts.do(t, "GET", "/v1/memory/audit?"+q.Encode(), newKey, nil).must(t, 200)
			for _, e := range r.JSON["entries"].([]any) {
				actions = append(actions, e.(map[string]any)["action"].(string))
			}
			if r.JSON["hasMore"] != true {
				break
			}
			q.Set("cursor", r.str("nextCursor"))
		}
		want := "rotate_key delete upload importance pin search list write read write"
		if got := strings.Join(actions, " "); !strings.HasPrefix(got, want) {
			t.Fatalf("actions %q, want prefix %q", got, want)
		}
		if ts.balance(t, newKey) != bal {
			t.Fatal("audit reads are charged")
		}
	})
	t.Run("FilterAndErrors", func(t *testing.T) {
		r := ts.do(t, "GET", "/v1/memory/audit?action=pin", newKey, nil).must(t, 200)
		es := r.JSON["entries"].([]any)
		if len(es) != 1 || es[0].(map[string]any)["resource"] != id {
			t.Fatalf("pin entries: %s", r.Body)
		}
		ts.do(t, "GET", "/v1/memory/audit?action=dance", newKey, nil).problem(t, 400, cairn.EINVALID)
		ts.do(t, "GET", "/v1/memory/audit?cursor=abc", newKey, nil).problem(t, 400, cairn.EINVALID)
		first := ts.do(t, "GET", "/v1/memory/audit?limit=1", newKey, nil).must(t, 200).str("nextCursor")
		ts.do(t, "GET", "/v1/memory/audit?cursor="+url.QueryEscape(first), b.Key, nil).problem(t, 400, cairn.EINVALID)
		if r := ts.do(t, "GET", "/v1/memory/audit", b.Key, nil).must(t, 200); len(r.JSON["entries"].([]any)) != 1 {
			t.Fatalf("b sees %s", r.Body)
		}
	})
}
