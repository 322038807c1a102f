package fs

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

func TestDeleteExpired(t *testing.T) {
	s, clk := newTestStore(t)
	ctx := t.Context()
	now := clk.Now()
	for name, exp := range map[string]time.Time{
		"a": now.Add(time.Hour), "b": now.Add(2 * time.Hour), "c": {},
	} {
		if _, err := s.Put(ctx, name, bytes.NewReader([]byte(name)), blob.PutOptions{ExpiresAt: exp}); err != nil {
			t.Fatal(err)
		}
	}
	aFiles := []string{s.locate("a").metaPath(), contentPath(t, s, "a")}
	steps := []struct {
		at      time.Duration
		removed int
		alive   []string
	}{
		{30 * time.Minute, 0, []string{"a", "b", "c"}},
		{time.Hour, 1, []string{"b", "c"}},
		{time.Hour, 0, []string{"b", "c"}},
		{1000 * time.Hour, 1, []string{"c"}},
	}
	for _, st := range steps {
		n, err := s.DeleteExpired(ctx, now.Add(st.at))
		if err != nil || n != st.removed {
			t.Fatalf("DeleteExpired(+%v) = %d, %v; want %d", st.at, n, err, st.removed)
		}
		for _, name := range st.alive {
			if _, err := s.Stat(ctx, name); err != nil {
				t.Fatalf("Stat(%s) after DeleteExpired(+%v): %v", name, st.at, err)
			}
		}
	}
	for _, p := range aFiles {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Fatalf("%s of an expired blob still exists", p)
		}
	}
	if got := files(t, s.Root()); len(got) != 1 || got[0] != rel(t, s, s.locate("c").metaPath()) {
		t.Fatalf("files left %q, want the sidecar of c (its content inline)", got)
	}
}

// TestDeleteExpiredSparesWrites: a temp file or a content file that a Put
// is still writing is not a leftover.
func TestDeleteExpiredSparesWrites(t *testing.T) {
	for _, file := range []string{".0000000000000001.blob.tmp", ".0000000000000002.meta.tmp", ".0000000000000003.blob"} {
		t.Run(file, func(t *testing.T) { testSparesWrite(t, file) })
	}
}

func testSparesWrite(t *testing.T, file string) {
	s, _ := newTestStore(t)
	l := s.locate("x")
	tmp := filepath.Join(l.dir, l.key+file)
	s.track(tmp, true)
	if err := os.WriteFile(tmp, []byte("half"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DeleteExpired(t.Context(), epoch); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tmp); err != nil {
		t.Fatalf("in-flight temp file removed: %v", err)
	}
	s.track(tmp, false)
	if _, err := s.DeleteExpired(t.Context(), epoch); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Fatalf("stale temp file kept: %v", err)
	}
}

func TestDeleteExpiredCancelled(t *testing.T) {
	s, _ := newTestStore(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := s.DeleteExpired(ctx, epoch); err != context.Canceled {
		t.Fatalf("DeleteExpired with a cancelled context: %v", err)
	}
}

// TestDamagedSidecarKept: the sweep leaves a blob whose sidecar it cannot
// read alone; reads report EUPSTREAM.
func TestDamagedSidecarKept(t *testing.T) {
	s, _ := newTestStore(t)
	putRandom(t, s, "x", 2*chunkSize) // a content file beside the sidecar
	content := contentPath(t, s, "x")
	if err := os.WriteFile(s.locate("x").metaPath(), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DeleteExpired(t.Context(), epoch.Add(1e6*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(content); err != nil {
		t.Fatalf("content of a blob with a damaged sidecar removed: %v", err)
	}
	if _, err := s.Stat(t.Context(), "x"); !cairn.IsCode(err, cairn.EUPSTREAM) {
		t.Fatalf("Stat with a damaged sidecar: %v, want EUPSTREAM", err)
	}
	if err := s.Delete(t.Context(), "x"); err != nil {
		t.Fatalf("Delete with a damaged sidecar: %v", err)
	}
}
