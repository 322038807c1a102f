package compliance_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
	blobfs "github.com/cairn-dev/cairn/blob/fs"
	"github.com/cairn-dev/cairn/compliance"
	"github.com/cairn-dev/cairn/merkle"
	"github.com/cairn-dev/cairn/screening"
	"github.com/cairn-dev/cairn/store/pebble"
	"github.com/klauspost/compress/zstd"
)

// TestProofsInTheProofStore: with a Proofs store the proof document is
// stored there compressed (no blob of its own), Proof gives back the very
// bytes whose results hash the answer named, and documents stored as blobs
// before still read.
func TestProofsInTheProofStore(t *testing.T) {
	ctx := context.Background()
	proofs := openStore(t)
	s, _, p := newServiceOn(t, proofs)
	s.Proofs = proofs
	qs := []screening.Query{{Address: sanctioned, Chain: "ethereum"}, {Address: both, Chain: "ethereum"}, {Address: unlisted, Chain: "ethereum"}}
	scr, head := screenOnce(t, s, p, qs)
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
	if err != nil || len(packed) >= len(doc) || bytes.Contains(packed, scr.Results) {
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
			db := openStore(t)
			s, ledger, p := newServiceOn(t, db)
			broken := func() {}
			if where == "proof store" {
				closed, err := pebble.Open(t.TempDir(), pebble.Options{})
				if err != nil {
					t.Fatal(err)
				}
				closed.Close()
				s.Proofs = closed
				broken = func() { s.Proofs = db }
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

// legacyDocument is the proof document of a screening as the service
// stored it before proof records (commit 322c306, compliance/screen.go
// prove and resultProofs): the header's members, merkleProofs encoded by
// encoding/json, then the results.
func legacyDocument(t *testing.T, ix *screening.Index, head, results json.RawMessage, community bool) []byte {
	t.Helper()
	var rs []compliance.ScreenResult
	if err := json.Unmarshal(results, &rs); err != nil {
		t.Fatal(err)
	}
	pairs := map[string][][2]string{}
	seen := map[[3]string]bool{}
	for _, r := range rs {
		for _, m := range r.Matches {
			class := screening.ClassSanctions
			if m.Source == screening.SourceCommunity {
				class = screening.ClassCommunity
			}
			k := [3]string{class, string(r.Family), r.Canonical}
			if !seen[k] {
				seen[k] = true
				pairs[class] = append(pairs[class], [2]string{string(r.Family), r.Canonical})
			}
		}
	}
	out := map[string]compliance.ResultProof{}
	for class, ps := range pairs {
		mp, values, err := ix.MultiProofIn(class, ps)
		if err != nil {
			t.Fatal(err)
		}
		for _, hs := range []*[]merkle.Hash{&mp.Leaves, &mp.Proof} {
			if *hs == nil {
				*hs = []merkle.Hash{}
			}
		}
		if mp.ProofFlags == nil {
			mp.ProofFlags = []bool{}
		}
		root := ix.Root()
		if class == screening.ClassCommunity {
			root = ix.CommunityRoot()
		}
		out[class] = compliance.ResultProof{Root: root, Leaves: mp.Leaves, Proof: mp.Proof, ProofFlags: mp.ProofFlags, Values: values}
	}
	merkleProofs, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	// The exclusion proofs: every valid result not in a class's tree,
	// the community class only when it was consulted.
	absent := map[string][][2]string{}
	for _, r := range rs {
		if r.Status == screening.StatusInvalidAddress {
			continue
		}
		pair := [2]string{string(r.Family), r.Canonical}
		if !seen[[3]string{screening.ClassSanctions, pair[0], pair[1]}] {
			absent[screening.ClassSanctions] = append(absent[screening.ClassSanctions], pair)
		}
		if community && !seen[[3]string{screening.ClassCommunity, pair[0], pair[1]}] {
			absent[screening.ClassCommunity] = append(absent[screening.ClassCommunity], pair)
		}
	}
	gaps := map[string]compliance.GapResultProof{}
	for class, ps := range absent {
		mp, values, err := ix.ExclusionMultiProof(class, ps)
		if err != nil {
			t.Fatal(err)
		}
		if mp.Proof == nil {
			mp.Proof = []merkle.Hash{}
		}
		if mp.ProofFlags == nil {
			mp.ProofFlags = []bool{}
		}
		gaps[class] = compliance.GapResultProof{Root: ix.ExclusionRootOf(class), Leaves: mp.Leaves, Proof: mp.Proof, ProofFlags: mp.ProofFlags, Values: values}
	}
	exclusionProofs, err := json.Marshal(gaps)
	if err != nil {
		t.Fatal(err)
	}
	stored := make([]byte, 0, len(head)+len(merkleProofs)+len(results)+32)
	stored = append(append(append(stored, head[:len(head)-1]...), `,"merkleProofs":`...), merkleProofs...)
	stored = append(append(stored, `,"exclusionProofs":`...), exclusionProofs...)
	return append(append(append(stored, `,"results":`...), results...), '}')
}

// TestProofRecordsReadAsBefore: a proof document kept in the Proofs store
// (in its binary record) reads back byte for byte as the document the
// service stored before records, for real screenings: both classes, EVM
// and other families, no listed result, a class tree of a single leaf,
// multiproofs with and without proof hashes and with many flags. The
// record is smaller than the document, and a document stored before (one
// zstd frame of the JSON) still reads.
func TestProofRecordsReadAsBefore(t *testing.T) {
	ctx := context.Background()
	sdn := screening.Match{EntityID: "1", EntityName: "A <&> \"B\"", Source: screening.SourceGovSDN, Category: "sanctions", Severity: "critical"}
	plain := screening.Match{Source: "list:TRX", Category: "sanctions", Severity: "critical"}
	comm := screening.Match{EntityID: "r", Source: screening.SourceCommunity, Category: "scam", Severity: "medium"}
	const (
		btc = "12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h"
		trx = "TBHTJqAy4DhHhmT3dNceJYNRz4SdLofLre"
		sol = "42RLPACwZPx3vYYmxSueqsogfynBDqXK298EDsNoyoHi"
		ltc = "LNf2JDiuunBz7GMDKFYHN4rq5meXWxiwfb"
	)
	mixed := []screening.Listing{
		{Family: screening.EVM, Address: sanctioned, Match: sdn},
		{Family: screening.EVM, Address: both, Match: sdn},
		{Family: screening.Bitcoin, Address: btc, Match: sdn},
		{Family: screening.Tron, Address: trx, Match: plain},
		{Family: screening.Solana, Address: sol, Match: sdn},
		{Family: screening.EVM, Address: both, Match: comm},
		{Family: screening.EVM, Address: flagged, Match: comm},
		{Family: screening.Litecoin, Address: ltc, Match: comm},
	}
	q := func(addr, chain string) screening.Query { return screening.Query{Address: addr, Chain: chain} }
	many := compliance.SyntheticListings(3000)
	var manyQs []screening.Query
	for i := 0; i < len(many); i += 61 {
		manyQs = append(manyQs, q(many[i].Address, "ethereum"), q(fmt.Sprintf("0x%040x", i), "base"))
	}
	for _, tc := range []struct {
		name      string
		listings  []screening.Listing
		qs        []screening.Query
		community bool
		// shape is what the multiproofs of the case hold, by class:
		// leaves, proof hashes, flags.
		shape map[string][3]int
	}{
		{"BothClasses", mixed, []screening.Query{q(sanctioned, "ethereum"), q(both, "bsc"), q(flagged, "base"), q(btc, "bitcoin"),
			q(trx, "tron"), q(sol, "solana"), q(ltc, "litecoin"), q(unlisted, "ethereum"), q("nope", "ethereum"), q(sanctioned, "polygon")}, true,
			map[string][3]int{"sanctions": {5, 0, 4}, "community": {3, 0, 2}}},
		{"SanctionsOnly", mixed, []screening.Query{q(both, "ethereum"), q(flagged, "ethereum"), q(trx, "tron")}, false,
			map[string][3]int{"sanctions": {2, 2, 3}}},
		{"NothingListed", mixed, []screening.Query{q(unlisted, "ethereum"), q("nope", "bitcoin")}, true, map[string][3]int{}},
		{"WholeTreeNoProofHashes", mixed, []screening.Query{q(both, "ethereum"), q(flagged, "ethereum"), q(ltc, "litecoin")}, true,
			map[string][3]int{"sanctions": {1, 2, 2}, "community": {3, 0, 2}}},
		{"SingleLeafTrees", []screening.Listing{{Family: screening.Bitcoin, Address: btc, Match: sdn}, {Family: screening.EVM, Address: flagged, Match: comm}},
			[]screening.Query{q(btc, "bitcoin"), q(flagged, "ethereum"), q(unlisted, "ethereum")}, true,
			map[string][3]int{"sanctions": {1, 0, 0}, "community": {1, 0, 0}}},
		{"ManyLeaves", many, manyQs, false, map[string][3]int{"sanctions": {50, 242, 291}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proofs := openStore(t)
			s, _, p := serviceOn(t, proofs, 1e6, tc.listings)
			s.PublicURL = "https://cairn.example"
			s.Proofs = proofs
			ix := s.Screening.Current()
			scr, err := s.Screen(ctx, p, tc.qs, tc.community)
			if err != nil {
				t.Fatal(err)
			}
			var head compliance.ProofDoc
			if err := json.Unmarshal(scr.Proof, &head); err != nil {
				t.Fatal(err)
			}
			want := legacyDocument(t, ix, scr.Proof, scr.Results, tc.community)
			got, err := s.Proof(ctx, head.ScreeningID)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("stored document (%v)\n%s\nwant\n%s", err, got, want)
			}
			rec, err := proofs.Proof(ctx, head.ScreeningID)
			if err != nil || len(rec) >= len(want) || rec[0] != 0x04 {
				t.Fatalf("record of %d bytes for a document of %d (%v), format %#x", len(rec), len(want), err, rec[:1])
			}
			var doc struct {
				MerkleProofs map[string]compliance.ResultProof `json:"merkleProofs"`
			}
			if err := json.Unmarshal(got, &doc); err != nil {
				t.Fatal(err)
			}
			shape := map[string][3]int{}
			for class, mp := range doc.MerkleProofs {
				shape[class] = [3]int{len(mp.Leaves), len(mp.Proof), len(mp.ProofFlags)}
			}
			if !maps.Equal(shape, tc.shape) {
				t.Fatalf("multiproofs of %v (leaves, proof, flags), want %v", shape, tc.shape)
			}
			t.Logf("document %d bytes, record %d", len(want), len(rec))

			// The same document stored as before proof records.
			enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest))
			if err != nil {
				t.Fatal(err)
			}
			old := cairn.NewRandomID()
			if err := proofs.PutProof(ctx, old, enc.EncodeAll(want, nil)); err != nil {
				t.Fatal(err)
			}
			if got, err := s.Proof(ctx, old); err != nil || !bytes.Equal(got, want) {
				t.Fatalf("document stored as zstd JSON reads %s (%v)", got, err)
			}
		})
	}
	// What the documents say of the proofs is checked against the tree
	// by compliance.Verify (verify_test.go); here only a record
	// that is not one fails to read.
	db := openStore(t)
	s, _, _ := newServiceOn(t, db)
	s.Proofs = db
	for _, rec := range [][]byte{{0x01}, {0x02, 0}, []byte(`{"results":[]}`), {0x28, 0xb5, 0x2f, 0xfd, 0}} {
		id := cairn.NewRandomID()
		if err := s.Proofs.PutProof(ctx, id, rec); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Proof(ctx, id); !cairn.IsCode(err, cairn.EUPSTREAM) {
			t.Fatalf("record %q reads: %v, want EUPSTREAM", rec, err)
		}
	}
}

// TestScreenedRelease: the results buffer handed back by Release serves
// the next screenings, and neither their answers nor the stored documents
// of the screenings before change.
func TestScreenedRelease(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	s, ledger, p := newServiceOn(t, db)
	if _, err := ledger.Grant(ctx, p.DeveloperID, 1e6, "test", ""); err != nil {
		t.Fatal(err)
	}
	s.Proofs = db
	batches := [][]screening.Query{
		{{Address: sanctioned, Chain: "ethereum"}, {Address: both, Chain: "ethereum"}, {Address: unlisted, Chain: "ethereum"}},
		{{Address: unlisted, Chain: "base"}},
		{{Address: flagged, Chain: "ethereum"}, {Address: sanctioned, Chain: "polygon"}},
	}
	docs := map[string][]byte{}
	for round := range 3 {
		for _, qs := range batches {
			scr, head := screenOnce(t, s, p, qs)
			sum := sha256.Sum256(scr.Results)
			if hex.EncodeToString(sum[:]) != head.ResultsHash || !bytes.Contains(scr.Results, []byte(qs[len(qs)-1].Chain)) {
				t.Fatalf("round %d: results %s do not match their hash or their batch", round, scr.Results)
			}
			doc, err := s.Proof(ctx, head.ScreeningID)
			if err != nil {
				t.Fatal(err)
			}
			docs[head.ScreeningID] = doc
			scr.Release()
			scr.Release() // a second call does nothing
		}
	}
	for id, want := range docs {
		if got, err := s.Proof(ctx, id); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("document %s changed after later screenings: %s (%v)", id, got, err)
		}
	}
}

// screenOnce screens qs (community included) and returns the answer with
// its proof document's header.
func screenOnce(t *testing.T, s *compliance.Service, p compliance.Principal, qs []screening.Query) (*compliance.Screened, compliance.ProofDoc) {
	t.Helper()
	scr, err := s.Screen(context.Background(), p, qs, true)
	if err != nil {
		t.Fatal(err)
	}
	var head compliance.ProofDoc
	if err := json.Unmarshal(scr.Proof, &head); err != nil {
		t.Fatal(err)
	}
	return scr, head
}

// TestProofTopRecords: against trees larger than their tops, the proof
// hashes near the roots are kept once per tree in the Proofs store, also
// when the first screenings of a version come together: a
// second service on the same store (another instance, or after a
// restart) reads the documents the first stored and stores its own
// without writing the tops again, each reading back byte for byte as
// stored before records; a record whose top records are missing reads
// only where the service holds its list version (EUPSTREAM elsewhere).
func TestProofTopRecords(t *testing.T) {
	ctx := context.Background()
	ls := compliance.SyntheticListings(40_000)
	qs := compliance.BenchQueries(ls)
	db := openStore(t)
	screenAndRead := func(s *compliance.Service, p compliance.Principal) string {
		t.Helper()
		scr, err := s.Screen(ctx, p, qs, false)
		if err != nil {
			t.Fatal(err)
		}
		var head compliance.ProofDoc
		if err := json.Unmarshal(scr.Proof, &head); err != nil {
			t.Fatal(err)
		}
		want := legacyDocument(t, s.Screening.Current(), scr.Proof, scr.Results, false)
		if got, err := s.Proof(ctx, head.ScreeningID); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("stored document (%v)\n%.300s\nwant\n%.300s", err, got, want)
		}
		return head.ScreeningID
	}
	s1, _, p1 := serviceOn(t, db, 1e6, ls)
	s1.Proofs = db
	compliance.SetTopLevels(s1, 16) // smaller than the trees of 40,000 leaves
	// Concurrent first screenings of a version: one stores the tops, the
	// others wait for it; each document reads back.
	ids := make([]string, 4)
	var wg sync.WaitGroup
	for i := range ids {
		wg.Go(func() {
			scr, err := s1.Screen(ctx, p1, qs, false)
			if err != nil {
				t.Error(err)
				return
			}
			var head compliance.ProofDoc
			if err := json.Unmarshal(scr.Proof, &head); err != nil {
				t.Error(err)
			}
			ids[i] = head.ScreeningID
		})
	}
	wg.Wait()
	for _, id := range ids {
		if _, err := s1.Proof(ctx, id); err != nil {
			t.Fatalf("a document of the concurrent first screenings: %v", err)
		}
	}
	first := screenAndRead(s1, p1)
	rec, err := db.Proof(ctx, first)
	if err != nil || rec[0] != 0x04 || len(rec) > 16<<10 {
		t.Fatalf("record of %d bytes, format %#x (%v)", len(rec), rec[:1], err)
	}
	s2, _, p2 := serviceOn(t, db, 1e6, ls)
	s2.Proofs = db
	compliance.SetTopLevels(s2, 16)
	doc1, err := s1.Proof(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := s2.Proof(ctx, first); err != nil || !bytes.Equal(got, doc1) {
		t.Fatalf("another service reads the document as %.300s (%v)", got, err)
	}
	second := screenAndRead(s2, p2)
	if got, err := s1.Proof(ctx, second); err != nil {
		t.Fatalf("the first service reads the second's document: %v", err)
	} else if want, _ := s2.Proof(ctx, second); !bytes.Equal(got, want) {
		t.Fatal("the services read the second document differently")
	}

	// The record alone, in a store without its top records: a service
	// that holds the record's list version reads the tops from its trees,
	// byte for byte; one that holds another version cannot read it.
	bare := openStore(t)
	if err := bare.PutProof(ctx, first, rec); err != nil {
		t.Fatal(err)
	}
	s3, _, _ := serviceOn(t, bare, 1e6, ls)
	s3.Proofs = bare
	if got, err := s3.Proof(ctx, first); err != nil || !bytes.Equal(got, doc1) {
		t.Fatalf("a service holding the version reads the record without its top records as %.300s (%v)", got, err)
	}
	s4, _, _ := serviceOn(t, bare, 1e6, compliance.SyntheticListings(1_000))
	s4.Proofs = bare
	if _, err := s4.Proof(ctx, first); !cairn.IsCode(err, cairn.EUPSTREAM) {
		t.Fatalf("a record without its top records reads: %v, want EUPSTREAM", err)
	}
}
