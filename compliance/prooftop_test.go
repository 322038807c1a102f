package compliance_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-dev/cairn/compliance"
	"github.com/cairn-dev/cairn/screening"
	"github.com/cairn-dev/cairn/store"
)

// writesCounted passes every call to the real store and counts the top
// records and the screening records written.
type writesCounted struct {
	store.Proofs
	mu            sync.Mutex
	tops, records int
}

func (w *writesCounted) PutProof(ctx context.Context, id string, doc []byte) error {
	return w.count(id, w.Proofs.PutProof(ctx, id, doc))
}

func (w *writesCounted) PutNewProof(ctx context.Context, id string, doc []byte) error {
	return w.count(id, w.Proofs.PutNewProof(ctx, id, doc))
}

func (w *writesCounted) count(id string, err error) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if strings.HasPrefix(id, "tree-top-") {
		w.tops++
	} else {
		w.records++
	}
	return err
}

// TestStoreTopsAhead: once StoreTops has run for the installed version,
// its screenings write their records and no top record, and the records
// read back; a second service on the same store (another instance) finds
// the tops stored and sends none, from StoreTops or its screenings.
func TestStoreTopsAhead(t *testing.T) {
	ctx := context.Background()
	ls := compliance.SyntheticListings(40_000)
	db := openStore(t)
	for i := range 2 {
		s, _, p := serviceOn(t, db, 1e6, ls)
		w := &writesCounted{Proofs: db}
		s.Proofs = w
		compliance.SetTopLevels(s, 16) // smaller than the trees of 40,000 leaves
		s.StoreTops(ctx)
		if i == 0 && w.tops == 0 {
			t.Fatal("StoreTops stored no top record")
		} else if i == 1 && w.tops != 0 {
			t.Fatalf("the second service sent %d top records the store already held", w.tops)
		}
		tops := w.tops
		s.StoreTops(ctx) // known stored: nothing written
		for range 3 {
			id := screenID(t, s, p, compliance.BenchQueries(ls))
			if _, err := s.Proof(ctx, id); err != nil {
				t.Fatalf("service %d reads its record: %v", i, err)
			}
		}
		if w.tops != tops || w.records != 3 {
			t.Fatalf("service %d: %d top records written after StoreTops (want %d), %d records (want 3)", i, w.tops, tops, w.records)
		}
	}
}

// screenID screens qs and returns the screening's id.
func screenID(t *testing.T, s *compliance.Service, p compliance.Principal, qs []screening.Query) string {
	t.Helper()
	scr, err := s.Screen(context.Background(), p, qs, false)
	if err != nil {
		t.Fatal(err)
	}
	defer scr.Release()
	var head compliance.ProofDoc
	if err := json.Unmarshal(scr.Proof, &head); err != nil {
		t.Fatal(err)
	}
	return head.ScreeningID
}
