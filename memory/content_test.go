package memory

import (
	"bytes"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

func TestBlobName(t *testing.T) {
	for _, tc := range []struct {
		typ, key, file, ext string
		ver                 int
		want                string
	}{
		{"semantic", "notes/today", "", "", 1, "memory/semantic/notes/today/v1"},
		{"file", "docs/plan", "plan", ".pdf", 3, "memory/file/docs/plan/plan_v3.pdf"},
		{"file", "docs/plan", "plan", "", 2, "memory/file/docs/plan/plan_v2"},
		{"file", "docs/plan", "", ".txt", 2, "memory/file/docs/plan/blob_v2.txt"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			if got := BlobName(tc.typ, tc.key, tc.ver, tc.file, tc.ext); got != tc.want {
				t.Fatalf("BlobName = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCompressRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name   string
		in     []byte
		packed bool
	}{
		{"Small", []byte("short text"), false},
		{"Repetitive", bytes.Repeat([]byte("abc "), 1000), true},
		{"Incompressible", bytes.Repeat([]byte{0x8f, 0x13, 0xa7, 0x55, 0x02, 0xd9, 0x6e, 0xc1}, 1), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stored, packed := compress(tc.in)
			if packed != tc.packed || (packed && len(stored) >= len(tc.in)) {
				t.Fatalf("packed %v (%d -> %d bytes)", packed, len(tc.in), len(stored))
			}
			out, err := decompress(stored, packed)
			if err != nil || !bytes.Equal(out, tc.in) {
				t.Fatalf("round trip: %v", err)
			}
		})
	}
}

func TestCheckKey(t *testing.T) {
	for _, tc := range []struct {
		key string
		ok  bool
	}{
		{"notes/today", true}, {"a", true}, {"with space/ünïcode", true},
		{"", false}, {"/lead", false}, {"trail/", false}, {"a//b", false}, {"a/./b", false}, {"a/../b", false},
		{"tab\there", false}, {"back\\slash", false}, {strings.Repeat("k", 513), false},
	} {
		t.Run(tc.key, func(t *testing.T) {
			if err := checkKey(tc.key); (err == nil) != tc.ok {
				t.Fatalf("checkKey(%q) = %v, want ok=%v", tc.key, err, tc.ok)
			}
		})
	}
}

// FuzzKeyToBlobName: every key, type and custom name the API accepts makes
// a blob name the blob store accepts.
func FuzzKeyToBlobName(f *testing.F) {
	f.Add("semantic", "notes/today", "", "")
	f.Add("file", "docs/plan", "plan", ".pdf")
	f.Add("x", "a b/ü", "..a", "..")
	f.Fuzz(func(t *testing.T, typ, key, file, ext string) {
		if checkType(typ) != nil || checkKey(key) != nil || checkBlobParts(file, ext) != nil {
			return
		}
		// A version written before BlobKey existed keeps its content under
		// the spec's blob name in the agent's folder.
		legacy := &cairn.MemoryVersion{BlobName: BlobName(typ, key, 7, file, ext)}
		name := blobPath("0190a4c2-7d1e-7c3a-9b5e-2f6d8a1c4e7b", legacy)
		if err := blob.ValidateName(name); err != nil {
			t.Fatalf("accepted type %q key %q file %q ext %q, but blob name %q is invalid: %v", typ, key, file, ext, name, err)
		}
	})
}
