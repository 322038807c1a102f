package api_test

import (
	"fmt"
	"net/url"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
)

func TestMemoryList(t *testing.T) {
	ts, a := memServer(t, 10000)
	b := ts.Register(t, "other")
	ts.Do(t, "POST", "/v1/memory", b.Key, map[string]any{"key": "b/only", "content": "x"}).Must(t, 201)
	var ids []string
	for i := 0; i < 12; i++ {
		body := map[string]any{"key": fmt.Sprintf("item/%02d", i), "content": "c", "importance": float64(i%4) / 4,
			"type": []string{"semantic", "episodic"}[i%2], "metadata": map[string]any{"visibility": []string{"private", "share"}[i%3%2]}}
		ids = append(ids, ts.Do(t, "POST", "/v1/memory", a.Key, body).Must(t, 201).Str("id"))
	}
	ts.Do(t, "PATCH", "/v1/memory/"+ids[0]+"/pin", a.Key, nil).Must(t, 200)
	ts.Do(t, "PUT", "/v1/memory/"+ids[1], a.Key, map[string]any{"content": "v2"}).Must(t, 200)
	list := func(t *testing.T, q url.Values) *apitest.Response {
		t.Helper()
		return ts.Do(t, "GET", "/v1/memory?"+q.Encode(), a.Key, nil).Must(t, 200)
	}
	keys := func(r *apitest.Response) []string {
		var out []string
		for _, m := range r.JSON["memories"].([]any) {
			out = append(out, m.(map[string]any)["key"].(string))
		}
		return out
	}
	t.Run("DefaultNewestFirstCharged", func(t *testing.T) {
		bal := ts.Balance(t, a.Key)
		r := list(t, url.Values{})
		if got := keys(r); len(got) != 12 || got[0] != "item/11" || got[11] != "item/00" || r.Num("limit") != 50 || r.JSON["hasMore"] != false {
			t.Fatalf("list: %v %s", got, r.Body)
		}
		if _, ok := r.JSON["total"]; ok {
			t.Fatal("total without offset")
		}
		ts.WantBalance(t, a, bal-1)
	})
	t.Run("Filters", func(t *testing.T) {
		for _, tc := range []struct {
			q    url.Values
			want int
		}{
			{url.Values{"type": {"episodic"}}, 6},
			{url.Values{"visibility": {"share"}}, 4},
			{url.Values{"pinned": {"true"}}, 1},
			{url.Values{"minImportance": {"0.5"}}, 6},
			{url.Values{"history": {"true"}}, 13},
			{url.Values{"type": {"semantic"}, "minImportance": {"0.75"}}, 0},
		} {
			if got := keys(list(t, tc.q)); len(got) != tc.want {
				t.Errorf("%v: %d items %v, want %d", tc.q, len(got), got, tc.want)
			}
		}
	})
	t.Run("Sorts", func(t *testing.T) {
		got := keys(list(t, url.Values{"sortBy": {"importance"}, "limit": {"3"}}))
		if len(got) != 3 || (got[0] != "item/11" && got[0] != "item/07" && got[0] != "item/03") {
			t.Fatalf("by importance: %v", got)
		}
		if got := keys(list(t, url.Values{"sortBy": {"updatedAt"}, "limit": {"2"}})); got[0] != "item/01" || got[1] != "item/00" {
			t.Fatalf("by updatedAt: %v", got)
		}
	})
	t.Run("OffsetWithTotal", func(t *testing.T) {
		r := list(t, url.Values{"offset": {"10"}, "limit": {"5"}})
		if got := keys(r); len(got) != 2 || r.Num("total") != 12 || r.JSON["hasMore"] != false || r.JSON["nextCursor"] != nil {
			t.Fatalf("offset page: %v %s", got, r.Body)
		}
	})
	t.Run("CursorWalkWhileWriting", func(t *testing.T) {
		seen := map[string]int{}
		q := url.Values{"limit": {"5"}}
		for n := 0; ; n++ {
			r := list(t, q)
			if _, ok := r.JSON["total"]; ok {
				t.Fatal("total with cursor pagination")
			}
			for _, k := range keys(r) {
				seen[k]++
			}
			ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": fmt.Sprintf("new/%d", n), "content": "x"}).Must(t, 201)
			if r.JSON["hasMore"] != true {
				break
			}
			q.Set("cursor", r.Str("nextCursor"))
		}
		for _, id := range []string{"item/00", "item/05", "item/11"} {
			if seen[id] != 1 {
				t.Fatalf("%s seen %d times: %v", id, seen[id], seen)
			}
		}
		if len(seen) != 12 {
			t.Fatalf("walk saw %d memories: %v", len(seen), seen)
		}
	})
	t.Run("ErrBadParams", func(t *testing.T) {
		bal := ts.Balance(t, a.Key)
		first := list(t, url.Values{"limit": {"2"}})
		cur := first.Str("nextCursor")
		for _, q := range []string{"limit=0", "limit=101", "sortBy=size", "visibility=public", "pinned=yes", "minImportance=2",
			"offset=-1", "cursor=garbage", "cursor=" + alterCursor(cur), "cursor=" + url.QueryEscape(cur) + "&type=semantic",
			"offset=1&cursor=" + url.QueryEscape(cur), "history=true&sortBy=importance"} {
			ts.Do(t, "GET", "/v1/memory?"+q, a.Key, nil).Problem(t, 400, cairn.EINVALID)
		}
		ts.Do(t, "GET", "/v1/memory?cursor="+url.QueryEscape(cur), b.Key, nil).Problem(t, 400, cairn.EINVALID)
		ts.WantBalance(t, a, bal-1)
	})
}
