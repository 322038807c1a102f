package ingest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/screening"
)

// Three addresses of the lists of the tests below.
const a1, a2, a3 = "0x0000000000000000000000000000000000000001", "0x0000000000000000000000000000000000000002",
	"0x0000000000000000000000000000000000000003"

// TestUnchangedSourceKeepsItsVersion: a run whose sources list what the
// installed version lists (a restart's ingestion, a schedule between two
// publications) makes the next version from the installed index, renumbered,
// and keeps one copy of the listings; a changed source builds a new index.
func TestUnchangedSourceKeepsItsVersion(t *testing.T) {
	ctx := context.Background()
	list, write := tempList(t)
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

// TestRestartSkipsTheUnchangedParse: after a restart, a source whose
// bytes have the digest of the restored listings, parsed by this
// ParserVersion, is not parsed again (Progress.Reused, the restored
// listings kept); changed bytes, or listings stored by another parser
// version, are parsed.
func TestRestartSkipsTheUnchangedParse(t *testing.T) {
	ctx := context.Background()
	list, write := tempList(t)
	write(a1, a2)
	db := tempStore(t)
	// restart restores the stored version in a new pipeline and runs it,
	// returning the run's progress; tamper changes the restored state
	// before the run.
	restart := func(tamper func(*SourceState)) (*Pipeline, Progress, *screening.Listings) {
		t.Helper()
		p, _ := newPipeline(t, Source{Name: "list:ETH", Location: list})
		p.Store = db
		var got []Progress
		p.OnProgress = func(pr Progress) { got = append(got, pr) }
		if _, err := p.Restore(ctx); err != nil {
			t.Fatal(err)
		}
		restored := p.state["list:ETH"]
		if restored != nil && tamper != nil {
			tamper(restored)
		}
		var before *screening.Listings
		if restored != nil {
			before = restored.Listings
		}
		if _, err := p.Run(ctx); err != nil || len(got) != 1 || got[0].Err != nil {
			t.Fatalf("run: %v, progress %+v", err, got)
		}
		return p, got[0], before
	}
	if _, pr, _ := restart(nil); pr.Reused || pr.Entries != 2 { // nothing stored: parsed
		t.Fatalf("first start: %+v", pr)
	}
	if v, err := db.LastListVersion(ctx); err != nil || v.Sources["list:ETH"].ParserVersion != ParserVersion {
		t.Fatalf("stored version %+v %v: want the parser version %d recorded", v, err, ParserVersion)
	}
	p, pr, before := restart(nil)
	if !pr.Reused || pr.Entries != 2 || p.state["list:ETH"].Listings != before {
		t.Fatalf("restart with the same bytes: %+v, listings kept %v", pr, p.state["list:ETH"].Listings == before)
	}
	if _, pr, _ := restart(func(st *SourceState) { st.ParserVersion = ParserVersion - 1 }); pr.Reused {
		t.Fatalf("restart with listings of another parser version: %+v, want them parsed", pr)
	}
	write(a1, a2, a3)
	if _, pr, _ := restart(nil); pr.Reused || pr.Entries != 3 {
		t.Fatalf("restart with changed bytes: %+v, want them parsed", pr)
	}
}

// tempList is the path of a list file in a temporary directory and the
// function that writes its addresses, one a line.
func tempList(t *testing.T) (string, func(addrs ...string)) {
	list := filepath.Join(t.TempDir(), "eth.txt")
	return list, func(addrs ...string) {
		t.Helper()
		if err := os.WriteFile(list, []byte(strings.Join(addrs, "\n")+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}
