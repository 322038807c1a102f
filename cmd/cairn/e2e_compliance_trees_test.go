package main

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/chain"
	"github.com/cairn-dev/cairn/chain/evm"
	"github.com/cairn-dev/cairn/merkle"
)

// zeroRoot is the root of an empty tree.
const zeroRoot = "0x0000000000000000000000000000000000000000000000000000000000000000"

// escalate puts addr into the community source (apitest.Client.Escalate).
func escalate(t *testing.T, ts *testServer, addr string) {
	t.Helper()
	ts.client().Escalate(t, addr)
}

// proofOf asks GET /v1/compliance/merkle-proof and checks the proof
// against the root it names with the merkle package.
func proofOf(t *testing.T, ts *testServer, key, addr, chainName string) *response {
	t.Helper()
	r := ts.do(t, "GET", "/v1/compliance/merkle-proof?chain="+chainName+"&address="+addr, key, nil).must(t, 200)
	if r.JSON["listed"] == true {
		ok, err := merkle.VerifyStandard(hexBytes32(t, r.str("root")), []string{"string", "string"},
			[]any{r.str("family"), r.str("canonicalAddress")}, proofHashes(t, r.JSON["proof"]))
		if err != nil || !ok {
			t.Fatalf("the proof of %s does not verify against the root it names: %v %s", addr, err, r.Body)
		}
	}
	return r
}

// TestE2ETwoTrees: the sanctions sources and the community escalations
// have separate trees. Real fixture addresses prove against sanctionsRoot;
// a community-escalated address proves against communityRoot, class
// community, never sanctioned; an address in both is class sanctions; the
// escalation leaves the sanctions root as it was; a screening proof names
// both roots.
func TestE2ETwoTrees(t *testing.T) {
	cfg, list := complianceConfig(t)
	ts := startServer(t, cfg)
	a := ts.register(t, "")
	ts.do(t, "POST", "/v1/admin/credits", admin, map[string]any{"developerId": a.DeveloperID, "amount": 1000, "reason": "test"}).must(t, 200)
	root := ts.do(t, "GET", "/v1/compliance/merkle-root", a.Key, nil).must(t, 200)
	anchor := root.JSON["anchor"].(map[string]any)
	if root.str("sanctionsRoot") != root.str("root") || root.str("communityRoot") != zeroRoot || root.num("communityLeafCount") != 0 ||
		root.num("sanctionsLeafCount") != root.num("leafCount") || root.num("leafCount") < 500 || len(anchor) != 1 || anchor["status"] != "disabled" {
		t.Fatalf("merkle-root before any escalation: %s", root.Body)
	}
	sanctionsRoot := root.str("sanctionsRoot")

	// Real fixture addresses: class sanctions, against the sanctions root.
	var fixtures [][2]string
	for _, fx := range [][2]string{{list, "ethereum"}, {"testdata/sanctioned_addresses_XBT.txt", "bitcoin"}} {
		file, chainName := fx[0], fx[1]
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for n := 0; n < 4 && sc.Scan(); {
			if addr := strings.TrimSpace(sc.Text()); addr != "" && !strings.EqualFold(addr, tornado) {
				fixtures = append(fixtures, [2]string{addr, chainName})
				n++
			}
		}
		f.Close()
	}
	for _, fx := range fixtures {
		p := proofOf(t, ts, a.Key, fx[0], fx[1])
		if p.str("class") != "sanctions" || p.JSON["sanctioned"] != true || p.str("root") != sanctionsRoot || p.str("sanctionsRoot") != sanctionsRoot {
			t.Fatalf("fixture %s: %s", fx[0], p.Body)
		}
	}
	const suspect = "0x00000000000000000000000000000000deadbeef"
	if p := proofOf(t, ts, a.Key, suspect, "ethereum"); p.JSON["class"] != nil || p.JSON["listed"] != false || p.str("root") != sanctionsRoot {
		t.Fatalf("unlisted: %s", p.Body)
	}

	// Escalate an unlisted address and a sanctioned one.
	escalate(t, ts, suspect)
	escalate(t, ts, tornado)
	root = ts.do(t, "GET", "/v1/compliance/merkle-root", a.Key, nil).must(t, 200)
	communityRoot := root.str("communityRoot")
	if root.str("sanctionsRoot") != sanctionsRoot || root.str("root") != sanctionsRoot || communityRoot == zeroRoot ||
		root.num("communityLeafCount") != 2 || root.num("listVersion") != 3 {
		t.Fatalf("merkle-root after two escalations: %s", root.Body)
	}
	p := proofOf(t, ts, a.Key, suspect, "ethereum")
	if p.str("class") != "community" || p.JSON["sanctioned"] != false || p.JSON["listed"] != true || p.str("root") != communityRoot ||
		merkle.Verify(hexBytes32(t, sanctionsRoot), hexBytes32(t, p.str("leaf")), proofHashes(t, p.JSON["proof"])) {
		t.Fatalf("community address: %s", p.Body)
	}
	p = proofOf(t, ts, a.Key, tornado, "bsc")
	if p.str("class") != "sanctions" || p.JSON["sanctioned"] != true || p.str("root") != sanctionsRoot {
		t.Fatalf("address in both trees: %s", p.Body)
	}
	// The batch: each item against its class's root, a multiproof per class.
	b := ts.do(t, "POST", "/v1/compliance/merkle-proof/batch", a.Key, map[string]any{"multiproof": true, "addresses": []map[string]any{
		{"address": suspect, "chain": "ethereum"}, {"address": tornado, "chain": "ethereum"}, {"address": fixtures[0][0], "chain": "ethereum"},
		{"address": "0x000000000000000000000000000000000000dEaD", "chain": "ethereum"}}}).must(t, 200)
	verifyBatch(t, b, hexBytes32(t, sanctionsRoot), 2)
	if b.str("communityRoot") != communityRoot {
		t.Fatalf("batch: %s", b.Body)
	}

	// A screening proof document names both roots, stored and served.
	s := ts.do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": []map[string]any{{"address": suspect, "chain": "ethereum"}}}).must(t, 200)
	doc := ts.do(t, "GET", "/v1/compliance/proofs/"+s.JSON["proof"].(map[string]any)["screeningId"].(string), a.Key, nil).must(t, 200)
	for _, d := range []map[string]any{s.JSON["proof"].(map[string]any), doc.JSON} {
		if d["merkleRoot"] != sanctionsRoot || d["sanctionsRoot"] != sanctionsRoot || d["communityRoot"] != communityRoot {
			t.Fatalf("proof document roots: %v", d)
		}
	}
	// The list versions keep both roots.
	vs := ts.do(t, "GET", "/v1/compliance/versions", a.Key, nil).must(t, 200).JSON["versions"].([]any)
	if v := vs[0].(map[string]any); v["sanctionsRoot"] != sanctionsRoot || v["communityRoot"] != communityRoot || v["communityLeafCount"] != float64(2) {
		t.Fatalf("newest version: %v", v)
	}
	// A restart restores both trees.
	ts.stop()
	ts = startServer(t, cfg)
	waitVersion(t, ts, a.Key, 4)
	if r := ts.do(t, "GET", "/v1/compliance/merkle-root", a.Key, nil).must(t, 200); r.str("communityRoot") != communityRoot || r.str("sanctionsRoot") != sanctionsRoot {
		t.Fatalf("after a restart: %s", r.Body)
	}
}

// TestE2EAnchorBothRoots: the anchorer gets both roots. After a community
// escalation the contract holds the served sanctionsRoot and communityRoot;
// a community proof from the HTTP API is listed in the community tree on
// chain and in neither sanctions check; a sanctions proof verifies with
// every sanctions view function; merkle-root shows the anchor.
func TestE2EAnchorBothRoots(t *testing.T) {
	c := newSimChain(t)
	base, _ := complianceConfig(t)
	cfg, setup := c.config(base)
	ts := startServer(t, cfg, setup)
	a := ts.register(t, "")
	waitAnchor(t, ts, c, 1, chain.AnchorSynced, true)
	v := evm.NewVerifier()
	if on := call(t, c, v.PackRoots(), v.UnpackRoots); on.CommunityRoot != ([32]byte{}) {
		t.Fatalf("community root %x on chain before any escalation", on.CommunityRoot)
	}

	const suspect = "0x00000000000000000000000000000000deadbeef"
	escalate(t, ts, suspect)
	st := waitAnchor(t, ts, c, 2, chain.AnchorSynced, true)
	root := ts.do(t, "GET", "/v1/compliance/merkle-root", a.Key, nil).must(t, 200)
	on := call(t, c, v.PackRoots(), v.UnpackRoots)
	if root.num("listVersion") != 2 || on.ListVersion != 2 || on.SanctionsRoot != hexBytes32(t, root.str("sanctionsRoot")) ||
		on.CommunityRoot != hexBytes32(t, root.str("communityRoot")) || on.CommunityRoot == ([32]byte{}) || chain.RootsOf(st).Community != on.CommunityRoot {
		t.Fatalf("on chain %+v, served %s", on, root.Body)
	}
	anchor := root.JSON["anchor"].(map[string]any)
	if anchor["status"] != "synced" || anchor["chainId"] != float64(1337) || anchor["contract"] != strings.ToLower(c.contract.Hex()) ||
		anchor["txHash"] != st.TxHash || anchor["blockNumber"] != float64(st.BlockNumber) || anchor["syncedAt"] == nil ||
		anchor["listVersion"] != float64(2) || anchor["error"] != nil {
		t.Fatalf("anchor %v, status %+v", anchor, st)
	}

	community := getProof(t, ts, a.Key, suspect, "ethereum")
	if !community.listed || community.root != on.CommunityRoot {
		t.Fatal("the community proof is not against the community root")
	}
	if !call(t, c, v.PackIsCommunityListed("evm", community.canon, community.proof), v.UnpackIsCommunityListed) ||
		!call(t, c, v.PackVerifyCommunity(community.proof, community.leaf), v.UnpackVerifyCommunity) {
		t.Fatal("the community proof does not verify on chain")
	}
	checkOnChain(t, c, community, true, false) // never sanctioned
	sanctioned := getProof(t, ts, a.Key, tornado, "ethereum")
	checkOnChain(t, c, sanctioned, true, true)
	if call(t, c, v.PackIsCommunityListed("evm", sanctioned.canon, sanctioned.proof), v.UnpackIsCommunityListed) {
		t.Fatal("a sanctions proof verifies against the community root")
	}
}
