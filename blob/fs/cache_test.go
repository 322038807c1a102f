package fs

import (
	"context"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

func cacheStore(t *testing.T, cacheBytes int64) (*Store, *cairn.ManualClock) {
	t.Helper()
	clk := cairn.NewManualClock(epoch)
	s, err := New(filepath.Join(t.TempDir(), "blobs"), Options{Clock: clk, CacheBytes: cacheBytes})
	if err != nil {
		t.Fatal(err)
	}
	return s, clk
}

// TestReadCacheServesVerifiedBytes: a small range read verifies its chunk
// once and keeps it; damage to that chunk on disk afterwards cannot change
// what the range returns (the bytes that matched their digest), while an
// unread damaged chunk is still refused. Without the cache the damage is
// found on the second read.
func TestReadCacheServesVerifiedBytes(t *testing.T) {
	for _, cached := range []bool{true, false} {
		var cacheBytes int64 = -1
		if cached {
			cacheBytes = 0
		}
		s, _ := cacheStore(t, cacheBytes)
		data := putRandom(t, s, "x", 3*chunkSize+17)
		off := int64(chunkSize + 10)
		got, err := readRange(s, "x", off, 1024)
		if err != nil || string(got) != string(data[off:off+1024]) {
			t.Fatalf("first range read: %d bytes, %v", len(got), err)
		}
		corrupt(t, s, "x", chunkSize+500)
		corrupt(t, s, "x", 2*chunkSize+500)
		got, err = readRange(s, "x", off, 1024)
		switch {
		case cached && (err != nil || string(got) != string(data[off:off+1024])):
			t.Fatalf("cached range after damage on disk: %d bytes, %v; want the verified bytes", len(got), err)
		case !cached && !cairn.IsCode(err, cairn.EUPSTREAM):
			t.Fatalf("uncached range of a damaged chunk: %v, want EUPSTREAM", err)
		}
		if _, err := readRange(s, "x", 2*chunkSize+10, 1024); !cairn.IsCode(err, cairn.EUPSTREAM) {
			t.Fatalf("range of a damaged chunk never read (cache %v): %v, want EUPSTREAM", cached, err)
		}
	}
}

// TestStreamDoesNotFillTheCache: reading a blob from start to end keeps
// its sidecar and at most its first chunk in the cache, so that streams of
// large files do not push out what small reads use.
func TestStreamDoesNotFillTheCache(t *testing.T) {
	s, _ := cacheStore(t, 0)
	data := putRandom(t, s, "big", 40*chunkSize+3)
	got, err := readRange(s, "big", 0, -1)
	if err != nil || len(got) != len(data) {
		t.Fatalf("stream: %d bytes, %v", len(got), err)
	}
	if n := len(s.cache.m); n > 2 {
		t.Fatalf("%d cache entries after one stream, want the sidecar and at most one chunk", n)
	}
}

// TestCacheStaysWithinItsBound: random reads over a blob larger than the
// cache keep it within its byte bound, the newest chunks in it.
func TestCacheStaysWithinItsBound(t *testing.T) {
	bound := int64(8 * (chunkSize + 128))
	s, _ := cacheStore(t, bound)
	data := putRandom(t, s, "x", 40*chunkSize)
	for i := int64(39); i >= 0; i -= 3 {
		got, err := readRange(s, "x", i*chunkSize+7, 100)
		if err != nil || string(got) != string(data[i*chunkSize+7:i*chunkSize+107]) {
			t.Fatalf("range in chunk %d: %v", i, err)
		}
		if s.cache.size > bound {
			t.Fatalf("cache holds %d bytes, bound %d", s.cache.size, bound)
		}
	}
	if s.cache.chunk(s.locate("x").key, mustStat(t, s, "x"), 0) == nil {
		t.Fatal("the chunk read last is not in the cache")
	}
	if s.cache.chunk(s.locate("x").key, mustStat(t, s, "x"), 39) != nil {
		t.Fatal("the chunk read first is still in a full cache")
	}
}

// mustStat returns the generation of name's sidecar.
func mustStat(t *testing.T, s *Store, name string) string {
	t.Helper()
	_, rec := sidecar(t, s, name)
	return rec.Gen
}

// TestCachedSidecarFollowsChanges: a sidecar in the cache never outlives a
// change of the file: expiry is checked on every read, and an extension, a
// replacement, a delete and a sweep are seen at once.
func TestCachedSidecarFollowsChanges(t *testing.T) {
	ctx := context.Background()
	s, clk := cacheStore(t, 0)
	exp := epoch.Add(time.Hour)
	if _, err := s.Put(ctx, "x", io.LimitReader(zeros{}, 1000), blob.PutOptions{ExpiresAt: exp}); err != nil {
		t.Fatal(err)
	}
	stat := func() (blob.Info, error) { return s.Stat(ctx, "x") }
	if info, err := stat(); err != nil || !info.ExpiresAt.Equal(exp) {
		t.Fatalf("Stat: %+v, %v", info, err)
	}
	if err := s.ExtendExpiry(ctx, "x", exp.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if info, err := stat(); err != nil || !info.ExpiresAt.Equal(exp.Add(time.Hour)) {
		t.Fatalf("Stat after ExtendExpiry: %+v, %v", info, err)
	}
	clk.Advance(2 * time.Hour)
	if _, err := stat(); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("Stat of the expired blob: %v", err)
	}
	if n, err := s.DeleteExpired(ctx, clk.Now()); err != nil || n != 1 {
		t.Fatalf("DeleteExpired = %d, %v", n, err)
	}
	clk.Advance(-2 * time.Hour)
	if _, err := stat(); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("Stat after the sweep, with the clock back: %v", err)
	}
	if _, err := s.Put(ctx, "x", io.LimitReader(zeros{}, 10), blob.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	if info, err := stat(); err != nil || info.Size != 10 {
		t.Fatalf("Stat after a new Put: %+v, %v", info, err)
	}
	if err := s.Delete(ctx, "x"); err != nil {
		t.Fatal(err)
	}
	if _, err := stat(); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("Stat after Delete: %v", err)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }
