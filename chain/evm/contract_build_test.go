package evm_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/chain/evm"
	"github.com/cairn-dev/cairn/internal/testenv"
	"github.com/ethereum/go-ethereum/accounts/abi"
)

const contractsDir = "../../contracts"

// needNode skips the test unless node and the contracts' npm packages are
// installed (npm ci in contracts/); with CAIRN_REQUIRE_EVM=1 (as in CI) it
// fails instead.
func needNode(t *testing.T) string {
	t.Helper()
	return testenv.Node(t, filepath.Join(contractsDir, "node_modules", "solc", "package.json"), "npm ci in contracts/")
}

// TestCommittedContractMatchesSource: the committed ABI and bytecode are
// what solc 0.8.37 makes of the committed source today, and the Go
// bindings embed exactly those.
func TestCommittedContractMatchesSource(t *testing.T) {
	node := needNode(t)
	out := t.TempDir()
	cmd := exec.Command(node, "build.js", "--out", out)
	cmd.Dir = contractsDir
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("compile: %v\n%s", err, b)
	}
	for _, name := range []string{"CairnVerifier.abi", "CairnVerifier.bin", "examples/GuardedToken.abi", "examples/GuardedToken.bin"} {
		fresh, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		committed, err := os.ReadFile(filepath.Join(contractsDir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(fresh, committed) {
			t.Errorf("contracts/%s differs from a fresh compile: run contracts/generate.sh", name)
		}
	}
}

// TestBindingsMatchCommittedArtifacts holds without node: the bindings
// embed the committed bytecode and ABI.
func TestBindingsMatchCommittedArtifacts(t *testing.T) {
	bin, err := os.ReadFile(filepath.Join(contractsDir, "CairnVerifier.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := evm.VerifierMetaData.Bin, "0x"+strings.TrimSpace(string(bin)); got != want {
		t.Error("chain/evm bindings embed other bytecode than contracts/CairnVerifier.bin: run contracts/generate.sh")
	}
	raw, err := os.ReadFile(filepath.Join(contractsDir, "CairnVerifier.abi"))
	if err != nil {
		t.Fatal(err)
	}
	committed, err := abi.JSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	bound := evm.NewVerifier().GetABI()
	if len(committed.Methods) != len(bound.Methods) || len(committed.Errors) != len(bound.Errors) || len(committed.Events) != len(bound.Events) {
		t.Fatal("bindings and contracts/CairnVerifier.abi declare different members: run contracts/generate.sh")
	}
	for name, m := range committed.Methods {
		if bound.Methods[name].Sig != m.Sig {
			t.Errorf("method %s: bindings %q, ABI %q", name, bound.Methods[name].Sig, m.Sig)
		}
	}
	// The verifier interface the README promises, signature for signature
	// (overloads included: abigen names the second isSanctioned0).
	sigs := map[string]bool{}
	for _, m := range committed.Methods {
		sigs[m.Sig] = true
	}
	for _, sig := range []string{
		"verify(bytes32[],bytes32)", "isListed(string,string,bytes32[])", "isSanctioned(address,bytes32[])",
		"multiProofVerify(bytes32[],bool[],bytes32[])", "root()", "listVersion()",
		"setRoots(bytes32,bytes32,bytes32,bytes32,uint64)", "forceSetRoots(bytes32,bytes32,bytes32,bytes32,uint64)",
		"exclusionRoot()", "communityExclusionRoot()", "isNotSanctioned(address,address,address,bytes32[])",
		"isNotListed(string,string,string,string,bytes32[])", "isNotCommunityListed(string,string,string,string,bytes32[])",
		"isSanctioned(address)", "isSanctionedVerbose(address)", "name()", "addSanctioned(address[],bytes32[],bool[])",
		"removeSanctioned(address[],address[],address[],bytes32[][])",
		"communityRoot()", "isCommunityListed(string,string,bytes32[])", "verifyCommunity(bytes32[],bytes32)",
	} {
		if !sigs[sig] {
			t.Errorf("ABI has no %s", sig)
		}
	}
}
