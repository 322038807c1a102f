package memory_test

import (
	"context"
	"slices"
	"testing"

	"github.com/cairn-dev/cairn/memory"
	"github.com/cairn-dev/cairn/memory/vector"
)

// TestRefreshAndCatchUp runs two services on one store and one blob
// store, as two instances share them: the second one's search (vectors,
// full text, keys) sees what the first writes once it refreshes the
// changed key, or, for changes it never heard of, once it catches up with
// the whole store.
func TestRefreshAndCatchUp(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	newIndexed := func() *memory.Service {
		idx, err := memory.NewIndex("")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { idx.Close() })
		vecs := vector.New(vector.Config{})
		t.Cleanup(vecs.Close)
		return &memory.Service{Store: f.db, Audit: f.db, Blobs: f.blobs, Clock: f.clock, Index: idx, Vectors: vecs}
	}
	a, b := newIndexed(), newIndexed()
	const agent = "agent-1"
	write := func(key, content string) string {
		t.Helper()
		v, err := a.Create(ctx, agent, &memory.Write{Key: key, Content: &content})
		if err != nil {
			t.Fatal(err)
		}
		return v.Version.ID
	}
	// found returns the version ids b's vector search, full-text search
	// and key search find for text (and key).
	found := func(text, key string) (vec, full, keys []string) {
		t.Helper()
		minScore := 0.2 // the words of text, not any vector
		hits, err := b.VectorSearch(ctx, agent, &memory.VectorQuery{Text: text, MinScore: &minScore}, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hits {
			vec = append(vec, h.Version.ID)
		}
		if hits, err = b.Search(ctx, agent, memory.Query{ContentQuery: text}, ""); err != nil {
			t.Fatal(err)
		}
		for _, h := range hits {
			full = append(full, h.Version.ID)
		}
		if hits, err = b.Search(ctx, agent, memory.Query{Query: key}, ""); err != nil {
			t.Fatal(err)
		}
		for _, h := range hits {
			keys = append(keys, h.Version.ID)
		}
		return vec, full, keys
	}
	expect := func(what, text, key string, want ...string) {
		t.Helper()
		vec, full, keys := found(text, key)
		for name, got := range map[string][]string{"vector": vec, "full-text": full, "key": keys} {
			if !slices.Equal(got, want) {
				t.Fatalf("%s: %s search for %q found %v, want %v", what, name, text, got, want)
			}
		}
	}
	refresh := func(key string, changed bool) {
		t.Helper()
		if got, err := b.Refresh(ctx, agent, key); err != nil || got != changed {
			t.Fatalf("refresh %s: changed %v (%v), want %v", key, got, err, changed)
		}
	}

	v1 := write("notes/fox", "the quick brown fox")
	expect("before the refresh", "fox", "notes/fox")
	refresh("notes/fox", true)
	expect("after the refresh", "fox", "notes/fox", v1)
	refresh("notes/fox", false) // in line already: nothing to do

	text := "the lazy dog"
	v2, err := a.NewVersion(ctx, agent, v1, nil, &memory.Write{Content: &text})
	if err != nil {
		t.Fatal(err)
	}
	refresh("notes/fox", true)
	expect("the new version", "dog", "notes/fox", v2.Version.ID)
	if vec, full, _ := found("fox", "notes/fox"); len(vec) != 0 || len(full) != 0 {
		t.Fatalf("the old version's words still find it: %v %v", vec, full)
	}
	if _, _, err := a.Delete(ctx, agent, v2.Version.ID, nil, ""); err != nil {
		t.Fatal(err)
	}
	refresh("notes/fox", true)
	expect("the old version latest again", "fox", "notes/fox", v1)
	if _, _, err := a.Delete(ctx, agent, v1, nil, ""); err != nil {
		t.Fatal(err)
	}
	refresh("notes/fox", true)
	expect("deleted", "fox", "notes/fox")

	// Changes b never heard of: a catch-up finds them all.
	cat := write("notes/cat", "the sleepy cat")
	gone := write("notes/owl", "the wise owl")
	refresh("notes/owl", true)
	expect("the owl before its delete", "owl", "notes/owl", gone)
	if _, _, err := a.Delete(ctx, agent, gone, nil, ""); err != nil {
		t.Fatal(err)
	}
	if n, err := b.CatchUp(ctx); err != nil || n != 2 {
		t.Fatalf("catch up: %d changed (%v), want 2", n, err)
	}
	expect("caught up", "cat", "notes/cat", cat)
	expect("caught up", "owl", "notes/owl")
	if n, err := b.CatchUp(ctx); err != nil || n != 0 {
		t.Fatalf("a second catch up: %d changed (%v), want 0", n, err)
	}
}
