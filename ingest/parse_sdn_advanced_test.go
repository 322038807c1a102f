package ingest

import (
	"bytes"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func parseAdvanced(b []byte) ([]Record, Stats, error) {
	return collect(func(emit func(Record) error) (Stats, error) {
		return ParseSDNAdvanced(bytes.NewReader(b), emit)
	})
}

// The per-currency feature counts are those of PROVENANCE.md (section 1b).
var advancedFixtures = []struct {
	file            string
	parties, listed int
	byTicker        map[string]int
	byFamily        map[string]int
}{
	{
		file: "sdn_advanced_mini.xml", parties: 15, listed: 15,
		byTicker: map[string]int{"XBT": 53, "ETH": 24, "TRX": 9, "LTC": 4, "USDT": 4, "XMR": 3, "ZEC": 3, "BCH": 3,
			"DASH": 2, "USDC": 2, "ETC": 1, "BTG": 1, "BSV": 1, "XVG": 1, "XRP": 1, "ARB": 1, "BSC": 1, "BNB": 1, "SOL": 1},
		// USDT: 2 ERC-20, 1 TRC-20, 1 Omni.
		byFamily: map[string]int{"bitcoin": 54, "evm": 31, "tron": 10, "litecoin": 4, "monero": 3, "zcash": 3,
			"bitcoin-cash": 3, "dash": 2, "bitcoin-gold": 1, "bitcoin-sv": 1, "verge": 1, "ripple": 1, "bnb-beacon": 1, "solana": 1},
	},
	{
		file: "sdn_advanced_excerpt.xml", parties: 45, listed: 42,
		byTicker: map[string]int{"XBT": 273, "USDT": 86, "ETH": 65, "TRX": 25, "LTC": 7, "BCH": 4, "XMR": 3, "ZEC": 3,
			"DASH": 2, "USDC": 2, "ETC": 1, "BTG": 1, "BSV": 1, "XVG": 1, "XRP": 1, "ARB": 1, "BSC": 1, "BNB": 1, "SOL": 1},
		// USDT: 74 TRC-20, 5 ERC-20, 7 Omni.
		byFamily: map[string]int{"bitcoin": 280, "evm": 75, "tron": 99, "litecoin": 7, "bitcoin-cash": 4, "monero": 3,
			"zcash": 3, "dash": 2, "bitcoin-gold": 1, "bitcoin-sv": 1, "verge": 1, "ripple": 1, "bnb-beacon": 1, "solana": 1},
	},
}

func TestSDNAdvancedFixtures(t *testing.T) {
	expected := map[string]map[string]bool{} // ticker -> full-file list of 2025-11-19
	dir := "ofac_xml/expected_brave_lists_3ed6690"
	names, _ := filepath.Glob(filepath.Join("testdata", dir, "sanctioned_addresses_*.txt"))
	for _, n := range names {
		tk := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(n), "sanctioned_addresses_"), ".txt")
		expected[tk] = readList(t, filepath.Join(dir, filepath.Base(n)))
	}
	if len(expected) != 19 {
		t.Fatalf("expected lists: %d currencies, want 19", len(expected))
	}
	for _, fx := range advancedFixtures {
		t.Run(fx.file, func(t *testing.T) {
			recs, st, err := parseAdvanced(readTestdata(t, "ofac_xml/"+fx.file))
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, "ofac_xml/"+strings.TrimSuffix(fx.file, ".xml")+".golden.json", recs)
			total := 0
			for _, n := range fx.byTicker {
				total += n
			}
			if st.EntitiesSeen != fx.parties || st.Entities != fx.listed || st.Records != total || len(recs) != total {
				t.Errorf("parties %d/%d listed %d/%d records %d/%d emitted %d",
					st.EntitiesSeen, fx.parties, st.Entities, fx.listed, st.Records, total, len(recs))
			}
			if got := countBy(recs, byTicker); !maps.Equal(got, fx.byTicker) || !maps.Equal(st.ByTicker, fx.byTicker) {
				t.Errorf("by ticker: got %v, stats %v, want %v", got, st.ByTicker, fx.byTicker)
			}
			if got := countBy(recs, byFamily); !maps.Equal(got, fx.byFamily) {
				t.Errorf("by family: got %v, want %v", got, fx.byFamily)
			}
			if st.SkippedTotal() != 0 || len(st.Warnings) != 0 || st.Duplicates != 0 {
				t.Errorf("skipped %v warnings %v duplicates %d", st.Skipped, st.Warnings, st.Duplicates)
			}
			if len(st.TickerTypes) != 19 || st.TickerTypes["XBT"] != "344" || st.TickerTypes["SOL"] != "1167" {
				t.Errorf("ticker types %v", st.TickerTypes)
			}
			if want := time.Date(2025, 11, 19, 0, 0, 0, 0, time.UTC); !st.IssuedAt.Equal(want) {
				t.Errorf("issued %v", st.IssuedAt)
			}
			unique := map[string]map[string]bool{}
			for _, r := range recs {
				if !expected[r.Ticker][r.Address] {
					t.Errorf("%s %s (party %s) is not in the full file's %s list", r.Ticker, r.Address, r.EntityID, r.Ticker)
				}
				if r.Source != SourceGovSDN || r.Category != CategorySanctions || r.EntityName == "" ||
					len(r.Programs) == 0 || r.ListedAt.IsZero() {
					t.Errorf("incomplete record %+v", r)
				}
				if unique[r.Ticker] == nil {
					unique[r.Ticker] = map[string]bool{}
				}
				unique[r.Ticker][r.Address] = true
			}
			// Where the excerpt holds as many addresses as the full file, the sets are equal.
			for tk, set := range unique {
				if len(set) == len(expected[tk]) && !maps.Equal(set, expected[tk]) {
					t.Errorf("%s: excerpt addresses differ from the full-file list", tk)
				}
			}
		})
	}
}

// Edge cases that occur in the real data (PROVENANCE.md, section 1b).
func TestSDNAdvancedEdgeCases(t *testing.T) {
	recs, _, err := parseAdvanced(readTestdata(t, "ofac_xml/sdn_advanced_excerpt.xml"))
	if err != nil {
		t.Fatal(err)
	}
	find := func(entity, address string) (tickers []string, r Record) {
		for _, x := range recs {
			if x.EntityID == entity && x.Address == address {
				tickers, r = append(tickers, x.Ticker), x
			}
		}
		return tickers, r
	}
	tests := []struct {
		name, entity, address string
		tickers               []string
		entityName            string
		programs              []string
		listed                string
	}{
		{"OneAddressThreeEVMChains", "42498", "0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c",
			[]string{"ETH", "ARB", "BSC"}, "Sim, Hyon Sop", []string{"NPWMD"}, "2023-04-24"},
		{"EthereumAndClassic", "29585", "0xd882cfc20f52f2599d84b8e8d58c7fb62cfe344b",
			[]string{"ETH", "ETC"}, "KARASAVIDI, Dmitrii", []string{"CYBER2"}, "2020-09-16"},
		{"OmniUSDTReusesBitcoinAddress", "33151", "1KUUJPkyDhamZXgpsyXqNGc3x1QPXtdhgz",
			[]string{"XBT", "USDT"}, "SUEX OTC, S.R.O.", []string{"CYBER2"}, "2021-09-21"},
		{"TwoEntryEvents", "29703", "", nil, "Andreyev, Anton Nikolaeyvich",
			[]string{"CYBER2", "ELECTION-EO13848"}, "2020-09-10"},
		{"EntityName", "27307", "", nil, "Lazarus Group", []string{"DPRK3"}, "2019-09-13"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var r Record
			if tc.address != "" {
				var tickers []string
				tickers, r = find(tc.entity, tc.address)
				slices.Sort(tickers)
				want := slices.Sorted(slices.Values(tc.tickers))
				if !slices.Equal(tickers, want) {
					t.Errorf("tickers %v, want %v", tickers, want)
				}
			} else {
				i := slices.IndexFunc(recs, func(x Record) bool { return x.EntityID == tc.entity })
				if i < 0 {
					t.Fatalf("no record for %s", tc.entity)
				}
				r = recs[i]
			}
			if r.EntityName != tc.entityName || !slices.Equal(r.Programs, tc.programs) ||
				r.ListedAt.Format(time.DateOnly) != tc.listed {
				t.Errorf("got %q %v %v", r.EntityName, r.Programs, r.ListedAt)
			}
		})
	}
	t.Run("NegativeControlsNotEmitted", func(t *testing.T) {
		for _, id := range []string{"30522", "48312", "56402"} {
			if slices.ContainsFunc(recs, func(x Record) bool { return x.EntityID == id }) {
				t.Errorf("party %s has no address but was emitted", id)
			}
		}
	})
}
