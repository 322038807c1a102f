package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
)

func TestMemoryVersions(t *testing.T) {
	ts := startMemServer(t)
	// plan gives a fresh agent the memory "plan" with the first n of the
	// versions "one", "two" and "three" (each PUT through the first
	// version's id) and returns the agent, the version ids and the balance.
	plan := func(t *testing.T, n int) (agent, []string, int) {
		t.Helper()
		a := ts.newAgent(t, 1000)
		ids := []string{ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "plan", "content": "one"}).must(t, 201).str("id")}
		for _, content := range []string{"two", "three"}[:n-1] {
			ids = append(ids, ts.do(t, "PUT", "/v1/memory/"+ids[0], a.Key, map[string]any{"content": content}).must(t, 200).str("id"))
		}
		return a, ids, 1000 - 5*n
	}
	t.Run("PutMakesNextVersion", func(t *testing.T) {
		a, ids, bal := plan(t, 1)
		v1 := ids[0]
		r := ts.do(t, "PUT", "/v1/memory/"+v1, a.Key, map[string]any{"content": "two", "importance": 0.9}, "If-Match", `"1"`).must(t, 200)
		if r.num("version") != 2 || r.JSON["isLatest"] != true || r.str("blobName") != "memory/semantic/plan/v2" || r.num("importance") != 0.9 || r.Header.Get("ETag") != `"2"` {
			t.Fatalf("put: %s", r.Body)
		}
		bal -= 5
		old := ts.do(t, "GET", "/v1/memory/"+v1, a.Key, nil).must(t, 200)
		if old.str("content") != "one" || old.JSON["isLatest"] != false || old.num("version") != 1 {
			t.Fatalf("v1 after put: %s", old.Body)
		}
		bal--
		ts.wantBalance(t, a, bal)
	})
	t.Run("ErrIfMatchStale", func(t *testing.T) {
		a, ids, bal := plan(t, 2)
		v1, v2 := ids[0], ids[1]
		ts.do(t, "PUT", "/v1/memory/"+v2, a.Key, map[string]any{"content": "late"}, "If-Match", `"1"`).problem(t, 412, cairn.EPRECONDITION)
		ts.do(t, "PUT", "/v1/memory/"+v2, a.Key, map[string]any{"content": "x"}, "If-Match", "nope").problem(t, 400, cairn.EINVALID)
		ts.do(t, "PUT", "/v1/memory/"+v2, a.Key, map[string]any{"content": "x", "key": "other"}).problem(t, 400, cairn.EINVALID)
		bal -= 5 // 412 is not refunded; 400s are
		ts.wantBalance(t, a, bal)
		// PUT through an old version's id still appends after the latest.
		r := ts.do(t, "PUT", "/v1/memory/"+v1, a.Key, map[string]any{"content": "three"}).must(t, 200)
		if r.num("version") != 3 {
			t.Fatalf("put via v1: %s", r.Body)
		}
		ts.wantBalance(t, a, bal-5)
	})
	t.Run("History", func(t *testing.T) {
		a, ids, bal := plan(t, 3)
		v1, v2, v3 := ids[0], ids[1], ids[2]
		r := ts.do(t, "GET", "/v1/memory/"+v2+"/history", a.Key, nil).must(t, 200)
		vs, _ := r.JSON["versions"].([]any)
		if r.num("totalVersions") != 3 || len(vs) != 3 || r.str("key") != "plan" {
			t.Fatalf("history: %s", r.Body)
		}
		first := vs[0].(map[string]any)
		if first["id"] != v3 || first["isLatest"] != true || vs[2].(map[string]any)["id"] != v1 {
			t.Fatalf("history order: %s", r.Body)
		}
		ts.wantBalance(t, a, bal) // free
	})
	t.Run("DeleteNonLatestThenLatest", func(t *testing.T) {
		a, ids, bal := plan(t, 3)
		v1, v2, v3 := ids[0], ids[1], ids[2]
		r := ts.do(t, "DELETE", "/v1/memory/"+v2, a.Key, nil).must(t, 200)
		if r.JSON["memoryDeleted"] != false || r.str("latestId") != v3 {
			t.Fatalf("delete v2: %s", r.Body)
		}
		ts.do(t, "GET", "/v1/memory/"+v2, a.Key, nil).problem(t, 404, cairn.ENOTFOUND)
		r = ts.do(t, "DELETE", "/v1/memory/"+v3, a.Key, nil).must(t, 200)
		if r.str("latestId") != v1 || r.num("latestVersion") != 1 {
			t.Fatalf("delete v3: %s", r.Body)
		}
		if g := ts.do(t, "GET", "/v1/memory/"+v1, a.Key, nil).must(t, 200); g.JSON["isLatest"] != true || g.str("content") != "one" {
			t.Fatalf("v1 is not latest again: %s", g.Body)
		}
		r = ts.do(t, "DELETE", "/v1/memory/"+v1, a.Key, nil).must(t, 200)
		if r.JSON["memoryDeleted"] != true {
			t.Fatalf("delete v1: %s", r.Body)
		}
		ts.do(t, "GET", "/v1/memory/"+v1+"/history", a.Key, nil).problem(t, 404, cairn.ENOTFOUND)
		ts.do(t, "DELETE", "/v1/memory/"+v1, a.Key, nil).problem(t, 404, cairn.ENOTFOUND)
		bal -= 1 + 2 + 1 + 2 + 2 + 2 // get 404, delete, get, delete, delete, delete 404
		ts.wantBalance(t, a, bal)
		// The key is free again; the blob of v1 was removed with it.
		if _, err := ts.m.blobs.Stat(t.Context(), "agents/"+a.ID+"/v/"+v1); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("blob after delete: %v", err)
		}
		ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "plan", "content": "fresh"}).must(t, 201)
	})
	t.Run("PinAndImportanceFree", func(t *testing.T) {
		a := ts.newAgent(t, 1000)
		id := ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "pin/me", "content": "x"}).must(t, 201).str("id")
		bal := ts.balance(t, a.Key)
		if r := ts.do(t, "PATCH", "/v1/memory/"+id+"/pin", a.Key, nil).must(t, 200); r.JSON["pinned"] != true {
			t.Fatalf("pin: %s", r.Body)
		}
		if r := ts.do(t, "PATCH", "/v1/memory/"+id+"/pin", a.Key, nil).must(t, 200); r.JSON["pinned"] != false {
			t.Fatalf("unpin: %s", r.Body)
		}
		if r := ts.do(t, "PATCH", "/v1/memory/"+id+"/importance", a.Key, map[string]any{"importance": 0.25}).must(t, 200); r.num("importance") != 0.25 {
			t.Fatalf("importance: %s", r.Body)
		}
		for _, body := range []any{map[string]any{"importance": 1.01}, map[string]any{"importance": -0.1}, map[string]any{}} {
			ts.do(t, "PATCH", "/v1/memory/"+id+"/importance", a.Key, body).problem(t, 400, cairn.EINVALID)
		}
		ts.wantBalance(t, a, bal)
	})
}

// TestMemoryIfMatchForms: If-Match follows RFC 9110 13.1.1: "*" matches
// any existing memory, a list matches when one of its tags does, a weak
// tag never matches (strong comparison), a tag that is not the latest
// version is 412 (charged), and a malformed header is 400 (refunded).
func TestMemoryIfMatchForms(t *testing.T) {
	ts, a := memServer(t, 1000)
	id := ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "etag/probe", "content": "v1"}).must(t, 201).str("id")
	latest := 1
	bal := ts.balance(t, a.Key)
	for _, tc := range []struct {
		ifMatch string
		status  int
	}{
		{`*`, 200},
		{`"1", "2"`, 200}, // latest is 2 now: "2" matches
		{`"1", "3"`, 200},
		{`"1","2"`, 412},
		{`W/"4"`, 412},
		{`W/"4", "4"`, 200},
		{`"5"`, 200},
		{`"0"`, 412},
		{`"x"`, 412}, // a well-formed tag that is not ours never matches
		{`"-1"`, 412},
		{`"99999999999999999999"`, 412},
		{`, "6"`, 200}, // empty list elements are allowed
		{`7`, 200},     // a bare number is taken as its quoted tag
		{`"8", nope`, 400},
		{`"8" "9"`, 400},
		{`W/`, 400},
		{`"8`, 400},
		{`nope`, 400},
		{``, 200}, // an empty header is no condition
	} {
		r := ts.do(t, "PUT", "/v1/memory/"+id, a.Key, map[string]any{"content": "next"}, "If-Match", tc.ifMatch)
		switch tc.status {
		case 200:
			latest++
			r.must(t, 200)
			if r.num("version") != float64(latest) || r.Header.Get("ETag") != fmt.Sprintf(`"%d"`, latest) {
				t.Fatalf("If-Match %s: %s", tc.ifMatch, r.Body)
			}
			bal -= 5
		case 412:
			r.problem(t, 412, cairn.EPRECONDITION)
			bal -= 5
		default:
			r.problem(t, 400, cairn.EINVALID)
		}
		ts.wantBalance(t, a, bal)
	}
	// "*" on a memory that does not exist is still 404.
	ts.do(t, "PUT", "/v1/memory/"+cairn.NewID(), a.Key, map[string]any{"content": "x"}, "If-Match", "*").problem(t, 404, cairn.ENOTFOUND)
	// Several If-Match lines are one list (RFC 9110 5.3).
	put := func(lines ...string) *response {
		req, _ := http.NewRequest("PUT", ts.base+"/v1/memory/"+id, strings.NewReader(`{"content":"lines"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+a.Key)
		for _, l := range lines {
			req.Header.Add("If-Match", l)
		}
		return ts.send(t, req)
	}
	if r := put(`"1"`, fmt.Sprintf(`"%d"`, latest)).must(t, 200); r.num("version") != float64(latest+1) {
		t.Fatalf("two If-Match lines: %s", r.Body)
	}
	put(fmt.Sprintf(`"%d"`, latest+1), `nope`).problem(t, 400, cairn.EINVALID)
}

// TestMemoryCustomBlobNamesNeverShared: custom blob names of two versions
// of one memory can spell the same name (x_v1 + "1" and x_v11 + ""); the
// later write must not overwrite the earlier version's blob.
func TestMemoryCustomBlobNamesNeverShared(t *testing.T) {
	ts, a := memServer(t, 1000)
	id := ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "names", "content": "first", "blobFilename": "x", "blobExtension": "1"}).must(t, 201)
	if id.str("blobName") != "memory/semantic/names/x_v11" {
		t.Fatalf("v1: %s", id.Body)
	}
	for i := 2; i <= 10; i++ {
		ts.do(t, "PUT", "/v1/memory/"+id.str("id"), a.Key, map[string]any{"content": fmt.Sprint("v", i)}).must(t, 200)
	}
	bal := ts.balance(t, a.Key)
	ts.do(t, "PUT", "/v1/memory/"+id.str("id"), a.Key, map[string]any{"content": "eleventh", "blobFilename": "x"}).problem(t, 409, cairn.ECONFLICT)
	ts.wantBalance(t, a, bal-5)
	if g := ts.do(t, "GET", "/v1/memory/"+id.str("id"), a.Key, nil).must(t, 200); g.str("content") != "first" {
		t.Fatalf("v1 after v11: %s", g.Body)
	}
	if r := ts.do(t, "PUT", "/v1/memory/"+id.str("id"), a.Key, map[string]any{"content": "eleventh"}).must(t, 200); r.num("version") != 11 {
		t.Fatalf("v11: %s", r.Body)
	}
}

// TestMemoryPutRoundTrip: a client may PUT back the record it read, with
// new content: type and key at their current values are no change, so
// only a different type or key is 400 (refunded).
func TestMemoryPutRoundTrip(t *testing.T) {
	ts, a := memServer(t, 1000)
	id := ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"type": "episodic", "key": "trip/day1", "content": "left home",
		"metadata": map[string]any{"tags": []string{"trip"}}}).must(t, 201).str("id")
	rec := ts.do(t, "GET", "/v1/memory/"+id, a.Key, nil).must(t, 200).JSON
	rec["content"] = "left home early"
	r := ts.do(t, "PUT", "/v1/memory/"+id, a.Key, rec, "If-Match", `"1"`).must(t, 200)
	if r.num("version") != 2 || r.str("key") != "trip/day1" || r.str("type") != "episodic" {
		t.Fatalf("round trip: %s", r.Body)
	}
	bal := ts.balance(t, a.Key)
	for _, change := range []map[string]any{{"key": "trip/day2"}, {"type": "semantic"}, {"key": "trip/day1", "type": "file"}} {
		body := map[string]any{"content": "x"}
		for k, v := range change {
			body[k] = v
		}
		ts.do(t, "PUT", "/v1/memory/"+id, a.Key, body).problem(t, 400, cairn.EINVALID)
	}
	ts.wantBalance(t, a, bal)
	ts.do(t, "PUT", "/v1/memory/"+cairn.NewID(), a.Key, map[string]any{"content": "x", "key": "trip/day1"}).problem(t, 404, cairn.ENOTFOUND)
}

// TestMemorySharingScreensStoredVersions: visibility belongs to the memory,
// so a PUT that makes a private memory shared makes every stored version
// shared content; one holding credentials makes it 422 (refunded), as a
// shared write with them would be.
func TestMemorySharingScreensStoredVersions(t *testing.T) {
	ts, a := memServer(t, 1000)
	id := ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "creds/later", "content": "aws AKIAZ3MSJV4WTGKEX7PQ"}).must(t, 201).str("id")
	bal := ts.balance(t, a.Key)
	share := map[string]any{"content": "nothing secret here", "metadata": map[string]any{"visibility": "share"}}
	r := ts.do(t, "PUT", "/v1/memory/"+id, a.Key, share).problem(t, 422, cairn.EUNPROCESSABLE)
	if strings.Contains(string(r.Body), "AKIA") || r.num("version") != 1 {
		t.Fatalf("422: %s", r.Body)
	}
	ts.wantBalance(t, a, bal)
	if g := ts.do(t, "GET", "/v1/memory/"+id, a.Key, nil).must(t, 200); g.JSON["visibility"] != "private" || g.num("version") != 1 {
		t.Fatalf("memory after the refused share: %s", g.Body)
	}
	// Private versions stay allowed; once the one with credentials is gone
	// the memory may be shared.
	v2 := ts.do(t, "PUT", "/v1/memory/"+id, a.Key, map[string]any{"content": "clean"}).must(t, 200).str("id")
	ts.do(t, "DELETE", "/v1/memory/"+id, a.Key, nil).must(t, 200)
	if r := ts.do(t, "PUT", "/v1/memory/"+v2, a.Key, share).must(t, 200); r.JSON["visibility"] != "share" {
		t.Fatalf("share after delete: %s", r.Body)
	}
	// Encrypted versions are not screened.
	e := ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "creds/sealed", "content": "AKIAZ3MSJV4WTGKEX7PQ", "encryptionProvider": "aes-256-gcm"}).must(t, 201).str("id")
	ts.do(t, "PUT", "/v1/memory/"+e, a.Key, share).must(t, 200)
}

// TestMemoryDeleteIfMatch: RFC 9110 says a server evaluates If-Match before
// the method, so a DELETE guarded by a stale version number must not
// delete: 412 (charged), as on PUT; a matching one deletes; a malformed
// one is 400 (refunded).
func TestMemoryDeleteIfMatch(t *testing.T) {
	ts, a := memServer(t, 1000)
	v1 := ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "guarded", "content": "one"}).must(t, 201).str("id")
	v2 := ts.do(t, "PUT", "/v1/memory/"+v1, a.Key, map[string]any{"content": "two"}).must(t, 200).str("id")
	bal := ts.balance(t, a.Key)
	for _, tc := range []struct {
		id, ifMatch string
		status      int
	}{
		{v2, `"1"`, 412},
		{v1, `W/"2"`, 412},
		{v2, `"x`, 400},
		{v1, `"3", "2"`, 200}, // deletes v1; v2 stays the latest
		{v2, `*`, 200},
	} {
		r := ts.do(t, "DELETE", "/v1/memory/"+tc.id, a.Key, nil, "If-Match", tc.ifMatch)
		switch tc.status {
		case 200:
			r.must(t, 200)
			bal -= 2
		case 412:
			r.problem(t, 412, cairn.EPRECONDITION)
			bal -= 2
		default:
			r.problem(t, 400, cairn.EINVALID)
		}
		ts.wantBalance(t, a, bal)
		if tc.status != 200 {
			if g := ts.do(t, "GET", "/v1/memory/"+tc.id, a.Key, nil).must(t, 200); g.str("id") != tc.id {
				t.Fatalf("a refused delete removed %s: %s", tc.id, g.Body)
			}
			bal--
		}
	}
	ts.do(t, "GET", "/v1/memory/"+v2, a.Key, nil).problem(t, 404, cairn.ENOTFOUND)
}

// TestMemoryPutMetadataMembers: the members of metadata change one by one
// on PUT: an absent (or null) tags keeps the tags, as an absent visibility
// keeps the visibility; an empty list clears them.
func TestMemoryPutMetadataMembers(t *testing.T) {
	ts, a := memServer(t, 1000)
	id := ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "meta/members", "content": "x",
		"metadata": map[string]any{"tags": []string{"a", "b"}}}).must(t, 201).str("id")
	meta := func(r *response) (string, string) {
		md := r.JSON["metadata"].(map[string]any)
		return fmt.Sprint(md["tags"]), md["visibility"].(string)
	}
	for _, tc := range []struct {
		body             string
		tags, visibility string
	}{
		{`{"content":"y","metadata":{"visibility":"share"}}`, "[a b]", "share"},
		{`{"content":"y","metadata":{"tags":null}}`, "[a b]", "share"},
		{`{"content":"y","metadata":{"tags":["c"]}}`, "[c]", "share"},
		{`{"content":"y","metadata":{}}`, "[c]", "share"},
		{`{"content":"y","metadata":{"tags":[],"visibility":"private"}}`, "[]", "private"},
	} {
		r := ts.do(t, "PUT", "/v1/memory/"+id, a.Key, tc.body).must(t, 200)
		if tags, vis := meta(r); tags != tc.tags || vis != tc.visibility {
			t.Fatalf("PUT %s: tags %s visibility %s, want %s %s", tc.body, tags, vis, tc.tags, tc.visibility)
		}
	}
	if c := ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "meta/none", "content": "x", "metadata": map[string]any{"visibility": "share"}}).must(t, 201); fmt.Sprint(c.JSON["metadata"].(map[string]any)["tags"]) != "[]" {
		t.Fatalf("create without tags: %s", c.Body)
	}
}
