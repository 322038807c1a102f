package ingest

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
	blobfs "github.com/cairn-dev/cairn/blob/fs"
	"github.com/cairn-dev/cairn/merkle"
	"github.com/cairn-dev/cairn/screening"
)

// chainsOf lists, per family, chain names a client may send for it.
var chainsOf = map[screening.Family][]string{}

func init() {
	for _, c := range []string{"ethereum", "bsc", "polygon", "arbitrum", "optimism", "base", "avalanche", "ethereum-classic",
		"bitcoin", "litecoin", "bitcoin-cash", "bitcoin-sv", "bitcoin-gold", "dogecoin", "dash", "zcash", "monero", "tron",
		"solana", "ripple", "verge", "bnb-beacon"} {
		if f, err := screening.ChainFamily(c); err == nil {
			chainsOf[f] = append(chainsOf[f], c)
		}
	}
}

func newPipeline(t *testing.T, sources ...Source) (*Pipeline, *screening.Holder) {
	t.Helper()
	blobs, err := blobfs.New(t.TempDir(), blobfs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := &screening.Holder{}
	return &Pipeline{Sources: sources, Blobs: blobs, Holder: h, Clock: cairn.SystemClock{},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}, h
}

// TestPipelineNoFalseClear ingests the real OFAC per-asset lists and the
// SDN advanced XML excerpt and screens every listed address on every chain
// of its family: each must come back sanctioned.
func TestPipelineNoFalseClear(t *testing.T) {
	var sources []Source
	lists, _ := filepath.Glob("testdata/ofac_lists/sanctioned_addresses_*.txt")
	tickerOf := regexp.MustCompile(`sanctioned_addresses_([A-Z]+)`)
	for _, l := range lists {
		sources = append(sources, Source{Name: "list:" + tickerOf.FindStringSubmatch(l)[1], Location: l})
	}
	sources = append(sources, Source{Name: SourceGovSDN, Location: "testdata/ofac_xml/sdn_advanced_excerpt.xml"})
	p, h := newPipeline(t, sources...)
	res, err := p.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Failures) != 0 || res.Version != 1 || res.Leaves < 700 {
		t.Fatalf("run: %+v", res)
	}
	ix := h.Current()
	checked := 0
	for _, l := range lists {
		ticker := tickerOf.FindStringSubmatch(l)[1]
		f, err := os.Open(l)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			addr := strings.TrimSpace(sc.Text())
			if addr == "" {
				continue
			}
			fam, canon, err := screening.NormalizeForTicker(ticker, addr)
			if err != nil {
				t.Fatalf("%s %s: %v", ticker, addr, err)
			}
			for _, chain := range chainsOf[fam] {
				r, err := ix.Screen([]screening.Query{{Address: addr, Chain: chain}}, true)
				if err != nil {
					t.Fatal(err)
				}
				if r[0].Status != screening.StatusSanctioned {
					t.Errorf("%s listed under %s screens %s on %s", addr, ticker, r[0].Status, chain)
				}
				checked++
			}
			leaf, proof, ok := ix.Proof(fam, canon)
			if !ok || !merkle.Verify(ix.Root(), leaf, proof) {
				t.Errorf("%s: no valid proof", addr)
			}
		}
		f.Close()
	}
	if checked < 1500 {
		t.Fatalf("only %d (address, chain) pairs checked", checked)
	}
	// Entity names and programs come through from the XML.
	r, _ := ix.Screen([]screening.Query{{Address: "0x8589427373D6D84E98730D7795D8F6F8731FDA16", Chain: "ethereum"}}, true)
	if r[0].Status != screening.StatusSanctioned {
		t.Fatalf("Tornado Cash address: %+v", r[0])
	}
}

func TestPipelineGuards(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "eth.txt")
	write := func(lines ...string) {
		if err := os.WriteFile(list, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	addrs := []string{
		"0x0000000000000000000000000000000000000001", "0x0000000000000000000000000000000000000002",
		"0x0000000000000000000000000000000000000003", "0x0000000000000000000000000000000000000004",
		"0x0000000000000000000000000000000000000005",
	}
	write(addrs...)
	p, h := newPipeline(t, Source{Name: "list:ETH", Location: list})
	ctx := context.Background()
	if _, err := p.Run(ctx); err != nil {
		t.Fatal(err)
	}
	screen := func(a string) string {
		r, _ := h.Current().Screen([]screening.Query{{Address: a, Chain: "ethereum"}}, true)
		return r[0].Status
	}
	t.Run("Delisting", func(t *testing.T) {
		write(addrs[:4]...) // 20% dropped: accepted
		res, err := p.Run(ctx)
		if err != nil || len(res.Failures) != 0 || res.Version != 2 {
			t.Fatalf("run: %+v %v", res, err)
		}
		if screen(addrs[4]) != screening.StatusClear || screen(addrs[0]) != screening.StatusSanctioned {
			t.Fatal("delisted address still listed, or listed one dropped")
		}
	})
	t.Run("TooBigDropKeepsPrevious", func(t *testing.T) {
		write(addrs[:2]...)
		res, err := p.Run(ctx)
		if err != nil || res.Failures["list:ETH"] == "" {
			t.Fatalf("a 50%% drop was accepted: %+v %v", res, err)
		}
		if screen(addrs[3]) != screening.StatusSanctioned {
			t.Fatal("previous version not kept")
		}
		if p.States()["list:ETH"].LastError == "" {
			t.Fatal("failure not visible in the state")
		}
	})
	t.Run("MissingFileKeepsPrevious", func(t *testing.T) {
		os.Remove(list)
		res, err := p.Run(ctx)
		if err != nil || res.Failures["list:ETH"] == "" || screen(addrs[0]) != screening.StatusSanctioned {
			t.Fatalf("missing source: %+v %v", res, err)
		}
	})
	t.Run("Snapshot", func(t *testing.T) {
		snap := p.States()["list:ETH"].Snapshot
		if !strings.HasPrefix(snap.BlobName, "snapshots/") || len(snap.SHA256) != 64 || snap.StorageURL == "" {
			t.Fatalf("snapshot %+v", snap)
		}
		if _, err := p.Blobs.Stat(ctx, snap.BlobName); err != nil {
			t.Fatal(err)
		}
	})
}

func TestParseSourceFlag(t *testing.T) {
	for in, ok := range map[string]bool{
		"gov_sdn=/x/SDN_ADVANCED.XML": true, "aggregated_sanctions=https://h/x.json": true, "list:ETH=a.txt": true,
		"gov_sdn": false, "nope=/x": false, "list:=a": false, "gov_sdn=": false,
	} {
		if _, err := ParseSourceFlag(in); (err == nil) != ok {
			t.Errorf("ParseSourceFlag(%q) = %v", in, err)
		}
	}
}

// TestUnknownTickerNeverDropsAListing: an address listed under a currency
// the ticker table does not know (say OFAC adds "Digital Currency Address -
// USDE") is indexed under the family its format fits.
func TestUnknownTickerNeverDropsAListing(t *testing.T) {
	for _, tc := range []struct {
		ticker, addr string
		fam          screening.Family
	}{
		{"USDE", "0x8589427373D6D84E98730D7795D8f6f8731FDA16", screening.EVM},
		{"NEWCOIN", "12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h", screening.Bitcoin},
		{"TRC20X", "TA3941uFAvmVibSkQ6fMJXxmaSNovX86mz", screening.Tron},
		{"polygon", "0x8589427373d6d84e98730d7795d8f6f8731fda16", screening.EVM},
	} {
		var b screening.ListingsBuilder
		ok := newLister(SourceGovSDN).add(&b, Record{Ticker: tc.ticker, Address: tc.addr, EntityID: "1"})
		ls, err := b.Listings()
		if !ok || err != nil || ls.Len() != 1 || ls.At(0).Family != tc.fam {
			t.Errorf("%s %s: kept %v (%v), %d listings; want one of family %s", tc.ticker, tc.addr, ok, err, ls.Len(), tc.fam)
		}
	}
	var b screening.ListingsBuilder
	if ok := newLister(SourceGovSDN).add(&b, Record{Ticker: "TON", Address: "EQ-not-an-address-we-know"}); ok || b.Len() != 0 {
		t.Error("an address no family accepts was indexed")
	}
	dir := t.TempDir()
	list := filepath.Join(dir, "usde.txt")
	os.WriteFile(list, []byte("0x8589427373D6D84E98730D7795D8f6f8731FDA16\n"), 0o600)
	p, h := newPipeline(t, Source{Name: "list:USDE", Location: list})
	if _, err := p.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	r, _ := h.Current().Screen([]screening.Query{{Address: "0x8589427373d6d84e98730d7795d8f6f8731fda16", Chain: "arbitrum"}}, true)
	if r[0].Status != screening.StatusSanctioned {
		t.Fatalf("listed under an unknown ticker, screens %s", r[0].Status)
	}
}
