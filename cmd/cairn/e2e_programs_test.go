package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EProgramsInProofs: a server ingesting an SDN_ADVANCED.XML answers
// the Lazarus Group's address with its entity and its program, stores
// them in the proof document, and `cairn verify-proof` and the JavaScript
// verifier both pass the document; a program edited in it fails the
// results hash in both (the hash kept) or the signature (the hash
// recomputed), as any other edit of the results.
func TestE2EProgramsInProofs(t *testing.T) {
	node := needJSNode(t)
	cfg := testConfig(t, filepath.Join(t.TempDir(), "data"))
	cfg.Sources = stringList{"gov_sdn=../../ingest/testdata/ofac_xml/sdn_advanced_mini.xml"}
	ts := startServer(t, cfg)
	a := ts.register(t, "")
	s := ts.do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": []map[string]any{
		{"address": lazarusETH, "chain": "ethereum"}, {"address": "0x1111111111111111111111111111111111111111", "chain": "ethereum"}}}).must(t, 200)
	m := s.JSON["results"].([]any)[0].(map[string]any)["matches"].([]any)[0].(map[string]any)
	if m["entityName"] != "Lazarus Group" || m["entityId"] != "27307" || len(m["programs"].([]any)) != 1 || m["programs"].([]any)[0] != "DPRK3" {
		t.Fatalf("the match of %s: %v", lazarusETH, m)
	}
	doc := ts.do(t, "GET", "/v1/compliance/proofs/"+s.JSON["proof"].(map[string]any)["screeningId"].(string), "", nil).must(t, 200).Body
	const stored = `"entityId":"27307","entityName":"Lazarus Group","programs":["DPRK3"],"source":"gov_sdn"`
	if !bytes.Contains(doc, []byte(stored)) {
		t.Fatalf("the stored document does not hold %s: %.600s", stored, doc)
	}
	goVerify := goVerifier(t)
	if code, out := goVerify("programs", doc); code != 0 {
		t.Fatalf("go verify-proof: %d\n%s", code, out)
	}
	if v := runJSVerifier(t, node, doc); !v.OK {
		t.Fatalf("js verifier: %+v", v)
	}
	for _, tc := range []struct {
		name, goSays, jsName string
		doc                  []byte
	}{
		{"ProgramEditedHashKept", "does not match the results", "resultsHash", bytes.Replace(doc, []byte(`["DPRK3"]`), []byte(`["CYBER2"]`), 1)},
		{"ProgramDroppedHashKept", "does not match the results", "resultsHash", bytes.Replace(doc, []byte(`,"programs":["DPRK3"]`), nil, 1)},
		{"ProgramEditedRehashed", "does not match the document", "signature", withResults(t, doc, func(rs []map[string]any) {
			rs[0]["matches"].([]any)[0].(map[string]any)["programs"] = []string{"CYBER2"}
		})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if code, out := goVerify(tc.name, tc.doc); code != 1 || !strings.Contains(out, tc.goSays) {
				t.Errorf("go verify-proof: %d, want 1 saying %q:\n%s", code, tc.goSays, out)
			}
			if v := runJSVerifier(t, node, tc.doc); v.OK || v.firstFailed() != tc.jsName {
				t.Errorf("js verifier: ok %v, first failed %q, want %q: %+v", v.OK, v.firstFailed(), tc.jsName, v)
			}
		})
	}
}
