package fs

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

// TestPathSafety stores names that look like paths out of the root and
// checks that every file lands inside the root.
func TestPathSafety(t *testing.T) {
	parent := t.TempDir()
	s, err := New(filepath.Join(parent, "blobs"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"a", "a/b", "a/b/c", "...", "..../etc/passwd", "a/..b/c..", "x:y", "C:", "~root/x", "%2e%2e/x"}
	for _, name := range names {
		if _, err := s.Put(t.Context(), name, strings.NewReader(name), blob.PutOptions{}); err != nil {
			t.Fatalf("Put(%q): %v", name, err)
		}
	}
	for _, name := range names {
		got, err := readAll(s, name)
		if err != nil || !bytes.Equal(got, []byte(name)) {
			t.Fatalf("Get(%q) = %q, %v", name, got, err)
		}
	}
	entries, err := os.ReadDir(parent)
	if err != nil || len(entries) != 1 || entries[0].Name() != "blobs" {
		t.Fatalf("entries beside the root: %v, %v", entries, err)
	}
	if got := len(files(t, s.Root())); got != len(names) {
		t.Fatalf("%d files under the root, want %d (one sidecar each, content inline)", got, len(names))
	}
}

func TestURL(t *testing.T) {
	s, err := New(filepath.Join(t.TempDir(), "my blobs"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.ToSlash(s.Root())
	want := "file://" + strings.ReplaceAll(root, " ", "%20") + "/memory/semantic/notes/a%20b/v1%3F"
	if got := s.URL("memory/semantic/notes/a b/v1?"); got != want {
		t.Fatalf("URL = %q, want %q", got, want)
	}
	s, err = New(t.TempDir(), Options{BaseURL: "https://blobs.example/v1/"})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.URL("media/photo/cat #1.jpg"); got != "https://blobs.example/v1/media/photo/cat%20%231.jpg" {
		t.Fatalf("URL with BaseURL = %q", got)
	}
}

// FuzzName: validation never panics, what it accepts has no path tricks,
// and the files of an accepted name lie in one fan-out directory of the
// root.
func FuzzName(f *testing.F) {
	for _, s := range []string{"a", "a/b", "../x", "a/./b", "memory/semantic/notes/a b/v1",
		"media/photo/cat__ab12cd34.jpg", "\x00", "a\\b", "日本/語", "/", "a//b", "\xff"} {
		f.Add(s)
	}
	root := f.TempDir()
	s := &Store{root: root}
	f.Fuzz(func(t *testing.T, name string) {
		err := blob.ValidateName(name)
		if err != nil {
			if !cairn.IsCode(err, cairn.EINVALID) {
				t.Fatalf("ValidateName(%q): %v, not EINVALID", name, err)
			}
			return
		}
		if !utf8.ValidString(name) || len(name) > blob.MaxNameLen || strings.ContainsRune(name, '\\') {
			t.Fatalf("accepted %q", name)
		}
		for _, seg := range strings.Split(name, "/") {
			if seg == "" || seg == "." || seg == ".." {
				t.Fatalf("accepted %q with segment %q", name, seg)
			}
		}
		for _, r := range name {
			if unicode.IsControl(r) {
				t.Fatalf("accepted %q with control character %U", name, r)
			}
		}
		l := s.locate(name)
		for _, p := range []string{l.metaPath(), l.blobPath(newGen())} {
			rel, err := filepath.Rel(root, p)
			if err != nil || filepath.Dir(rel) != l.key[:2] || strings.Contains(rel, "..") {
				t.Fatalf("name %q maps to %q, outside one fan-out directory", name, p)
			}
			key, _, kind := parseFile(filepath.Base(p))
			if key != l.key || kind == 0 {
				t.Fatalf("name %q maps to %q, which the sweep does not recognise", name, p)
			}
		}
	})
}
