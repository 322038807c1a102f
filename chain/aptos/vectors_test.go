package aptos

import (
	"encoding/hex"
	"testing"

	"github.com/aptos-labs/aptos-go-sdk/crypto"
)

// Public test vectors, empty BIP-39 passphrase. Each one is asserted by
// implementations that do not share code with each other.
var vectors = []struct {
	name, mnemonic  string
	index           uint32
	priv, pub, addr string // pub is empty where no source gives it
}{
	{
		// aptos-labs/aptos-ts-sdk tests/unit/helper.ts `wallet`, checked there by
		// tests/unit/account.test.ts "should create a new account from a bip44
		// path and mnemonics"; the same address is asserted by Trust Wallet
		// Core's Aptos HDWallet test (C++/Rust).
		name:     "aptos-ts-sdk wallet",
		mnemonic: "shoot island position soft burden budget tooth cruel issue economy destroy above",
		priv:     "5d996aa76b3212142792d9130796cd2e11e3c445a93118c08414df4f66bc60ec",
		pub:      "ea526ba1710343d953461ff68641f1b7df5f23b9042ffa2d2a798d3adb3f3d6c",
		addr:     "0x07968dab936c1bad187c60ce4082f307d030d780e91e694ae03aef16aba73f30",
	},
	{
		// The BIP-39 "abandon ... about" phrase at index 0. The same keys and
		// address are asserted by tetherto/wdk-wallet-aptos
		// tests/wallet-account-aptos.test.js (JavaScript, its own derivation),
		// by Rust and Swift wallets, and by aptos-go-sdk v1.14.0
		// account_derivation_test.go.
		name:     "abandon about index 0",
		mnemonic: "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about",
		priv:     "cc92c0eaf80206d817f150e21917f797e49cf644a33ac514de3c316baa2f1bf5",
		pub:      "a686f0309ab80312979606cfccc10ea2740147ae6888351488d11c46f08fbf60",
		addr:     "0xeb663b681209e7087d681c5d3eed12aaa8e1915e7c87794542c3f96e94b3d3bf",
	},
	{
		// The same phrase at index 1, m/44'/637'/1'/0'/0': the index is the
		// account level of the path. Asserted by later aptos-go-sdk releases
		// (TestFromDerivationPathCustomIndex) and by independent Rust and
		// TypeScript wallet derivers.
		name:     "abandon about index 1",
		mnemonic: "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about",
		index:    1,
		priv:     "4c6f5a6b687631dd52f32c97457e895fb57947b9b827c6697c11cd7b2a075c5b",
		addr:     "0xf867372dfec13fb6c0740d4b574363685e10e6f243e9554ffa8f6e698e940efa",
	},
}

func TestVectors(t *testing.T) {
	for _, v := range vectors {
		t.Run(v.name, func(t *testing.T) {
			h, err := NewHD(v.mnemonic, "mainnet")
			if err != nil {
				t.Fatal(err)
			}
			key, err := h.key(v.index)
			if err != nil {
				t.Fatal(err)
			}
			if got := hex.EncodeToString(key.Bytes()); got != v.priv {
				t.Errorf("private key = %s, want %s", got, v.priv)
			}
			if got := hex.EncodeToString(key.PubKey().Bytes()); v.pub != "" && got != v.pub {
				t.Errorf("public key = %s, want %s", got, v.pub)
			}
			addr, err := h.Address(v.index)
			if err != nil {
				t.Fatal(err)
			}
			if addr != v.addr {
				t.Errorf("Address(%d) = %s, want %s", v.index, addr, v.addr)
			}
		})
	}
}

// TestAuthKeyVector checks the public key -> address step on its own, with
// the ed25519 vector of aptos-labs/aptos-ts-sdk tests/unit/helper.ts.
func TestAuthKeyVector(t *testing.T) {
	var key crypto.Ed25519PrivateKey
	if err := key.FromHex("0xc5338cd251c22daa8c9c9cc94f498cc8a5c7e1d2e75287a5dda91096fe64efa5"); err != nil {
		t.Fatal(err)
	}
	if got, want := hex.EncodeToString(key.PubKey().Bytes()),
		"de19e5d1880cac87d57484ce9ed2e84cf0f9599f12e7cc3a52e4e7657a763f2c"; got != want {
		t.Errorf("public key = %s, want %s", got, want)
	}
	if got, want := hex.EncodeToString(key.AuthKey()[:]),
		"978c213990c4833df71548df7ce49d54c759d6b6d932de22b24d56060b7af2aa"; got != want {
		t.Errorf("auth key = %s, want %s", got, want)
	}
}
