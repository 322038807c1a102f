package api_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/api/apitest"
)

// TestE2EMemoryTimes: a memory's createdAt is when its first version was
// written and updatedAt when its latest was, in every view, so that the
// list orders by createdAt and by updatedAt agree with what they show.
func TestE2EMemoryTimes(t *testing.T) {
	ts := apitest.NewServer(t)
	a := ts.Register(t, "")
	first := ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "t/first", "content": "one"}).Must(t, 201)
	time.Sleep(5 * time.Millisecond)
	ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "t/second", "content": "two"}).Must(t, 201)
	time.Sleep(5 * time.Millisecond)
	upd := ts.Do(t, "PUT", "/v1/memory/"+first.Str("id"), a.Key, map[string]any{"content": "one, again"}, "If-Match", `"1"`).Must(t, 200)
	if upd.Str("createdAt") != first.Str("createdAt") || upd.Str("updatedAt") <= first.Str("createdAt") {
		t.Fatalf("after an update: createdAt %s (was %s), updatedAt %s", upd.Str("createdAt"), first.Str("createdAt"), upd.Str("updatedAt"))
	}
	for _, sortBy := range []string{"createdAt", "updatedAt"} {
		items := ts.Do(t, "GET", "/v1/memory?sortBy="+sortBy, a.Key, nil).Must(t, 200).JSON["memories"].([]any)
		var keys, shown []string
		for _, it := range items {
			m := it.(map[string]any)
			keys = append(keys, m["key"].(string))
			shown = append(shown, m[sortBy].(string))
			if m["key"] == "t/first" && (m["createdAt"] != first.Str("createdAt") || m["updatedAt"] != upd.Str("updatedAt")) {
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
