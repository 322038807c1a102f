package compliance_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
	blobfs "github.com/cairn-dev/cairn/blob/fs"
	"github.com/cairn-dev/cairn/compliance"
	"github.com/cairn-dev/cairn/screening"
	"github.com/cairn-dev/cairn/store"
	"github.com/cairn-dev/cairn/store/pebble"
)

// TestProofsInTheProofStore: with a Proofs store the proof document is
// stored there compressed (no blob of its own), Proof gives back the very
// bytes whose results hash the answer named, and documents stored as blobs
// before still read.
func TestProofsInTheProofStore(t *testing.T) {
	ctx := context.Background()
	s, _, p := newService(t)
	proofs := s.Screenings.(store.Proofs)
	s.Proofs = proofs
	qs := []screening.Query{{Address: sanctioned, Chain: "ethereum"}, {Address: both, Chain: "ethereum"}, {Address: unlisted, Chain: "ethereum"}}
	scr, err := s.Screen(ctx, p, qs, true)
	if err != nil {
		t.Fatal(err)
	}
	var head compliance.ProofDoc
	if err := json.Unmarshal(scr.Proof, &head); err != nil {
		t.Fatal(err)
	}
	doc, err := s.Proof(ctx, head.ScreeningID)
	if err != nil {
		t.Fatal(err)
	}
	var stored struct {
		compliance.ProofDoc
		Results json.RawMessage `json:"results"`
	}
	if err := json.Unmarshal(doc, &stored); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(stored.Results)
	if stored.ScreeningID != head.ScreeningID || hex.EncodeToString(sum[:]) != head.ResultsHash || !bytes.Equal(stored.Results, scr.Results) {
		t.Fatalf("stored document %s does not hold the answered results (hash %s)", doc, head.ResultsHash)
	}
	packed, err := proofs.Proof(ctx, head.ScreeningID)
	if err != nil || len(packed) >= len(doc) || bytes.Contains(packed, []byte(head.ResultsHash)) {
		t.Fatalf("the store holds %d bytes for a %d-byte document (%v): not compressed", len(packed), len(doc), err)
	}
	if _, err := s.Blobs.Stat(ctx, compliance.ProofBlob(head.ScreeningID)); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("a proof blob was written beside the proof store: %v", err)
	}

	// A document stored as a blob before the proof store existed.
	old := cairn.NewRandomID()
	legacy := []byte(`{"screeningId":"` + old + `","results":[]}`)
	if _, err := s.Blobs.Put(ctx, compliance.ProofBlob(old), bytes.NewReader(legacy), blob.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Proof(ctx, old); err != nil || !bytes.Equal(got, legacy) {
		t.Fatalf("proof stored as a blob: %s, %v", got, err)
	}
	for _, id := range []string{cairn.NewRandomID(), "not-an-id", "../proofs/x"} {
		if _, err := s.Proof(ctx, id); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("Proof(%q): %v, want ENOTFOUND", id, err)
		}
	}
}

// TestScreenProofStoreFails: when the proof cannot be stored (the proof
// store is a real store that was closed; or, without one, the blob store
// refuses every write) the screening is EUPSTREAM, its credits come back,
// its free addresses are given back and it is not counted; the next one,
// once storing works, is served from a fresh free window.
func TestScreenProofStoreFails(t *testing.T) {
	ctx := context.Background()
	for _, where := range []string{"proof store", "blob store"} {
		t.Run(where, func(t *testing.T) {
			s, ledger, p := newService(t)
			broken := func() {}
			if where == "proof store" {
				closed, err := pebble.Open(t.TempDir(), pebble.Options{})
				if err != nil {
					t.Fatal(err)
				}
				closed.Close()
				s.Proofs = closed
				broken = func() { s.Proofs = s.Screenings.(store.Proofs) }
			} else {
				dir := t.TempDir()
				ro, err := blobfs.New(dir, blobfs.Options{})
				if err != nil {
					t.Fatal(err)
				}
				good := s.Blobs
				s.Blobs = ro
				// A file where each fan-out directory was: every write fails.
				for i := range 256 {
					d := filepath.Join(dir, fmt.Sprintf("%02x", i))
					if err := os.RemoveAll(d); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(d, nil, 0o600); err != nil {
						t.Fatal(err)
					}
				}
				broken = func() { s.Blobs = good }
			}
			qs := make([]screening.Query, 12)
			for i := range qs {
				qs[i] = screening.Query{Address: sanctioned, Chain: "ethereum"}
			}
			if _, err := s.Screen(ctx, p, qs, false); !cairn.IsCode(err, cairn.EUPSTREAM) {
				t.Fatalf("screening with the proof unstorable: %v, want EUPSTREAM", err)
			}
			if b, err := ledger.Balance(ctx, p.DeveloperID); err != nil || b != 5 {
				t.Fatalf("balance %d (%v) after the failure, want 5", b, err)
			}
			if n, err := s.Screenings.ScreeningCount(ctx); err != nil || n != 0 {
				t.Fatalf("screening count %d (%v) after the failure, want 0", n, err)
			}
			broken()
			out, err := s.Screen(ctx, p, qs[:1], false)
			if err != nil || out.Usage.FreeRemaining != compliance.FreePerWindow-1 || out.Usage.Charged != 0 {
				t.Fatalf("after storing works again: %+v, %v; want the free window whole", out, err)
			}
		})
	}
}
