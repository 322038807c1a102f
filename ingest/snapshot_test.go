package ingest

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The published file the bundled snapshot was extracted from: OFAC
// SDN_ADVANCED.XML of 2025-11-19, whose SHA-256 OFAC's mirror records in
// sdn_advanced_checksum.txt (testdata/ofac_xml/PROVENANCE.md).
const (
	bundledSHA256 = "36c517bd264d8d97eff353eadd8d84427d5eb293505a8ce07271a5bc258c3117"
	bundledDate   = "2025-11-19"
)

// TestBundledSnapshotIsTheSDNOf20251119 checks the snapshot built into the
// binary against ground truth that cairn did not produce: the per-currency
// lists generated from the same file by an independent tool. Every ticker
// has exactly the addresses of its list, and no ticker is missing or extra.
func TestBundledSnapshotIsTheSDNOf20251119(t *testing.T) {
	b, err := BundledSnapshot()
	if err != nil {
		t.Fatal(err)
	}
	h := b.Header
	if h.SHA256 != bundledSHA256 || h.Date != bundledDate || h.SourceFile != "SDN_ADVANCED.XML" || h.Source != SourceGovSDN ||
		b.Name != SnapshotFileName(bundledDate) {
		t.Fatalf("bundled %s: header %+v", b.Name, h)
	}
	got := map[string]map[string]bool{}
	entities := map[string]string{}
	n := 0
	if err := b.Records(func(r Record) error {
		n++
		if r.Source != SourceGovSDN || r.EntityID == "" || r.EntityName == "" || len(r.Programs) == 0 || r.ListedAt.IsZero() {
			t.Errorf("record without its entity: %+v", r)
		}
		if got[r.Ticker] == nil {
			got[r.Ticker] = map[string]bool{}
		}
		got[r.Ticker][r.Address] = true
		entities[r.EntityID] = r.EntityName
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// 761 features on 79 parties, one of them listed twice on one party.
	if n != 760 || n != h.Records || len(entities) != 79 || entities["27307"] != "Lazarus Group" {
		t.Fatalf("%d records of %d entities (27307 %q)", n, len(entities), entities["27307"])
	}
	want := map[string]map[string]bool{}
	files, _ := filepath.Glob("testdata/ofac_xml/expected_brave_lists_3ed6690/sanctioned_addresses_*.txt")
	tickerOf := regexp.MustCompile(`sanctioned_addresses_([A-Z]+)\.txt$`)
	for _, f := range files {
		want[tickerOf.FindStringSubmatch(f)[1]] = readLines(t, f)
	}
	if len(want) != 19 || !slices.Equal(slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want))) {
		t.Fatalf("tickers %v, want %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
	for ticker, addrs := range want {
		if !maps.Equal(got[ticker], addrs) {
			t.Errorf("%s: %d addresses, want the %d of the list", ticker, len(got[ticker]), len(addrs))
		}
	}
}

func readLines(t *testing.T, path string) map[string]bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			out[l] = true
		}
	}
	return out
}

// TestExportSnapshotRoundTrip exports a real SDN_ADVANCED.XML excerpt,
// plain and bzip2-compressed, and reads the file back: the same bytes from
// both, the digest of the XML as published, its date of issue, and exactly
// the records ParseSDNAdvanced emits.
func TestExportSnapshotRoundTrip(t *testing.T) {
	raw, err := os.ReadFile("testdata/ofac_xml/sdn_advanced_mini.xml")
	if err != nil {
		t.Fatal(err)
	}
	bz, err := os.ReadFile("testdata/ofac_xml/sdn_advanced_mini.xml.bz2")
	if err != nil {
		t.Fatal(err)
	}
	var plain, compressed bytes.Buffer
	h, st, err := ExportSnapshot(bytes.NewReader(raw), &plain)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := ExportSnapshot(bytes.NewReader(bz), &compressed); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(plain.Bytes(), compressed.Bytes()) {
		t.Fatal("the .bz2 of the same XML exports other bytes")
	}
	sum := sha256.Sum256(raw)
	if h.SHA256 != hex.EncodeToString(sum[:]) || h.Date != "2025-11-19" || h.Records != st.Records || h.Records != 116 {
		t.Fatalf("header %+v, stats %+v", h, st)
	}
	var parsed, read []Record
	if _, err := ParseSDNAdvanced(bytes.NewReader(raw), func(r Record) error {
		parsed = append(parsed, r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	h2, err := ReadSnapshot(bytes.NewReader(plain.Bytes()), func(r Record) error { read = append(read, r); return nil })
	if err != nil || h2 != h {
		t.Fatalf("read back: %+v %v", h2, err)
	}
	key := func(r Record) string { return r.Ticker + " " + r.Address + " " + r.EntityID }
	sortRecs := func(rs []Record) {
		slices.SortFunc(rs, func(a, b Record) int { return strings.Compare(key(a), key(b)) })
	}
	sortRecs(parsed)
	if len(read) != len(parsed) {
		t.Fatalf("%d records read back, %d parsed", len(read), len(parsed))
	}
	for i := range parsed {
		if !reflect.DeepEqual(read[i], parsed[i]) {
			t.Fatalf("record %d read back as %+v, parsed %+v", i, read[i], parsed[i])
		}
	}
}

// TestReadSnapshotRefuses: a file cut short, of another format or not
// gzip is an error, never a smaller list.
func TestReadSnapshotRefuses(t *testing.T) {
	b, err := BundledSnapshot()
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(b.Data))
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if _, err := text.ReadFrom(zr); err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(text.String(), "\n")
	gz := func(s string) []byte {
		var out bytes.Buffer
		w := gzip.NewWriter(&out)
		w.Write([]byte(s))
		w.Close()
		return out.Bytes()
	}
	for name, data := range map[string][]byte{
		"CutShort":    gz(strings.Join(lines[:len(lines)-10], "")),
		"OtherFormat": gz(strings.Replace(text.String(), SnapshotFormat, "cairn-sdn-snapshot/9", 1)),
		"NoDate":      gz(strings.Replace(text.String(), `"date":"`+bundledDate+`"`, `"date":""`, 1)),
		"NotGzip":     text.Bytes(),
	} {
		t.Run(name, func(t *testing.T) {
			n := 0
			if _, err := ReadSnapshot(bytes.NewReader(data), func(Record) error { n++; return nil }); err == nil {
				t.Fatalf("accepted, %d records", n)
			}
		})
	}
}
