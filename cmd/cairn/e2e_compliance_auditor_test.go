package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
)

// TestE2EAuditorVerifiesWithoutAccount: a screener hands the proof URL to
// an auditor with no account, who reads the proof and the snapshots it
// names from the service and re-verifies everything with verify-proof; any
// tampering fails it.
func TestE2EAuditorVerifiesWithoutAccount(t *testing.T) {
	ts, _ := complianceServer(t)
	const flaggedAddr = "0x00000000000000000000000000000000a0d17000"
	escalate(t, ts, flaggedAddr)
	a := ts.register(t, "")
	s := ts.do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": []map[string]any{
		{"address": tornado, "chain": "ethereum"}, {"address": flaggedAddr, "chain": "base"},
		{"address": "0x0000000000000000000000000000000000000001", "chain": "ethereum"}}}).must(t, 200)
	proof := s.JSON["proof"].(map[string]any)
	proofURL := proof["proofUrl"].(string)
	if proofURL != ts.base+"/v1/compliance/proofs/"+proof["screeningId"].(string) {
		t.Fatalf("proofUrl %q", proofURL)
	}
	get := func(url string, header ...string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest("GET", url, nil)
		if len(header) == 2 {
			req.Header.Set(header[0], header[1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp, body
	}
	resp, doc := get(proofURL)
	if resp.StatusCode != 200 {
		t.Fatalf("auditor reading the proof: %d %s", resp.StatusCode, doc)
	}
	var d struct {
		DataSnapshots map[string]struct {
			StorageURL string `json:"storageUrl"`
			SHA256     string `json:"sha256"`
		} `json:"dataSnapshots"`
		MerkleProofs map[string]json.RawMessage `json:"merkleProofs"`
	}
	if err := json.Unmarshal(doc, &d); err != nil || len(d.DataSnapshots) != 2 || len(d.MerkleProofs) != 2 {
		t.Fatalf("proof document: %v %s", err, doc)
	}
	for name, snap := range d.DataSnapshots {
		if snap.StorageURL != ts.base+"/v1/compliance/snapshots/"+snap.SHA256 {
			t.Fatalf("storageUrl of %s: %q", name, snap.StorageURL)
		}
		resp, body := get(snap.StorageURL)
		sum := sha256.Sum256(body)
		if resp.StatusCode != 200 || hex.EncodeToString(sum[:]) != snap.SHA256 || resp.Header.Get("ETag") != `"`+snap.SHA256+`"` {
			t.Fatalf("snapshot of %s: %d, sha256 %x", name, resp.StatusCode, sum)
		}
		if resp, part := get(snap.StorageURL, "Range", "bytes=0-9"); resp.StatusCode != 206 || string(part) != string(body[:10]) {
			t.Fatalf("range of the snapshot of %s: %d %q", name, resp.StatusCode, part)
		}
		// 416 and 412 are problem documents, as everywhere.
		path := "/v1/compliance/snapshots/" + snap.SHA256
		ts.do(t, "GET", path, "", nil, "Range", fmt.Sprintf("bytes=%d-", len(body))).problem(t, 416, cairn.ERANGE)
		ts.do(t, "GET", path, "", nil, "If-Match", `"other"`).problem(t, 412, cairn.EPRECONDITION)
	}
	for _, bad := range []string{strings.Repeat("0", 64), "nothex", strings.ToUpper(d.DataSnapshots["list:ETH"].SHA256)} {
		ts.do(t, "GET", "/v1/compliance/snapshots/"+bad, "", nil).problem(t, 404, cairn.ENOTFOUND)
	}

	verify := func(args ...string) (int, string) {
		var out, errOut strings.Builder
		code := Run(t.Context(), append([]string{"verify-proof"}, args...), &out, &errOut, func(string) string { return "" })
		return code, out.String() + errOut.String()
	}
	code, out := verify(proofURL)
	for _, want := range []string{"OK: resultsHash", "OK: 1 sanctions listing(s) proven", "OK: 1 community listing(s) proven",
		"OK: snapshot of list:ETH", "OK: snapshot of list:XBT"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Fatalf("verify-proof of the proof URL: %d, want %q in:\n%s", code, want, out)
		}
	}
	dir := t.TempDir()
	// flip changes the hex digit right after the first marker: another
	// hash of the same length.
	flip := func(marker string) string {
		i := strings.Index(string(doc), marker) + len(marker)
		c := byte('0')
		if doc[i] == '0' {
			c = '1'
		}
		return string(doc[:i]) + string(c) + string(doc[i+1:])
	}
	for name, forged := range map[string]string{
		"ForgedResult":   strings.Replace(string(doc), `"status":"sanctioned"`, `"status":"clear"`, 1),
		"ForgedSnapshot": flip(`"sha256":"`),
		"ForgedProof":    flip(`"proof":["0x`),
		"ForgedRoot":     flip(`"merkleProofs":{"community":{"root":"0x`),
		"ForgedLeaf":     flip(`"leaves":["0x`),
	} {
		if forged == string(doc) {
			t.Fatalf("%s: nothing changed", name)
		}
		path := filepath.Join(dir, name+".json")
		if err := os.WriteFile(path, []byte(forged), 0o600); err != nil {
			t.Fatal(err)
		}
		if code, out := verify(path); code != 1 || !strings.Contains(out, "FAIL") {
			t.Fatalf("%s verified: %d %s", name, code, out)
		}
	}
	if code, out := verify("--offline", proofURL); code != 0 || !strings.Contains(out, "skipped: snapshot of list:ETH") {
		t.Fatalf("verify-proof --offline: %d %s", code, out)
	}
}
