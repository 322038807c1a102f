// Package evmtest gives tests the local EVM node: URL reads
// CAIRN_TEST_EVM_RPC_URL (a ganache 7.9.2 that .ci/run starts with
// --wallet.deterministic), skipping the test when it is unset and failing
// it when CAIRN_REQUIRE_EVM=1, as CI sets. Key hands out that node's funded
// deterministic accounts, one per test that sends transactions, so that
// tests running at once never race for a nonce.
//
// It is imported by tests only. It imports go-ethereum's crypto,
// internal/testenv and the standard library.
package evmtest

import (
	"crypto/ecdsa"
	"testing"

	"github.com/cairn-dev/cairn/internal/testenv"
	"github.com/ethereum/go-ethereum/crypto"
)

// URL returns CAIRN_TEST_EVM_RPC_URL, or skips (or, with
// CAIRN_REQUIRE_EVM=1, fails) the test when it is not set.
func URL(tb testing.TB) string {
	tb.Helper()
	return testenv.Env(tb, "CAIRN_TEST_EVM_RPC_URL", "CAIRN_REQUIRE_EVM",
		"no local EVM node: .ci/run starts ganache; npx ganache --wallet.deterministic in contracts/")
}

// The accounts of `ganache --wallet.deterministic`, each given to one
// test only.
const (
	KeyChainEVM   = 0 // chain/evm TestGanacheAnchor
	KeyE2E        = 1 // cmd/cairn TestE2EGanache
	KeyBenchmark  = 2 // chain/evm BenchmarkGanacheTimeToSynced
	KeyDeploy     = 3 // cmd/cairn TestGanacheDeployUpdater
	KeyGuard      = 4 // chain/evm TestGanacheSanctionsGuard: owner of the verifier and the token
	KeyGuardBad   = 5 // chain/evm TestGanacheSanctionsGuard: the sanctioned sender
	KeyGuardClear = 6 // chain/evm TestGanacheSanctionsGuard: the clear sender
	KeyE2EOracle  = 7 // cmd/cairn TestE2EGanacheOracle: the service's key, the contract's owner
	KeyReport     = 8 // cmd/cairn TestE2EReportChainGanache: the service's key, the contract's owner
	KeyConsole    = 9 // web TestConsoleAnchoringOnGanache: the service's key, the contract's owner
	keysOfGanache = "4f3edf983ac636a65a842ce7c78d9aa706d3b113bce9c46f30d7d21715b23b1d" +
		"6cbed15c793ce57650b9877cf6fa156fbef513c4e6134f022a85b1ffdd59b2a1" +
		"6370fd033278c143179d81c5526140625662b8daa446c22ee2d73db3707e620c" +
		"646f1ce2fdad0e6deeeb5c7e8e5543bdde65e86029e2fd9fc169899c440a7913" +
		"add53f9a7e588d003326d1cbf9e4a43c061aadd9bc938c843a79e7b4fd2ad743" +
		"395df67f0c2d2d9fe1ad08d1bc8b6627011959b79c53d7dd6a3536a33ab8a4fd" +
		"e485d098507f54e7733a205420dfddbe58db035fa577fc294ebd14db90767a52" +
		"a453611d9419d0e56f499079478fd72c37b251a94bfde4d19872c44cf65386e3" +
		"829e924fdf021ba3dbbc4225edfece9aca04b929d6e75613329ca6f1d31c0bb4" +
		"b0057716d5917badaf911b193b12b910811c1497b5bada8d7711f758981c3773"
)

// Key returns the private key of deterministic account i (one of the Key*
// constants) and its hex form, as a key file holds it.
func Key(tb testing.TB, i int) (*ecdsa.PrivateKey, string) {
	tb.Helper()
	h := keysOfGanache[64*i : 64*i+64]
	k, err := crypto.HexToECDSA(h)
	if err != nil {
		tb.Fatal(err)
	}
	return k, h
}
