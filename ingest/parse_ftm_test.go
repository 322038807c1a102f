package ingest

import (
	"bytes"
	"io"
	"maps"
	"slices"
	"strings"
	"testing"

	cairn "github.com/cairn-dev/cairn"
)

// onlyReader hides io.Seeker so that the one-pass path runs.
type onlyReader struct{ io.Reader }

func TestFtM(t *testing.T) {
	in := readTestdata(t, "opensanctions/wallets_constructed.ftm.json")
	readers := []struct {
		name string
		r    func() io.Reader
	}{
		{"TwoPassSeeker", func() io.Reader { return bytes.NewReader(in) }},
		{"OnePassStream", func() io.Reader { return onlyReader{bytes.NewReader(in)} }},
	}
	for _, rd := range readers {
		t.Run(rd.name, func(t *testing.T) {
			recs, st, err := collect(func(emit func(Record) error) (Stats, error) { return ParseFtM(rd.r(), emit) })
			if err != nil {
				t.Fatal(err)
			}
			wantTicker := map[string]int{"ETH": 2, "ETC": 1, "ARB": 1, "BSC": 1, "XBT": 1, "USDT": 1}
			if !maps.Equal(st.ByTicker, wantTicker) || !maps.Equal(countBy(recs, byTicker), wantTicker) {
				t.Errorf("by ticker %v", st.ByTicker)
			}
			wantFamily := map[string]int{"evm": 5, "bitcoin": 1, "tron": 1}
			if got := countBy(recs, byFamily); !maps.Equal(got, wantFamily) {
				t.Errorf("by family %v", got)
			}
			if st.EntitiesSeen != 14 || st.Entities != 4 || st.Duplicates != 1 ||
				st.Skipped["wallet without currency"] != 1 || st.Warnings["holder not found"] != 1 ||
				st.Warnings["wallet without holder"] != 1 {
				t.Errorf("stats %+v", st)
			}
			names := map[string]string{}
			for _, r := range recs {
				names[r.EntityID] = r.EntityName
				if r.Source != SourceAggregated || r.Category != CategorySanctions ||
					!slices.Equal(r.Datasets, []string{"us_ofac_sdn"}) || !slices.Equal(r.Topics, []string{"sanction"}) {
					t.Errorf("record %+v", r)
				}
			}
			for id, want := range map[string]string{
				"ofac-29585":    "Dmitrii KARASAVIDI", // holder after its wallets
				"ofac-42498":    "Hyon Sop SIM",       // holder before its wallets
				"ofac-99999999": "",                   // holder not in the file
			} {
				if got, ok := names[id]; !ok || got != want {
					t.Errorf("%s: name %q (present %v), want %q", id, got, ok, want)
				}
			}
		})
	}
}

func TestFtMShapes(t *testing.T) {
	wallet := `{"id":"w1","schema":"CryptoWallet","properties":{"publicKey":[" 0xd882cfc20f52f2599d84b8e8d58c7fb62cfe344b "],"currency":["eth"],"holder":[{"id":"h1","schema":"Person","caption":"Nested Holder"}]}}`
	tests := []struct {
		name    string
		in      string
		records int
		check   func(t *testing.T, recs []Record, st Stats)
	}{
		{"OKNestedHolder", wallet + "\n", 1, func(t *testing.T, recs []Record, st Stats) {
			r := recs[0]
			if r.EntityID != "h1" || r.EntityName != "Nested Holder" || r.Ticker != "ETH" ||
				r.Address != "0xd882cfc20f52f2599d84b8e8d58c7fb62cfe344b" {
				t.Errorf("record %+v", r)
			}
		}},
		{"OKBlankLinesAndCRLF", "\r\n" + wallet + "\r\n\r\n", 1, nil},
		{"OKWrongShapeSkipped", `{"id":"x","schema":"CryptoWallet","properties":{"publicKey":"notalist"}}` + "\n" + wallet, 1,
			func(t *testing.T, recs []Record, st Stats) {
				if st.Skipped["unexpected entity shape"] != 1 {
					t.Errorf("skipped %v", st.Skipped)
				}
			}},
		{"OKNoKey", `{"id":"w","schema":"CryptoWallet","properties":{"currency":["XBT"]}}`, 0,
			func(t *testing.T, recs []Record, st Stats) {
				if st.Skipped["wallet without publicKey"] != 1 {
					t.Errorf("skipped %v", st.Skipped)
				}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			recs, st, err := collect(func(emit func(Record) error) (Stats, error) {
				return ParseFtM(strings.NewReader(tc.in), emit)
			})
			if err != nil || len(recs) != tc.records {
				t.Fatalf("err %v records %+v", err, recs)
			}
			if tc.check != nil {
				tc.check(t, recs, st)
			}
		})
	}
	for _, tc := range []struct{ name, in string }{
		{"ErrNotJSON", wallet + "\nnot json\n"},
		{"ErrTruncatedLine", wallet[:len(wallet)-5]},
		{"ErrLineTooLong", `{"id":"` + strings.Repeat("a", maxFtMLine) + `"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			recs, _, err := collect(func(emit func(Record) error) (Stats, error) {
				return ParseFtM(strings.NewReader(tc.in), emit)
			})
			if !cairn.IsCode(err, cairn.EINVALID) || len(recs) != 0 {
				t.Fatalf("err = %v, %d records", err, len(recs))
			}
		})
	}
}
