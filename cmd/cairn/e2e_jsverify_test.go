package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/testenv"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

// jsVerifierDir holds the JavaScript verifier (web/verify): the committed
// bundle and the command-line runner the tests drive it with.
const jsVerifierDir = "../../web/verify"

// needJSNode returns node, or skips the test without it (fails with
// CAIRN_REQUIRE_EVM=1, as in CI). The runner imports only the committed
// bundle, so no npm package is needed.
func needJSNode(t *testing.T) string {
	t.Helper()
	return testenv.Node(t, "", "it runs the committed bundle")
}

// jsVerdict is the JavaScript verifier's answer.
type jsVerdict struct {
	Kind   *string `json:"kind"`
	OK     bool    `json:"ok"`
	Checks []struct {
		Name    string `json:"name"`
		OK      bool   `json:"ok"`
		Note    bool   `json:"note"`
		Skipped bool   `json:"skipped"`
		Detail  string `json:"detail"`
	} `json:"checks"`
}

// firstFailed is the name of the first check that failed, "" when none.
func (v *jsVerdict) firstFailed() string {
	for _, c := range v.Checks {
		if !c.OK {
			return c.Name
		}
	}
	return ""
}

// runJSVerifier verifies doc with the bundled JavaScript verifier under
// node (test/verify-cli.mjs): snapshots and signing keys are fetched from
// the URLs the document names, as the Go verifier fetches them.
func runJSVerifier(t *testing.T, node string, doc []byte, opts ...string) jsVerdict {
	t.Helper()
	req := map[string]any{"document": string(doc)}
	for i := 0; i+1 < len(opts); i += 2 {
		req[opts[i]] = opts[i+1]
	}
	in, _ := json.Marshal(req)
	cmd := exec.Command(node, "test/verify-cli.mjs")
	cmd.Dir = jsVerifierDir
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node verify-cli: %v\n%s", err, stderr.String())
	}
	var v jsVerdict
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("node verify-cli answered %q: %v", out, err)
	}
	return v
}

// withMembers returns the JSON object doc with members set (nil deletes).
func withMembers(t *testing.T, doc []byte, set map[string]any) []byte {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(doc, &m); err != nil {
		t.Fatal(err)
	}
	for k, v := range set {
		if v == nil {
			delete(m, k)
			continue
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		m[k] = b
	}
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// member decodes member k of doc.
func member[T any](t *testing.T, doc []byte, k string) T {
	t.Helper()
	var m map[string]json.RawMessage
	var v T
	if err := json.Unmarshal(doc, &m); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(m[k], &v); err != nil {
		t.Fatalf("%s: %v", k, err)
	}
	return v
}

// withResults rewrites the results of a screening proof and recomputes
// resultsHash, as a holder forging a result would.
func withResults(t *testing.T, doc []byte, edit func([]map[string]any)) []byte {
	t.Helper()
	rs := member[[]map[string]any](t, doc, "results")
	edit(rs)
	rb, _ := json.Marshal(rs)
	sum := sha256.Sum256(rb)
	return withMembers(t, doc, map[string]any{"results": json.RawMessage(rb), "resultsHash": hex.EncodeToString(sum[:])})
}

// goVerifier returns a function that runs `cairn verify-proof` (with
// flags) on a document written to a file of the test, returning its exit
// code and output.
func goVerifier(t *testing.T) func(name string, body []byte, flags ...string) (int, string) {
	dir := t.TempDir()
	return func(name string, body []byte, flags ...string) (int, string) {
		path := filepath.Join(dir, name+".json")
		if err := os.WriteFile(path, body, 0o600); err != nil {
			t.Fatal(err)
		}
		var out, errOut strings.Builder
		code := Run(t.Context(), append(append([]string{"verify-proof"}, flags...), path), &out, &errOut, func(string) string { return "" })
		return code, out.String() + errOut.String()
	}
}

// TestE2EJSVerifierAgreesWithGo: the JavaScript verifier (web/verify, the
// committed bundle, under node) and `cairn verify-proof` reach the same
// verdict on the same real documents of a running server (Merkle proofs
// of a listed and an unlisted address, screening proofs with sanctioned,
// clear and bitcoin results, snapshots fetched, signatures checked against
// the published keys) and on forged ones, and the JavaScript verdict
// names the check that the Go verifier fails on.
func TestE2EJSVerifierAgreesWithGo(t *testing.T) {
	node := needJSNode(t)
	ts, _ := complianceServer(t)
	a := ts.register(t, "")
	goVerify := goVerifier(t)

	listed := ts.do(t, "GET", "/v1/compliance/merkle-proof?chain=ethereum&address="+tornado, a.Key, nil).must(t, 200).Body
	clearAddr := "0x1111111111111111111111111111111111111111"
	unlisted := ts.do(t, "GET", "/v1/compliance/merkle-proof?chain=ethereum&address="+clearAddr, a.Key, nil).must(t, 200).Body
	s := ts.do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": []map[string]any{
		{"address": tornado, "chain": "ethereum"}, {"address": clearAddr, "chain": "ethereum"},
		{"address": "1BoatSLRHtKNngkdXEeobR76b53LETtpyT", "chain": "bitcoin"}, {"address": "0x12", "chain": "ethereum"}}}).must(t, 200)
	screened := ts.do(t, "GET", "/v1/compliance/proofs/"+s.JSON["proof"].(map[string]any)["screeningId"].(string), "", nil).must(t, 200).Body
	var indented bytes.Buffer
	if err := json.Indent(&indented, screened, "", "  "); err != nil {
		t.Fatal(err)
	}

	t.Run("OK", func(t *testing.T) {
		for _, tc := range []struct {
			name string
			doc  []byte
			kind string
			want []string // checks that must pass, neither skipped nor a note
		}{
			{"listed", listed, "merkle-proof", []string{"merkleProof"}},
			{"unlisted", unlisted, "merkle-proof", []string{"exclusionProof.sanctions"}},
			{"screening", screened, "screening-proof", []string{"resultsHash", "statuses", "merkleProofs", "exclusionProofs", "snapshot:list:ETH", "signature"}},
			// Indented, the results' bytes differ from the served ones but
			// not their compact form, which resultsHash hashes.
			{"indented", indented.Bytes(), "screening-proof", []string{"resultsHash", "signature"}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				code, out := goVerify(tc.name, tc.doc)
				v := runJSVerifier(t, node, tc.doc)
				if code != 0 || !v.OK || v.Kind == nil || *v.Kind != tc.kind {
					t.Fatalf("go %d %s\njs %+v", code, out, v)
				}
				passed := map[string]bool{}
				for _, c := range v.Checks {
					passed[c.Name] = c.OK && !c.Note && !c.Skipped
					// Each check the JavaScript verifier passes, the Go
					// verifier reports passed (its OK lines carry the same
					// detail).
					for _, d := range strings.Split(c.Detail, "; ") {
						if passed[c.Name] && !strings.Contains(out, "OK: "+d) {
							t.Errorf("js passed %s (%s), go said:\n%s", c.Name, d, out)
						}
					}
				}
				for _, name := range tc.want {
					if !passed[name] {
						t.Errorf("js check %s not passed: %+v", name, v)
					}
				}
			})
		}
	})

	sig := member[map[string]any](t, screened, "signature")
	version := member[uint64](t, screened, "listVersion")
	snaps := member[map[string]map[string]any](t, screened, "dataSnapshots")
	mps := member[map[string]map[string]any](t, screened, "merkleProofs")
	eps := member[map[string]map[string]any](t, screened, "exclusionProofs")
	gapOf := member[map[string]any](t, unlisted, "exclusionProof")
	listedProof := member[[]string](t, listed, "proof")
	flip := func(h string) string { // another hash of the same form
		b, _ := hex.DecodeString(h[2:])
		b[31] ^= 1
		return "0x" + hex.EncodeToString(b)
	}
	// A public key the verifier already holds instead of the published
	// ones: the issuer's verifies, another one does not.
	keys := ts.do(t, "GET", "/v1/compliance/signing-keys", "", nil).must(t, 200)
	issuer := keys.JSON["keys"].([]any)[0].(map[string]any)["publicKey"].(string)
	t.Run("TrustedKey", func(t *testing.T) {
		for _, tc := range []struct {
			key    string
			ok     bool
			goSays string
		}{{issuer, true, "OK: signed by"}, {strings.Repeat("ab", 32), false, "is not among the 1 published keys"}} {
			code, out := goVerify("trusted", screened, "--key", tc.key)
			v := runJSVerifier(t, node, screened, "key", tc.key)
			if (code == 0) != tc.ok || !strings.Contains(out, tc.goSays) || v.OK != tc.ok || (!tc.ok && v.firstFailed() != "signature") {
				t.Errorf("--key %s: go %d %s\njs %+v", tc.key, code, out, v)
			}
		}
	})

	t.Run("Forged", func(t *testing.T) {
		for _, tc := range []struct {
			name   string
			doc    []byte
			goSays string // in the Go verifier's failure
			jsName string // the JavaScript verifier's first failed check
		}{
			{"FlippedToClear", withResults(t, screened, func(rs []map[string]any) { rs[0]["status"], rs[0]["matches"] = "clear", []any{} }),
				"lies in no gap", "exclusionProofs"},
			{"RelabelledFlagged", withResults(t, screened, func(rs []map[string]any) { rs[0]["status"] = "flagged" }),
				`is "flagged"`, "statuses"},
			{"ResultEditedHashKept", bytes.Replace(screened, []byte(`"checksum":"none"`), []byte(`"checksum":"valid"`), 1),
				"does not match the results", "resultsHash"},
			{"WidenedGap", bytes.Replace(unlisted, []byte(`"`+gapOf["value"].([]any)[2].(string)+`"]`), []byte(`"0xffffffffffffffffffffffffffffffffffffffff"]`), 1),
				"is not the leaf of the gap", "exclusionProof.sanctions"},
			{"WidenedGapInScreening", withMembers(t, screened, map[string]any{"exclusionProofs": func() any {
				sanc := eps["sanctions"]
				vs := sanc["values"].([]any)
				for _, v := range vs {
					if g := v.([]any); g[0] == "evm" {
						g[2] = ""
					}
				}
				return eps
			}()}), "is not the leaf of the gap", "exclusionProofs"},
			{"AlteredProofHash", withMembers(t, listed, map[string]any{"proof": append([]string{flip(listedProof[0])}, listedProof[1:]...)}),
				"does not lead from", "merkleProof"},
			{"AlteredMultiproofHash", withMembers(t, screened, map[string]any{"merkleProofs": func() any {
				p := mps["sanctions"]["proof"].([]any)
				p[0] = flip(p[0].(string))
				return mps
			}()}), "multiproof does not lead to root", "merkleProofs"},
			{"LoneLeaf", withMembers(t, listed, map[string]any{"root": member[string](t, listed, "leaf"), "proof": []string{}}),
				"is the leaf itself", "merkleProof"},
			{"ListingWithoutProof", withMembers(t, listed, map[string]any{"proof": []string{}}), "holds no proof", "merkleProof"},
			{"RemovedSignature", withMembers(t, screened, map[string]any{"signature": nil}), "carries no signature", "signature"},
			{"ChangedListVersion", withMembers(t, screened, map[string]any{"listVersion": version + 1}), "does not match the document", "signature"},
			{"OtherKeyID", withMembers(t, screened, map[string]any{"signature": map[string]any{"alg": sig["alg"], "keyId": "ed25519-0000000000000000", "value": sig["value"]}}),
				"is not among the", "signature"},
			{"ChangedSnapshotDigest", withMembers(t, screened, map[string]any{"dataSnapshots": func() any {
				snaps["list:ETH"]["sha256"] = strings.Repeat("0", 64)
				return snaps
			}()}), "the document names", "snapshot:list:ETH"},
			{"DroppedExclusionProofs", withMembers(t, screened, map[string]any{"exclusionProofs": map[string]any{}}), "is not proven", "exclusionProofs"},
			{"Empty", []byte(`{}`), "holds neither", "document"},
			{"NotJSON", []byte(`{"resultsHash":`), "not a proof document", "document"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				code, out := goVerify(tc.name, tc.doc)
				if code != 1 || !strings.Contains(out, tc.goSays) {
					t.Errorf("go verify-proof: %d, want 1 saying %q:\n%s", code, tc.goSays, out)
				}
				v := runJSVerifier(t, node, tc.doc)
				if v.OK || v.firstFailed() != tc.jsName {
					t.Errorf("js verifier: ok %v, first failed %q, want %q: %+v", v.OK, v.firstFailed(), tc.jsName, v)
				}
			})
		}
	})
}

// TestE2EJSVerifierCalldata: the calldata the JavaScript verifier encodes
// for the contract's isSanctioned(address,bytes32[]),
// isNotSanctioned(address,address,address,bytes32[]) and
// multiProofVerify(bytes32[],bool[],bytes32[]) is go-ethereum's encoding
// of the committed ABI (contracts/CairnVerifier.abi), selectors included,
// on real proofs of a running server, and with open ends ("") written as
// the contract's sentinels.
func TestE2EJSVerifierCalldata(t *testing.T) {
	node := needJSNode(t)
	f, err := os.Open("../../contracts/CairnVerifier.abi")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	contract, err := abi.JSON(f)
	if err != nil {
		t.Fatal(err)
	}
	pack := func(sig string, args ...any) string {
		t.Helper()
		for _, m := range contract.Methods {
			if m.Sig == sig {
				b, err := m.Inputs.Pack(args...)
				if err != nil {
					t.Fatal(err)
				}
				return hexutil.Encode(append(slices.Clone(m.ID), b...))
			}
		}
		t.Fatalf("the contract's ABI has no %s", sig)
		return ""
	}
	ts, _ := complianceServer(t)
	a := ts.register(t, "")
	clearAddr := "0x1111111111111111111111111111111111111111"
	listed := ts.do(t, "GET", "/v1/compliance/merkle-proof?chain=ethereum&address="+tornado, a.Key, nil).must(t, 200).Body
	unlisted := ts.do(t, "GET", "/v1/compliance/merkle-proof?chain=ethereum&address="+clearAddr, a.Key, nil).must(t, 200).Body
	s := ts.do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": []map[string]any{{"address": tornado, "chain": "ethereum"}}}).must(t, 200)
	screened := ts.do(t, "GET", "/v1/compliance/proofs/"+s.JSON["proof"].(map[string]any)["screeningId"].(string), "", nil).must(t, 200).Body
	gap := member[struct {
		Low   string        `json:"low"`
		High  string        `json:"high"`
		Proof []common.Hash `json:"proof"`
	}](t, unlisted, "exclusionProof")
	mp := member[map[string]struct {
		Leaves     []common.Hash `json:"leaves"`
		Proof      []common.Hash `json:"proof"`
		ProofFlags []bool        `json:"proofFlags"`
	}](t, screened, "merkleProofs")["sanctions"]
	proof := member[[]common.Hash](t, listed, "proof")

	for _, tc := range []struct {
		name                 string
		account, low, high   string
		wantLow, wantHigh    string
		proof, leaves, mpArg []common.Hash
		flags                []bool
	}{
		{"RealProofs", tornado, gap.Low, gap.High, gap.Low, gap.High, proof, mp.Leaves, mp.Proof, mp.ProofFlags},
		{"OpenEnds", clearAddr, "", "", "0x0000000000000000000000000000000000000000", "0xffffffffffffffffffffffffffffffffffffffff", gap.Proof, nil, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, _ := json.Marshal(map[string]any{"account": tc.account, "low": tc.low, "high": tc.high, "proof": tc.proof,
				"flags": append([]bool{}, tc.flags...), "leaves": append([]common.Hash{}, tc.leaves...)})
			cmd := exec.Command(node, "test/calls-cli.mjs")
			cmd.Dir = jsVerifierDir
			cmd.Stdin = bytes.NewReader(in)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("node calls-cli: %v", err)
			}
			var got map[string]any
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatal(err)
			}
			account := common.HexToAddress(tc.account)
			for name, want := range map[string]string{
				"isSanctioned":     pack("isSanctioned(address,bytes32[])", account, tc.proof),
				"isNotSanctioned":  pack("isNotSanctioned(address,address,address,bytes32[])", account, common.HexToAddress(tc.wantLow), common.HexToAddress(tc.wantHigh), tc.proof),
				"multiProofVerify": pack("multiProofVerify(bytes32[],bool[],bytes32[])", tc.proof, append([]bool{}, tc.flags...), append([]common.Hash{}, tc.leaves...)),
			} {
				if got[name] != want {
					t.Errorf("%s: js %v\nwant %s", name, got[name], want)
				}
				if sel := got["selectors"].(map[string]any)[name]; sel != want[:10] {
					t.Errorf("selector of %s: js %v, the ABI's %s", name, sel, want[:10])
				}
			}
		})
	}
}
