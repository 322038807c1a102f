package media_test

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/media"
)

// TestRecordCache: with RecordCacheTTL, a delete or a sweep through the
// same Service is seen at once; a delete by another instance sharing the
// store and the blob store (a second Service) is seen by a stream at once
// (its blob is gone, the store is read again: 404, not 502) and by a
// metadata read once the TTL has passed.
func TestRecordCache(t *testing.T) {
	ctx := context.Background()
	one, _, clock := newService(t)
	one.RecordCacheTTL = 5 * time.Second
	other := &media.Service{Store: one.Store, Blobs: one.Blobs, Clock: clock}
	upload := func(body string) *cairn.Media {
		t.Helper()
		m, err := one.Upload(ctx, "a", file("f.txt", "text/plain", body), media.Options{ExpiresIn: "1h"})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	stream := func(id string) (string, error) {
		_, rc, err := one.Open(ctx, "a", id)
		if err != nil {
			return "", err
		}
		defer rc.Close()
		b, err := io.ReadAll(rc)
		return string(b), err
	}

	m := upload("first")
	if got, err := stream(m.ID); err != nil || got != "first" {
		t.Fatalf("stream: %q, %v", got, err)
	}
	if _, err := other.Delete(ctx, "a", m.ID, "req"); err != nil {
		t.Fatal(err)
	}
	if _, err := stream(m.ID); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("stream of media another instance deleted: %v, want ENOTFOUND", err)
	}
	m = upload("second")
	if _, err := one.Get(ctx, "a", m.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Delete(ctx, "a", m.ID, "req"); err != nil {
		t.Fatal(err)
	}
	if _, err := one.Get(ctx, "a", m.ID); err != nil {
		t.Fatalf("metadata within the TTL after another instance's delete: %v (documented as still served)", err)
	}
	clock.Advance(5 * time.Second)
	if _, err := one.Get(ctx, "a", m.ID); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("metadata once the TTL passed: %v, want ENOTFOUND", err)
	}

	// Through the same Service: at once.
	m = upload("third")
	if _, err := stream(m.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := one.Delete(ctx, "a", m.ID, "req"); err != nil {
		t.Fatal(err)
	}
	if _, err := one.Get(ctx, "a", m.ID); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("metadata after this instance's delete: %v, want ENOTFOUND", err)
	}
	m = upload("fourth")
	if _, err := one.Get(ctx, "a", m.ID); err != nil {
		t.Fatal(err)
	}
	clock.Advance(2 * time.Hour)
	if n, err := one.Sweep(ctx, clock.Now()); err != nil || n != 1 {
		t.Fatalf("Sweep = %d, %v", n, err)
	}
	clock.Advance(-2 * time.Hour) // the record would not have expired yet
	if _, err := one.Get(ctx, "a", m.ID); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("metadata after this instance's sweep: %v, want ENOTFOUND", err)
	}
	// Another agent never sees a cached record.
	m = upload("fifth")
	if _, err := one.Get(ctx, "a", m.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := one.Get(ctx, "b", m.ID); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("another agent's read of a cached record: %v, want ENOTFOUND", err)
	}
}
