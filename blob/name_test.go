package blob_test

import (
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

func TestValidateName(t *testing.T) {
	cases := []struct {
		name string
		ok   bool
	}{
		{"memory/semantic/notes/a b/v1", true},
		{"media/photo/cat__ab12cd34.jpg", true},
		{strings.Repeat("x", blob.MaxNameLen), true},
		{strings.Repeat("x", blob.MaxNameLen+1), false},
		{strings.Repeat("é", blob.MaxNameLen/2), true},
		{"...", true},
		{"a/.../b", true},
		{"", false},
		{"a/", false},
		{"/a", false},
		{"a/../b", false},
		{"a\\b", false},
		{"a\u00a0b", false}, // no-break space: not printable in Go's sense
		{"a\u202eb", false}, // bidi override: a format character
		{"a\x1bb", false},
	}
	for _, c := range cases {
		t.Run(strings.ToValidUTF8(c.name[:min(len(c.name), 40)], "?"), func(t *testing.T) {
			err := blob.ValidateName(c.name)
			if c.ok && err != nil {
				t.Fatalf("ValidateName: %v", err)
			}
			if !c.ok && !cairn.IsCode(err, cairn.EINVALID) {
				t.Fatalf("ValidateName: %v, want EINVALID", err)
			}
		})
	}
}

// TestRecordHelpers: expiry from the instant on, chunk lengths and digests
// of a blob cut in chunks, lower-case hex fields.
func TestRecordHelpers(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if blob.Expired(time.Time{}, at) || blob.Expired(at, at.Add(-1)) || !blob.Expired(at, at) {
		t.Error("Expired: never, before and at the instant")
	}
	for i, want := range []int64{4, 4, 2} {
		if got := blob.ChunkLen(10, 4, int64(i)); got != want {
			t.Errorf("ChunkLen(10, 4, %d) = %d, want %d", i, got, want)
		}
	}
	sums := make([]byte, 2*32)
	sums[32] = 7
	if s := blob.ChunkSum(sums, 1); len(s) != 32 || s[0] != 7 {
		t.Errorf("ChunkSum(1) = %x", s)
	}
	for s, want := range map[string]bool{"0a9f": true, "0A9F": false, "0a9": false, "0a9g": false} {
		if blob.IsHex(s, 4) != want {
			t.Errorf("IsHex(%q, 4) = %v", s, !want)
		}
	}
}
