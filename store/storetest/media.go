package storetest

import (
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

// RunMediaTests checks a store.Media implementation. open returns a fresh,
// empty store for each subtest.
func RunMediaTests(t *testing.T, open func(t *testing.T) store.Media) {
	newMedia := func(agent, cat string, exp time.Duration, pinned bool) *cairn.Media {
		return &cairn.Media{ID: cairn.NewID(), AgentID: agent, Category: cat, Filename: "f.bin", BlobName: "media/" + cat + "/f__1",
			MimeType: "application/octet-stream", SizeBytes: 3, Pinned: pinned, ExpiresAt: t0.Add(exp), CreatedAt: t0,
			Metadata: map[string]any{"k": "v"}}
	}
	t.Run("CreateGetIsolation", func(t *testing.T) {
		s := open(t)
		m := newMedia("agent-a", cairn.MediaPhoto, time.Hour, false)
		title := "cat"
		m.Title = &title
		if err := s.CreateMedia(ctx, m, nil); err != nil {
			t.Fatal(err)
		}
		got, err := s.GetMedia(ctx, "agent-a", m.ID)
		if err != nil || got.Title == nil || *got.Title != "cat" || got.Metadata["k"] != "v" || !got.ExpiresAt.Equal(m.ExpiresAt) {
			t.Fatalf("GetMedia = %+v, %v", got, err)
		}
		if _, err := s.GetMedia(ctx, "agent-b", m.ID); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("another agent's media: %v", err)
		}
		if err := s.CreateMedia(ctx, m, nil); !cairn.IsCode(err, cairn.ECONFLICT) {
			t.Fatalf("duplicate id: %v", err)
		}
	})
	t.Run("ListPagesAndFilters", func(t *testing.T) {
		s := open(t)
		var ids []string
		for i := 0; i < 7; i++ {
			cat := cairn.MediaPhoto
			if i%2 == 1 {
				cat = cairn.MediaAudio
			}
			m := newMedia("agent-a", cat, time.Hour, false)
			if err := s.CreateMedia(ctx, m, nil); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, m.ID)
		}
		_ = s.CreateMedia(ctx, newMedia("agent-b", cairn.MediaPhoto, time.Hour, false), nil)
		var seen []string
		before := ""
		for {
			page, err := s.ListMedia(ctx, "agent-a", cairn.MediaFilter{}, before, 3)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range page {
				seen = append(seen, m.ID)
			}
			if len(page) < 3 {
				break
			}
			before = page[len(page)-1].ID
		}
		if len(seen) != 7 {
			t.Fatalf("listed %d, want 7", len(seen))
		}
		for i := range seen {
			if seen[i] != ids[len(ids)-1-i] {
				t.Fatalf("not newest first: %v vs %v", seen, ids)
			}
		}
		audio, err := s.ListMedia(ctx, "agent-a", cairn.MediaFilter{Category: cairn.MediaAudio}, "", 10)
		if err != nil || len(audio) != 3 || audio[0].ID != ids[5] {
			t.Fatalf("audio = %d, %v", len(audio), err)
		}
		page, err := s.ListMedia(ctx, "agent-a", cairn.MediaFilter{Category: cairn.MediaAudio}, audio[0].ID, 10)
		if err != nil || len(page) != 2 || page[0].ID != ids[3] {
			t.Fatalf("audio page 2 = %d, %v", len(page), err)
		}
	})
	t.Run("DeleteOnce", func(t *testing.T) {
		s := open(t)
		m := newMedia("agent-a", cairn.MediaVideo, time.Hour, false)
		if err := s.CreateMedia(ctx, m, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := s.DeleteMedia(ctx, "agent-b", m.ID, nil); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("another agent deleted: %v", err)
		}
		var wg sync.WaitGroup
		results := make(chan error, 8)
		for i := 0; i < 8; i++ {
			wg.Add(1)
			go func() { defer wg.Done(); _, err := s.DeleteMedia(ctx, "agent-a", m.ID, nil); results <- err }()
		}
		wg.Wait()
		close(results)
		ok := 0
		for err := range results {
			if err == nil {
				ok++
			} else if !cairn.IsCode(err, cairn.ENOTFOUND) {
				t.Fatal(err)
			}
		}
		if ok != 1 {
			t.Fatalf("%d deletes succeeded, want 1", ok)
		}
		if list, _ := s.ListMedia(ctx, "agent-a", cairn.MediaFilter{Category: cairn.MediaVideo}, "", 10); len(list) != 0 {
			t.Fatal("category index kept a deleted record")
		}
		if exp, _ := s.ExpiredMedia(ctx, t0.Add(2*time.Hour), 10); len(exp) != 0 {
			t.Fatal("expiry index kept a deleted record")
		}
	})
	t.Run("Renew", func(t *testing.T) {
		s := open(t)
		m := newMedia("agent-a", cairn.MediaPhoto, time.Hour, false)
		pinned := newMedia("agent-a", cairn.MediaPhoto, time.Hour, true)
		for _, x := range []*cairn.Media{m, pinned} {
			if err := s.CreateMedia(ctx, x, nil); err != nil {
				t.Fatal(err)
			}
		}
		later := t0.Add(48 * time.Hour)
		got, err := s.RenewMedia(ctx, "agent-a", m.ID, later, nil)
		if err != nil || !got.ExpiresAt.Equal(later) {
			t.Fatalf("RenewMedia = %+v, %v", got, err)
		}
		if g, _ := s.GetMedia(ctx, "agent-a", m.ID); g == nil || !g.ExpiresAt.Equal(later) || g.Metadata["k"] != "v" {
			t.Fatalf("after renew: %+v", g)
		}
		// The expiry index moved: not expired at the old time, expired after the new one.
		if exp, _ := s.ExpiredMedia(ctx, t0.Add(2*time.Hour), 10); len(exp) != 0 {
			t.Fatalf("expired at the old expiry: %v", exp)
		}
		if exp, _ := s.ExpiredMedia(ctx, later, 10); len(exp) != 1 || exp[0].ID != m.ID {
			t.Fatalf("expired at the new expiry: %v", exp)
		}
		if _, err := s.RenewMedia(ctx, "agent-a", pinned.ID, later, nil); err != nil {
			t.Fatal(err)
		}
		if exp, _ := s.ExpiredMedia(ctx, later.Add(time.Hour), 10); len(exp) != 1 {
			t.Fatalf("a renewed pinned record entered the expiry index: %v", exp)
		}
		if _, err := s.RenewMedia(ctx, "agent-b", m.ID, later, nil); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("another agent's media: %v", err)
		}
	})
	t.Run("Expired", func(t *testing.T) {
		s := open(t)
		soon := newMedia("agent-a", cairn.MediaPhoto, time.Hour, false)
		later := newMedia("agent-b", cairn.MediaPhoto, 2*time.Hour, false)
		pinned := newMedia("agent-a", cairn.MediaPhoto, time.Minute, true)
		for _, m := range []*cairn.Media{later, soon, pinned} {
			if err := s.CreateMedia(ctx, m, nil); err != nil {
				t.Fatal(err)
			}
		}
		exp, err := s.ExpiredMedia(ctx, t0.Add(90*time.Minute), 10)
		if err != nil || len(exp) != 1 || exp[0].ID != soon.ID {
			t.Fatalf("expired at +90m = %v, %v", exp, err)
		}
		exp, _ = s.ExpiredMedia(ctx, t0.Add(2*time.Hour), 10)
		if len(exp) != 2 || exp[0].ID != soon.ID || exp[1].ID != later.ID {
			t.Fatalf("expired at +2h (boundary included, soonest first) = %d", len(exp))
		}
		if exp, _ = s.ExpiredMedia(ctx, t0.Add(2*time.Hour), 1); len(exp) != 1 {
			t.Fatal("limit ignored")
		}
	})
}
