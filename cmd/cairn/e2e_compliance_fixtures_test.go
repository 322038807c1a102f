package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/api/apitest"
)

// evmChains are EVM chain identifiers a client may send (apitest.EVMChains).
var evmChains = apitest.EVMChains

// chainsOfTicker returns the chains on which an address listed under an
// OFAC ticker must screen sanctioned. Where a ticker spans chains, the
// address format decides, as for the service.
func chainsOfTicker(ticker, addr string) []string {
	switch {
	case addr == "TUCsTq7TofTCJRRoHk6RvhMoS2mJLm5Yzq": // a Tron address OFAC files under XBT
		return []string{"tron"}
	case strings.HasPrefix(addr, "0x"):
		return evmChains
	case ticker == "USDT" && strings.HasPrefix(addr, "T"), ticker == "TRX":
		return []string{"tron", "trx"}
	case ticker == "USDT": // Omni on bitcoin
		return []string{"bitcoin", "omni"}
	case ticker == "BNB":
		return []string{"bnb-beacon"}
	}
	return map[string][]string{
		"XBT": {"bitcoin", "btc"}, "LTC": {"litecoin"}, "BCH": {"bitcoin-cash"}, "BSV": {"bitcoin-sv"}, "BTG": {"bitcoin-gold"},
		"DASH": {"dash"}, "ZEC": {"zcash"}, "XMR": {"monero"}, "SOL": {"solana"}, "XRP": {"ripple", "xrp"}, "XVG": {"verge"},
	}[ticker]
}

type listedAddr struct {
	ticker, address, entityID, entityName string
}

// fixtureAddresses reads every address of the per-asset lists and of the
// SDN advanced excerpt's expected records.
func fixtureAddresses(t *testing.T) (lists []string, addrs []listedAddr) {
	t.Helper()
	files, _ := filepath.Glob("testdata/ofac_lists/sanctioned_addresses_*.txt")
	tickerOf := regexp.MustCompile(`sanctioned_addresses_([A-Z]+)`)
	for _, file := range files {
		ticker := tickerOf.FindStringSubmatch(file)[1]
		lists = append(lists, "list:"+ticker+"="+file)
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if a := strings.TrimSpace(sc.Text()); a != "" {
				addrs = append(addrs, listedAddr{ticker: ticker, address: a})
			}
		}
		f.Close()
	}
	raw, err := os.ReadFile("testdata/ofac_xml/sdn_advanced_excerpt.golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var recs []struct{ EntityID, EntityName, Ticker, Address string }
	if err := json.Unmarshal(raw, &recs); err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		addrs = append(addrs, listedAddr{r.Ticker, r.Address, r.EntityID, r.EntityName})
	}
	return lists, addrs
}

// TestE2ENoFalseClearOnRealOFACData ingests every real OFAC per-asset list
// and the SDN advanced excerpt, then screens over HTTP every listed address
// on every chain of its family: each must come back sanctioned, and the XML
// ones with their entity's id and name from gov_sdn.
func TestE2ENoFalseClearOnRealOFACData(t *testing.T) {
	lists, addrs := fixtureAddresses(t)
	cfg := testConfig(t, t.TempDir())
	cfg.Sources = append(stringList{"gov_sdn=testdata/ofac_xml/sdn_advanced_excerpt.xml"}, lists...)
	cfg.WriteLimitPerAgent, cfg.RateLimitPerKey = 1000, 1000 // about 60 screening requests
	ts := startServer(t, cfg)
	a := ts.register(t, "")
	ts.do(t, "POST", "/v1/admin/credits", admin, map[string]any{"developerId": a.DeveloperID, "amount": 100000, "reason": "test"}).must(t, 200)

	type pair struct {
		listedAddr
		chain string
	}
	var pairs []pair
	for _, la := range addrs {
		chains := chainsOfTicker(la.ticker, la.address)
		if len(chains) == 0 {
			t.Fatalf("no chain known for ticker %s", la.ticker)
		}
		for _, c := range chains {
			pairs = append(pairs, pair{la, c})
		}
	}
	if len(addrs) < 1100 || len(pairs) < 5000 {
		t.Fatalf("only %d addresses, %d (address, chain) pairs", len(addrs), len(pairs))
	}
	for start := 0; start < len(pairs); start += 100 {
		batch := pairs[start:min(start+100, len(pairs))]
		body := make([]map[string]any, len(batch))
		for i, p := range batch {
			body[i] = map[string]any{"address": p.address, "chain": p.chain}
		}
		r := ts.do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": body}).must(t, 200)
		for i, res := range r.JSON["results"].([]any) {
			item, p := res.(map[string]any), batch[i]
			if item["status"] != "sanctioned" {
				t.Errorf("%s listed under %s screens %v on %s", p.address, p.ticker, item["status"], p.chain)
				continue
			}
			if p.entityID == "" {
				continue
			}
			found := false
			for _, m := range item["matches"].([]any) {
				m := m.(map[string]any)
				found = found || m["source"] == "gov_sdn" && m["entityId"] == p.entityID && m["entityName"] == p.entityName
			}
			if !found {
				t.Errorf("%s on %s: no gov_sdn match for entity %s (%s): %v", p.address, p.chain, p.entityID, p.entityName, item["matches"])
			}
		}
	}
	st := ts.do(t, "GET", "/v1/compliance/stats", "", nil).must(t, 200)
	src := st.JSON["compliance"].(map[string]any)["sources"].(map[string]any)
	for _, name := range []string{"gov_sdn", "list:ETH", "list:XBT"} {
		s, ok := src[name].(map[string]any)
		if !ok || s["entries"].(float64) == 0 || s["lastError"] != nil || len(fmt.Sprint(s["sha256"])) != 64 {
			t.Errorf("stats of %s: %v", name, src[name])
		}
	}
}
