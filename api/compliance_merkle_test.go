package api_test

import (
	"bufio"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/merkle"
)

func TestE2EMerkleEndpoints(t *testing.T) {
	ts, list, _ := listServer(t)
	a := ts.Register(t, "")
	root := ts.Do(t, "GET", "/v1/compliance/merkle-root", a.Key, nil).Must(t, 200)
	if root.JSON["anchor"].(map[string]any)["status"] != "disabled" || root.Num("listVersion") != 1 || root.Num("leafCount") < 500 {
		t.Fatalf("root: %s", root.Body)
	}
	r := ts.Do(t, "GET", "/v1/compliance/merkle-proof?chain=arbitrum&address="+apitest.Tornado, a.Key, nil).Must(t, 200)
	if r.JSON["sanctioned"] != true || r.Str("root") != root.Str("root") {
		t.Fatalf("proof: %s", r.Body)
	}
	var proof []merkle.Hash
	for _, p := range r.JSON["proof"].([]any) {
		proof = append(proof, apitest.HexBytes32(t, p.(string)))
	}
	ok, err := merkle.VerifyStandard(apitest.HexBytes32(t, root.Str("root")), []string{"string", "string"}, []any{"evm", strings.ToLower(apitest.Tornado)}, proof)
	if err != nil || !ok {
		t.Fatalf("API proof does not verify against the published root: %v", err)
	}
	r = ts.Do(t, "GET", "/v1/compliance/merkle-proof?chain=ethereum&address=0x0000000000000000000000000000000000000001", a.Key, nil).Must(t, 200)
	if r.JSON["sanctioned"] != false || len(r.JSON["proof"].([]any)) != 0 {
		t.Fatalf("unlisted: %s", r.Body)
	}
	ts.Do(t, "GET", "/v1/compliance/merkle-proof?chain=ethereum&address=zzz", a.Key, nil).Problem(t, 400, cairn.EINVALID)
	ts.Do(t, "GET", "/v1/compliance/merkle-proof?chain=narnia&address="+apitest.Tornado, a.Key, nil).Problem(t, 400, cairn.EINVALID)

	t.Run("DelistingViaAdminIngest", func(t *testing.T) {
		eth, _ := os.ReadFile(list)
		lines := strings.Split(strings.TrimSpace(string(eth)), "\n")
		var kept []string
		for _, l := range lines {
			if !strings.EqualFold(strings.TrimSpace(l), apitest.Tornado) {
				kept = append(kept, l)
			}
		}
		if len(kept) != len(lines)-1 {
			t.Fatal("fixture does not list the address once")
		}
		os.WriteFile(list, []byte(strings.Join(kept, "\n")+"\n"), 0o600)
		ts.Do(t, "POST", "/v1/admin/ingest", "", nil).Problem(t, 401, cairn.EUNAUTHORIZED)
		res := ts.Do(t, "POST", "/v1/admin/ingest", apitest.AdminToken, nil).Must(t, 200)
		if res.Num("listVersion") != 2 || res.Str("root") == root.Str("root") {
			t.Fatalf("ingest: %s", res.Body)
		}
		s := ts.Do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": []map[string]any{{"address": apitest.Tornado, "chain": "ethereum"}}}).Must(t, 200)
		if s.JSON["results"].([]any)[0].(map[string]any)["status"] != "clear" {
			t.Fatalf("delisted address still sanctioned: %s", s.Body)
		}
	})
}

// TestE2EEveryMerkleProofVerifies asks for a proof of every listed address
// of the ETH and XBT lists (batches of 100 with multiproofs, and a sample
// one by one) and of unlisted, invalid and repeated ones: each listed proof
// verifies against the published root, no unlisted one does, and the
// multiproof of a batch without a listed address proves the empty set.
func TestE2EEveryMerkleProofVerifies(t *testing.T) {
	ts, list, xbt := listServer(t)
	a := ts.Register(t, "")
	// Proofs are billed as screening (1 credit per address beyond the free window).
	ts.Do(t, "POST", "/v1/admin/credits", apitest.AdminToken, map[string]any{"developerId": a.DeveloperID, "amount": 10000, "reason": "test"}).Must(t, 200)
	root := apitest.HexBytes32(t, ts.Do(t, "GET", "/v1/compliance/merkle-root", a.Key, nil).Must(t, 200).Str("root"))
	// chainOf gives each listed address a chain of its family: the EVM
	// ones rotate over the EVM chains.
	chainOf := func(i int, addr string) string {
		switch {
		case strings.HasPrefix(addr, "0x"):
			return apitest.EVMChains[i%len(apitest.EVMChains)]
		case strings.HasPrefix(addr, "T"):
			return "tron"
		}
		return "bitcoin"
	}
	var listed []string
	for _, file := range []string{list, xbt} {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if l := strings.TrimSpace(sc.Text()); l != "" {
				listed = append(listed, l)
			}
		}
		f.Close()
	}
	if len(listed) < 500 {
		t.Fatalf("only %d listed addresses", len(listed))
	}
	seen := map[string]bool{}
	for start := 0; start < len(listed); start += 100 {
		chunk := listed[start:min(start+100, len(listed))]
		batch := make([]map[string]any, len(chunk))
		distinct := map[string]bool{}
		for i, addr := range chunk {
			batch[i] = map[string]any{"address": addr, "chain": chainOf(i, addr)}
			distinct[strings.ToLower(addr)] = true
		}
		r := ts.Do(t, "POST", "/v1/compliance/merkle-proof/batch", a.Key, map[string]any{"addresses": batch, "multiproof": true}).Must(t, 200)
		apitest.VerifyBatch(t, r, root, len(distinct))
		for _, it := range r.JSON["results"].([]any) {
			if it.(map[string]any)["sanctioned"] != true {
				t.Fatalf("listed address not sanctioned: %v", it)
			}
		}
		for _, addr := range chunk[:min(len(chunk), 20)] { // the single proofs of a sample (request rate limit)
			if seen[strings.ToLower(addr)] {
				continue
			}
			seen[strings.ToLower(addr)] = true
			p := ts.Do(t, "GET", "/v1/compliance/merkle-proof?chain="+chainOf(0, addr)+"&address="+url.QueryEscape(addr), a.Key, nil).Must(t, 200)
			if p.JSON["sanctioned"] != true || !merkle.Verify(root, apitest.HexBytes32(t, p.Str("leaf")), apitest.ProofHashes(t, p.JSON["proof"])) {
				t.Fatalf("single proof of %s: %s", addr, p.Body)
			}
		}
	}
	for _, tc := range []struct {
		name   string
		batch  []map[string]any
		listed int
	}{
		{"NoneListed", []map[string]any{{"address": "0x0000000000000000000000000000000000000001", "chain": "ethereum"}}, 0},
		{"AllInvalid", []map[string]any{{"address": "x", "chain": "ethereum"}, {"address": "", "chain": "bitcoin"}}, 0},
		{"Repeated", apitest.Addresses(100), 1},
		{"MixedCaseBadChecksum", []map[string]any{{"address": strings.Replace(apitest.Tornado, "D6D", "d6D", 1), "chain": "ethereum"},
			{"address": apitest.Tornado, "chain": "base"}, {"address": "12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h", "chain": "btc"}}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := ts.Do(t, "POST", "/v1/compliance/merkle-proof/batch", a.Key, map[string]any{"addresses": tc.batch, "multiproof": true}).Must(t, 200)
			apitest.VerifyBatch(t, r, root, tc.listed)
		})
	}
}
