package memory_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
	"github.com/cairn-dev/cairn/blob/fs"
	"github.com/cairn-dev/cairn/memory"
	"github.com/cairn-dev/cairn/store/pebble"
)

// t0 is when every fixture's clocks start.
var t0 = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

// fixture is a memory service over a real embedded store and a real blob
// store, each in its own temporary directory. The service and the store
// read clock; the blob store reads blobClock, which stays at t0 unless a
// test moves it, so that a blob that is gone was deleted, not hidden by
// its expiry.
type fixture struct {
	s         *memory.Service
	db        *pebble.DB
	blobs     *fs.Store
	clock     *cairn.ManualClock
	blobClock *cairn.ManualClock
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{clock: cairn.NewManualClock(t0), blobClock: cairn.NewManualClock(t0)}
	var err error
	if f.db, err = pebble.Open(t.TempDir(), pebble.Options{Clock: f.clock}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.db.Close() })
	if f.blobs, err = fs.New(t.TempDir(), fs.Options{Clock: f.blobClock}); err != nil {
		t.Fatal(err)
	}
	f.s = &memory.Service{Store: f.db, Audit: f.db, Blobs: f.blobs, Clock: f.clock}
	return f
}

// newBlobFixture is a fixture whose service stores every version's
// content in a blob of its own, as it did for every version before short
// contents went into the record (InlineBytes).
func newBlobFixture(t *testing.T) *fixture {
	f := newFixture(t)
	f.s.InlineBytes = -1
	return f
}

// create stores a new memory, failing the test on an error.
func (f *fixture) create(t *testing.T, agent string, w *memory.Write) *memory.View {
	t.Helper()
	v, err := f.s.Create(context.Background(), agent, w)
	if err != nil {
		t.Fatalf("create %s: %v", w.Key, err)
	}
	return v
}

// newVersion stores the next version of the memory holding id.
func (f *fixture) newVersion(t *testing.T, agent, id string, w *memory.Write) *memory.View {
	t.Helper()
	v, err := f.s.NewVersion(context.Background(), agent, id, nil, w)
	if err != nil {
		t.Fatalf("new version of %s: %v", id, err)
	}
	return v
}

// blob returns the stored bytes of a blob (as stored: compressed content
// stays compressed) and its info.
func (f *fixture) blob(t *testing.T, name string) ([]byte, blob.Info) {
	t.Helper()
	rc, info, err := f.blobs.Get(context.Background(), name, 0, -1)
	if err != nil {
		t.Fatalf("blob %s: %v", name, err)
	}
	defer rc.Close()
	var b bytes.Buffer
	if _, err := b.ReadFrom(rc); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), info
}

// blobGone fails unless the blob store holds nothing under name.
func (f *fixture) blobGone(t *testing.T, name string) {
	t.Helper()
	if info, err := f.blobs.Stat(context.Background(), name); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("blob %s is still stored (%+v, %v)", name, info, err)
	}
}

// audit returns the agent's log entries with the action, newest first.
func (f *fixture) audit(t *testing.T, agent, action string) []cairn.AuditEntry {
	t.Helper()
	es, err := f.db.ListAudit(context.Background(), agent, cairn.AuditFilter{Action: action}, "", 100)
	if err != nil {
		t.Fatal(err)
	}
	return es
}

func ptr[T any](v T) *T { return &v }

// TestCreateStoresRecordBlobAndAudit: a create commits the head, version 1
// and a write entry, and the content sits in the version's own blob with
// the memory's expiry; a second create of the key is a conflict that
// stores nothing.
func TestCreateStoresRecordBlobAndAudit(t *testing.T) {
	ctx := context.Background()
	f := newBlobFixture(t)
	v := f.create(t, "a", &memory.Write{Key: "notes/first", Content: ptr("the first note"), Importance: ptr(0.8),
		ExpiresIn: ptr("1d"), Metadata: &memory.Metadata{Tags: []string{"x", "y"}}, RequestID: "req-1"})

	m, err := f.db.MemoryByKey(ctx, "a", "notes/first")
	if err != nil {
		t.Fatal(err)
	}
	if m.ID != v.Version.ID || m.LatestID != v.Version.ID || m.Latest != 1 || m.Versions != 1 || m.Type != "semantic" ||
		m.Importance != 0.8 || m.Visibility != "private" || strings.Join(m.Tags, ",") != "x,y" ||
		!m.ExpiresAt.Equal(t0.Add(24*time.Hour)) || !m.CreatedAt.Equal(t0) {
		t.Fatalf("stored head: %+v", m)
	}
	_, sv, err := f.db.MemoryByVersionID(ctx, "a", v.Version.ID)
	if err != nil {
		t.Fatal(err)
	}
	if sv.Version != 1 || sv.MemoryID != m.ID || sv.BlobKey != "agents/a/v/"+sv.ID || sv.BlobName != "memory/semantic/notes/first/v1" ||
		sv.SizeBytes != int64(len("the first note")) || sv.IsCompressed {
		t.Fatalf("stored version: %+v", sv)
	}
	stored, info := f.blob(t, sv.BlobKey)
	if string(stored) != "the first note" || sv.StoredBytes != info.Size || !info.ExpiresAt.Equal(m.ExpiresAt) {
		t.Fatalf("blob %q (%+v), want the content expiring with the memory at %v", stored, info, m.ExpiresAt)
	}
	es := f.audit(t, "a", cairn.AuditWrite)
	if len(es) != 1 || es[0].Resource != v.Version.ID || es[0].RequestID != "req-1" || es[0].Detail["key"] != "notes/first" {
		t.Fatalf("audit: %+v", es)
	}

	// Large content is stored compressed and read back whole.
	big := strings.Repeat("a compressible line of text\n", 200)
	bv := f.create(t, "a", &memory.Write{Key: "notes/big", Content: &big})
	if stored, _ := f.blob(t, bv.Version.BlobKey); !bv.Version.IsCompressed || len(stored) >= len(big) {
		t.Fatalf("content of %d bytes stored as %d bytes, compressed %v", len(big), len(stored), bv.Version.IsCompressed)
	}
	if got, err := f.s.Get(ctx, "a", bv.Version.ID, true, ""); err != nil || string(got.Content) != big {
		t.Fatalf("large content read back: %d bytes, %v", len(got.Content), err)
	}

	// The key is taken: a conflict, and no second record, version or entry.
	_, err = f.s.Create(ctx, "a", &memory.Write{Key: "notes/first", Content: ptr("again")})
	if !cairn.IsCode(err, cairn.ECONFLICT) {
		t.Fatalf("second create of the key: %v", err)
	}
	if vs, err := f.db.MemoryVersions(ctx, "a", m.ID); err != nil || len(vs) != 1 {
		t.Fatalf("versions after the conflict: %d, %v", len(vs), err)
	}
	if es := f.audit(t, "a", cairn.AuditWrite); len(es) != 2 {
		t.Fatalf("%d write entries, want the two creates", len(es))
	}
	// Another agent's key space is its own.
	if o := f.create(t, "b", &memory.Write{Key: "notes/first", Content: ptr("b's note")}); o.Memory.ID == m.ID {
		t.Fatal("two agents share a memory")
	}
}

// TestNewVersionKeepsHistory: a new version is version N+1 under its own
// blob, the earlier versions and their blobs stay readable, and History
// lists them newest first; a stale If-Match or a changed key stores
// nothing.
func TestNewVersionKeepsHistory(t *testing.T) {
	ctx := context.Background()
	f := newBlobFixture(t)
	v1 := f.create(t, "a", &memory.Write{Key: "plan", Content: ptr("draft"), Metadata: &memory.Metadata{Tags: []string{"work"}}})
	f.clock.Advance(time.Minute)
	v2 := f.newVersion(t, "a", v1.Version.ID, &memory.Write{Content: ptr("final"), Importance: ptr(0.9)})

	if v2.Version.Version != 2 || v2.Version.ID == v1.Version.ID || v2.Version.BlobKey == v1.Version.BlobKey ||
		v2.Version.BlobName != "memory/semantic/plan/v2" {
		t.Fatalf("version 2: %+v", v2.Version)
	}
	m, err := f.db.MemoryByKey(ctx, "a", "plan")
	if err != nil {
		t.Fatal(err)
	}
	if m.ID != v1.Memory.ID || m.Latest != 2 || m.LatestID != v2.Version.ID || m.Versions != 2 || m.Importance != 0.9 ||
		strings.Join(m.Tags, ",") != "work" || !m.UpdatedAt.Equal(t0.Add(time.Minute)) || !m.CreatedAt.Equal(t0) {
		t.Fatalf("head after the new version: %+v", m)
	}
	for _, want := range []struct {
		v       *memory.View
		content string
	}{{v1, "draft"}, {v2, "final"}} {
		if b, _ := f.blob(t, want.v.Version.BlobKey); string(b) != want.content {
			t.Fatalf("blob of version %d: %q, want %q", want.v.Version.Version, b, want.content)
		}
		got, err := f.s.Get(ctx, "a", want.v.Version.ID, true, "")
		if err != nil || string(got.Content) != want.content || got.Version.Version != want.v.Version.Version || got.IsLatest() != (want.v == v2) {
			t.Fatalf("read of version %d: %+v, %v", want.v.Version.Version, got, err)
		}
	}
	h, err := f.s.History(ctx, "a", v1.Version.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Versions) != 2 || h.Versions[0].ID != v2.Version.ID || h.Versions[1].ID != v1.Version.ID || h.Memory.Latest != 2 {
		t.Fatalf("history: %+v", h.Versions)
	}
	if es := f.audit(t, "a", cairn.AuditWrite); len(es) != 2 || es[0].Resource != v2.Version.ID || es[0].Detail["version"] != float64(2) {
		t.Fatalf("write entries: %+v", es)
	}

	// If-Match naming version 1 no longer matches; a key cannot change.
	_, err = f.s.NewVersion(ctx, "a", v2.Version.ID, func(latest int) bool { return latest == 1 }, &memory.Write{Content: ptr("lost")})
	if !cairn.IsCode(err, cairn.EPRECONDITION) {
		t.Fatalf("stale If-Match: %v", err)
	}
	_, err = f.s.NewVersion(ctx, "a", v2.Version.ID, nil, &memory.Write{Key: "other", Content: ptr("moved")})
	if !cairn.IsCode(err, cairn.EINVALID) {
		t.Fatalf("changed key: %v", err)
	}
	if vs, err := f.db.MemoryVersions(ctx, "a", m.ID); err != nil || len(vs) != 2 {
		t.Fatalf("versions after the refused writes: %d, %v", len(vs), err)
	}
	// Another agent cannot add a version to it.
	if _, err := f.s.NewVersion(ctx, "b", v2.Version.ID, nil, &memory.Write{Content: ptr("b's")}); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("new version by another agent: %v", err)
	}
}

// TestDeleteVersionsAndBlobs: deleting an older version removes it and
// its blob only; deleting the latest makes the newest remaining one the
// latest; deleting the last removes the memory, and the key is free again.
func TestDeleteVersionsAndBlobs(t *testing.T) {
	ctx := context.Background()
	f := newBlobFixture(t)
	v1 := f.create(t, "a", &memory.Write{Key: "k", Content: ptr("one")})
	v2 := f.newVersion(t, "a", v1.Version.ID, &memory.Write{Content: ptr("two")})
	v3 := f.newVersion(t, "a", v1.Version.ID, &memory.Write{Content: ptr("three")})

	// Another agent's delete is a not-found that removes nothing.
	if _, _, err := f.s.Delete(ctx, "b", v1.Version.ID, nil, ""); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("delete by another agent: %v", err)
	}
	f.blob(t, v1.Version.BlobKey)

	// The oldest: the head is unchanged but for the count.
	head, gone, err := f.s.Delete(ctx, "a", v1.Version.ID, nil, "req-del")
	if err != nil {
		t.Fatal(err)
	}
	if gone.ID != v1.Version.ID || head.Latest != 3 || head.LatestID != v3.Version.ID || head.Versions != 2 {
		t.Fatalf("after deleting version 1: head %+v, gone %+v", head, gone)
	}
	f.blobGone(t, v1.Version.BlobKey)
	if _, _, err := f.db.MemoryByVersionID(ctx, "a", v1.Version.ID); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("deleted version still stored: %v", err)
	}
	// The latest, with If-Match: a stale one deletes nothing.
	if _, _, err := f.s.Delete(ctx, "a", v3.Version.ID, func(latest int) bool { return latest == 2 }, ""); !cairn.IsCode(err, cairn.EPRECONDITION) {
		t.Fatalf("stale If-Match: %v", err)
	}
	f.blob(t, v3.Version.BlobKey)
	head, _, err = f.s.Delete(ctx, "a", v3.Version.ID, func(latest int) bool { return latest == 3 }, "")
	if err != nil {
		t.Fatal(err)
	}
	if head.Latest != 2 || head.LatestID != v2.Version.ID || head.Versions != 1 {
		t.Fatalf("after deleting the latest: %+v", head)
	}
	f.blobGone(t, v3.Version.BlobKey)
	if m, err := f.db.MemoryByKey(ctx, "a", "k"); err != nil || m.LatestID != v2.Version.ID {
		t.Fatalf("stored head: %+v, %v", m, err)
	}
	if got, err := f.s.Get(ctx, "a", v1.Version.ID, false, ""); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("read of a deleted version: %+v, %v", got, err)
	}
	// The last: the memory is gone with its blob.
	head, _, err = f.s.Delete(ctx, "a", v2.Version.ID, nil, "")
	if err != nil || head != nil {
		t.Fatalf("deleting the only version: head %+v, %v", head, err)
	}
	f.blobGone(t, v2.Version.BlobKey)
	if _, err := f.db.MemoryByKey(ctx, "a", "k"); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("memory after its last version went: %v", err)
	}
	if _, _, err := f.s.Delete(ctx, "a", v2.Version.ID, nil, ""); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("second delete: %v", err)
	}
	es := f.audit(t, "a", cairn.AuditDelete)
	if len(es) != 3 || es[2].Resource != v1.Version.ID || es[2].RequestID != "req-del" || es[0].Resource != v2.Version.ID {
		t.Fatalf("delete entries: %+v", es)
	}
	// The key is free again: a create starts over at version 1.
	if v := f.create(t, "a", &memory.Write{Key: "k", Content: ptr("anew")}); v.Version.Version != 1 || v.Memory.ID == v1.Memory.ID {
		t.Fatalf("create after the delete: %+v", v.Version)
	}
}

// TestRenewMovesExpiry: a renewal sets the expiry to now plus the
// duration (not the old expiry plus it), in the record and on every
// version's blob, without rewriting content; each id succeeds or fails on
// its own, and a renewed memory outlives its first expiry.
func TestRenewMovesExpiry(t *testing.T) {
	ctx := context.Background()
	f := newBlobFixture(t)
	v1 := f.create(t, "a", &memory.Write{Key: "k", Content: ptr("one"), ExpiresIn: ptr("1h")})
	v2 := f.newVersion(t, "a", v1.Version.ID, &memory.Write{Content: ptr("two")})
	if !v2.Memory.ExpiresAt.Equal(t0.Add(time.Hour)) {
		t.Fatalf("a new version without expiresIn changed the expiry to %v", v2.Memory.ExpiresAt)
	}
	_, before := f.blob(t, v1.Version.BlobKey)

	f.clock.Advance(30 * time.Minute)
	want := t0.Add(30*time.Minute + 24*time.Hour)
	rs := f.s.Renew(ctx, "a", []string{v1.Version.ID, cairn.NewID()}, 24*time.Hour, "req-renew")
	if len(rs) != 2 || !rs[0].Success || !rs[0].NewExpiresAt.Equal(want) || rs[1].Success || rs[1].Error == "" {
		t.Fatalf("renewals: %+v", rs)
	}
	m, err := f.db.MemoryByKey(ctx, "a", "k")
	if err != nil || !m.ExpiresAt.Equal(want) || m.Latest != 2 || m.Versions != 2 {
		t.Fatalf("stored head after the renewal: %+v, %v", m, err)
	}
	for _, v := range []*memory.View{v1, v2} {
		b, info := f.blob(t, v.Version.BlobKey)
		if !info.ExpiresAt.Equal(want) {
			t.Fatalf("blob of version %d expires at %v, want %v", v.Version.Version, info.ExpiresAt, want)
		}
		if v == v1 && (string(b) != "one" || !info.CreatedAt.Equal(before.CreatedAt) || info.SHA256 != before.SHA256) {
			t.Fatalf("the renewal rewrote the blob: %+v, was %+v", info, before)
		}
	}
	if es := f.audit(t, "a", cairn.AuditWrite); es[0].Resource != v1.Version.ID || es[0].RequestID != "req-renew" || es[0].Detail["renew"] == nil {
		t.Fatalf("renewal entry: %+v", es[0])
	}

	// Past the first expiry the memory is still there, and the sweep
	// leaves it.
	f.clock.Advance(time.Hour)
	f.blobClock.Advance(90 * time.Minute)
	if got, err := f.s.Get(ctx, "a", v2.Version.ID, true, ""); err != nil || string(got.Content) != "two" {
		t.Fatalf("renewed memory after its first expiry: %+v, %v", got, err)
	}
	if n, err := f.s.Sweep(ctx, f.clock.Now()); err != nil || n != 0 {
		t.Fatalf("sweep removed %d renewed memories: %v", n, err)
	}

	// A shorter renewal moves the blobs' expiry back too.
	f.s.Renew(ctx, "a", []string{v2.Version.ID}, time.Minute, "")
	if _, info := f.blob(t, v1.Version.BlobKey); !info.ExpiresAt.Equal(f.clock.Now().Add(time.Minute)) {
		t.Fatalf("blob expiry after a shorter renewal: %v", info.ExpiresAt)
	}
}

// TestSweepRemovesExpiredMemories: the sweep removes each unpinned memory
// past its expiry with every version and blob, and logs each delete;
// pinned, unexpired and never-expiring memories stay with their blobs.
func TestSweepRemovesExpiredMemories(t *testing.T) {
	ctx := context.Background()
	f := newBlobFixture(t)
	old1 := f.create(t, "a", &memory.Write{Key: "old", Content: ptr("one"), ExpiresIn: ptr("1h")})
	old2 := f.newVersion(t, "a", old1.Version.ID, &memory.Write{Content: ptr("two")})
	other := f.create(t, "b", &memory.Write{Key: "old", Content: ptr("b's"), ExpiresIn: ptr("2h")})
	pinned := f.create(t, "a", &memory.Write{Key: "pinned", Content: ptr("kept"), ExpiresIn: ptr("1h")})
	if _, err := f.s.TogglePin(ctx, "a", pinned.Version.ID, ""); err != nil {
		t.Fatal(err)
	}
	later := f.create(t, "a", &memory.Write{Key: "later", Content: ptr("soon"), ExpiresIn: ptr("1d")})
	never := f.create(t, "a", &memory.Write{Key: "never", Content: ptr("always")})

	// Nothing has expired yet.
	if n, err := f.s.Sweep(ctx, f.clock.Now()); err != nil || n != 0 {
		t.Fatalf("early sweep removed %d: %v", n, err)
	}
	f.clock.Advance(3 * time.Hour)
	// Expired memories are gone for readers before the sweep, but their
	// records and blobs are still stored.
	if _, err := f.s.Get(ctx, "a", old2.Version.ID, false, ""); !cairn.IsCode(err, cairn.EEXPIRED) {
		t.Fatalf("read of an expired memory: %v", err)
	}
	if _, err := f.db.MemoryByKey(ctx, "a", "old"); err != nil {
		t.Fatalf("expired record before the sweep: %v", err)
	}
	f.blob(t, old1.Version.BlobKey)

	n, err := f.s.Sweep(ctx, f.clock.Now())
	if err != nil || n != 2 {
		t.Fatalf("sweep removed %d memories (%v), want a's and b's expired ones", n, err)
	}
	for _, gone := range []struct {
		agent string
		v     *memory.View
	}{{"a", old1}, {"a", old2}, {"b", other}} {
		if _, _, err := f.db.MemoryByVersionID(ctx, gone.agent, gone.v.Version.ID); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("swept version %s still stored: %v", gone.v.Version.ID, err)
		}
		f.blobGone(t, gone.v.Version.BlobKey)
	}
	for _, agent := range []string{"a", "b"} {
		if _, err := f.db.MemoryByKey(ctx, agent, "old"); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("%s's swept memory: %v", agent, err)
		}
	}
	es := f.audit(t, "a", cairn.AuditDelete)
	if len(es) != 2 || es[0].Resource != old2.Version.ID || es[1].Resource != old1.Version.ID || es[0].Detail["reason"] != "expired" {
		t.Fatalf("a's sweep entries: %+v", es)
	}
	for _, kept := range []*memory.View{pinned, later, never} {
		got, err := f.s.Get(ctx, "a", kept.Version.ID, true, "")
		if err != nil {
			t.Fatalf("%s after the sweep: %v", kept.Memory.Key, err)
		}
		if b, _ := f.blob(t, kept.Version.BlobKey); string(b) != string(got.Content) {
			t.Fatalf("blob of %s: %q", kept.Memory.Key, b)
		}
	}
	if _, info := f.blob(t, pinned.Version.BlobKey); !info.ExpiresAt.IsZero() {
		t.Fatalf("a pinned memory's blob expires at %v", info.ExpiresAt)
	}
	if n, err := f.s.Sweep(ctx, f.clock.Now()); err != nil || n != 0 {
		t.Fatalf("second sweep removed %d: %v", n, err)
	}
	// The key of a swept memory is free.
	if v := f.create(t, "a", &memory.Write{Key: "old", Content: ptr("new")}); v.Version.Version != 1 {
		t.Fatalf("create after the sweep: %+v", v.Version)
	}
}

// TestShortContentInRecord: a short content is kept in the version's
// record (no blob), a long one in a blob; versions stored with a blob
// before still read; deleting and renewing work on both kinds.
func TestShortContentInRecord(t *testing.T) {
	ctx := context.Background()
	f := newBlobFixture(t)
	old := f.create(t, "a", &memory.Write{Key: "old", Content: ptr("stored as a blob")})
	f.s.InlineBytes = 0 // the default from here on
	short := f.create(t, "a", &memory.Write{Key: "short", Content: ptr("a short note")})
	if !short.Version.Inlined || short.Version.StoredBytes != int64(len("a short note")) {
		t.Fatalf("short content: %+v", short.Version)
	}
	f.blobGone(t, short.Version.BlobKey)
	long := make([]byte, memory.MaxInline+1)
	_, _ = rand.NewChaCha8([32]byte{3}).Read(long)
	lv := f.newVersion(t, "a", short.Version.ID, &memory.Write{Raw: long})
	if lv.Version.Inlined {
		t.Fatal("a long content went into the record")
	}
	f.blob(t, lv.Version.BlobKey)
	for _, c := range []struct {
		id, want string
	}{{old.Version.ID, "stored as a blob"}, {short.Version.ID, "a short note"}, {lv.Version.ID, string(long)}} {
		got, err := f.s.Get(ctx, "a", c.id, true, "")
		if err != nil || string(got.Content) != c.want {
			t.Fatalf("Get %s: %d bytes, %v", c.id, len(got.Content), err)
		}
	}
	if r := f.s.Renew(ctx, "a", []string{old.Version.ID, short.Version.ID}, time.Hour, ""); !r[0].Success || !r[1].Success {
		t.Fatalf("Renew: %+v", r)
	}
	if _, _, err := f.s.Delete(ctx, "a", short.Version.ID, nil, ""); err != nil {
		t.Fatal(err)
	}
	if got, err := f.s.Get(ctx, "a", lv.Version.ID, true, ""); err != nil || !bytes.Equal(got.Content, long) {
		t.Fatalf("Get after deleting the short version: %v", err)
	}
}
