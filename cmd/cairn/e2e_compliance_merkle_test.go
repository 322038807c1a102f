package main

import (
	"os"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/merkle"
)

func TestE2EMerkleEndpoints(t *testing.T) {
	ts, list := complianceServer(t)
	a := ts.register(t, "")
	root := ts.do(t, "GET", "/v1/compliance/merkle-root", a.Key, nil).must(t, 200)
	if root.JSON["anchor"].(map[string]any)["status"] != "disabled" || root.num("listVersion") != 1 || root.num("leafCount") < 500 {
		t.Fatalf("root: %s", root.Body)
	}
	r := ts.do(t, "GET", "/v1/compliance/merkle-proof?chain=arbitrum&address="+tornado, a.Key, nil).must(t, 200)
	if r.JSON["sanctioned"] != true || r.str("root") != root.str("root") {
		t.Fatalf("proof: %s", r.Body)
	}
	var proof []merkle.Hash
	for _, p := range r.JSON["proof"].([]any) {
		proof = append(proof, hexBytes32(t, p.(string)))
	}
	ok, err := merkle.VerifyStandard(hexBytes32(t, root.str("root")), []string{"string", "string"}, []any{"evm", strings.ToLower(tornado)}, proof)
	if err != nil || !ok {
		t.Fatalf("API proof does not verify against the published root: %v", err)
	}
	r = ts.do(t, "GET", "/v1/compliance/merkle-proof?chain=ethereum&address=0x0000000000000000000000000000000000000001", a.Key, nil).must(t, 200)
	if r.JSON["sanctioned"] != false || len(r.JSON["proof"].([]any)) != 0 {
		t.Fatalf("unlisted: %s", r.Body)
	}
	ts.do(t, "GET", "/v1/compliance/merkle-proof?chain=ethereum&address=zzz", a.Key, nil).problem(t, 400, cairn.EINVALID)
	ts.do(t, "GET", "/v1/compliance/merkle-proof?chain=narnia&address="+tornado, a.Key, nil).problem(t, 400, cairn.EINVALID)

	t.Run("DelistingViaAdminIngest", func(t *testing.T) {
		eth, _ := os.ReadFile(list)
		lines := strings.Split(strings.TrimSpace(string(eth)), "\n")
		var kept []string
		for _, l := range lines {
			if !strings.EqualFold(strings.TrimSpace(l), tornado) {
				kept = append(kept, l)
			}
		}
		if len(kept) != len(lines)-1 {
			t.Fatal("fixture does not list the address once")
		}
		os.WriteFile(list, []byte(strings.Join(kept, "\n")+"\n"), 0o600)
		ts.do(t, "POST", "/v1/admin/ingest", "", nil).problem(t, 401, cairn.EUNAUTHORIZED)
		res := ts.do(t, "POST", "/v1/admin/ingest", admin, nil).must(t, 200)
		if res.num("listVersion") != 2 || res.str("root") == root.str("root") {
			t.Fatalf("ingest: %s", res.Body)
		}
		s := ts.do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": []map[string]any{{"address": tornado, "chain": "ethereum"}}}).must(t, 200)
		if s.JSON["results"].([]any)[0].(map[string]any)["status"] != "clear" {
			t.Fatalf("delisted address still sanctioned: %s", s.Body)
		}
	})
}
