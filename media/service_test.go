package media_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob/fs"
	"github.com/cairn-dev/cairn/media"
	"github.com/cairn-dev/cairn/store/pebble"
)

var t0 = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

// newService returns a service over a real Pebble store and fs blob store
// in a temporary directory, sharing one manual clock.
func newService(t *testing.T) (*media.Service, *pebble.DB, *cairn.ManualClock) {
	t.Helper()
	clock := cairn.NewManualClock(t0)
	db, err := pebble.Open(t.TempDir(), pebble.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	blobs, err := fs.New(t.TempDir(), fs.Options{Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	return &media.Service{Store: db, Blobs: blobs, Clock: clock}, db, clock
}

func file(name, mt, body string) media.File {
	return media.File{Filename: name, MimeType: mt, Body: strings.NewReader(body)}
}

func blobBytes(t *testing.T, s *media.Service, name string) ([]byte, error) {
	t.Helper()
	rc, _, err := s.Blobs.Get(context.Background(), name, 0, -1)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
}

func TestUpload(t *testing.T) {
	ctx := context.Background()
	s, db, _ := newService(t)
	title := "notes"
	m, err := s.Upload(ctx, "agent-a", file("../n.txt", "", "hello"), media.Options{Title: &title, ExpiresIn: "1h", RequestID: "req-1"})
	if err != nil {
		t.Fatal(err)
	}
	if m.Filename != "n.txt" || m.MimeType != "text/plain; charset=utf-8" || m.Category != cairn.MediaDocument ||
		m.SizeBytes != 5 || !m.ExpiresAt.Equal(t0.Add(time.Hour)) || *m.Title != "notes" {
		t.Fatalf("record %+v", m)
	}
	if b, err := blobBytes(t, s, m.StorageName()); err != nil || string(b) != "hello" {
		t.Fatalf("blob %q, %v", b, err)
	}
	if got, err := s.Get(ctx, "agent-a", m.ID); err != nil || got.SHA256 != m.SHA256 {
		t.Fatalf("Get = %+v, %v", got, err)
	}
	log, err := db.ListAudit(ctx, "agent-a", cairn.AuditFilter{Action: cairn.AuditUpload}, "", 10)
	if err != nil || len(log) != 1 || log[0].Resource != m.ID || log[0].RequestID != "req-1" {
		t.Fatalf("audit %+v, %v", log, err)
	}
}

// TestStageCommit covers fields that arrive after the file: they set the
// final expiry of the blob, or refuse the upload and remove it.
func TestStageCommit(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name       string
		final      media.Options
		code       string
		blobExpiry time.Time
	}{
		{"PinnedLater", media.Options{Pinned: true}, "", time.Time{}},
		{"TTLLater", media.Options{ExpiresIn: "2h"}, "", t0.Add(2 * time.Hour)},
		{"Unchanged", media.Options{}, "", t0.Add(90 * 24 * time.Hour)},
		{"InvalidLater", media.Options{ExpiresIn: "forever"}, cairn.EINVALID, time.Time{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _, _ := newService(t)
			st, err := s.Stage(ctx, "agent-a", file("a.bin", "", "abc"), media.Options{})
			if err != nil {
				t.Fatal(err)
			}
			m, err := st.Commit(ctx, tc.final)
			if tc.code != "" {
				if !cairn.IsCode(err, tc.code) {
					t.Fatalf("Commit: %v, want %s", err, tc.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			info, err := s.Blobs.Stat(ctx, m.StorageName())
			if err != nil || !info.ExpiresAt.Equal(tc.blobExpiry) {
				t.Fatalf("blob expiry %v (%v), want %v", info.ExpiresAt, err, tc.blobExpiry)
			}
			st.Discard(ctx) // no effect once committed
			if _, err := s.Blobs.Stat(ctx, m.StorageName()); err != nil {
				t.Fatalf("Discard after Commit removed the blob: %v", err)
			}
		})
	}
	t.Run("Discard", func(t *testing.T) {
		s, _, _ := newService(t)
		st, err := s.Stage(ctx, "agent-a", file("a.bin", "", "abc"), media.Options{})
		if err != nil {
			t.Fatal(err)
		}
		st.Discard(ctx)
		if _, err := st.Commit(ctx, media.Options{}); err == nil {
			t.Fatal("Commit after Discard succeeded")
		}
		if items, _, _ := s.List(ctx, "agent-a", "", "", 10); len(items) != 0 {
			t.Fatalf("records after Discard: %v", items)
		}
	})
}

type failingReader struct{ n int }

func (r *failingReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, errors.New("connection reset")
	}
	n := min(len(p), r.n)
	r.n -= n
	return n, nil
}

func TestUploadErrors(t *testing.T) {
	ctx := context.Background()
	s, _, _ := newService(t)
	for _, tc := range []struct {
		name string
		f    media.File
		o    media.Options
		code string
	}{
		{"TooLarge", media.File{Filename: "big", Body: bytes.NewReader(make([]byte, media.MaxFileSize+1))}, media.Options{}, cairn.ETOOLARGE},
		{"BodyFails", media.File{Filename: "cut", Body: &failingReader{n: 100 << 10}}, media.Options{}, cairn.EINVALID},
		{"BadTTL", file("a", "", "x"), media.Options{ExpiresIn: "0d"}, cairn.EINVALID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := s.Upload(ctx, "agent-a", tc.f, tc.o); !cairn.IsCode(err, tc.code) {
				t.Fatalf("Upload: %v, want %s", err, tc.code)
			}
		})
	}
	if items, _, _ := s.List(ctx, "agent-a", "", "", 10); len(items) != 0 {
		t.Fatalf("failed uploads left records: %v", items)
	}
	t.Run("ExactlyMax", func(t *testing.T) {
		m, err := s.Upload(ctx, "agent-a", media.File{Filename: "max", Body: bytes.NewReader(make([]byte, media.MaxFileSize))}, media.Options{})
		if err != nil || m.SizeBytes != media.MaxFileSize {
			t.Fatalf("Upload = %v, %v", m, err)
		}
	})
}

// TestBlobNamesCollideAcrossAgents: two agents' uploads that get the same
// visible blobName (same category, file name and random suffix) keep
// their own bytes, and deleting one leaves the other readable.
func TestBlobNamesCollideAcrossAgents(t *testing.T) {
	ctx := context.Background()
	s, _, _ := newService(t)
	defer media.SetRandRead(func(b []byte) (int, error) { clear(b); return len(b), nil })()
	a, err := s.Upload(ctx, "agent-a", file("report.pdf", "application/pdf", "%PDF a's file"), media.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Upload(ctx, "agent-b", file("report.pdf", "application/pdf", "%PDF b's file"), media.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if a.BlobName != b.BlobName {
		t.Fatalf("the test needs colliding names: %q, %q", a.BlobName, b.BlobName)
	}
	read := func(agent, id string) string {
		t.Helper()
		_, rc, err := s.Open(ctx, agent, id)
		if err != nil {
			t.Fatalf("open %s's media: %v", agent, err)
		}
		defer rc.Close()
		got, _ := io.ReadAll(rc)
		return string(got)
	}
	if got := read("agent-a", a.ID); got != "%PDF a's file" {
		t.Fatalf("agent-a reads %q: another agent's upload replaced its file", got)
	}
	if _, err := s.Delete(ctx, "agent-b", b.ID, ""); err != nil {
		t.Fatal(err)
	}
	if got := read("agent-a", a.ID); got != "%PDF a's file" {
		t.Fatalf("agent-a reads %q after agent-b deleted its own file", got)
	}
}
