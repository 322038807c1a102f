package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/merkle"
)

func proofHashes(t *testing.T, v any) []merkle.Hash {
	t.Helper()
	var out []merkle.Hash
	for _, p := range v.([]any) {
		out = append(out, hexBytes32(t, p.(string)))
	}
	return out
}

// verifyBatch checks every proof and the multiproof of a batch answer
// against the published root.
func verifyBatch(t *testing.T, r *response, root merkle.Hash, wantListed int) {
	t.Helper()
	enc := []string{"string", "string"}
	if got := hexBytes32(t, r.str("root")); got != root || hexBytes32(t, r.str("sanctionsRoot")) != root {
		t.Fatalf("batch root %x, published %x", got, root)
	}
	roots := map[any]merkle.Hash{"sanctions": root, "community": hexBytes32(t, r.str("communityRoot")), nil: root}
	community := map[string]bool{}
	for i, it := range r.JSON["results"].([]any) {
		item := it.(map[string]any)
		if item["valid"] != true {
			continue
		}
		// Each proof is against the root of its class.
		classRoot := roots[item["class"]]
		if hexBytes32(t, item["root"].(string)) != classRoot || (item["class"] == "sanctions") != (item["sanctioned"] == true) ||
			(item["class"] != nil) != (item["listed"] == true) {
			t.Fatalf("item %d: class %v, root %v, sanctioned %v, listed %v", i, item["class"], item["root"], item["sanctioned"], item["listed"])
		}
		if item["class"] == "community" {
			community[item["family"].(string)+" "+item["canonicalAddress"].(string)] = true
		}
		leaf := hexBytes32(t, item["leaf"].(string))
		if want := merkle.LeafHashStrings2(item["family"].(string), item["canonicalAddress"].(string)); leaf != want {
			t.Fatalf("item %d: leaf %x, want %x", i, leaf, want)
		}
		proof := proofHashes(t, item["proof"])
		if ok := merkle.Verify(classRoot, leaf, proof); ok != (item["listed"] == true) {
			t.Fatalf("item %d (listed %v): proof verifies %v", i, item["listed"], ok)
		}
		if item["listed"] == true {
			if ok, err := merkle.VerifyStandard(classRoot, enc, []any{item["family"], item["canonicalAddress"]}, proof); err != nil || !ok {
				t.Fatalf("item %d: standard proof does not verify: %v", i, err)
			}
		}
	}
	verifyMultiproof(t, r.JSON["multiproof"].(map[string]any), root, wantListed)
	verifyMultiproof(t, r.JSON["communityMultiproof"].(map[string]any), roots["community"], len(community))
}

// verifyMultiproof checks a multiproof of a batch answer against root.
func verifyMultiproof(t *testing.T, mp map[string]any, root merkle.Hash, wantListed int) {
	t.Helper()
	var values [][]any
	for _, v := range mp["values"].([]any) {
		values = append(values, v.([]any))
	}
	var flags []bool
	for _, f := range mp["proofFlags"].([]any) {
		flags = append(flags, f.(bool))
	}
	if len(values) != wantListed {
		t.Fatalf("multiproof of %d values, want %d", len(values), wantListed)
	}
	if wantListed == 0 && root == (merkle.Hash{}) {
		return // an empty tree: nothing to prove
	}
	if ok, err := merkle.VerifyStandardMultiProof(root, []string{"string", "string"}, values, proofHashes(t, mp["proof"]), flags); err != nil || !ok {
		t.Fatalf("multiproof does not verify: %v", err)
	}
}

// TestE2EEveryMerkleProofVerifies asks for a proof of every listed address
// of the ETH and XBT lists (batches of 100 with multiproofs, and a sample
// one by one) and of unlisted, invalid and repeated ones: each listed proof
// verifies against the published root, no unlisted one does, and the
// multiproof of a batch without a listed address proves the empty set.
func TestE2EEveryMerkleProofVerifies(t *testing.T) {
	ts, list := complianceServer(t)
	a := ts.register(t, "")
	// Proofs are billed as screening (1 credit per address beyond the free window).
	ts.do(t, "POST", "/v1/admin/credits", admin, map[string]any{"developerId": a.DeveloperID, "amount": 10000, "reason": "test"}).must(t, 200)
	root := hexBytes32(t, ts.do(t, "GET", "/v1/compliance/merkle-root", a.Key, nil).must(t, 200).str("root"))
	// chainOf gives each listed address a chain of its family: the EVM
	// ones rotate over the EVM chains.
	chainOf := func(i int, addr string) string {
		switch {
		case strings.HasPrefix(addr, "0x"):
			return evmChains[i%len(evmChains)]
		case strings.HasPrefix(addr, "T"):
			return "tron"
		}
		return "bitcoin"
	}
	var listed []string
	for _, file := range []string{list, "testdata/sanctioned_addresses_XBT.txt"} {
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
		r := ts.do(t, "POST", "/v1/compliance/merkle-proof/batch", a.Key, map[string]any{"addresses": batch, "multiproof": true}).must(t, 200)
		verifyBatch(t, r, root, len(distinct))
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
			p := ts.do(t, "GET", "/v1/compliance/merkle-proof?chain="+chainOf(0, addr)+"&address="+url.QueryEscape(addr), a.Key, nil).must(t, 200)
			if p.JSON["sanctioned"] != true || !merkle.Verify(root, hexBytes32(t, p.str("leaf")), proofHashes(t, p.JSON["proof"])) {
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
		{"Repeated", addresses(100), 1},
		{"MixedCaseBadChecksum", []map[string]any{{"address": strings.Replace(tornado, "D6D", "d6D", 1), "chain": "ethereum"},
			{"address": tornado, "chain": "base"}, {"address": "12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h", "chain": "btc"}}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := ts.do(t, "POST", "/v1/compliance/merkle-proof/batch", a.Key, map[string]any{"addresses": tc.batch, "multiproof": true}).must(t, 200)
			verifyBatch(t, r, root, tc.listed)
		})
	}
}

// TestE2EReportEscalationNeedsThreeAccounts: one developer reporting an
// address under other spellings, chains and agents is one reporter (409,
// no escalation); the third distinct account escalates, and the community
// listing then has a proof against the new root.
func TestE2EReportEscalationNeedsThreeAccounts(t *testing.T) {
	ts, _ := complianceServer(t)
	const suspect = "0x00000000000000000000000000000000deadbeef"
	one := ts.registerEstablished(t)
	kid := ts.do(t, "POST", "/v1/agents", one.Key, nil).must(t, 201).str("apiKey")
	status := func() string {
		t.Helper()
		r := ts.do(t, "POST", "/v1/compliance/screen", one.Key, map[string]any{"addresses": []map[string]any{{"address": suspect, "chain": "ethereum"}}}).must(t, 200)
		return r.JSON["results"].([]any)[0].(map[string]any)["status"].(string)
	}
	for i, tc := range []struct {
		key    string
		body   map[string]any
		status int
		code   string
	}{
		{one.Key, map[string]any{"address": suspect, "category": "scam", "reason": "ünïcødé 🙂"}, 201, ""},
		{one.Key, map[string]any{"address": "0x" + strings.ToUpper(suspect[2:]), "chain": "polygon", "category": "hack", "reason": "x"}, 409, cairn.ECONFLICT},
		{kid, map[string]any{"address": " " + suspect + " ", "chain": "BASE", "category": "theft", "reason": "x"}, 409, cairn.ECONFLICT},
		{kid, map[string]any{"address": strings.ToUpper(suspect[2:]), "chain": "arbitrum", "category": "fraud", "reason": "x"}, 409, cairn.ECONFLICT},
		{kid, map[string]any{"address": suspect, "chain": "ethereum", "category": "Scam", "reason": "x"}, 400, cairn.EINVALID},
		{kid, map[string]any{"address": suspect, "chain": "ethereum", "category": "scam", "reason": strings.Repeat("é", 1001)}, 400, cairn.EINVALID},
		{kid, map[string]any{"address": suspect, "chain": "bitcoin", "category": "scam", "reason": "x"}, 400, cairn.EINVALID},
	} {
		r := ts.do(t, "POST", "/v1/compliance/report", tc.key, tc.body)
		if tc.code == "" {
			r.must(t, tc.status)
			if r.JSON["autoEscalated"] != false {
				t.Fatalf("report %d: %s", i, r.Body)
			}
		} else {
			r.problem(t, tc.status, tc.code)
		}
	}
	st := ts.do(t, "GET", "/v1/compliance/stats", "", nil).must(t, 200)
	if comm := st.JSON["community"].(map[string]any); comm["totalReports"] != float64(1) || status() != "clear" {
		t.Fatalf("one account counted more than once: %s", st.Body)
	}
	for i, want := range []bool{false, true} {
		b := ts.registerEstablished(t)
		r := ts.do(t, "POST", "/v1/compliance/report", b.Key, map[string]any{"address": strings.ToUpper(suspect[2:]), "category": "scam", "reason": "x"}).must(t, 201)
		if r.JSON["autoEscalated"] != want {
			t.Fatalf("reporter %d: %s", i+2, r.Body)
		}
	}
	if status() != "flagged" {
		t.Fatal("not flagged after three accounts")
	}
	// dataSources names the sources used: the community one only when
	// includeCommunity is not false, in the response and in the proof.
	for _, include := range []bool{true, false} {
		r := ts.do(t, "POST", "/v1/compliance/screen", one.Key, map[string]any{"includeCommunity": include,
			"addresses": []map[string]any{{"address": suspect, "chain": "ethereum"}}}).must(t, 200)
		doc := ts.do(t, "GET", "/v1/compliance/proofs/"+r.JSON["proof"].(map[string]any)["screeningId"].(string), one.Key, nil).must(t, 200)
		for _, ds := range [][]any{r.JSON["dataSources"].([]any), r.JSON["proof"].(map[string]any)["dataSources"].([]any), doc.JSON["dataSources"].([]any)} {
			has := false
			for _, s := range ds {
				has = has || s == "community"
			}
			if has != include || len(ds) != 2+btoi(include) {
				t.Fatalf("includeCommunity %v: dataSources %v", include, ds)
			}
		}
		checkResultsHash(t, ts, one.Key, r)
	}
	// The community listing is a leaf of the community tree with a proof,
	// but it is not a sanction: the Merkle endpoints say class community,
	// listed, not sanctioned, as the screening says flagged.
	root := ts.do(t, "GET", "/v1/compliance/merkle-root", one.Key, nil).must(t, 200)
	p := ts.do(t, "GET", "/v1/compliance/merkle-proof?chain=ethereum&address="+suspect, one.Key, nil).must(t, 200)
	if p.JSON["sanctioned"] != false || p.JSON["listed"] != true || p.str("class") != "community" || p.str("root") != root.str("communityRoot") ||
		!merkle.Verify(hexBytes32(t, root.str("communityRoot")), hexBytes32(t, p.str("leaf")), proofHashes(t, p.JSON["proof"])) ||
		merkle.Verify(hexBytes32(t, root.str("sanctionsRoot")), hexBytes32(t, p.str("leaf")), proofHashes(t, p.JSON["proof"])) {
		t.Fatalf("community listing proof: %s (root %s)", p.Body, root.Body)
	}
	b := ts.do(t, "POST", "/v1/compliance/merkle-proof/batch", one.Key, map[string]any{"multiproof": true,
		"addresses": []map[string]any{{"address": suspect, "chain": "base"}, {"address": tornado, "chain": "ethereum"}}}).must(t, 200)
	verifyBatch(t, b, hexBytes32(t, root.str("root")), 1)
	for i, want := range []bool{false, true} {
		if item := b.JSON["results"].([]any)[i].(map[string]any); item["sanctioned"] != want || item["listed"] != true {
			t.Fatalf("batch item %d: %v", i, item)
		}
	}
}

// TestE2EProofOfAnotherDeveloper: a screening proof is for independent
// verification (spec 4.11): anyone who has its id reads it, with or
// without credentials (the random id is the capability); an unknown id is
// a 404.
func TestE2EProofOfAnotherDeveloper(t *testing.T) {
	ts, _ := complianceServer(t)
	a, b := ts.register(t, ""), ts.register(t, "")
	s := ts.do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": addresses(2)}).must(t, 200)
	id := s.JSON["proof"].(map[string]any)["screeningId"].(string)
	checkResultsHash(t, ts, b.Key, s)
	if p := ts.do(t, "GET", "/v1/compliance/proofs/"+id, "", nil).must(t, 200); p.str("screeningId") != id {
		t.Fatalf("proof read without credentials: %s", p.Body)
	}
	if id[14] != '4' {
		t.Fatalf("screening id %s is not a random (version 4) UUID", id)
	}
	for _, bad := range []string{"x", cairn.NewID(), strings.Repeat("a", 3000), "%00", strings.ToUpper(id)} {
		ts.do(t, "GET", "/v1/compliance/proofs/"+bad, b.Key, nil).problem(t, 404, cairn.ENOTFOUND)
	}
	if ts.balance(t, b.Key) != 100 {
		t.Fatal("reading a proof was charged")
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestE2EReportEscalationConcurrent: six accounts report one address at
// once, and two agents of one more account: exactly one report escalates,
// and the account with two agents is one reporter (one 201, one 409).
func TestE2EReportEscalationConcurrent(t *testing.T) {
	ts, _ := complianceServer(t)
	const suspect = "0x000000000000000000000000000000000000beef"
	var keys []string
	for range 6 {
		keys = append(keys, ts.registerEstablished(t).Key)
	}
	twin := ts.registerEstablished(t)
	keys = append(keys, twin.Key, ts.do(t, "POST", "/v1/agents", twin.Key, nil).must(t, 201).str("apiKey"))
	status := make([]int, len(keys))
	escalated := make([]bool, len(keys))
	var wg sync.WaitGroup
	for i, k := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body, _ := json.Marshal(map[string]any{"address": suspect, "chain": "ethereum", "category": "scam", "reason": "x"})
			req, _ := http.NewRequest("POST", ts.base+"/v1/compliance/report", bytes.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+k)
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			var out struct {
				AutoEscalated bool `json:"autoEscalated"`
			}
			_ = json.NewDecoder(resp.Body).Decode(&out)
			status[i], escalated[i] = resp.StatusCode, out.AutoEscalated
		}()
	}
	wg.Wait()
	n := 0
	for i := range keys {
		if escalated[i] {
			n++
		}
		if want := 201; i < 6 && status[i] != want {
			t.Fatalf("reporter %d: status %d", i, status[i])
		}
	}
	if twins := []int{status[6], status[7]}; !(twins[0] == 201 && twins[1] == 409 || twins[0] == 409 && twins[1] == 201) {
		t.Fatalf("two agents of one account: %v, want one 201 and one 409", twins)
	}
	if n != 1 {
		t.Fatalf("%d reports escalated, want exactly 1", n)
	}
	st := ts.do(t, "GET", "/v1/compliance/stats", "", nil).must(t, 200)
	if st.JSON["community"].(map[string]any)["totalReports"] != float64(7) ||
		st.JSON["compliance"].(map[string]any)["bySource"].(map[string]any)["community"] != float64(1) {
		t.Fatalf("stats: %s", st.Body)
	}
}

// TestE2EReportMalformed sends reports with wrong types, nulls, empty and
// overlong fields: each is a 400 and stores nothing; a report at every
// limit (2000-byte reason, 10 URLs, padded chain) is taken.
func TestE2EReportMalformed(t *testing.T) {
	ts, _ := complianceServer(t)
	a := ts.register(t, "")
	const suspect = "0x00000000000000000000000000000000deadbeef"
	ok := func(extra map[string]any) map[string]any {
		b := map[string]any{"address": suspect, "category": "scam", "reason": "x"}
		for k, v := range extra {
			b[k] = v
		}
		return b
	}
	tenURLs := strings.Split(strings.TrimSuffix(strings.Repeat("https://example.org/,", 11), ","), ",")
	for _, tc := range []struct {
		name string
		body any
	}{
		{"Null", `null`},
		{"Array", `[]`},
		{"AddressNull", `{"address":null,"category":"scam","reason":"x"}`},
		{"AddressNumber", `{"address":1,"category":"scam","reason":"x"}`},
		{"AddressLong", ok(map[string]any{"address": strings.Repeat("a", 100000)})},
		{"AddressUnicode", ok(map[string]any{"address": "0x00000000000000000000000000000000deadbeeé"})},
		{"CategoryUpper", ok(map[string]any{"category": "SCAM"})},
		{"CategoryNull", ok(map[string]any{"category": nil})},
		{"ReasonSpaces", ok(map[string]any{"reason": " \t\n"})},
		{"ReasonTooLong", ok(map[string]any{"reason": strings.Repeat("x", 2001)})},
		{"ReasonNumber", `{"address":"` + suspect + `","category":"scam","reason":5}`},
		{"EvidenceString", ok(map[string]any{"evidence": "https://example.org/"})},
		{"EvidenceNullItem", ok(map[string]any{"evidence": []any{nil}})},
		{"EvidenceEmptyItem", ok(map[string]any{"evidence": []string{""}})},
		{"EvidenceEleven", ok(map[string]any{"evidence": tenURLs})},
		{"EvidenceLong", ok(map[string]any{"evidence": []string{"https://example.org/" + strings.Repeat("a", 2048)}})},
		{"EvidenceNoHost", ok(map[string]any{"evidence": []string{"https:///x"}})},
		{"ChainNumber", `{"address":"` + suspect + `","category":"scam","reason":"x","chain":1}`},
		{"ChainOtherFamily", ok(map[string]any{"chain": "bitcoin"})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts.do(t, "POST", "/v1/compliance/report", a.Key, tc.body).problem(t, 400, cairn.EINVALID)
		})
	}
	ts.do(t, "POST", "/v1/compliance/report", a.Key, ok(map[string]any{"reason": strings.Repeat("x", 2000),
		"evidence": tenURLs[:10], "chain": " Ethereum "})).must(t, 201)
	st := ts.do(t, "GET", "/v1/compliance/stats", "", nil).must(t, 200)
	if st.JSON["community"].(map[string]any)["totalReports"] != float64(1) {
		t.Fatalf("stats: %s", st.Body)
	}
}
