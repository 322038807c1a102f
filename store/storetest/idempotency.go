package storetest

import (
	"bytes"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

// RunIdempotencyTests checks a store.Idempotency implementation. open
// returns a fresh, empty store for each subtest.
func RunIdempotencyTests(t *testing.T, open func(t *testing.T) store.Idempotency) {
	rec := func(agent, route, k string, exp time.Duration) *cairn.IdempotencyRecord {
		return &cairn.IdempotencyRecord{AgentID: agent, Route: route, Key: k, BodyHash: bytes.Repeat([]byte{1}, 32),
			Status: 201, ContentType: "application/json", ETag: `"1"`, Body: []byte(`{"id":"x"}`),
			CreatedAt: t0, ExpiresAt: t0.Add(exp)}
	}
	t.Run("PutGetScope", func(t *testing.T) {
		s := open(t)
		r := rec("agent-a", "/v1/memory", "k\x00 1", time.Hour)
		mustOK(t, s.PutIdempotency(ctx, r), "PutIdempotency")
		got, err := s.Idempotency(ctx, "agent-a", "/v1/memory", "k\x00 1", t0)
		if err != nil || got.Status != 201 || got.ContentType != r.ContentType || got.ETag != r.ETag ||
			!bytes.Equal(got.Body, r.Body) || !bytes.Equal(got.BodyHash, r.BodyHash) || !got.ExpiresAt.Equal(r.ExpiresAt) {
			t.Fatalf("Idempotency = %+v, %v", got, err)
		}
		for _, c := range [][3]string{{"agent-b", "/v1/memory", "k\x00 1"}, {"agent-a", "/v1/memory/bulk", "k\x00 1"}, {"agent-a", "/v1/memory", "k"}} {
			if _, err := s.Idempotency(ctx, c[0], c[1], c[2], t0); !cairn.IsCode(err, cairn.ENOTFOUND) {
				t.Fatalf("Idempotency%q: %v", c, err)
			}
		}
		if _, err := s.Idempotency(ctx, "agent-a", "/v1/memory", "k\x00 1", t0.Add(time.Hour)); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("expired record: %v", err)
		}
	})
	t.Run("ReplaceAndSweep", func(t *testing.T) {
		s := open(t)
		mustOK(t, s.PutIdempotency(ctx, rec("a", "/r", "old", time.Hour)), "Put")
		mustOK(t, s.PutIdempotency(ctx, rec("a", "/r", "replaced", time.Hour)), "Put")
		mustOK(t, s.PutIdempotency(ctx, rec("a", "/r", "kept", 3*time.Hour)), "Put")
		// The replacement lives longer: the old expiry must not remove it.
		r := rec("a", "/r", "replaced", 2*time.Hour)
		r.Status = 200
		mustOK(t, s.PutIdempotency(ctx, r), "Put replacement")
		if n, err := s.DeleteExpiredIdempotency(ctx, t0.Add(30*time.Minute), 100); err != nil || n != 0 {
			t.Fatalf("early sweep = %d, %v", n, err)
		}
		n, err := s.DeleteExpiredIdempotency(ctx, t0.Add(90*time.Minute), 100)
		if err != nil || n != 1 {
			t.Fatalf("sweep = %d, %v; want 1 (the replaced record's old expiry entry is gone)", n, err)
		}
		if got, err := s.Idempotency(ctx, "a", "/r", "replaced", t0.Add(90*time.Minute)); err != nil || got.Status != 200 {
			t.Fatalf("replacement after sweep: %+v, %v", got, err)
		}
		if _, err := s.Idempotency(ctx, "a", "/r", "old", t0); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("swept record: %v", err)
		}
		total := 0
		for {
			n, err := s.DeleteExpiredIdempotency(ctx, t0.Add(4*time.Hour), 1)
			mustOK(t, err, "sweep")
			if n == 0 {
				break
			}
			total += n
		}
		if total != 2 {
			t.Fatalf("swept %d records in pages of one, want 2", total)
		}
		if _, err := s.Idempotency(ctx, "a", "/r", "kept", t0); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("record left after the sweep: %v", err)
		}
	})
	t.Run("ErrInvalid", func(t *testing.T) {
		s := open(t)
		r := rec("a", "/r", "", time.Hour)
		wantCode(t, s.PutIdempotency(ctx, r), cairn.EINVALID)
	})
}

// idempotencyWithCreate checks that CreateMemoryVersion stores the
// idempotency record in its commit, and nothing when the create fails.
func idempotencyWithCreate(t *testing.T, s store.Memories, t0 time.Time) {
	is, ok := s.(store.Idempotency)
	if !ok {
		t.Skip("the store keeps no idempotency records")
	}
	m := &cairn.Memory{ID: cairn.NewID(), AgentID: "agent-a", Type: "semantic", Key: "idem", Visibility: "private",
		Tags: []string{}, CreatedAt: t0, UpdatedAt: t0}
	v := &cairn.MemoryVersion{ID: m.ID, Version: 1, CreatedAt: t0}
	r := &cairn.IdempotencyRecord{AgentID: "agent-a", Route: "/v1/memory", Key: "k1", BodyHash: []byte{1}, Status: 201,
		Body: []byte("first"), ExpiresAt: t0.Add(time.Hour)}
	mustOK(t, s.CreateMemoryVersion(ctx, m, v, nil, r), "CreateMemoryVersion")
	got, err := is.Idempotency(ctx, "agent-a", "/v1/memory", "k1", t0)
	if err != nil || string(got.Body) != "first" {
		t.Fatalf("record of the create: %+v, %v", got, err)
	}
	dup := &cairn.Memory{ID: cairn.NewID(), AgentID: "agent-a", Key: "idem"}
	r2 := *r
	r2.Key, r2.Body = "k2", []byte("second")
	wantCode(t, s.CreateMemoryVersion(ctx, dup, &cairn.MemoryVersion{ID: dup.ID, Version: 1}, nil, &r2), cairn.ECONFLICT)
	if _, err := is.Idempotency(ctx, "agent-a", "/v1/memory", "k2", t0); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("a failed create left its record: %v", err)
	}
}
