package api_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
)

// TestE2EPaginationOneCursor checks that every agent listing pages with
// the same cursor: bound to the principal and the filter it was minted
// for, refused with 400 (code invalid, field cursor) when replayed by
// another agent or with another filter, and the same limit rule.
func TestE2EPaginationOneCursor(t *testing.T) {
	ts := apitest.NewServer(t)
	a, b := ts.Register(t, "pager-a"), ts.Register(t, "pager-b")
	for _, k := range []string{"p1", "p2"} {
		ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": k, "content": "x", "type": "semantic"}).Must(t, 201)
		ts.Upload(t, a.Key, apitest.Part{Name: "file", Filename: k + ".png", ContentType: "image/png", Body: apitest.PNG}).Must(t, 201)
	}
	badCursor := func(t *testing.T, key, path string) {
		t.Helper()
		if r := ts.Do(t, "GET", path, key, nil).Problem(t, 400, cairn.EINVALID); r.Str("field") != "cursor" {
			t.Fatalf("GET %s: field %q, want cursor: %s", path, r.Str("field"), r.Body)
		}
	}
	for _, tc := range []struct {
		name, path, otherFilter string // otherFilter: "" when the listing has no filter
	}{
		{"Memory", "/v1/memory?type=semantic&limit=1", "/v1/memory?type=episodic&limit=1"},
		{"Audit", "/v1/memory/audit?limit=1", "/v1/memory/audit?action=write&limit=1"},
		{"Media", "/v1/media?category=photo&limit=1", "/v1/media?limit=1"},
		{"Ledger", "/v1/billing/transactions?limit=1", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := ts.Do(t, "GET", tc.path, a.Key, nil).Must(t, 200)
			cur := r.Str("nextCursor")
			if cur == "" || r.JSON["hasMore"] != true || r.Num("limit") != 1 {
				t.Fatalf("first page: %s", r.Body)
			}
			q := "&cursor=" + url.QueryEscape(cur)
			second := ts.Do(t, "GET", tc.path+q, a.Key, nil).Must(t, 200).Body
			if string(second) == string(r.Body) {
				t.Fatalf("the cursor did not move: %s", second)
			}
			badCursor(t, b.Key, tc.path+q) // another principal
			if tc.otherFilter != "" {
				badCursor(t, a.Key, tc.otherFilter+q)
			}
			badCursor(t, a.Key, tc.path+"&cursor="+url.QueryEscape(alterCursor(cur)))
			for _, limit := range []string{"0", "101", "x"} {
				if r := ts.Do(t, "GET", strings.TrimSuffix(tc.path, "1")+limit, a.Key, nil).Problem(t, 400, cairn.EINVALID); r.Str("field") != "limit" {
					t.Fatalf("limit=%s: field %q: %s", limit, r.Str("field"), r.Body)
				}
			}
		})
	}
}

// alterCursor changes the last two characters of a cursor (never to what
// they were: a cursor may already end in "AA").
func alterCursor(cur string) string {
	if strings.HasSuffix(cur, "AA") {
		return cur[:len(cur)-2] + "BB"
	}
	return cur[:len(cur)-2] + "AA"
}
