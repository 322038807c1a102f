package ingest

import (
	"bytes"
	"strings"
	"testing"
)

// smallAdvanced is a minimal document with the structure of SDN_ADVANCED.XML
// (values taken from the real file).
const smallAdvanced = `<?xml version="1.0" encoding="utf-8"?>
<Sanctions xmlns="https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/ADVANCED_XML">
<DateOfIssue><Year>2025</Year><Month>11</Month><Day>19</Day></DateOfIssue>
<ReferenceValueSets>
<DocNameStatusValues><DocNameStatus ID="1">Primary Latin</DocNameStatus></DocNameStatusValues>
<FeatureTypeValues><FeatureType ID="344">Digital Currency Address - XBT</FeatureType></FeatureTypeValues>
<NamePartTypeValues><NamePartType ID="1520">Last Name</NamePartType></NamePartTypeValues>
<SanctionsTypeValues><SanctionsType ID="1">Program</SanctionsType></SanctionsTypeValues>
</ReferenceValueSets>
<DistinctParties><DistinctParty FixedRef="25308"><Profile ID="25308">
<Identity Primary="true"><Alias Primary="true"><DocumentedName DocNameStatusID="1">
<DocumentedNamePart><NamePartValue NamePartGroupID="65450">YAN</NamePartValue></DocumentedNamePart>
<DocumentedNamePart><NamePartValue NamePartGroupID="65451">Xiaobing</NamePartValue></DocumentedNamePart>
</DocumentedName></Alias><NamePartGroups><MasterNamePartGroup><NamePartGroup ID="65450" NamePartTypeID="1520"/></MasterNamePartGroup></NamePartGroups></Identity>
<Feature FeatureTypeID="344"><FeatureVersion><VersionDetail>12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h</VersionDetail></FeatureVersion></Feature>
</Profile></DistinctParty></DistinctParties>
<SanctionsEntries><SanctionsEntry ProfileID="25308"><EntryEvent><Date><Year>2019</Year><Month>8</Month><Day>21</Day></Date></EntryEvent>
<SanctionsMeasure SanctionsTypeID="1"><Comment>SDNTK</Comment></SanctionsMeasure></SanctionsEntry></SanctionsEntries>
</Sanctions>`

// maxFuzzInput keeps each fuzz input small; the parsers' memory does not
// depend on it, but the fuzzer's throughput does.
const maxFuzzInput = 1 << 20

// checkParse asserts the contract every parser keeps on any input: no
// panic, nothing emitted on error, and only clean, distinct records.
func checkParse(t *testing.T, parse func(func(Record) error) (Stats, error)) {
	seen := map[[3]string]bool{}
	recs, st, err := collect(parse)
	if err != nil {
		if len(recs) != 0 {
			t.Fatalf("%d records emitted before error %v", len(recs), err)
		}
		return
	}
	if st.Records != len(recs) {
		t.Fatalf("stats count %d, emitted %d", st.Records, len(recs))
	}
	for _, r := range recs {
		k := [3]string{r.EntityID, r.Ticker, r.Address}
		if seen[k] || r.Address == "" || r.Ticker == "" || len(r.Address) > maxAddressLen ||
			strings.TrimSpace(r.Address) != r.Address || strings.ContainsAny(r.Address, " \t\r\n") {
			t.Fatalf("bad or duplicate record %+v", r)
		}
		seen[k] = true
	}
}

func FuzzSDNAdvanced(f *testing.F) {
	f.Add([]byte(smallAdvanced))
	f.Add([]byte(smallAdvanced[:len(smallAdvanced)/2]))
	f.Add([]byte(strings.Replace(smallAdvanced, "XBT", "", 1)))
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) > maxFuzzInput {
			return
		}
		checkParse(t, func(emit func(Record) error) (Stats, error) { return ParseSDNAdvanced(bytes.NewReader(in), emit) })
	})
}

func FuzzSDNEnhanced(f *testing.F) {
	f.Add([]byte(`<sanctionsData><featureTypes><featureType featureTypeId="344"><type>Digital Currency Address - XBT</type></featureType></featureTypes>` +
		`<entities><entity id="1"><sanctionsPrograms><sanctionsProgram>CYBER2</sanctionsProgram></sanctionsPrograms>` +
		`<features><feature><type featureTypeId="344">Digital Currency Address - XBT</type><value>1abc</value></feature></features></entity></entities></sanctionsData>`))
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) > maxFuzzInput {
			return
		}
		checkParse(t, func(emit func(Record) error) (Stats, error) { return ParseSDNEnhanced(bytes.NewReader(in), emit) })
	})
}

func FuzzSDNCSV(f *testing.F) {
	f.Add([]byte(`33151,"SUEX OTC, S.R.O.",-0- ,"CYBER2",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"Digital Currency Address - XBT 1B64QRxf"`+"\r\n\x1a"),
		[]byte(`33151,"aa35MVkf7sDjuGUYAP5izQt7Qi; Digital Currency Address - ETH 0x2f389ce8bd8ff92de3402ffce4691d17fc4f6535."`+"\r\n"))
	f.Add([]byte("1,\"a\"\n"), []byte(""))
	f.Fuzz(func(t *testing.T, sdn, comments []byte) {
		if len(sdn)+len(comments) > maxFuzzInput {
			return
		}
		checkParse(t, func(emit func(Record) error) (Stats, error) {
			return ParseSDNCSV(bytes.NewReader(sdn), bytes.NewReader(comments), emit)
		})
	})
}

func FuzzFtM(f *testing.F) {
	f.Add([]byte(`{"id":"w","schema":"CryptoWallet","properties":{"publicKey":["1abc"],"currency":["XBT"],"holder":["h"]}}` + "\n" +
		`{"id":"h","schema":"Person","caption":"A"}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) > maxFuzzInput {
			return
		}
		checkParse(t, func(emit func(Record) error) (Stats, error) { return ParseFtM(bytes.NewReader(in), emit) })
	})
}

func FuzzPlainList(f *testing.F) {
	f.Add([]byte("# list\n1abc\r\n\n1abc\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) > maxFuzzInput {
			return
		}
		checkParse(t, func(emit func(Record) error) (Stats, error) { return ParsePlainList(bytes.NewReader(in), "XBT", emit) })
	})
}

func TestSmallAdvancedSeed(t *testing.T) {
	recs, _, err := parseAdvanced([]byte(smallAdvanced))
	if err != nil || len(recs) != 1 || recs[0].EntityName != "YAN, Xiaobing" || recs[0].Programs[0] != "SDNTK" {
		t.Fatalf("err %v records %+v", err, recs)
	}
}
