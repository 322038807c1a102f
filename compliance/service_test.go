package compliance_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/billing"
	blobfs "github.com/cairn-dev/cairn/blob/fs"
	"github.com/cairn-dev/cairn/compliance"
	"github.com/cairn-dev/cairn/merkle"
	"github.com/cairn-dev/cairn/screening"
	"github.com/cairn-dev/cairn/store/pebble"
)

const (
	sanctioned = "0x8589427373d6d84e98730d7795d8f6f8731fda16" // a gov_sdn listing
	both       = "0x722122df12d4e14e13ac3b6895a86e84145b6967" // gov_sdn and the community
	flagged    = "0x00000000000000000000000000000000deadbeef" // the community only
	unlisted   = "0x0000000000000000000000000000000000000001"
)

// newService is a service over a real embedded store, ledger and blob
// store, with a list version of three sanctions listings and two
// community ones; dev has 5 credits.
func newService(t *testing.T) (*compliance.Service, *billing.Ledger, compliance.Principal) {
	t.Helper()
	return newServiceOn(t, openStore(t))
}

// newServiceOn is newService over db, which a test may also hand the
// service as its Proofs store.
func newServiceOn(t *testing.T, db *pebble.DB) (*compliance.Service, *billing.Ledger, compliance.Principal) {
	t.Helper()
	sdn := screening.Match{EntityID: "1", Source: screening.SourceGovSDN, Category: "sanctions", Severity: "critical"}
	comm := screening.Match{EntityID: "r", Source: screening.SourceCommunity, Category: "scam", Severity: "medium"}
	// both is listed with the entity's programs, sanctioned without (as
	// before programs were kept): documents hold matches of both kinds.
	withPrograms := sdn
	withPrograms.Programs = cairn.ProgramsOf([]string{"DPRK3", "CYBER2"})
	return serviceOn(t, db, 5, []screening.Listing{
		{Family: screening.EVM, Address: sanctioned, Match: sdn},
		{Family: screening.EVM, Address: both, Match: withPrograms},
		{Family: screening.Bitcoin, Address: "12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h", Match: sdn},
		{Family: screening.EVM, Address: both, Match: comm},
		{Family: screening.EVM, Address: flagged, Match: comm},
	})
}

// openStore is a real embedded store in a temporary directory, closed
// when the test ends.
func openStore(tb testing.TB) *pebble.DB {
	tb.Helper()
	db, err := pebble.Open(tb.TempDir(), pebble.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// serviceOver is a service over a real embedded store, ledger and blob
// store, with a list version (7) of the listings; dev has credits.
func serviceOver(tb testing.TB, credits int64, listings []screening.Listing) (*compliance.Service, *billing.Ledger, compliance.Principal) {
	tb.Helper()
	return serviceOn(tb, openStore(tb), credits, listings)
}

// serviceOn is serviceOver on db.
func serviceOn(tb testing.TB, db *pebble.DB, credits int64, listings []screening.Listing) (*compliance.Service, *billing.Ledger, compliance.Principal) {
	tb.Helper()
	ctx := context.Background()
	blobs, err := blobfs.New(tb.TempDir(), blobfs.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	clock := cairn.NewManualClock(time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC))
	ledger := &billing.Ledger{Store: db, Clock: clock, Cursors: cairn.NewCursors([]byte("0123456789abcdef"))}
	dev, err := db.EnsureDeveloper(ctx, cairn.NewID())
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := ledger.Grant(ctx, dev.ID, credits, "test", ""); err != nil {
		tb.Fatal(err)
	}
	ix, err := screening.Build(7, clock.Now(), listings)
	if err != nil {
		tb.Fatal(err)
	}
	h := &screening.Holder{}
	h.Swap(ix)
	s := &compliance.Service{Screening: h, Screenings: db, Ledger: ledger, Blobs: blobs, Clock: clock,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	return s, ledger, compliance.Principal{DeveloperID: dev.ID, RequestID: "req"}
}

// TestProveClasses: each address is proved in the tree of its class and the
// proof verifies against the root it names; a community flag is never
// sanctioned; an address in both trees is of class sanctions; the batch
// has one verifying multiproof per class.
func TestProveClasses(t *testing.T) {
	ctx := context.Background()
	s, _, p := newService(t)
	ix := s.Screening.Current()
	for _, tc := range []struct {
		addr       string
		class      string
		sanctioned bool
		root       merkle.Hash
	}{
		{sanctioned, screening.ClassSanctions, true, ix.Root()},
		{both, screening.ClassSanctions, true, ix.Root()},
		{flagged, screening.ClassCommunity, false, ix.CommunityRoot()},
		{unlisted, "", false, ix.Root()},
	} {
		out, err := s.Prove(ctx, p, tc.addr, "ethereum", "")
		if err != nil {
			t.Fatal(err)
		}
		ap := out.Proofs[0]
		if ap.Class != tc.class || ap.Sanctioned != tc.sanctioned || ap.Listed != (tc.class != "") || ap.Root != tc.root ||
			out.SanctionsRoot != ix.Root() || out.CommunityRoot != ix.CommunityRoot() || out.ListVersion != 7 {
			t.Fatalf("%s: %+v", tc.addr, ap)
		}
		if ok, err := merkle.VerifyStandard(ap.Root, compliance.LeafEncoding, []any{"evm", tc.addr}, ap.Proof); err != nil || ok != ap.Listed {
			t.Fatalf("%s: proof verifies %v (%v)", tc.addr, ok, err)
		}
	}
	qs := []screening.Query{{Address: sanctioned, Chain: "ethereum"}, {Address: both, Chain: "bsc"}, {Address: flagged, Chain: "base"},
		{Address: unlisted, Chain: "ethereum"}, {Address: "nope", Chain: "ethereum"}}
	out, err := s.ProveBatch(ctx, p, qs, true, "")
	if err != nil {
		t.Fatal(err)
	}
	if out.Proofs[4].Valid || out.Proofs[4].Leaf != nil || out.Proofs[2].Class != screening.ClassCommunity {
		t.Fatalf("batch items %+v", out.Proofs)
	}
	for root, mp := range map[merkle.Hash]*compliance.Multiproof{ix.Root(): out.Multiproof, ix.CommunityRoot(): out.CommunityMultiproof} {
		vs := make([][]any, len(mp.Values))
		for i, v := range mp.Values {
			vs[i] = []any{v[0], v[1]}
		}
		if ok, err := merkle.VerifyStandardMultiProof(root, compliance.LeafEncoding, vs, mp.Proof, mp.ProofFlags); err != nil || !ok {
			t.Fatalf("multiproof of %v does not verify: %v", mp.Values, err)
		}
	}
	if len(out.Multiproof.Values) != 2 || len(out.CommunityMultiproof.Values) != 1 {
		t.Fatalf("multiproofs of %d and %d values", len(out.Multiproof.Values), len(out.CommunityMultiproof.Values))
	}
}

// TestOneBillingPath: screening and proofs draw on one free window, then
// 1 credit per address; a request the balance does not cover charges
// nothing and gives its free addresses back.
func TestOneBillingPath(t *testing.T) {
	ctx := context.Background()
	s, ledger, p := newService(t)
	balance := func() int64 {
		t.Helper()
		b, err := ledger.Balance(ctx, p.DeveloperID)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	eth := func(n int) []screening.Query {
		qs := make([]screening.Query, n)
		for i := range qs {
			qs[i] = screening.Query{Address: sanctioned, Chain: "ethereum"}
		}
		return qs
	}
	scr, err := s.Screen(ctx, p, eth(6), true)
	if err != nil || scr.Usage.FreeRemaining != 4 || scr.Usage.Billable != 0 {
		t.Fatalf("screen: %+v %v", scr, err)
	}
	pr, err := s.ProveBatch(ctx, p, eth(5), false, "")
	if err != nil || pr.Usage.FreeRemaining != 0 || pr.Usage.Billable != 1 || pr.Usage.Charged != 1 || balance() != 4 {
		t.Fatalf("batch: %+v %v, balance %d", pr.Usage, err, balance())
	}
	if _, err := s.Screen(ctx, p, eth(5), true); !cairn.IsCode(err, cairn.EPAYMENT) || balance() != 4 {
		t.Fatalf("screening beyond the balance: %v, balance %d", err, balance())
	}
	one, err := s.Prove(ctx, p, flagged, "ethereum", "")
	if err != nil || one.Usage.Billable != 1 || one.Usage.FreeLimit != compliance.FreePerWindow || balance() != 3 {
		t.Fatalf("proof: %+v %v, balance %d", one, err, balance())
	}
	// The stored proof document names both roots.
	var doc compliance.ProofDoc
	if err := json.Unmarshal(scr.Proof, &doc); err != nil {
		t.Fatal(err)
	}
	ix := s.Screening.Current()
	if doc.MerkleRoot != ix.Root().String() || doc.SanctionsRoot != ix.Root().String() || doc.CommunityRoot != ix.CommunityRoot().String() {
		t.Fatalf("proof document %+v", doc)
	}
	rc, _, err := s.Blobs.Get(ctx, compliance.ProofBlob(doc.ScreeningID), 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	var stored compliance.ProofDoc
	if err := json.NewDecoder(rc).Decode(&stored); err != nil || stored.ScreeningID != doc.ScreeningID ||
		stored.SanctionsRoot != doc.SanctionsRoot || stored.CommunityRoot != doc.CommunityRoot {
		t.Fatalf("stored %+v, served %+v (%v)", stored, doc, err)
	}
}
