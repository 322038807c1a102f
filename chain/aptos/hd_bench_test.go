package aptos

import (
	"testing"

	aptossdk "github.com/aptos-labs/aptos-go-sdk"
)

// BenchmarkAddress is the cost registration pays per agent: derivation from
// the seed computed once in NewHD.
func BenchmarkAddress(b *testing.B) {
	h, err := NewHD(vectors[0].mnemonic, "mainnet")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	i := uint32(0)
	for b.Loop() {
		if _, err := h.Address(i); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkNewHD is the one-time cost at start-up: mnemonic check and BIP-39
// seed (PBKDF2-HMAC-SHA512, 2048 rounds).
func BenchmarkNewHD(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewHD(vectors[0].mnemonic, "mainnet"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSDKAccountFromDerivationPath is the reference: the SDK's one-call
// mnemonic -> account, which recomputes the seed for every address.
func BenchmarkSDKAccountFromDerivationPath(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := aptossdk.NewEd25519AccountFromDerivationPath(vectors[0].mnemonic, Path(7)); err != nil {
			b.Fatal(err)
		}
	}
}
