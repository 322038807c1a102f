package storetest

import (
	"bytes"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

// RunProofTests checks a store.Proofs implementation. open returns a
// fresh, empty store for each subtest.
func RunProofTests(t *testing.T, open func(t *testing.T) store.Proofs) {
	t.Run("PutGetConflict", func(t *testing.T) {
		s := open(t)
		doc := bytes.Repeat([]byte{0, 1, 2, 0xff}, 20000) // binary, 80 KB
		buf := slices.Clone(doc)
		if ok, err := s.HasProof(ctx, "p1"); ok || err != nil {
			t.Fatalf("HasProof before the write: %v, %v", ok, err)
		}
		mustOK(t, s.PutProof(ctx, "p1", buf), "PutProof")
		if ok, err := s.HasProof(ctx, "p1"); !ok || err != nil {
			t.Fatalf("HasProof after the write: %v, %v", ok, err)
		}
		if ok, err := s.HasProof(ctx, "p"); ok || err != nil {
			t.Fatalf("HasProof of a prefix of a stored id: %v, %v", ok, err)
		}
		clear(buf) // the caller's buffer is its own again
		got, err := s.Proof(ctx, "p1")
		if err != nil || !bytes.Equal(got, doc) {
			t.Fatalf("Proof(p1) = %d bytes, %v; want the %d stored", len(got), err, len(doc))
		}
		if err := s.PutProof(ctx, "p1", []byte("other")); !cairn.IsCode(err, cairn.ECONFLICT) {
			t.Fatalf("second PutProof of one id: %v, want ECONFLICT", err)
		}
		if got, _ := s.Proof(ctx, "p1"); !bytes.Equal(got, doc) {
			t.Fatal("a refused PutProof changed the stored proof")
		}
		if _, err := s.Proof(ctx, "p2"); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("Proof of an unknown id: %v, want ENOTFOUND", err)
		}
		if err := s.PutProof(ctx, "", doc); !cairn.IsCode(err, cairn.EINVALID) {
			t.Fatalf("PutProof without id: %v, want EINVALID", err)
		}
	})
	t.Run("PutNew", func(t *testing.T) {
		// Fresh random ids, written concurrently (as screenings do),
		// read back; PutProof of one of them is then ECONFLICT.
		s := open(t)
		doc := bytes.Repeat([]byte{0xff, 0, 1, 2}, 20000)
		ids := make([]string, 16)
		var wg sync.WaitGroup
		for i := range ids {
			ids[i] = cairn.NewRandomID()
			wg.Go(func() {
				buf := append(slices.Clone(doc), byte(i))
				if err := s.PutNewProof(ctx, ids[i], buf); err != nil {
					t.Errorf("PutNewProof(%s): %v", ids[i], err)
				}
				clear(buf) // the caller's buffer is its own again
			})
		}
		wg.Wait()
		for i, id := range ids {
			got, err := s.Proof(ctx, id)
			if want := append(slices.Clone(doc), byte(i)); err != nil || !bytes.Equal(got, want) {
				t.Fatalf("Proof(%s) = %d bytes, %v; want the %d stored", id, len(got), err, len(want))
			}
			if ok, err := s.HasProof(ctx, id); !ok || err != nil {
				t.Fatalf("HasProof(%s) after PutNewProof: %v, %v", id, ok, err)
			}
		}
		if err := s.PutProof(ctx, ids[0], []byte("other")); !cairn.IsCode(err, cairn.ECONFLICT) {
			t.Fatalf("PutProof of an id written by PutNewProof: %v, want ECONFLICT", err)
		}
		if err := s.PutNewProof(ctx, "", doc); !cairn.IsCode(err, cairn.EINVALID) {
			t.Fatalf("PutNewProof without id: %v, want EINVALID", err)
		}
	})
	t.Run("ConcurrentPuts", func(t *testing.T) {
		// 16 writers store 8 proofs each; 4 more race for one id, of
		// which exactly one wins.
		s := open(t)
		var wg sync.WaitGroup
		var mu sync.Mutex
		wins := 0
		for w := range 16 {
			wg.Go(func() {
				for i := range 8 {
					id := fmt.Sprintf("w%d-%d", w, i)
					if err := s.PutProof(ctx, id, []byte(id)); err != nil {
						t.Errorf("PutProof(%s): %v", id, err)
					}
				}
			})
		}
		for range 4 {
			wg.Go(func() {
				if err := s.PutProof(ctx, "shared", []byte("x")); err == nil {
					mu.Lock()
					wins++
					mu.Unlock()
				} else if !cairn.IsCode(err, cairn.ECONFLICT) {
					t.Errorf("racing PutProof: %v", err)
				}
			})
		}
		wg.Wait()
		if wins != 1 {
			t.Fatalf("%d of 4 racing PutProof of one id succeeded, want 1", wins)
		}
		for w := range 16 {
			for i := range 8 {
				id := fmt.Sprintf("w%d-%d", w, i)
				if got, err := s.Proof(ctx, id); err != nil || string(got) != id {
					t.Fatalf("Proof(%s) = %q, %v", id, got, err)
				}
			}
		}
	})
}
