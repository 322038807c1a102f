package ingest

import (
	"bytes"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	cairn "github.com/cairn-dev/cairn"
)

func parseCSV(sdn, comments []byte) ([]Record, Stats, error) {
	var c io.Reader
	if comments != nil {
		c = bytes.NewReader(comments)
	}
	return collect(func(emit func(Record) error) (Stats, error) {
		return ParseSDNCSV(bytes.NewReader(sdn), c, emit)
	})
}

func TestSDNCSV(t *testing.T) {
	sdn := readTestdata(t, "ofac_csv/sdn.csv")
	comments := readTestdata(t, "ofac_csv/sdn_comments.csv")
	const spilled = "1B64QRxfaa35MVkf7sDjuGUYAP5izQt7Qi" // "1B64QRxf" in sdn.csv + "aa35..." in sdn_comments.csv
	xbt := readList(t, "ofac_xml/expected_brave_lists_3ed6690/sanctioned_addresses_XBT.txt")
	if !xbt[spilled] {
		t.Fatal("the merged address is not in the full-file XBT list")
	}
	tests := []struct {
		name       string
		comments   []byte
		byTicker   map[string]int
		byFamily   map[string]int
		has, hasnt string
	}{
		// USDT of 33151: 2 ERC-20 and 5 Omni addresses, all in sdn_comments.csv.
		{"OKMerged", comments, map[string]int{"XBT": 17, "ETH": 6, "USDT": 7, "LTC": 1, "DASH": 1},
			map[string]int{"bitcoin": 17 + 5, "evm": 6 + 2, "litecoin": 1, "dash": 1}, spilled, "1B64QRxf"},
		{"OKWithoutComments", nil, map[string]int{"XBT": 17, "ETH": 2, "LTC": 1, "DASH": 1},
			// Without the comments file the spilled address is cut short and
			// fails validation: merging is what makes it screenable.
			map[string]int{"bitcoin": 16, "invalid": 1, "evm": 2, "litecoin": 1, "dash": 1}, "1B64QRxf", spilled},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			recs, st, err := parseCSV(sdn, tc.comments)
			if err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(st.ByTicker, tc.byTicker) || !maps.Equal(countBy(recs, byTicker), tc.byTicker) {
				t.Errorf("by ticker %v, want %v", st.ByTicker, tc.byTicker)
			}
			if got := countBy(recs, byFamily); !maps.Equal(got, tc.byFamily) {
				t.Errorf("by family %v, want %v", got, tc.byFamily)
			}
			if st.EntitiesSeen != 17 || st.Entities != 3 || st.SkippedTotal() != 0 {
				t.Errorf("stats %+v", st)
			}
			has := func(a string) bool {
				return slices.ContainsFunc(recs, func(r Record) bool { return r.EntityID == "33151" && r.Address == a })
			}
			if !has(tc.has) || has(tc.hasnt) {
				t.Errorf("33151: want %s, not %s", tc.has, tc.hasnt)
			}
		})
	}
	t.Run("OKFieldsAndFullFileMembership", func(t *testing.T) {
		recs, _, err := parseCSV(sdn, comments)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			list := readList(t, filepath.Join("ofac_xml/expected_brave_lists_3ed6690", "sanctioned_addresses_"+r.Ticker+".txt"))
			if !list[r.Address] {
				t.Errorf("%s %s not in the full-file list", r.Ticker, r.Address)
			}
			if r.Source != SourceGovSDN || r.Category != CategorySanctions || !r.ListedAt.IsZero() {
				t.Errorf("record %+v", r)
			}
		}
		i := slices.IndexFunc(recs, func(r Record) bool { return r.EntityID == "29702" })
		if i < 0 || recs[i].EntityName != "LIFSHITS, Artem Mikhaylovich" ||
			!slices.Equal(recs[i].Programs, []string{"CYBER2", "ELECTION-EO13848"}) {
			t.Errorf("29702: %+v", recs[i])
		}
	})
	t.Run("OKOrphanComments", func(t *testing.T) {
		recs, st, err := parseCSV(nil, readTestdata(t, "ofac_csv/sdn_comments_pkg.csv"))
		if err != nil || len(recs) != 0 || st.Warnings["comment without sdn row"] != 21 {
			t.Fatalf("err %v records %d warnings %v", err, len(recs), st.Warnings)
		}
	})
}

// The real overflow remarks of sdn_comments_pkg.csv: occurrences per
// currency as counted in PROVENANCE.md (section 3).
func TestRemarkAddresses(t *testing.T) {
	b := readTestdata(t, "ofac_csv/sdn_comments_pkg.csv")
	got, skipped := map[string]int{}, map[string]int{}
	err := readOFACCSV(bytes.NewReader(b), "comments", commentsColumns, func(_ int, row []string) {
		for _, a := range remarkAddresses(row[1], func(r string) { skipped[r]++ }) {
			got[a.ticker]++
			if strings.ContainsAny(a.address, ` ".;`) {
				t.Errorf("address %q carries punctuation", a.address)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"XBT": 219, "ETH": 100, "USDT": 8, "LTC": 6, "BCH": 4, "BSV": 1, "TRX": 1, "XRP": 1, "ZEC": 1}
	if !maps.Equal(got, want) || len(skipped) != 0 {
		t.Errorf("got %v skipped %v, want %v", got, skipped, want)
	}
	for _, tc := range []struct{ in, reason string }{
		{"Digital Currency Address - ", "remark address clause without currency"},
		{"Digital Currency Address - XBT ; x", "remark address clause without address"},
		{"Digital Currency Address - XBT 1abc (old); x", "remark address clause with trailing text"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			var reasons []string
			if out := remarkAddresses(tc.in, func(r string) { reasons = append(reasons, r) }); len(out) != 0 ||
				!slices.Equal(reasons, []string{tc.reason}) {
				t.Errorf("out %v reasons %v", out, reasons)
			}
		})
	}
}

func TestSDNCSVMalformed(t *testing.T) {
	row := `29702,"LIFSHITS, Artem","individual","CYBER2",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"Digital Currency Address - XBT 12udabs2TkX7NXCSj6KpqXfakjE52ZPLhz."` + "\r\n"
	tests := []struct {
		name          string
		sdn, comments string
	}{
		{"ErrFieldCount", `1,"A","B"` + "\r\n", ""},
		{"ErrBadQuote", row + `2,"A"B",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0-` + "\r\n", ""},
		{"ErrEntityNumber", strings.Replace(row, "29702", "x29702", 1), ""},
		{"ErrCommentsFieldCount", row, `29702,"a","b"` + "\r\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			recs, _, err := parseCSV([]byte(tc.sdn), []byte(tc.comments))
			if !cairn.IsCode(err, cairn.EINVALID) || len(recs) != 0 {
				t.Fatalf("err = %v, %d records", err, len(recs))
			}
		})
	}
	t.Run("OKLatin1AndEOFMarker", func(t *testing.T) {
		in := strings.Replace(row, "LIFSHITS", "LIFSH\xcdTS", 1) + "\x1a"
		recs, _, err := parseCSV([]byte(in), nil)
		if err != nil || len(recs) != 1 || recs[0].EntityName != "LIFSHÍTS, Artem" ||
			recs[0].Address != "12udabs2TkX7NXCSj6KpqXfakjE52ZPLhz" {
			t.Fatalf("err %v records %+v", err, recs)
		}
	})
}
