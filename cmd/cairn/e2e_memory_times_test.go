package main

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestE2EMemoryTimes: a memory's createdAt is when its first version was
// written and updatedAt when its latest was, in every view, so that the
// list orders by createdAt and by updatedAt agree with what they show.
func TestE2EMemoryTimes(t *testing.T) {
	ts := startServer(t, testConfig(t, t.TempDir()))
	a := ts.register(t, "")
	first := ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "t/first", "content": "one"}).must(t, 201)
	time.Sleep(5 * time.Millisecond)
	ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "t/second", "content": "two"}).must(t, 201)
	time.Sleep(5 * time.Millisecond)
	upd := ts.do(t, "PUT", "/v1/memory/"+first.str("id"), a.Key, map[string]any{"content": "one, again"}, "If-Match", `"1"`).must(t, 200)
	if upd.str("createdAt") != first.str("createdAt") || upd.str("updatedAt") <= first.str("createdAt") {
		t.Fatalf("after an update: createdAt %s (was %s), updatedAt %s", upd.str("createdAt"), first.str("createdAt"), upd.str("updatedAt"))
	}
	for _, sortBy := range []string{"createdAt", "updatedAt"} {
		items := ts.do(t, "GET", "/v1/memory?sortBy="+sortBy, a.Key, nil).must(t, 200).JSON["memories"].([]any)
		var keys, shown []string
		for _, it := range items {
			m := it.(map[string]any)
			keys = append(keys, m["key"].(string))
			shown = append(shown, m[sortBy].(string))
			if m["key"] == "t/first" && (m["createdAt"] != first.str("createdAt") || m["updatedAt"] != upd.str("updatedAt")) {
				t.Fatalf("list item of t/first: %v", m)
			}
		}
		// Newest first: t/second was created last, t/first written last.
		want := map[string][]string{"createdAt": {"t/second", "t/first"}, "updatedAt": {"t/first", "t/second"}}[sortBy]
		if !slices.Equal(keys, want) || !slices.IsSortedFunc(shown, func(x, y string) int { return strings.Compare(y, x) }) {
			t.Fatalf("sortBy=%s lists %v showing %s %v; want %v, newest first", sortBy, keys, sortBy, shown, want)
		}
	}
}
