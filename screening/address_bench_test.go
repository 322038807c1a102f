package screening

import (
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

var benchSink string

func benchNormalize(b *testing.B, f Family, addr string) {
	b.Helper()
	if _, st := Normalize(f, addr); st != StatusOK {
		b.Fatalf("%s %s: %s", f, addr, st)
	}
	b.ReportAllocs()
	for b.Loop() {
		benchSink, _ = Normalize(f, addr)
	}
}

func BenchmarkNormalize(b *testing.B) {
	cases := []struct {
		name string
		f    Family
		addr string
	}{
		{"EVM/Canonical", EVM, "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"},
		{"EVM/EIP55", EVM, "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"},
		{"EVM/Upper", EVM, "0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED"},
		{"Bitcoin/P2PKH", Bitcoin, "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"},
		{"Bitcoin/Bech32", Bitcoin, "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"},
		{"Bitcoin/Taproot", Bitcoin, "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0"},
		{"BitcoinCash/Cashaddr", BitcoinCash, "qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a"},
		{"BitcoinCash/Legacy", BitcoinCash, "1BpEi6DfDAUFd7GtittLSdBeYJvcoaVggu"},
		{"Tron", Tron, "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"},
		{"Solana", Solana, "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"},
		{"Ripple", Ripple, "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh"},
		{"Monero", Monero, "49HqitRzdnhYjgTEAhgGpCfsjdTeMbUTU6cyR4JV1R7k2Eej9rGT8JpFiYDa4tZM6RZiFrHmMzgSrhHEqpDYKBe5B2ufNsL"},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) { benchNormalize(b, c.f, c.addr) })
	}
}

// BenchmarkReferenceGoEthereum is the reference for the EVM figures:
// go-ethereum's own validation and lower-casing of the same addresses.
func BenchmarkReferenceGoEthereum(b *testing.B) {
	for _, addr := range []string{
		"0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed",
		"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
	} {
		name := "Canonical"
		if addr != strings.ToLower(addr) {
			name = "EIP55"
		}
		b.Run("IsHexAddress+ToLower/"+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if common.IsHexAddress(addr) {
					benchSink = strings.ToLower(addr)
				}
			}
		})
		b.Run("HexToAddress.Hex/"+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				benchSink = common.HexToAddress(addr).Hex()
			}
		})
	}
}

func BenchmarkChainFamily(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		f, _ := ChainFamily("Ethereum")
		benchSink = string(f)
	}
}
