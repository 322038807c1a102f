package ingest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/screening"
)

// TestUnchangedSourceKeepsItsVersion: a run whose sources list what the
// installed version lists (a restart's ingestion, a schedule between two
// publications) makes the next version from the installed index, renumbered,
// and keeps one copy of the listings; a changed source builds a new index.
func TestUnchangedSourceKeepsItsVersion(t *testing.T) {
	ctx := context.Background()
	list := filepath.Join(t.TempDir(), "eth.txt")
	write := func(addrs ...string) {
		t.Helper()
		if err := os.WriteFile(list, []byte(strings.Join(addrs, "\n")+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	const a1, a2, a3 = "0x0000000000000000000000000000000000000001", "0x0000000000000000000000000000000000000002",
		"0x0000000000000000000000000000000000000003"
	write(a1, a2)
	db := tempStore(t)
	p, h := newPipeline(t, Source{Name: "list:ETH", Location: list})
	p.Store = db
	if _, err := p.Run(ctx); err != nil {
		t.Fatal(err)
	}
	first := h.Current()
	listings := p.state["list:ETH"].Listings

	// Same list again (written anew, so parsed anew).
	write(a1, a2)
	res, err := p.Run(ctx)
	if err != nil || res.Version != 2 || res.Added != 0 || res.Removed != 0 {
		t.Fatalf("second run: %+v %v", res, err)
	}
	second := h.Current()
	if second == first || second.Version != 2 || second.Root() != first.Root() {
		t.Fatalf("second version %d root %x, first %d root %x", second.Version, second.Root(), first.Version, first.Root())
	}
	if !second.SharesEntries(first) {
		t.Fatal("an unchanged version built its index again")
	}
	if got := p.state["list:ETH"].Listings; got != listings || p.last["list:ETH"] != listings {
		t.Fatal("an unchanged source holds a second copy of its listings")
	}
	if r, err := second.Screen([]screening.Query{{Address: a2, Chain: "ethereum"}}, false); err != nil || len(r) != 1 || len(r[0].Matches) != 1 {
		t.Fatalf("screening the renumbered version: %+v %v", r, err)
	}
	if _, _, ok := second.Proof(screening.EVM, a1); !ok {
		t.Fatal("no proof from the renumbered version")
	}
	if second.Snapshots["list:ETH"].SHA256 == "" {
		t.Fatal("the renumbered version has no snapshot")
	}
	if v, err := db.LastListVersion(ctx); err != nil || v.Version != 2 || v.SanctionsRoot != first.Root().String() {
		t.Fatalf("stored version %+v %v", v, err)
	}

	// A change builds a new index.
	write(a1, a2, a3)
	if res, err := p.Run(ctx); err != nil || res.Version != 3 || res.Added != 1 {
		t.Fatalf("third run: %+v %v", res, err)
	}
	third := h.Current()
	if third.SharesEntries(second) || third.Root() == second.Root() {
		t.Fatal("a changed source did not build a new index")
	}

	// After a restart, an ingestion of the same list keeps the restored
	// index and listings.
	p2, h2 := newPipeline(t, Source{Name: "list:ETH", Location: list})
	p2.Store = db
	if ok, err := p2.Restore(ctx); err != nil || !ok {
		t.Fatalf("restore: %v %v", ok, err)
	}
	restored := h2.Current()
	if res, err := p2.Run(ctx); err != nil || res.Version != 4 || res.Added != 0 || res.Removed != 0 {
		t.Fatalf("run after the restart: %+v %v", res, err)
	}
	if !h2.Current().SharesEntries(restored) || h2.Current().Root() != third.Root() {
		t.Fatal("the ingestion after a restart built the unchanged version again")
	}
}
