package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EProofSignature: a stored screening proof is signed by the key
// GET /v1/compliance/signing-keys publishes, and verify-proof checks it:
// a document whose other checks all pass but whose signed statement
// changed (a result's time rewritten and resultsHash recomputed, the
// list version) fails, as do a stripped signature (unless
// --allow-unsigned) and another key; after `cairn proof-key rotate` and a
// restart, new documents carry the new key and the old ones still
// verify with the retired key the server keeps publishing.
func TestE2EProofSignature(t *testing.T) {
	cfg, _ := complianceConfig(t)
	ts := startServer(t, cfg)
	a := ts.register(t, "")
	dir := t.TempDir()
	verify := func(name string, body []byte, flags ...string) (int, string) {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, body, 0o600); err != nil {
			t.Fatal(err)
		}
		var out, errOut strings.Builder
		code := Run(t.Context(), append(append([]string{"verify-proof", "--offline"}, flags...), path), &out, &errOut, func(string) string { return "" })
		return code, out.String() + errOut.String()
	}
	screen := func(ts *testServer) []byte {
		s := ts.do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": []map[string]any{
			{"address": tornado, "chain": "ethereum"}, {"address": "0x1111111111111111111111111111111111111111", "chain": "ethereum"}}}).must(t, 200)
		return ts.do(t, "GET", "/v1/compliance/proofs/"+s.JSON["proof"].(map[string]any)["screeningId"].(string), "", nil).must(t, 200).Body
	}
	keys := ts.do(t, "GET", "/v1/compliance/signing-keys", "", nil).must(t, 200)
	var published struct {
		Keys []struct {
			KeyID, PublicKey string
			Current          bool
		}
	}
	json.Unmarshal(keys.Body, &published)
	if len(published.Keys) != 1 || !published.Keys[0].Current {
		t.Fatalf("signing keys %s", keys.Body)
	}
	first := published.Keys[0]
	doc := screen(ts)
	if code, out := verify("signed.json", doc); code != 0 || !strings.Contains(out, "OK: signed by "+first.KeyID+" (the current key") {
		t.Fatalf("signed document: %d %s", code, out)
	}
	// Every other check passes on these; the signature does not.
	var parts map[string]json.RawMessage
	json.Unmarshal(doc, &parts)
	var rs []map[string]any
	json.Unmarshal(parts["results"], &rs)
	rs[0]["screenedAt"] = "2020-01-01T00:00:00.000Z"
	rb, _ := json.Marshal(rs)
	sum := sha256.Sum256(rb)
	rewrite := func(change func(map[string]json.RawMessage)) []byte {
		c := map[string]json.RawMessage{}
		for k, v := range parts {
			c[k] = v
		}
		change(c)
		b, _ := json.Marshal(c)
		return b
	}
	for name, body := range map[string][]byte{
		"rehashed.json": rewrite(func(c map[string]json.RawMessage) {
			c["results"], c["resultsHash"] = rb, json.RawMessage(`"`+hex.EncodeToString(sum[:])+`"`)
		}),
		"version.json": rewrite(func(c map[string]json.RawMessage) { c["listVersion"] = json.RawMessage(`99`) }),
	} {
		code, out := verify(name, body)
		if code != 1 || !strings.Contains(out, "OK: resultsHash") || !strings.Contains(out, "FAIL: the signature does not match") {
			t.Fatalf("%s: %d %s", name, code, out)
		}
	}
	unsigned := rewrite(func(c map[string]json.RawMessage) { delete(c, "signature") })
	if code, out := verify("unsigned.json", unsigned); code != 1 || !strings.Contains(out, "carries no signature") {
		t.Fatalf("unsigned: %d %s", code, out)
	}
	if code, out := verify("unsigned.json", unsigned, "--allow-unsigned"); code != 0 || !strings.Contains(out, "UNSIGNED") {
		t.Fatalf("unsigned, allowed: %d %s", code, out)
	}
	if code, out := verify("signed.json", doc, "--key", strings.Repeat("ab", 32)); code != 1 || !strings.Contains(out, "not among") {
		t.Fatalf("another key: %d %s", code, out)
	}
	if code, out := verify("signed.json", doc, "--key", first.PublicKey); code != 0 {
		t.Fatalf("the published key given: %d %s", code, out)
	}

	// Rotation: the server stopped, the key rotated, the server started.
	ts.stop()
	var out, errOut strings.Builder
	if code := Run(t.Context(), []string{"proof-key", "rotate", "--data-dir", cfg.DataDir}, &out, &errOut, func(string) string { return "" }); code != 0 ||
		!strings.Contains(out.String(), first.KeyID+" retired") {
		t.Fatalf("rotate: %d %s %s", code, out.String(), errOut.String())
	}
	ts = startServer(t, cfg)
	keys = ts.do(t, "GET", "/v1/compliance/signing-keys", "", nil).must(t, 200)
	published.Keys = nil
	json.Unmarshal(keys.Body, &published)
	if len(published.Keys) != 2 || !published.Keys[0].Current || published.Keys[0].KeyID == first.KeyID ||
		published.Keys[1].KeyID != first.KeyID || published.Keys[1].PublicKey != first.PublicKey || published.Keys[1].Current {
		t.Fatalf("keys after the rotation %s", keys.Body)
	}
	keysURL := ts.base + "/v1/compliance/signing-keys"
	if code, out := verify("signed.json", doc, "--keys-url", keysURL); code != 0 || !strings.Contains(out, "(a retired key") {
		t.Fatalf("a document of the retired key: %d %s", code, out)
	}
	if code, out := verify("new.json", screen(ts)); code != 0 || !strings.Contains(out, "OK: signed by "+published.Keys[0].KeyID+" (the current key") {
		t.Fatalf("a document after the rotation: %d %s", code, out)
	}
}
