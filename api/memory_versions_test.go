package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
)

func TestMemoryVersions(t *testing.T) {
	ts := newMemServer(t)
	// plan gives a fresh agent the memory "plan" with the first n of the
	// versions "one", "two" and "three" (each PUT through the first
	// version's id) and returns the agent, the version ids and the balance.
	plan := func(t *testing.T, n int) (apitest.Agent, []string, int) {
		t.Helper()
		a := ts.NewAgent(t, 1000)
		ids := []string{ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "plan", "content": "one"}).Must(t, 201).Str("id")}
		for _, content := range []string{"two", "three"}[:n-1] {
			ids = append(ids, ts.Do(t, "PUT", "/v1/memory/"+ids[0], a.Key, map[string]any{"content": content}).Must(t, 200).Str("id"))
		}
		return a, ids, 1000 - 5*n
	}
	t.Run("PutMakesNextVersion", func(t *testing.T) {
		a, ids, bal := plan(t, 1)
		v1 := ids[0]
		r := ts.Do(t, "PUT", "/v1/memory/"+v1, a.Key, map[string]any{"content": "two", "importance": 0.9}, "If-Match", `"1"`).Must(t, 200)
		if r.Num("version") != 2 || r.JSON["isLatest"] != true || r.Str("blobName") != "memory/semantic/plan/v2" || r.Num("importance") != 0.9 || r.Header.Get("ETag") != `"2"` {
			t.Fatalf("put: %s", r.Body)
		}
		bal -= 5
		old := ts.Do(t, "GET", "/v1/memory/"+v1, a.Key, nil).Must(t, 200)
		if old.Str("content") != "one" || old.JSON["isLatest"] != false || old.Num("version") != 1 {
			t.Fatalf("v1 after put: %s", old.Body)
		}
		bal--
		ts.WantBalance(t, a, bal)
	})
	t.Run("ErrIfMatchStale", func(t *testing.T) {
		a, ids, bal := plan(t, 2)
		v1, v2 := ids[0], ids[1]
		ts.Do(t, "PUT", "/v1/memory/"+v2, a.Key, map[string]any{"content": "late"}, "If-Match", `"1"`).Problem(t, 412, cairn.EPRECONDITION)
		ts.Do(t, "PUT", "/v1/memory/"+v2, a.Key, map[string]any{"content": "x"}, "If-Match", "nope").Problem(t, 400, cairn.EINVALID)
		ts.Do(t, "PUT", "/v1/memory/"+v2, a.Key, map[string]any{"content": "x", "key": "other"}).Problem(t, 400, cairn.EINVALID)
		bal -= 5 // 412 is not refunded; 400s are
		ts.WantBalance(t, a, bal)
		// PUT through an old version's id still appends after the latest.
		r := ts.Do(t, "PUT", "/v1/memory/"+v1, a.Key, map[string]any{"content": "three"}).Must(t, 200)
		if r.Num("version") != 3 {
			t.Fatalf("put via v1: %s", r.Body)
		}
		ts.WantBalance(t, a, bal-5)
	})
	t.Run("History", func(t *testing.T) {
		a, ids, bal := plan(t, 3)
		v1, v2, v3 := ids[0], ids[1], ids[2]
		r := ts.Do(t, "GET", "/v1/memory/"+v2+"/history", a.Key, nil).Must(t, 200)
		vs, _ := r.JSON["versions"].([]any)
		if r.Num("totalVersions") != 3 || len(vs) != 3 || r.Str("key") != "plan" {
			t.Fatalf("history: %s", r.Body)
		}
		first := vs[0].(map[string]any)
		if first["id"] != v3 || first["isLatest"] != true || vs[2].(map[string]any)["id"] != v1 {
			t.Fatalf("history order: %s", r.Body)
		}
		ts.WantBalance(t, a, bal) // free
	})
	t.Run("DeleteNonLatestThenLatest", func(t *testing.T) {
		a, ids, bal := plan(t, 3)
		v1, v2, v3 := ids[0], ids[1], ids[2]
		r := ts.Do(t, "DELETE", "/v1/memory/"+v2, a.Key, nil).Must(t, 200)
		if r.JSON["memoryDeleted"] != false || r.Str("latestId") != v3 {
			t.Fatalf("delete v2: %s", r.Body)
		}
		ts.Do(t, "GET", "/v1/memory/"+v2, a.Key, nil).Problem(t, 404, cairn.ENOTFOUND)
		r = ts.Do(t, "DELETE", "/v1/memory/"+v3, a.Key, nil).Must(t, 200)
		if r.Str("latestId") != v1 || r.Num("latestVersion") != 1 {
			t.Fatalf("delete v3: %s", r.Body)
		}
		if g := ts.Do(t, "GET", "/v1/memory/"+v1, a.Key, nil).Must(t, 200); g.JSON["isLatest"] != true || g.Str("content") != "one" {
			t.Fatalf("v1 is not latest again: %s", g.Body)
		}
		r = ts.Do(t, "DELETE", "/v1/memory/"+v1, a.Key, nil).Must(t, 200)
		if r.JSON["memoryDeleted"] != true {
			t.Fatalf("delete v1: %s", r.Body)
		}
		ts.Do(t, "GET", "/v1/memory/"+v1+"/history", a.Key, nil).Problem(t, 404, cairn.ENOTFOUND)
		ts.Do(t, "DELETE", "/v1/memory/"+v1, a.Key, nil).Problem(t, 404, cairn.ENOTFOUND)
		bal -= 1 + 2 + 1 + 2 + 2 + 2 // get 404, delete, get, delete, delete, delete 404
		ts.WantBalance(t, a, bal)
		// The key is free again; the blob of v1 was removed with it.
		if _, err := ts.Blobs.Stat(t.Context(), "agents/"+a.ID+"/v/"+v1); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("blob after delete: %v", err)
		}
		ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "plan", "content": "fresh"}).Must(t, 201)
	})
	t.Run("PinAndImportanceFree", func(t *testing.T) {
		a := ts.NewAgent(t, 1000)
		id := ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "pin/me", "content": "x"}).Must(t, 201).Str("id")
		bal := ts.Balance(t, a.Key)
		if r := ts.Do(t, "PATCH", "/v1/memory/"+id+"/pin", a.Key, nil).Must(t, 200); r.JSON["pinned"] != true {
			t.Fatalf("pin: %s", r.Body)
		}
		if r := ts.Do(t, "PATCH", "/v1/memory/"+id+"/pin", a.Key, nil).Must(t, 200); r.JSON["pinned"] != false {
			t.Fatalf("unpin: %s", r.Body)
		}
		if r := ts.Do(t, "PATCH", "/v1/memory/"+id+"/importance", a.Key, map[string]any{"importance": 0.25}).Must(t, 200); r.Num("importance") != 0.25 {
			t.Fatalf("importance: %s", r.Body)
		}
		for _, body := range []any{map[string]any{"importance": 1.01}, map[string]any{"importance": -0.1}, map[string]any{}} {
			ts.Do(t, "PATCH", "/v1/memory/"+id+"/importance", a.Key, body).Problem(t, 400, cairn.EINVALID)
		}
		ts.WantBalance(t, a, bal)
	})
}

// TestMemoryIfMatchForms: If-Match follows RFC 9110 13.1.1: "*" matches
// any existing memory, a list matches when one of its tags does, a weak
// tag never matches (strong comparison), a tag that is not the latest
// version is 412 (charged), and a malformed header is 400 (refunded).
func TestMemoryIfMatchForms(t *testing.T) {
	ts, a := memServer(t, 1000)
	id := ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "etag/probe", "content": "v1"}).Must(t, 201).Str("id")
	latest := 1
	bal := ts.Balance(t, a.Key)
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
		r := ts.Do(t, "PUT", "/v1/memory/"+id, a.Key, map[string]any{"content": "next"}, "If-Match", tc.ifMatch)
		bal -= conditional(t, r, tc.status, 5)
		if tc.status == 200 {
			latest++
			if r.Num("version") != float64(latest) || r.Header.Get("ETag") != fmt.Sprintf(`"%d"`, latest) {
				t.Fatalf("If-Match %s: %s", tc.ifMatch, r.Body)
			}
		}
		ts.WantBalance(t, a, bal)
	}
	// "*" on a memory that does not exist is still 404.
	ts.Do(t, "PUT", "/v1/memory/"+cairn.NewID(), a.Key, map[string]any{"content": "x"}, "If-Match", "*").Problem(t, 404, cairn.ENOTFOUND)
	// Several If-Match lines are one list (RFC 9110 5.3).
	put := func(lines ...string) *apitest.Response {
		req, _ := http.NewRequest("PUT", ts.URL+"/v1/memory/"+id, strings.NewReader(`{"content":"lines"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+a.Key)
		for _, l := range lines {
			req.Header.Add("If-Match", l)
		}
		return ts.Send(t, req)
	}
	if r := put(`"1"`, fmt.Sprintf(`"%d"`, latest)).Must(t, 200); r.Num("version") != float64(latest+1) {
		t.Fatalf("two If-Match lines: %s", r.Body)
	}
	put(fmt.Sprintf(`"%d"`, latest+1), `nope`).Problem(t, 400, cairn.EINVALID)
}

// TestMemoryCustomBlobNamesNeverShared: custom blob names of two versions
// of one memory can spell the same name (x_v1 + "1" and x_v11 + ""); the
// later write must not overwrite the earlier version's blob.
func TestMemoryCustomBlobNamesNeverShared(t *testing.T) {
	ts, a := memServer(t, 1000)
	id := ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "names", "content": "first", "blobFilename": "x", "blobExtension": "1"}).Must(t, 201)
	if id.Str("blobName") != "memory/semantic/names/x_v11" {
		t.Fatalf("v1: %s", id.Body)
	}
	for i := 2; i <= 10; i++ {
		ts.Do(t, "PUT", "/v1/memory/"+id.Str("id"), a.Key, map[string]any{"content": fmt.Sprint("v", i)}).Must(t, 200)
	}
	bal := ts.Balance(t, a.Key)
	ts.Do(t, "PUT", "/v1/memory/"+id.Str("id"), a.Key, map[string]any{"content": "eleventh", "blobFilename": "x"}).Problem(t, 409, cairn.ECONFLICT)
	ts.WantBalance(t, a, bal-5)
	if g := ts.Do(t, "GET", "/v1/memory/"+id.Str("id"), a.Key, nil).Must(t, 200); g.Str("content") != "first" {
		t.Fatalf("v1 after v11: %s", g.Body)
	}
	if r := ts.Do(t, "PUT", "/v1/memory/"+id.Str("id"), a.Key, map[string]any{"content": "eleventh"}).Must(t, 200); r.Num("version") != 11 {
		t.Fatalf("v11: %s", r.Body)
	}
}

// TestMemoryPutRoundTrip: a client may PUT back the record it read, with
// new content: type and key at their current values are no change, so
// only a different type or key is 400 (refunded).
func TestMemoryPutRoundTrip(t *testing.T) {
	ts, a := memServer(t, 1000)
	id := ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"type": "episodic", "key": "trip/day1", "content": "left home",
		"metadata": map[string]any{"tags": []string{"trip"}}}).Must(t, 201).Str("id")
	rec := ts.Do(t, "GET", "/v1/memory/"+id, a.Key, nil).Must(t, 200).JSON
	rec["content"] = "left home early"
	r := ts.Do(t, "PUT", "/v1/memory/"+id, a.Key, rec, "If-Match", `"1"`).Must(t, 200)
	if r.Num("version") != 2 || r.Str("key") != "trip/day1" || r.Str("type") != "episodic" {
		t.Fatalf("round trip: %s", r.Body)
	}
	bal := ts.Balance(t, a.Key)
	for _, change := range []map[string]any{{"key": "trip/day2"}, {"type": "semantic"}, {"key": "trip/day1", "type": "file"}} {
		body := map[string]any{"content": "x"}
		for k, v := range change {
			body[k] = v
		}
		ts.Do(t, "PUT", "/v1/memory/"+id, a.Key, body).Problem(t, 400, cairn.EINVALID)
	}
	ts.WantBalance(t, a, bal)
	ts.Do(t, "PUT", "/v1/memory/"+cairn.NewID(), a.Key, map[string]any{"content": "x", "key": "trip/day1"}).Problem(t, 404, cairn.ENOTFOUND)
}

// TestMemorySharingScreensStoredVersions: visibility belongs to the memory,
// so a PUT that makes a private memory shared makes every stored version
// shared content; one holding credentials makes it 422 (refunded), as a
// shared write with them would be.
func TestMemorySharingScreensStoredVersions(t *testing.T) {
	ts, a := memServer(t, 1000)
	id := ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "creds/later", "content": "aws AKIAZ3MSJV4WTGKEX7PQ"}).Must(t, 201).Str("id")
	bal := ts.Balance(t, a.Key)
	share := map[string]any{"content": "nothing secret here", "metadata": map[string]any{"visibility": "share"}}
	r := ts.Do(t, "PUT", "/v1/memory/"+id, a.Key, share).Problem(t, 422, cairn.EUNPROCESSABLE)
	if strings.Contains(string(r.Body), "AKIA") || r.Num("version") != 1 {
		t.Fatalf("422: %s", r.Body)
	}
	ts.WantBalance(t, a, bal)
	if g := ts.Do(t, "GET", "/v1/memory/"+id, a.Key, nil).Must(t, 200); g.JSON["visibility"] != "private" || g.Num("version") != 1 {
		t.Fatalf("memory after the refused share: %s", g.Body)
	}
	// Private versions stay allowed; once the one with credentials is gone
	// the memory may be shared.
	v2 := ts.Do(t, "PUT", "/v1/memory/"+id, a.Key, map[string]any{"content": "clean"}).Must(t, 200).Str("id")
	ts.Do(t, "DELETE", "/v1/memory/"+id, a.Key, nil).Must(t, 200)
	if r := ts.Do(t, "PUT", "/v1/memory/"+v2, a.Key, share).Must(t, 200); r.JSON["visibility"] != "share" {
		t.Fatalf("share after delete: %s", r.Body)
	}
	// Encrypted versions are not screened.
	e := ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "creds/sealed", "content": "AKIAZ3MSJV4WTGKEX7PQ", "encryptionProvider": "aes-256-gcm"}).Must(t, 201).Str("id")
	ts.Do(t, "PUT", "/v1/memory/"+e, a.Key, share).Must(t, 200)
}

// TestMemoryDeleteIfMatch: RFC 9110 says a server evaluates If-Match before
// the method, so a DELETE guarded by a stale version number must not
// delete: 412 (charged), as on PUT; a matching one deletes; a malformed
// one is 400 (refunded).
func TestMemoryDeleteIfMatch(t *testing.T) {
	ts, a := memServer(t, 1000)
	v1 := ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "guarded", "content": "one"}).Must(t, 201).Str("id")
	v2 := ts.Do(t, "PUT", "/v1/memory/"+v1, a.Key, map[string]any{"content": "two"}).Must(t, 200).Str("id")
	bal := ts.Balance(t, a.Key)
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
		r := ts.Do(t, "DELETE", "/v1/memory/"+tc.id, a.Key, nil, "If-Match", tc.ifMatch)
		bal -= conditional(t, r, tc.status, 2)
		ts.WantBalance(t, a, bal)
		if tc.status != 200 {
			if g := ts.Do(t, "GET", "/v1/memory/"+tc.id, a.Key, nil).Must(t, 200); g.Str("id") != tc.id {
				t.Fatalf("a refused delete removed %s: %s", tc.id, g.Body)
			}
			bal--
		}
	}
	ts.Do(t, "GET", "/v1/memory/"+v2, a.Key, nil).Problem(t, 404, cairn.ENOTFOUND)
}

// TestMemoryPutMetadataMembers: the members of metadata change one by one
// on PUT: an absent (or null) tags keeps the tags, as an absent visibility
// keeps the visibility; an empty list clears them.
func TestMemoryPutMetadataMembers(t *testing.T) {
	ts, a := memServer(t, 1000)
	id := ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "meta/members", "content": "x",
		"metadata": map[string]any{"tags": []string{"a", "b"}}}).Must(t, 201).Str("id")
	meta := func(r *apitest.Response) (string, string) {
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
		r := ts.Do(t, "PUT", "/v1/memory/"+id, a.Key, tc.body).Must(t, 200)
		if tags, vis := meta(r); tags != tc.tags || vis != tc.visibility {
			t.Fatalf("PUT %s: tags %s visibility %s, want %s %s", tc.body, tags, vis, tc.tags, tc.visibility)
		}
	}
	if c := ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "meta/none", "content": "x", "metadata": map[string]any{"visibility": "share"}}).Must(t, 201); fmt.Sprint(c.JSON["metadata"].(map[string]any)["tags"]) != "[]" {
		t.Fatalf("create without tags: %s", c.Body)
	}
}

// conditional checks the answer r of a conditional write that should have
// status 200, 412 (both charged cost) or else 400 (refunded), and returns
// the credits it cost.
func conditional(t *testing.T, r *apitest.Response, status, cost int) int {
	t.Helper()
	switch status {
	case 200:
		r.Must(t, 200)
	case 412:
		r.Problem(t, 412, cairn.EPRECONDITION)
	default:
		r.Problem(t, 400, cairn.EINVALID)
		return 0
	}
	return cost
}
