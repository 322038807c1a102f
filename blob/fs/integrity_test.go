package fs

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

func putRandom(t testing.TB, s *Store, name string, n int) []byte {
	t.Helper()
	data := make([]byte, n)
	_, _ = rand.NewChaCha8([32]byte{byte(n)}).Read(data)
	if _, err := s.Put(t.Context(), name, bytes.NewReader(data), blob.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	return data
}

// TestRangeVerifiesTouchedChunks: with chunk 100 of a 10 MB blob damaged,
// a range in another chunk still reads (only the chunks it touches are
// checked), and every read touching chunk 100 fails.
func TestRangeVerifiesTouchedChunks(t *testing.T) {
	s, _ := newTestStore(t)
	data := putRandom(t, s, "big", 10<<20)
	corrupt(t, s, "big", 100*chunkSize+5)
	cases := []struct {
		off, n int64
		ok     bool
	}{
		{3*chunkSize + 100, 1024, true},
		{99*chunkSize - 512, 1024, true},
		{101 * chunkSize, -1, true},
		{100*chunkSize - 1, 2, false},
		{100*chunkSize + 5, 1, false},
		{0, -1, false},
	}
	for _, c := range cases {
		got, err := readRange(s, "big", c.off, c.n)
		if c.ok {
			end := int64(len(data))
			if c.n >= 0 {
				end = c.off + c.n
			}
			if err != nil || !bytes.Equal(got, data[c.off:end]) {
				t.Fatalf("Get(%d, %d): %d bytes, %v", c.off, c.n, len(got), err)
			}
		} else if !cairn.IsCode(err, cairn.EUPSTREAM) {
			t.Fatalf("Get(%d, %d) over a damaged chunk: %v, want EUPSTREAM", c.off, c.n, err)
		}
	}
}

func readRange(s *Store, name string, off, n int64) ([]byte, error) {
	rc, _, err := s.Get(context.Background(), name, off, n)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
}

// TestDamagedStore: damage to the content file or the sidecar is EUPSTREAM.
func TestDamagedStore(t *testing.T) {
	edits := map[string]func(t *testing.T, s *Store){
		"TruncatedContent": func(t *testing.T, s *Store) {
			if err := os.Truncate(contentPath(t, s, "x"), 1000); err != nil {
				t.Fatal(err)
			}
		},
		"MissingContent": func(t *testing.T, s *Store) {
			if err := os.Remove(contentPath(t, s, "x")); err != nil {
				t.Fatal(err)
			}
		},
		"NotJSON":     editMeta(func(m map[string]any) { m["size"] = "many" }),
		"WrongName":   editMeta(func(m map[string]any) { m["name"] = "y" }),
		"EscapingGen": editMeta(func(m map[string]any) { m["gen"] = "../../../../x" }),
		"ShortChunks": editMeta(func(m map[string]any) { m["chunks"] = m["chunks"].(string)[:64] }),
		"BadFormat":   editMeta(func(m map[string]any) { m["format"] = 99 }),
		"ChunkDigest": editMeta(func(m map[string]any) {
			c := []byte(m["chunks"].(string))
			c[0] ^= 1
			m["chunks"] = string(c)
		}),
	}
	for name, edit := range edits {
		t.Run(name, func(t *testing.T) {
			s, _ := newTestStore(t)
			putRandom(t, s, "x", 100000)
			edit(t, s)
			if _, err := readRange(s, "x", 0, -1); !cairn.IsCode(err, cairn.EUPSTREAM) {
				t.Fatalf("Get: %v, want EUPSTREAM", err)
			}
		})
	}
}

func editMeta(f func(map[string]any)) func(t *testing.T, s *Store) {
	return func(t *testing.T, s *Store) {
		p := s.locate("x").metaPath()
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]any{}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		f(m)
		b, _ = json.Marshal(m)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// TestExtendExpiryKeepsContentFile: only the sidecar is rewritten.
func TestExtendExpiryKeepsContentFile(t *testing.T) {
	s, clk := newTestStore(t)
	putRandom(t, s, "x", 300000)
	path := contentPath(t, s, "x")
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.ExtendExpiry(t.Context(), "x", clk.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(contentPath(t, s, "x"))
	if err != nil || !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) {
		t.Fatalf("content file changed by ExtendExpiry (%v)", err)
	}
}

// TestReplaceWhileOpen: a reader opened before a Put keeps reading the
// version it opened, whole and verified.
func TestReplaceWhileOpen(t *testing.T) {
	s, _ := newTestStore(t)
	v1 := putRandom(t, s, "x", 200000)
	rc, head := openHead(t, s, "x", 1000)
	if _, err := s.Put(t.Context(), "x", bytes.NewReader(make([]byte, 150000)), blob.PutOptions{Replace: true}); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(t.Context(), "x"); err != nil {
		t.Fatal(err)
	}
	rest, err := io.ReadAll(rc)
	if err != nil || !bytes.Equal(append(head, rest...), v1) {
		t.Fatalf("reader after replace and delete: %d bytes, %v", len(head)+len(rest), err)
	}
}

// TestInlineSidecar: a sidecar that carries its content (format 2) reads
// back whole, and damage to that content or its length is EUPSTREAM.
func TestInlineSidecar(t *testing.T) {
	data := []byte("short content kept in the sidecar")
	write := func(t *testing.T, s *Store) loc {
		l := s.locate("x")
		sum := sha256.Sum256(data)
		rec := &record{Format: inlineFormat, Name: "x", Gen: "0123456789abcdef", Size: int64(len(data)),
			SHA256: hex.EncodeToString(sum[:]), Chunks: hex.EncodeToString(sum[:]), ChunkSize: chunkSize,
			CreatedAt: epoch, inline: data}
		if _, err := writeRecord(l, rec); err != nil {
			t.Fatal(err)
		}
		return l
	}
	t.Run("OK", func(t *testing.T) {
		s, _ := newTestStore(t)
		write(t, s)
		if got, err := readAll(s, "x"); err != nil || !bytes.Equal(got, data) {
			t.Fatalf("Get: %q, %v", got, err)
		}
		if got, err := readRange(s, "x", 6, 7); err != nil || string(got) != "content" {
			t.Fatalf("Get range: %q, %v", got, err)
		}
		if info, err := s.Stat(t.Context(), "x"); err != nil || info.Size != int64(len(data)) {
			t.Fatalf("Stat: %+v, %v", info, err)
		}
	})
	for name, edit := range map[string]func([]byte) []byte{
		"FlippedByte": func(b []byte) []byte { b[len(b)-3] ^= 1; return b },
		"Truncated":   func(b []byte) []byte { return b[:len(b)-1] },
		"Appended":    func(b []byte) []byte { return append(b, '!') },
		"NoContent":   func(b []byte) []byte { return b[:bytes.IndexByte(b, '\n')] },
	} {
		t.Run(name, func(t *testing.T) {
			s, _ := newTestStore(t)
			l := write(t, s)
			b, err := os.ReadFile(l.metaPath())
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(l.metaPath(), edit(b), 0o600); err != nil {
				t.Fatal(err)
			}
			if _, err := readAll(s, "x"); !cairn.IsCode(err, cairn.EUPSTREAM) {
				t.Fatalf("Get: %v, want EUPSTREAM", err)
			}
		})
	}
}
