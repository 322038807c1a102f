package memory_test

import (
	"context"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/memory"
)

// TestRenewAfterTheBlobExpired: a renewal in the last moment, when the
// blob store already holds the content as expired, fails and leaves the
// memory's expiry alone rather than extending a record whose content is
// gone.
func TestRenewAfterTheBlobExpired(t *testing.T) {
	ctx := context.Background()
	f := newBlobFixture(t)
	s, db, memClock, blobClock := f.s, f.db, f.clock, f.blobClock
	content, ttl := "remember me", "1h"
	v, err := s.Create(ctx, "agent", &memory.Write{Type: "semantic", Key: "k", Content: &content, ExpiresIn: &ttl})
	if err != nil {
		t.Fatal(err)
	}
	// The service sees a millisecond left; the blob store, a moment later,
	// sees the content expired.
	memClock.Advance(time.Hour - time.Millisecond)
	blobClock.Advance(time.Hour + time.Millisecond)
	r := s.Renew(ctx, "agent", []string{v.Version.ID}, 24*time.Hour, "req")
	if len(r) != 1 || r[0].Success {
		t.Fatalf("renewal of a memory whose content expired: %+v", r)
	}
	got, _, err := db.MemoryByVersionID(ctx, "agent", v.Version.ID)
	if err != nil || !got.ExpiresAt.Equal(v.Memory.ExpiresAt) {
		t.Fatalf("expiry after the failed renewal: %v (%v), want %v", got.ExpiresAt, err, v.Memory.ExpiresAt)
	}
}
