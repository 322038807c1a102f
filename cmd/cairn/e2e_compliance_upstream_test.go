package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-dev/cairn"
)

// TestE2EScreenProofStoreFails makes the blob store refuse every write (a
// file stands where each fan-out directory was): the screening is a 502,
// refunded, its free addresses are given back and it is not counted in
// totalScreenings; once the store works again the next one is served.
func TestE2EScreenProofStoreFails(t *testing.T) {
	ts, _ := complianceServer(t)
	a := ts.register("")
	screenings := func() float64 {
		t.Helper()
		st := ts.do("GET", "/v1/compliance/stats", "", nil).must(t, 200)
		return st.JSON["compliance"].(map[string]any)["totalScreenings"].(float64)
	}
	before := screenings()
	root := filepath.Join(ts.m.Config.DataDir, "blobs")
	for i := range 256 {
		d := filepath.Join(root, fmt.Sprintf("%02x", i))
		if err := os.Rename(d, d+".away"); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(d, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ts.do("POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": addresses(12)}).problem(t, 502, cairn.EUPSTREAM)
	if b := ts.balance(a.Key); b != 100 {
		t.Fatalf("balance %d after a 502, want 100", b)
	}
	if n := screenings(); n != before {
		t.Fatalf("totalScreenings %v after a failed screening, want %v", n, before)
	}
	for i := range 256 {
		d := filepath.Join(root, fmt.Sprintf("%02x", i))
		if err := os.Remove(d); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(d+".away", d); err != nil {
			t.Fatal(err)
		}
	}
	r := ts.do("POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": addresses(1)}).must(t, 200)
	if r.Header.Get("X-RateLimit-Free-Remaining") != "9" || screenings() != before+1 {
		t.Fatalf("after the store is back: %v, totalScreenings %v", r.Header, screenings())
	}
}
