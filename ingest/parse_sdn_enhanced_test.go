package ingest

import (
	"bytes"
	"slices"
	"testing"
	"time"

	cairn "github.com/cairn-dev/cairn"
)

func parseEnhanced(b []byte) ([]Record, Stats, error) {
	return collect(func(emit func(Record) error) (Stats, error) {
		return ParseSDNEnhanced(bytes.NewReader(b), emit)
	})
}

// withDCAFeature inserts a digital currency feature, in the shape OFAC uses
// in SDN_ENHANCED.XML, at the top of the features of the real entity id.
func withDCAFeature(t *testing.T, doc []byte, entity, typeID, typeName, addr string) []byte {
	t.Helper()
	i := bytes.Index(doc, []byte(`<entity id="`+entity+`">`))
	j := bytes.Index(doc[i:], []byte("<features>"))
	if i < 0 || j < 0 {
		t.Fatalf("entity %s has no features", entity)
	}
	at := i + j + len("<features>")
	feat := "\r\n        <feature id=\"990001\">\r\n          <type featureTypeId=\"" + typeID + "\">" + typeName +
		"</type>\r\n          <versionId>990001</versionId>\r\n          <value> " + addr +
		" </value>\r\n          <isPrimary>false</isPrimary>\r\n        </feature>"
	return slices.Concat(doc[:at], []byte(feat), doc[at:])
}

func TestSDNEnhanced(t *testing.T) {
	cons := readTestdata(t, "ofac_xml/cons_enhanced_excerpt.xml")
	t.Run("OKRealConsolidatedExcerpt", func(t *testing.T) {
		recs, st, err := parseEnhanced(cons)
		if err != nil {
			t.Fatal(err)
		}
		// The consolidated (non-SDN) list carries no digital currency feature.
		if len(recs) != 0 || st.EntitiesSeen != 6 || len(st.TickerTypes) != 0 || st.SkippedTotal() != 0 {
			t.Errorf("records %d entities %d types %v skipped %v", len(recs), st.EntitiesSeen, st.TickerTypes, st.Skipped)
		}
		if want := time.Date(2026, 1, 8, 0, 0, 0, 0, time.UTC); !st.IssuedAt.Equal(want) {
			t.Errorf("issued %v", st.IssuedAt)
		}
	})
	// Derived from the real excerpt: one address feature added to a real entity.
	tests := []struct {
		name, entity, typeID, typeName, dict string
		wantTicker, wantName, wantListed     string
		wantPrograms                         []string
	}{
		{"OKTypeFromFeature", "30924", "344", "Digital Currency Address - XBT", "",
			"XBT", "CHINA UNICOM (HONG KONG) LIMITED", "2021-01-08", []string{"CMIC-EO13959"}},
		{"OKTypeFromDictionary", "9647", "345", "Digital Currency Address - ETH",
			"<featureType featureTypeId=\"345\">\r\n      <type>Digital Currency Address - ETH</type>\r\n    </featureType>",
			"ETH", "ZAHHAR, Mahmoud Khaled", "2006-04-12", []string{"NS-PLC", "SDGT"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := withDCAFeature(t, cons, tc.entity, tc.typeID, tc.typeName, "12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h")
			if tc.dict != "" {
				doc = bytes.Replace(doc, []byte("<featureTypes>"), []byte("<featureTypes>"+tc.dict), 1)
			}
			recs, st, err := parseEnhanced(doc)
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != 1 || st.Entities != 1 || st.TickerTypes[tc.wantTicker] != tc.typeID {
				t.Fatalf("records %+v stats %+v", recs, st)
			}
			r := recs[0]
			if r.EntityID != tc.entity || r.EntityName != tc.wantName || r.Ticker != tc.wantTicker ||
				r.Address != "12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h" || !slices.Equal(r.Programs, tc.wantPrograms) ||
				r.ListedAt.Format(time.DateOnly) != tc.wantListed || r.Source != SourceGovSDN {
				t.Errorf("record %+v", r)
			}
		})
	}
	for _, tc := range []struct {
		name string
		in   []byte
	}{
		{"ErrTruncated", withDCAFeature(t, cons, "30924", "344", "Digital Currency Address - XBT", "1abc")[:len(cons)-100]},
		{"ErrWrongRoot", readTestdata(t, "ofac_xml/sdn_advanced_mini.xml")},
		{"ErrNoEntities", []byte(`<sanctionsData xmlns="x"><featureTypes/></sanctionsData>`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			recs, _, err := parseEnhanced(tc.in)
			if !cairn.IsCode(err, cairn.EINVALID) || len(recs) != 0 {
				t.Fatalf("err = %v, %d records", err, len(recs))
			}
		})
	}
}
