package ingest

import (
	"bytes"
	"maps"
	"path/filepath"
	"strings"
	"testing"

	cairn "github.com/cairn-dev/cairn"
)

func parsePlain(in []byte, ticker string) ([]Record, Stats, error) {
	return collect(func(emit func(Record) error) (Stats, error) {
		return ParsePlainList(bytes.NewReader(in), ticker, emit)
	})
}

// The public per-asset lists (fixtures/ofac, 2024-09-27): exact line counts.
func TestPlainListsReal(t *testing.T) {
	want := map[string]int{"ARB": 1, "BCH": 7, "BSC": 1, "BSV": 1, "BTG": 1, "DASH": 3, "ETC": 1, "ETH": 152, "LTC": 10,
		"SOL": 3, "TRX": 6, "USDC": 2, "USDT": 26, "XBT": 435, "XMR": 3, "XRP": 1, "XVG": 1, "ZEC": 3}
	files, _ := filepath.Glob("testdata/ofac_lists/sanctioned_addresses_*.txt")
	got, families := map[string]int{}, map[string]int{}
	for _, f := range files {
		ticker, _, _ := strings.Cut(strings.TrimPrefix(filepath.Base(f), "sanctioned_addresses_"), ".")
		t.Run(ticker, func(t *testing.T) {
			in := readTestdata(t, "ofac_lists/"+filepath.Base(f))
			recs, st, err := parsePlain(in, ticker)
			if err != nil {
				t.Fatal(err)
			}
			if lines := bytes.Count(in, []byte("\n")); st.Records != lines || len(recs) != lines || st.EntitiesSeen != lines {
				t.Errorf("%d records, %d lines", st.Records, lines)
			}
			for _, r := range recs {
				if r.Source != "list:"+strings.ToLower(ticker) || r.Ticker != ticker || r.EntityID != "" {
					t.Errorf("record %+v", r)
				}
				families[family(r.Ticker, r.Address)]++
			}
			got[ticker] = st.Records
		})
	}
	if !maps.Equal(got, want) {
		t.Errorf("records per list %v, want %v", got, want)
	}
	// USDT: 8 ERC-20, 7 Omni, 11 TRC-20; EVM: ETH 152 + USDC/ARB/BSC/ETC 5 + USDT 8.
	// The XBT list carries one Tron address (TUCsTq7…): it is indexed as Tron.
	wantFamilies := map[string]int{"evm": 152 + 5 + 8, "bitcoin": 434 + 7, "tron": 6 + 11 + 1, "litecoin": 10, "bitcoin-cash": 7,
		"dash": 3, "monero": 3, "zcash": 3, "solana": 3, "bitcoin-sv": 1, "bitcoin-gold": 1, "ripple": 1, "verge": 1}
	if !maps.Equal(families, wantFamilies) {
		t.Errorf("families %v, want %v", families, wantFamilies)
	}
}

func TestPlainListShapes(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
		skipped  int
	}{
		{"OKCommentsBlanksCRLF", "# OFAC XBT\r\n\r\n  1abc  \r\n#2def\r\n3ghi", []string{"1abc", "3ghi"}, 0},
		{"OKByteOrderMark", "\xef\xbb\xbf1abc\n1abc\n", []string{"1abc"}, 0},
		{"OKInnerSpaceSkipped", "1abc 1def\n1ghi\n", []string{"1ghi"}, 1},
		{"OKEmpty", "", nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			recs, st, err := parsePlain([]byte(tc.in), "xbt")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range recs {
				got = append(got, r.Address)
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") || st.SkippedTotal() != tc.skipped {
				t.Errorf("got %v skipped %v", got, st.Skipped)
			}
		})
	}
	for _, tc := range []struct{ name, in, ticker string }{
		{"ErrLineTooLong", "1abc\n" + strings.Repeat("a", maxPlainLine+1), "XBT"},
		{"ErrNoTicker", "1abc\n", " "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			recs, _, err := parsePlain([]byte(tc.in), tc.ticker)
			if !cairn.IsCode(err, cairn.EINVALID) || len(recs) != 0 {
				t.Fatalf("err = %v, %d records", err, len(recs))
			}
		})
	}
}
