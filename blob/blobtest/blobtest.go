// Package blobtest is the one conformance suite of the blob.Store contract:
// every backend (blob/fs, blob/s3) runs RunTests from its own tests.
//
// It imports the root package, blob and the standard library (testing,
// net/http/httptest) only; never a backend.
package blobtest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

// Control gives the suite the hooks it cannot get through blob.Store. A
// backend leaves a hook nil to skip just the subtests that need it.
type Control struct {
	// Now returns the time of the store's clock and Advance moves it
	// forward. Both are needed for the expiry subtests.
	Now     func(s blob.Store) time.Time
	Advance func(s blob.Store, d time.Duration)

	// Corrupt changes the stored byte at offset of the named blob's
	// content, leaving its recorded digests as they were.
	Corrupt func(t *testing.T, s blob.Store, name string, offset int64)

	// MaxSegmentLen, when positive, is the longest name segment (in
	// bytes) the backend stores, below blob.ValidateName's limits: a store
	// on a server that keeps objects as files (s3rver, MinIO) may declare
	// one. The suite then wants EINVALID for valid names with a longer
	// segment, and leaves them out of the other subtests.
	MaxSegmentLen int
}

// fits reports whether the backend stores name (see MaxSegmentLen).
func (ctl Control) fits(name string) bool {
	if ctl.MaxSegmentLen <= 0 {
		return true
	}
	for seg := range strings.SplitSeq(name, "/") {
		if len(seg) > ctl.MaxSegmentLen {
			return false
		}
	}
	return true
}

// Clocks gives each store a backend's test opens a manual clock of its
// own, for the Now and Advance hooks of Control.
type Clocks struct{ m sync.Map } // blob.Store -> *cairn.ManualClock

// Keep ties clk, the clock s was opened with, to s.
func (c *Clocks) Keep(s blob.Store, clk *cairn.ManualClock) { c.m.Store(s, clk) }

// Now is Control.Now.
func (c *Clocks) Now(s blob.Store) time.Time { return c.clock(s).Now() }

// Advance is Control.Advance.
func (c *Clocks) Advance(s blob.Store, d time.Duration) { c.clock(s).Advance(d) }

func (c *Clocks) clock(s blob.Store) *cairn.ManualClock {
	clk, _ := c.m.Load(s)
	return clk.(*cairn.ManualClock)
}

// RunTests runs the conformance suite. open returns a new, empty store for
// each subtest.
func RunTests(t *testing.T, open func(t *testing.T) blob.Store, ctl Control) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s blob.Store, ctl Control)
	}{
		{"PutGet", testPutGet},
		{"ReaderShapes", testReaderShapes},
		{"ReaderError", testReaderError},
		{"Replace", testReplace},
		{"CreateOnly", testCreateOnly},
		{"ConcurrentCreate", testConcurrentCreate},
		{"Delete", testDelete},
		{"NotFound", testNotFound},
		{"Range", testRange},
		{"RangeEmptyBlob", testRangeEmpty},
		{"OpenSeek", testOpenSeek},
		{"ServeContent", testServeContent},
		{"ValidNames", testValidNames},
		{"InvalidNames", testInvalidNames},
		{"URL", testURL},
		{"Expiry", testExpiry},
		{"ExtendExpiry", testExtendExpiry},
		{"DeleteExpired", testDeleteExpired},
		{"Large", testLarge},
		{"ConcurrentPuts", testConcurrentPuts},
		{"ConcurrentReplace", testConcurrentReplace},
		{"Corruption", testCorruption},
		{"CancelPut", testCancelPut},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, open(t), ctl) })
	}
}

// content returns n deterministic pseudo-random bytes for seed.
func content(seed uint64, n int) []byte {
	var s [32]byte
	s[0], s[1] = byte(seed), byte(seed>>8)
	b := make([]byte, n)
	_, _ = rand.NewChaCha8(s).Read(b)
	return b
}

func hexSHA(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func put(t *testing.T, s blob.Store, name string, data []byte, opts blob.PutOptions) blob.Info {
	t.Helper()
	info, err := s.Put(t.Context(), name, bytes.NewReader(data), opts)
	if err != nil {
		t.Fatalf("Put(%q): %v", name, err)
	}
	return info
}

// get reads a range through Get; the error is Get's or the reader's.
func get(t *testing.T, s blob.Store, name string, off, n int64) ([]byte, blob.Info, error) {
	t.Helper()
	rc, info, err := s.Get(t.Context(), name, off, n)
	if err != nil {
		return nil, info, err
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	return b, info, err
}

func mustGet(t *testing.T, s blob.Store, name string) []byte {
	t.Helper()
	b, _, err := get(t, s, name, 0, -1)
	if err != nil {
		t.Fatalf("Get(%q): %v", name, err)
	}
	return b
}

func wantCode(t *testing.T, what string, err error, code string) {
	t.Helper()
	if got := cairn.ErrorCode(err); got != code {
		t.Fatalf("%s: error %v (code %q), want code %q", what, err, got, code)
	}
}

func wantBytes(t *testing.T, what string, got, want []byte) {
	t.Helper()
	if bytes.Equal(got, want) {
		return
	}
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	t.Fatalf("%s: got %d bytes, want %d; first difference at %d", what, len(got), len(want), i)
}

// wantInfo checks got against want field by field (times with Equal).
func wantInfo(t *testing.T, what string, got, want blob.Info) {
	t.Helper()
	if got.Name != want.Name || got.Size != want.Size || got.SHA256 != want.SHA256 ||
		got.ContentType != want.ContentType || !got.CreatedAt.Equal(want.CreatedAt) ||
		!got.ExpiresAt.Equal(want.ExpiresAt) {
		t.Fatalf("%s: Info %+v, want %+v", what, got, want)
	}
}

// FlipByte flips the bits of the byte at off of the file at path: damage
// to a stored file, for the tests of a backend keeping blobs in files.
func FlipByte(t testing.TB, path string, off int64) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := make([]byte, 1)
	if _, err := f.ReadAt(b, off); err != nil {
		t.Fatal(err)
	}
	b[0] ^= 0xff
	if _, err := f.WriteAt(b, off); err != nil {
		t.Fatal(err)
	}
}
