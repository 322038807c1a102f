package blobtest

import (
	"bytes"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

// testCreateOnly: without Replace, Put refuses a name held by a live blob
// (ECONFLICT) and leaves that blob exactly as it was; it takes the name of
// an expired or deleted blob.
func testCreateOnly(t *testing.T, s blob.Store, _ Control) {
	v1, v2 := content(11, 70000), content(12, 300)
	info := put(t, s, "create/x", v1, blob.PutOptions{ContentType: "text/plain"})
	if _, err := s.Put(t.Context(), "create/x", bytes.NewReader(v2), blob.PutOptions{ContentType: "image/png"}); !cairn.IsCode(err, cairn.ECONFLICT) {
		t.Fatalf("Put over a live blob: %v, want %s", err, cairn.ECONFLICT)
	}
	wantBytes(t, "Get after the refused Put", mustGet(t, s, "create/x"), v1)
	st, err := s.Stat(t.Context(), "create/x")
	if err != nil {
		t.Fatalf("Stat: %v", err)
	}
	wantInfo(t, "Stat after the refused Put", st, info)

	// An already expired blob (ExpiresAt in the past) gives its name up.
	put(t, s, "create/expired", v1, blob.PutOptions{ExpiresAt: time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)})
	put(t, s, "create/expired", v2, blob.PutOptions{})
	wantBytes(t, "Get of the blob that replaced an expired one", mustGet(t, s, "create/expired"), v2)

	if err := s.Delete(t.Context(), "create/x"); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	put(t, s, "create/x", v2, blob.PutOptions{})
	wantBytes(t, "Get after delete and create", mustGet(t, s, "create/x"), v2)
}

// testConcurrentCreate: of concurrent Puts of one new name, exactly one
// succeeds, the others are ECONFLICT, and the name holds the winner's
// content.
func testConcurrentCreate(t *testing.T, s blob.Store, _ Control) {
	const writers = 8
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		wins   []int
		others []error
	)
	for i := range writers {
		wg.Go(func() {
			_, err := s.Put(t.Context(), "create/race", bytes.NewReader(content(uint64(300+i), 1000+i*40000)), blob.PutOptions{})
			mu.Lock()
			defer mu.Unlock()
			if err == nil {
				wins = append(wins, i)
			} else {
				others = append(others, err)
			}
		})
	}
	wg.Wait()
	if len(wins) != 1 {
		t.Fatalf("%d of %d concurrent creates succeeded (%v), want exactly 1", len(wins), writers, others)
	}
	for _, err := range others {
		if !cairn.IsCode(err, cairn.ECONFLICT) {
			t.Fatalf("a losing create: %v, want %s", err, cairn.ECONFLICT)
		}
	}
	w := wins[0]
	wantBytes(t, "Get after concurrent creates", mustGet(t, s, "create/race"), content(uint64(300+w), 1000+w*40000))
}
