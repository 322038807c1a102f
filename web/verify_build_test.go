package web

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/cairn-dev/cairn/internal/testenv"
)

// TestCommittedVerifierIsFreshBuild: the committed bundle is what esbuild
// makes of the committed sources and the locked npm packages today (npm
// ci in web/verify, then build.mjs into a temporary directory), and it is
// the one embedded. Without node or web/verify/node_modules the test is
// skipped; with CAIRN_REQUIRE_EVM=1 (as in CI, which installs them) it
// fails instead.
func TestCommittedVerifierIsFreshBuild(t *testing.T) {
	node := testenv.Node(t, filepath.Join("verify", "node_modules", "esbuild", "package.json"), "npm ci in web/verify")
	out := t.TempDir()
	cmd := exec.Command(node, "build.mjs", "--out", out)
	cmd.Dir = "verify"
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, b)
	}
	fresh, err := os.ReadFile(filepath.Join(out, "cairn-verify.js"))
	if err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile(filepath.Join("verify", "dist", "cairn-verify.js"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(fresh, committed) {
		t.Error("web/verify/dist/cairn-verify.js differs from a fresh build: run npm ci && npm run build in web/verify")
	}
	if !bytes.Equal(VerifierJS, committed) {
		t.Error("the embedded verifier is not web/verify/dist/cairn-verify.js")
	}
}
