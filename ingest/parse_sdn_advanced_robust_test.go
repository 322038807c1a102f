package ingest

import (
	"bytes"
	"errors"
	"regexp"
	"testing"

	cairn "github.com/cairn-dev/cairn"
)

func TestSDNAdvancedMalformed(t *testing.T) {
	mini := readTestdata(t, "ofac_xml/sdn_advanced_mini.xml")
	cut := func(marker string) []byte {
		i := bytes.Index(mini, []byte(marker))
		if i < 0 {
			t.Fatalf("marker %q not in fixture", marker)
		}
		return mini[:i]
	}
	without := func(from, to string) []byte {
		i, j := bytes.Index(mini, []byte(from)), bytes.Index(mini, []byte(to))
		if i < 0 || j < i {
			t.Fatalf("section %q..%q not in fixture", from, to)
		}
		return append(append([]byte{}, mini[:i]...), mini[j+len(to):]...)
	}
	tests := []struct {
		name string
		in   []byte
	}{
		{"ErrEmpty", nil},
		{"ErrNotXML", []byte("Digital Currency Address - XBT 1abc\n")},
		{"ErrTruncatedInParties", mini[:len(mini)/2]},
		{"ErrTruncatedBeforeEntries", cut("<SanctionsEntries>")},
		{"ErrTruncatedLastByte", mini[:len(mini)-1]},
		{"ErrNoSanctionsEntries", without("<SanctionsEntries>", "</SanctionsEntries>")},
		{"ErrNoReferenceValues", without("<ReferenceValueSets>", "</ReferenceValueSets>")},
		{"ErrWrongRoot", readTestdata(t, "ofac_xml/cons_enhanced_excerpt.xml")},
		{"ErrMismatchedTag", bytes.Replace(mini, []byte("</DistinctParties>"), []byte("</DistinctPartys>"), 1)},
		{"ErrOtherCharset", bytes.Replace(mini, []byte(`encoding="utf-8"`), []byte(`encoding="ebcdic"`), 1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			recs, _, err := parseAdvanced(tc.in)
			if !cairn.IsCode(err, cairn.EINVALID) {
				t.Fatalf("err = %v, want code %s", err, cairn.EINVALID)
			}
			if len(recs) != 0 {
				t.Errorf("emitted %d records before failing", len(recs))
			}
		})
	}
	t.Run("ErrEmitStops", func(t *testing.T) {
		stop, n := errors.New("stop"), 0
		_, err := ParseSDNAdvanced(bytes.NewReader(mini), func(Record) error { n++; return stop })
		if !errors.Is(err, stop) || n != 1 {
			t.Fatalf("err = %v after %d calls", err, n)
		}
	})
}

// The currencies come from the FeatureType names of each file, never from a
// fixed id table, and the namespace does not matter.
func TestSDNAdvancedDiscovery(t *testing.T) {
	mini := readTestdata(t, "ofac_xml/sdn_advanced_mini.xml")
	ns := []byte(`xmlns="https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/ADVANCED_XML"`)
	prefixed := regexp.MustCompile(`<(/?)([A-Za-z])`).ReplaceAll(mini, []byte("<${1}ofac:$2"))
	prefixed = bytes.Replace(prefixed, []byte("xmlns="), []byte("xmlns:ofac="), 1)
	tests := []struct {
		name  string
		in    []byte
		check func(t *testing.T, st Stats)
	}{
		{"RenamedType", bytes.Replace(mini, []byte(">Digital Currency Address - XBT<"), []byte(">Digital Currency Address - DOGE<"), 1),
			func(t *testing.T, st Stats) {
				if st.ByTicker["DOGE"] != 53 || st.ByTicker["XBT"] != 0 || st.TickerTypes["DOGE"] != "344" {
					t.Errorf("by ticker %v types %v", st.ByTicker, st.TickerTypes)
				}
			}},
		{"RenumberedType", bytes.ReplaceAll(bytes.ReplaceAll(mini, []byte(`ID="1167"`), []byte(`ID="77777"`)),
			[]byte(`FeatureTypeID="1167"`), []byte(`FeatureTypeID="77777"`)),
			func(t *testing.T, st Stats) {
				if st.ByTicker["SOL"] != 1 || st.TickerTypes["SOL"] != "77777" {
					t.Errorf("by ticker %v types %v", st.ByTicker, st.TickerTypes)
				}
			}},
		{"TypeNoLongerAddress", bytes.Replace(mini, []byte(">Digital Currency Address - SOL<"), []byte(">Solana Something<"), 1),
			func(t *testing.T, st Stats) {
				if st.ByTicker["SOL"] != 0 || st.Records != 115 {
					t.Errorf("by ticker %v", st.ByTicker)
				}
			}},
		{"OldNamespace", bytes.Replace(mini, ns, []byte(`xmlns="http://www.un.org/sanctions/1.0"`), 1),
			func(t *testing.T, st Stats) {
				if st.Records != 116 {
					t.Errorf("records %d", st.Records)
				}
			}},
		{"NoNamespace", bytes.Replace(mini, ns, nil, 1),
			func(t *testing.T, st Stats) {
				if st.Records != 116 {
					t.Errorf("records %d", st.Records)
				}
			}},
		{"PrefixedNamespace", prefixed,
			func(t *testing.T, st Stats) {
				if st.Records != 116 || st.Entities != 15 {
					t.Errorf("records %d entities %d", st.Records, st.Entities)
				}
			}},
		{"EmptyAndDuplicateValues", bytes.Replace(bytes.Replace(mini,
			[]byte(">1Kuf2Rd8mDyAViwBozGTNYnvWL8uYFrkVo<"), []byte(">  12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h\r\n<"), 1),
			[]byte(">13f59kUM5FU8MfTG7DCEugYarDhSD7XCoC<"), []byte("> <"), 1),
			func(t *testing.T, st Stats) {
				if st.ByTicker["XBT"] != 51 || st.Duplicates != 1 || st.Skipped["empty address"] != 1 {
					t.Errorf("by ticker %v duplicates %d skipped %v", st.ByTicker, st.Duplicates, st.Skipped)
				}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, st, err := parseAdvanced(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, st)
		})
	}
}
