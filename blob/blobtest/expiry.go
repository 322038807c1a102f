package blobtest

import (
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

// needClock skips the test unless the backend lets the test control its
// clock, and returns the backend's time now.
func needClock(t *testing.T, s blob.Store, ctl Control) time.Time {
	t.Helper()
	if ctl.Now == nil || ctl.Advance == nil {
		t.Skip("the backend gives no control over its clock")
	}
	return ctl.Now(s)
}

// wantGone checks that name behaves as absent for Get, Open and Stat.
func wantGone(t *testing.T, s blob.Store, name string) {
	t.Helper()
	ctx := t.Context()
	_, err := s.Stat(ctx, name)
	wantCode(t, "Stat "+name, err, cairn.ENOTFOUND)
	_, _, err = s.Get(ctx, name, 0, -1)
	wantCode(t, "Get "+name, err, cairn.ENOTFOUND)
	_, _, err = s.Open(ctx, name)
	wantCode(t, "Open "+name, err, cairn.ENOTFOUND)
}

// testExpiry: a blob expires at its ExpiresAt instant and is absent from
// then on, before any sweep; expired blobs cannot be revived; Delete of an
// expired blob succeeds and the name can be reused.
func testExpiry(t *testing.T, s blob.Store, ctl Control) {
	ctx, now := t.Context(), needClock(t, s, ctl)
	data := content(3, 70000)
	put(t, s, "exp/hour", data, blob.PutOptions{ExpiresAt: now.Add(time.Hour)})
	put(t, s, "exp/day", data, blob.PutOptions{ExpiresAt: now.Add(24 * time.Hour)})
	put(t, s, "exp/never", data, blob.PutOptions{})

	ctl.Advance(s, time.Hour-time.Nanosecond)
	wantBytes(t, "Get just before expiry", mustGet(t, s, "exp/hour"), data)

	ctl.Advance(s, time.Nanosecond)
	wantGone(t, s, "exp/hour")
	err := s.ExtendExpiry(ctx, "exp/hour", now.Add(48*time.Hour))
	wantCode(t, "ExtendExpiry of an expired blob", err, cairn.ENOTFOUND)
	wantGone(t, s, "exp/hour")
	wantBytes(t, "Get of a live blob", mustGet(t, s, "exp/day"), data)

	ctl.Advance(s, 1000*time.Hour)
	wantGone(t, s, "exp/day")
	wantBytes(t, "Get of a blob without expiry", mustGet(t, s, "exp/never"), data)
	if err := s.Delete(ctx, "exp/day"); err != nil {
		t.Fatalf("Delete of an expired blob: %v", err)
	}
	wantGone(t, s, "exp/day")

	put(t, s, "exp/hour", []byte("fresh"), blob.PutOptions{})
	wantBytes(t, "Get after re-Put of an expired name", mustGet(t, s, "exp/hour"), []byte("fresh"))

	put(t, s, "exp/past", data, blob.PutOptions{ExpiresAt: ctl.Now(s).Add(-time.Second)})
	wantGone(t, s, "exp/past")
}

// testExtendExpiry: ExtendExpiry moves a live blob's expiry (later, earlier
// or never) and leaves its content and other attributes as they were.
func testExtendExpiry(t *testing.T, s blob.Store, ctl Control) {
	ctx, now := t.Context(), needClock(t, s, ctl)
	data := content(8, 140000)
	orig := put(t, s, "ext/x", data, blob.PutOptions{ContentType: "text/plain", ExpiresAt: now.Add(time.Hour)})

	later := now.Add(3 * time.Hour)
	if err := s.ExtendExpiry(ctx, "ext/x", later); err != nil {
		t.Fatalf("ExtendExpiry: %v", err)
	}
	want := orig
	want.ExpiresAt = later
	ctl.Advance(s, 2*time.Hour)
	st, err := s.Stat(ctx, "ext/x")
	if err != nil {
		t.Fatalf("Stat after ExtendExpiry: %v", err)
	}
	wantInfo(t, "Stat after ExtendExpiry", st, want)
	got, info, err := get(t, s, "ext/x", 0, -1)
	if err != nil {
		t.Fatalf("Get after ExtendExpiry: %v", err)
	}
	wantBytes(t, "Get after ExtendExpiry", got, data)
	wantInfo(t, "Get after ExtendExpiry", info, want)

	// Never expires.
	if err := s.ExtendExpiry(ctx, "ext/x", time.Time{}); err != nil {
		t.Fatalf("ExtendExpiry(zero): %v", err)
	}
	ctl.Advance(s, 10000*time.Hour)
	if st, err := s.Stat(ctx, "ext/x"); err != nil || !st.ExpiresAt.IsZero() {
		t.Fatalf("Stat after ExtendExpiry(zero): %+v, %v", st, err)
	}

	// Earlier: a renewal counts from now, so it may shorten the expiry.
	if err := s.ExtendExpiry(ctx, "ext/x", ctl.Now(s).Add(time.Minute)); err != nil {
		t.Fatalf("ExtendExpiry(shorter): %v", err)
	}
	ctl.Advance(s, time.Minute)
	wantGone(t, s, "ext/x")
}

// testDeleteExpired: the sweep removes the blobs expired at the time it is
// given, counts them, and leaves live blobs and blobs without expiry.
func testDeleteExpired(t *testing.T, s blob.Store, ctl Control) {
	ctx, now := t.Context(), needClock(t, s, ctl)
	data := content(5, 1000)
	for name, ttl := range map[string]time.Duration{"sweep/hour": time.Hour, "sweep/day": 24 * time.Hour, "sweep/never": 0} {
		opts := blob.PutOptions{}
		if ttl > 0 {
			opts.ExpiresAt = now.Add(ttl)
		}
		put(t, s, name, data, opts)
	}
	ctl.Advance(s, 2*time.Hour)
	if n, err := s.DeleteExpired(ctx, ctl.Now(s)); err != nil || n != 1 {
		t.Fatalf("DeleteExpired = %d, %v; want 1", n, err)
	}
	wantGone(t, s, "sweep/hour")
	for _, name := range []string{"sweep/day", "sweep/never"} {
		wantBytes(t, "Get of "+name+" after the sweep", mustGet(t, s, name), data)
	}
}
