package ingest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"github.com/cairn-dev/cairn/screening"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the golden files under testdata/")

// collect runs a parser and gathers what it emits.
func collect(parse func(func(Record) error) (Stats, error)) ([]Record, Stats, error) {
	var out []Record
	st, err := parse(func(r Record) error { out = append(out, r); return nil })
	return out, st, err
}

func readTestdata(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", path))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// goldenRecord is the reviewed form of a Record in golden files.
type goldenRecord struct {
	EntityID   string   `json:"entityId"`
	EntityName string   `json:"entityName"`
	Programs   []string `json:"programs"`
	ListedAt   string   `json:"listedAt,omitempty"`
	Ticker     string   `json:"ticker"`
	Address    string   `json:"address"`
}

// checkGolden compares records with testdata/<path>, or rewrites it.
func checkGolden(t *testing.T, path string, recs []Record) {
	t.Helper()
	g := make([]goldenRecord, len(recs))
	for i, r := range recs {
		g[i] = goldenRecord{r.EntityID, r.EntityName, r.Programs, "", r.Ticker, r.Address}
		if !r.ListedAt.IsZero() {
			g[i].ListedAt = r.ListedAt.Format(time.DateOnly)
		}
	}
	// One record per line keeps the file reviewable in diffs.
	got := []byte("[\n")
	for i, r := range g {
		line, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, line...)
		if i < len(g)-1 {
			got = append(got, ',')
		}
		got = append(got, '\n')
	}
	got = append(got, "]\n"...)
	full := filepath.Join("testdata", path)
	if *rewrite {
		if err := os.WriteFile(full, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(full)
	if err != nil {
		t.Fatalf("%v (run with -rewrite to create it)", err)
	}
	if !bytes.Equal(got, want) {
		var w []goldenRecord
		_ = json.Unmarshal(want, &w)
		for i := 0; i < len(g) || i < len(w); i++ {
			switch {
			case i >= len(w):
				t.Errorf("extra record %d: %+v", i, g[i])
			case i >= len(g):
				t.Errorf("missing record %d: %+v", i, w[i])
			case !jsonEqual(g[i], w[i]):
				t.Errorf("record %d:\n got %+v\nwant %+v", i, g[i], w[i])
			}
		}
		t.Fatalf("%s differs from the parser output (run with -rewrite after review)", path)
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// readList reads a one-address-per-line list into a set.
func readList(t testing.TB, path string) map[string]bool {
	t.Helper()
	set := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(readTestdata(t, path)))
	for sc.Scan() {
		if s := strings.TrimSpace(sc.Text()); s != "" {
			set[s] = true
		}
	}
	return set
}

// countBy counts records by a key.
func countBy(recs []Record, key func(Record) string) map[string]int {
	m := map[string]int{}
	for _, r := range recs {
		m[key(r)]++
	}
	return m
}

func byTicker(r Record) string { return r.Ticker }
func byFamily(r Record) string { return family(r.Ticker, r.Address) }

// family is the address family screening indexes the record under.
func family(ticker, address string) string {
	f, _, err := screening.NormalizeForTicker(ticker, address)
	if err != nil {
		return "invalid"
	}
	return string(f)
}
