package media_test

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/media"
)

func TestNotFound(t *testing.T) {
	ctx := context.Background()
	s, _, clock := newService(t)
	m, err := s.Upload(ctx, "agent-a", file("a.txt", "text/plain", "abc"), media.Options{ExpiresIn: "1h"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, agent, id string }{
		{"OtherAgent", "agent-b", m.ID},
		{"Malformed", "agent-a", "../" + m.ID},
		{"Unknown", "agent-a", cairn.NewID()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := s.Get(ctx, tc.agent, tc.id); !cairn.IsCode(err, cairn.ENOTFOUND) {
				t.Errorf("Get: %v", err)
			}
			if _, _, err := s.Open(ctx, tc.agent, tc.id); !cairn.IsCode(err, cairn.ENOTFOUND) {
				t.Errorf("Open: %v", err)
			}
			if _, err := s.Delete(ctx, tc.agent, tc.id, ""); !cairn.IsCode(err, cairn.ENOTFOUND) {
				t.Errorf("Delete: %v", err)
			}
		})
	}
	t.Run("Expired", func(t *testing.T) {
		clock.Advance(time.Hour)
		if _, _, err := s.Open(ctx, "agent-a", m.ID); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("Open of expired media: %v", err)
		}
		if items, _, err := s.List(ctx, "agent-a", "", "", 10); err != nil || len(items) != 0 {
			t.Fatalf("expired media listed: %v %v", items, err)
		}
	})
}

func TestOpenAndDelete(t *testing.T) {
	ctx := context.Background()
	s, db, _ := newService(t)
	m, err := s.Upload(ctx, "agent-a", file("a.txt", "text/plain", "0123456789"), media.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, rc, err := s.Open(ctx, "agent-a", m.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rc.Seek(4, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(rc)
	rc.Close()
	if string(b) != "456789" {
		t.Fatalf("read after seek %q", b)
	}
	if err := s.Blobs.Delete(ctx, m.StorageName()); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Open(ctx, "agent-a", m.ID); !cairn.IsCode(err, cairn.EUPSTREAM) {
		t.Fatalf("Open of a vanished blob: %v, want EUPSTREAM", err)
	}
	if _, err := s.Delete(ctx, "agent-a", m.ID, "req-2"); err != nil {
		t.Fatalf("Delete with the blob gone: %v", err)
	}
	if _, err := s.Delete(ctx, "agent-a", m.ID, ""); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("second Delete: %v", err)
	}
	log, err := db.ListAudit(ctx, "agent-a", cairn.AuditFilter{Action: cairn.AuditDelete}, "", 10)
	if err != nil || len(log) != 1 || log[0].Resource != m.ID || log[0].RequestID != "req-2" {
		t.Fatalf("audit %+v, %v", log, err)
	}
}

func TestSweep(t *testing.T) {
	ctx := context.Background()
	s, _, clock := newService(t)
	up := func(ttl string, pinned bool) *cairn.Media {
		m, err := s.Upload(ctx, "agent-a", file("f.bin", "", "data"), media.Options{ExpiresIn: ttl, Pinned: pinned})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	short, long, pinned := up("1h", false), up("2d", false), up("1h", true)
	if n, err := s.Sweep(ctx, clock.Now()); err != nil || n != 0 {
		t.Fatalf("Sweep before expiry = %d, %v", n, err)
	}
	clock.Advance(2 * time.Hour)
	if n, err := s.Sweep(ctx, clock.Now()); err != nil || n != 1 {
		t.Fatalf("Sweep = %d, %v; want 1", n, err)
	}
	for _, tc := range []struct {
		name string
		m    *cairn.Media
		kept bool
	}{{"Expired", short, false}, {"Unexpired", long, true}, {"PinnedPastExpiry", pinned, true}} {
		t.Run(tc.name, func(t *testing.T) {
			_, recErr := s.Get(ctx, "agent-a", tc.m.ID)
			_, blobErr := s.Blobs.Stat(ctx, tc.m.StorageName())
			if kept := recErr == nil && blobErr == nil; kept != tc.kept {
				t.Fatalf("kept = %v (record %v, blob %v), want %v", kept, recErr, blobErr, tc.kept)
			}
		})
	}
}

func TestListPages(t *testing.T) {
	ctx := context.Background()
	s, _, clock := newService(t)
	var want []string
	for i := 0; i < 7; i++ {
		ttl := "30d"
		if i%3 == 0 {
			ttl = "1h" // expired before listing: skipped, pages stay full
		}
		m, err := s.Upload(ctx, "agent-a", file("p.png", "image/png", "x"), media.Options{ExpiresIn: ttl})
		if err != nil {
			t.Fatal(err)
		}
		if ttl == "30d" {
			want = append([]string{m.ID}, want...)
		}
		clock.Advance(time.Millisecond)
	}
	clock.Advance(time.Hour)
	var got []string
	before := ""
	for {
		page, more, err := s.List(ctx, "agent-a", cairn.MediaPhoto, before, 2)
		if err != nil {
			t.Fatal(err)
		}
		if more && len(page) != 2 {
			t.Fatalf("short page %d with more", len(page))
		}
		for _, m := range page {
			got = append(got, m.ID)
		}
		if !more {
			break
		}
		before = page[len(page)-1].ID
	}
	if len(got) != len(want) {
		t.Fatalf("listed %d, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("order: got %v, want %v", got, want)
		}
	}
}
