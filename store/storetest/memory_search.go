package storetest

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

// MemorySearchStore is a store that holds memories and searches them.
type MemorySearchStore interface {
	store.Memories
	store.MemorySearch
}

// RunMemorySearchTests checks a store.MemorySearch implementation: what
// each write commits is searched at once (new memory, new version, deleted
// latest), full text in web search syntax, key scores, tags, expiry,
// limits and agent isolation. open returns a fresh, empty store for each
// subtest.
func RunMemorySearchTests(t *testing.T, open func(t *testing.T) MemorySearchStore) {
	text := func(s string) *string { return &s }
	create := func(t *testing.T, s MemorySearchStore, agent, key string, body *string, tags ...string) (*cairn.Memory, *cairn.MemoryVersion) {
		t.Helper()
		m := &cairn.Memory{ID: cairn.NewID(), AgentID: agent, Type: "semantic", Key: key, Importance: 0.5,
			Visibility: "private", Tags: append([]string{}, tags...), CreatedAt: t0, UpdatedAt: t0}
		v := &cairn.MemoryVersion{ID: m.ID, Version: 1, CreatedAt: t0, SearchText: body}
		if err := s.CreateMemoryVersion(ctx, m, v, nil, nil); err != nil {
			t.Fatal(err)
		}
		return m, v
	}
	next := func(t *testing.T, s MemorySearchStore, m *cairn.Memory, body *string) *cairn.MemoryVersion {
		t.Helper()
		v := &cairn.MemoryVersion{ID: cairn.NewID(), Version: m.Latest + 1, CreatedAt: t0, SearchText: body}
		if err := s.CreateMemoryVersion(ctx, m, v, nil, nil); err != nil {
			t.Fatal(err)
		}
		return v
	}
	search := func(t *testing.T, s MemorySearchStore, agent string, q cairn.MemorySearchQuery) ([]string, []float64) {
		t.Helper()
		if q.Limit == 0 {
			q.Limit = 20
		}
		if q.Now.IsZero() {
			q.Now = t0
		}
		got, err := s.SearchMemories(ctx, agent, q)
		if err != nil {
			t.Fatalf("SearchMemories(%+v): %v", q, err)
		}
		keys, scores := []string{}, []float64{}
		for _, m := range got {
			keys = append(keys, m.Key)
			scores = append(scores, m.Score)
		}
		return keys, scores
	}
	want := func(t *testing.T, s MemorySearchStore, agent string, q cairn.MemorySearchQuery, keys ...string) []float64 {
		t.Helper()
		got, scores := search(t, s, agent, q)
		if fmt.Sprint(got) != fmt.Sprint(append([]string{}, keys...)) {
			t.Fatalf("SearchMemories(%+v) = %v, want %v", q, got, keys)
		}
		return scores
	}

	t.Run("FullText", func(t *testing.T) {
		s := open(t)
		create(t, s, "agent-a", "fox", text("The quick brown fox jumps over the lazy dog."))
		create(t, s, "agent-a", "foxes", text("Fox, fox and FOX: three foxes hunting."))
		create(t, s, "agent-a", "cat", text("A cat naps in the sun."))
		create(t, s, "agent-a", "sealed", nil) // encrypted or binary: not indexed
		create(t, s, "agent-b", "other-fox", text("fox"))
		for _, tc := range []struct {
			query string
			want  []string
		}{
			{"fox", []string{"foxes", "fox"}}, // three times ranks above once
			{"FOX", []string{"foxes", "fox"}},
			{"brown fox", []string{"fox", "foxes"}}, // any word; both first
			{"zebra fox", []string{"foxes", "fox"}},
			{"fox or cat", []string{"foxes", "cat", "fox"}},
			{`"lazy dog"`, []string{"fox"}},
			{`"dog lazy"`, nil},
			{"fox -brown", []string{"foxes"}},
			{`fox -"lazy dog"`, []string{"foxes"}},
			{`"lazy dog`, []string{"fox"}}, // an unclosed quote runs to the end
			{"-fox", nil},                  // nothing to find
			{"cat OR zebra", []string{"cat"}},
			{"the", nil},  // a stop word matches nothing
			{"foxe", nil}, // whole words, no prefixes
			{"jump", nil}, // no stemming
			{"zebra", nil},
		} {
			q := cairn.MemorySearchQuery{Text: tc.query}
			scores := want(t, s, "agent-a", q, tc.want...)
			for i, sc := range scores {
				if !(sc > 0) || (i > 0 && sc > scores[i-1]) {
					t.Fatalf("%q: scores %v are not positive and descending", tc.query, scores)
				}
			}
		}
		want(t, s, "agent-c", cairn.MemorySearchQuery{Text: "fox"})
	})

	t.Run("LatestVersionOnly", func(t *testing.T) {
		s := open(t)
		m, v1 := create(t, s, "agent-a", "k", text("alpha one"))
		v2 := next(t, s, m, text("beta two"))
		want(t, s, "agent-a", cairn.MemorySearchQuery{Text: "alpha"})
		want(t, s, "agent-a", cairn.MemorySearchQuery{Text: "beta"}, "k")
		v3 := next(t, s, m, nil) // a binary latest: nothing of the memory is searched
		want(t, s, "agent-a", cairn.MemorySearchQuery{Text: "beta"})
		_, _, err := s.DeleteMemoryVersion(ctx, "agent-a", v3.ID, nil)
		if err != nil {
			t.Fatal(err)
		}
		want(t, s, "agent-a", cairn.MemorySearchQuery{Text: "beta"}, "k") // the previous version is the latest again
		if _, _, err := s.DeleteMemoryVersion(ctx, "agent-a", v2.ID, nil); err != nil {
			t.Fatal(err)
		}
		want(t, s, "agent-a", cairn.MemorySearchQuery{Text: "beta"})
		want(t, s, "agent-a", cairn.MemorySearchQuery{Text: "alpha"}, "k")
		if m, err = s.MemoryByKey(ctx, "agent-a", "k"); err != nil {
			t.Fatal(err)
		}
		v4 := next(t, s, m, text("gamma"))
		if _, _, err := s.DeleteMemoryVersion(ctx, "agent-a", v1.ID, nil); err != nil { // not the latest
			t.Fatal(err)
		}
		want(t, s, "agent-a", cairn.MemorySearchQuery{Text: "gamma"}, "k")
		if _, _, err := s.DeleteMemoryVersion(ctx, "agent-a", v4.ID, nil); err != nil { // the last one
			t.Fatal(err)
		}
		want(t, s, "agent-a", cairn.MemorySearchQuery{Text: "gamma"})
		want(t, s, "agent-a", cairn.MemorySearchQuery{Key: "k"})
	})

	t.Run("Keys", func(t *testing.T) {
		s := open(t)
		for _, k := range []string{"Projects", "projects/Apollo", "archive/projects", "recipes/cake", "a_b", "axb", "50%", "ÉTÉ/notes"} {
			create(t, s, "agent-a", k, text("x"))
		}
		create(t, s, "agent-b", "projects", text("x"))
		scores := want(t, s, "agent-a", cairn.MemorySearchQuery{Key: "PROJECTS"}, "Projects", "projects/Apollo", "archive/projects")
		if fmt.Sprint(scores) != "[3 2 1]" {
			t.Fatalf("key scores %v, want [3 2 1]", scores)
		}
		// A limit that the keys starting with the needle fill, or not.
		want(t, s, "agent-a", cairn.MemorySearchQuery{Key: "PROJECTS", Limit: 1}, "Projects")
		want(t, s, "agent-a", cairn.MemorySearchQuery{Key: "PROJECTS", Limit: 2}, "Projects", "projects/Apollo")
		want(t, s, "agent-a", cairn.MemorySearchQuery{Key: "ects", Limit: 2}, "Projects", "archive/projects")
		want(t, s, "agent-a", cairn.MemorySearchQuery{Key: "projects/"}, "projects/Apollo")
		want(t, s, "agent-a", cairn.MemorySearchQuery{Key: "a_b"}, "a_b") // LIKE's wildcards are plain characters
		want(t, s, "agent-a", cairn.MemorySearchQuery{Key: "%"}, "50%")
		want(t, s, "agent-a", cairn.MemorySearchQuery{Key: "été"}, "ÉTÉ/notes")
		want(t, s, "agent-a", cairn.MemorySearchQuery{Key: "zzz"})
		scores = want(t, s, "agent-a", cairn.MemorySearchQuery{Key: "", Limit: 3}, "50%", "Projects", "a_b")
		if fmt.Sprint(scores) != "[1 1 1]" {
			t.Fatalf("every key scores 1 without a needle: %v", scores)
		}
	})

	t.Run("TagsExpiryLimit", func(t *testing.T) {
		s := open(t)
		create(t, s, "agent-a", "n/1", text("launch pad"), "work", "space")
		create(t, s, "agent-a", "n/2", text("launch window"), "work")
		m3, _ := create(t, s, "agent-a", "n/3", text("launch party"), "home")
		soon, _ := create(t, s, "agent-a", "n/4", text("launch soon"), "work")
		if _, err := s.UpdateMemory(ctx, "agent-a", soon.ID, func(m *cairn.Memory) error { m.ExpiresAt = t0.Add(time.Hour); return nil }, nil); err != nil {
			t.Fatal(err)
		}
		want(t, s, "agent-a", cairn.MemorySearchQuery{Key: "n/", Tags: []string{"work"}}, "n/1", "n/2", "n/4")
		want(t, s, "agent-a", cairn.MemorySearchQuery{Key: "n/", Tags: []string{"work", "space"}}, "n/1")
		want(t, s, "agent-a", cairn.MemorySearchQuery{Text: "launch", Tags: []string{"work"}, Now: t0.Add(time.Hour)}, "n/1", "n/2")
		want(t, s, "agent-a", cairn.MemorySearchQuery{Text: "launch", Key: "3"}, "n/3")
		want(t, s, "agent-a", cairn.MemorySearchQuery{Text: "launch", Limit: 2}, "n/1", "n/2") // equal ranks: by key
		if _, err := s.UpdateMemory(ctx, "agent-a", m3.ID, func(m *cairn.Memory) error { m.Tags = []string{"work"}; return nil }, nil); err != nil {
			t.Fatal(err)
		}
		want(t, s, "agent-a", cairn.MemorySearchQuery{Text: "party", Tags: []string{"work"}}, "n/3")
		if _, err := s.UpdateMemory(ctx, "agent-a", soon.ID, func(m *cairn.Memory) error { m.Pinned = true; return nil }, nil); err != nil {
			t.Fatal(err)
		}
		want(t, s, "agent-a", cairn.MemorySearchQuery{Text: "soon", Now: t0.Add(2 * time.Hour)}, "n/4") // pinned: never expires
		if _, err := s.SearchMemories(ctx, "agent-a", cairn.MemorySearchQuery{Key: "n", Limit: 0}); !cairn.IsCode(err, cairn.EINVALID) {
			t.Fatalf("limit 0: %v", err)
		}
	})

	t.Run("AnyText", func(t *testing.T) {
		s := open(t)
		create(t, s, "agent-a", "bytes", text("nul\x00byte and \xff\xfe invalid utf8 words"))
		want(t, s, "agent-a", cairn.MemorySearchQuery{Text: "invalid words"}, "bytes")
		// Several MiB of distinct words: indexed from the start at least,
		// never failing the write.
		rng := rand.New(rand.NewPCG(1, 2))
		var b strings.Builder
		b.WriteString("firstword ")
		for b.Len() < 3<<20 {
			for range 3 + rng.IntN(8) {
				b.WriteByte(byte('a' + rng.IntN(26)))
			}
			b.WriteByte(' ')
		}
		create(t, s, "agent-a", "big", text(b.String()))
		want(t, s, "agent-a", cairn.MemorySearchQuery{Text: "firstword"}, "big")
		want(t, s, "agent-a", cairn.MemorySearchQuery{Text: `"nul"`, Key: "BYTES"}, "bytes")
	})

	t.Run("SetMemoryText", func(t *testing.T) {
		s := open(t)
		m, v1 := create(t, s, "agent-a", "k", text("alpha"))
		v2 := next(t, s, m, text("beta"))
		if err := s.UnindexedMemoryVersions(ctx, func(m *cairn.Memory, v *cairn.MemoryVersion) error {
			return fmt.Errorf("version %d of %s was written with its text", v.Version, m.Key)
		}); err != nil {
			t.Fatal(err)
		}
		if err := s.SetMemoryText(ctx, "agent-a", v2.ID, text("gamma")); err != nil {
			t.Fatal(err)
		}
		want(t, s, "agent-a", cairn.MemorySearchQuery{Text: "gamma"}, "k")
		want(t, s, "agent-a", cairn.MemorySearchQuery{Text: "beta"})
		if err := s.SetMemoryText(ctx, "agent-a", v1.ID, text("delta")); err != nil { // not the latest
			t.Fatal(err)
		}
		want(t, s, "agent-a", cairn.MemorySearchQuery{Text: "delta"})
		if _, _, err := s.DeleteMemoryVersion(ctx, "agent-a", v2.ID, nil); err != nil {
			t.Fatal(err)
		}
		want(t, s, "agent-a", cairn.MemorySearchQuery{Text: "delta"}, "k")
		if err := s.SetMemoryText(ctx, "agent-a", v1.ID, nil); err != nil {
			t.Fatal(err)
		}
		want(t, s, "agent-a", cairn.MemorySearchQuery{Text: "delta"})
		want(t, s, "agent-a", cairn.MemorySearchQuery{Key: "K"}, "k")
		for _, tc := range []struct{ agent, id string }{{"agent-b", v1.ID}, {"agent-a", v2.ID}, {"agent-a", "nope"}} {
			if err := s.SetMemoryText(ctx, tc.agent, tc.id, text("x")); !cairn.IsCode(err, cairn.ENOTFOUND) {
				t.Errorf("SetMemoryText(%s, %s): %v", tc.agent, tc.id, err)
			}
		}
	})
}
