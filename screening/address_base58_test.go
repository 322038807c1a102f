package screening

import (
	"encoding/hex"
	"testing"
)

// Vectors of Bitcoin Core's test/data/base58_encode_decode.json.
func TestBase58Vectors(t *testing.T) {
	vectors := []struct{ hex, b58 string }{
		{"61", "2g"},
		{"626262", "a3gV"},
		{"636363", "aPEr"},
		{"73696d706c792061206c6f6e6720737472696e67", "2cFupjhnEsSn59qHXstmK2ffpLv2"},
		{"00eb15231dfceb60925886b67d065299925915aeb172c06647", "1NS17iag9jJgTHD1VXjvLCEnZuQ3rJDE9L"},
		{"516b6fcd0f", "ABnLTmg"},
		{"bf4f89001e670274dd", "3SEo3LWLoPntC"},
		{"572e4794", "3EFU7m"},
		{"ecac89cad93923c02321", "EJDM8drfXA6uyA"},
		{"10c8511e", "Rt5zm"},
		{"00000000000000000000", "1111111111"},
	}
	for _, v := range vectors {
		t.Run(v.b58, func(t *testing.T) {
			var out [maxDecoded]byte
			n, ok := bitcoinAlphabet.decode(v.b58, &out)
			if !ok || hex.EncodeToString(out[:n]) != v.hex {
				t.Fatalf("decode = %x, %v", out[:n], ok)
			}
			raw, _ := hex.DecodeString(v.hex)
			if got := string(bitcoinAlphabet.encode(nil, raw)); got != v.b58 {
				t.Fatalf("encode = %s", got)
			}
		})
	}
	for _, bad := range []string{"0", "O", "I", "l", "2g ", "+"} {
		t.Run("Err/"+bad, func(t *testing.T) {
			var out [maxDecoded]byte
			if _, ok := bitcoinAlphabet.decode(bad, &out); ok {
				t.Fatal("accepted")
			}
		})
	}
}

func TestFamilyAddresses(t *testing.T) {
	tests := []struct {
		name string
		f    Family
		in   string
		want string // "" for invalid
	}{
		{"Bitcoin/OK/P2PKH", Bitcoin, "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"},
		{"Bitcoin/OK/P2SH", Bitcoin, "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy", "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"},
		{"Bitcoin/Err/Checksum", Bitcoin, "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3", ""},
		{"Bitcoin/Err/Litecoin", Bitcoin, "LNf2JDiuunBz7GMDKFYHN4rq5meXWxiwfb", ""},
		{"Bitcoin/Err/Testnet", Bitcoin, "mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn", ""},
		{"Litecoin/OK/L", Litecoin, "LNf2JDiuunBz7GMDKFYHN4rq5meXWxiwfb", "LNf2JDiuunBz7GMDKFYHN4rq5meXWxiwfb"},
		{"Litecoin/OK/M", Litecoin, "M8yFL6SFC6TreATegTyuSYkDfDRbisdpT3", "M8yFL6SFC6TreATegTyuSYkDfDRbisdpT3"},
		{"Litecoin/Err/Bitcoin", Litecoin, "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", ""},
		{"BitcoinSV/OK", BitcoinSV, "12sjrrhoFEsedNRhtgwvvRqjFTh8fZTDX9", "12sjrrhoFEsedNRhtgwvvRqjFTh8fZTDX9"},
		{"BitcoinSV/Err/Segwit", BitcoinSV, "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", ""},
		{"BitcoinGold/OK", BitcoinGold, "GPwg61XoHqQPNmAucFACuQ5H9sGCDv9TpS", "GPwg61XoHqQPNmAucFACuQ5H9sGCDv9TpS"},
		{"Dash/OK", Dash, "XnPFsRWTaSgiVauosEwQ6dEitGYXgwznz2", "XnPFsRWTaSgiVauosEwQ6dEitGYXgwznz2"},
		{"Dash/Err/Verge", Dash, "DFFJhnQNZf8rf67tYnesPu7MuGUpYtzv7Z", ""},
		{"Verge/OK", Verge, "DFFJhnQNZf8rf67tYnesPu7MuGUpYtzv7Z", "DFFJhnQNZf8rf67tYnesPu7MuGUpYtzv7Z"},
		{"Dogecoin/OK", Dogecoin, "DFFJhnQNZf8rf67tYnesPu7MuGUpYtzv7Z", "DFFJhnQNZf8rf67tYnesPu7MuGUpYtzv7Z"},
		{"Zcash/OK/t1", Zcash, "t1MMXtBrSp1XG38Lx9cePcNUCJj5vdWfUWL", "t1MMXtBrSp1XG38Lx9cePcNUCJj5vdWfUWL"},
		{"Zcash/Err/t1Checksum", Zcash, "t1MMXtBrSp1XG38Lx9cePcNUCJj5vdWfUWM", ""},
		{"Tron/OK", Tron, "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"},
		{"Tron/OK/Hex", Tron, "41a614f803b6fd780986a42c78ec9c7f77e6ded13c", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"},
		{"Tron/Err/Bitcoin", Tron, "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", ""},
		{"Tron/Err/Checksum", Tron, "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6T", ""},
		{"Solana/OK/SystemProgram", Solana, "11111111111111111111111111111111", "11111111111111111111111111111111"},
		{"Solana/OK/Token", Solana, "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"},
		{"Solana/Err/31Bytes", Solana, "1111111111111111111111111111111", ""},
		{"Solana/Err/Char0", Solana, "0okenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", ""},
		{"Ripple/OK", Ripple, "rnXyVQzgxZe7TR1EPzTkGj2jxH4LMJYh66", "rnXyVQzgxZe7TR1EPzTkGj2jxH4LMJYh66"},
		{"Ripple/OK/Genesis", Ripple, "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh", "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh"},
		{"Ripple/Err/Checksum", Ripple, "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTi", ""},
		{"Ripple/Err/BitcoinAlphabet", Ripple, "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", ""},
		{"Monero/OK/Standard", Monero, "49HqitRzdnhYjgTEAhgGpCfsjdTeMbUTU6cyR4JV1R7k2Eej9rGT8JpFiYDa4tZM6RZiFrHmMzgSrhHEqpDYKBe5B2ufNsL", "49HqitRzdnhYjgTEAhgGpCfsjdTeMbUTU6cyR4JV1R7k2Eej9rGT8JpFiYDa4tZM6RZiFrHmMzgSrhHEqpDYKBe5B2ufNsL"},
		{"Monero/OK/Subaddress", Monero, "84AwzjeFWXNEuhj8LWinXo93AqYr6wS8ZcnaBCoGhrL7EtvBMBovdhiUSV9xLhjrPA8t64hYSaMc8bHtWXoV9129EHUjU62", "84AwzjeFWXNEuhj8LWinXo93AqYr6wS8ZcnaBCoGhrL7EtvBMBovdhiUSV9xLhjrPA8t64hYSaMc8bHtWXoV9129EHUjU62"},
		{"Monero/Err/Checksum", Monero, "49HqitRzdnhYjgTEAhgGpCfsjdTeMbUTU6cyR4JV1R7k2Eej9rGT8JpFiYDa4tZM6RZiFrHmMzgSrhHEqpDYKBe5B2ufNsM", ""},
		{"Monero/Err/Truncated", Monero, "49HqitRzdnhYjgTEAhgGpCfsjdTeMbUTU6cyR4JV1R7k2Eej9rGT8JpFiYDa4tZM6RZiFrHmMzgSrhHEqpDYKBe5B2ufNs", ""},
		{"Monero/OK/Hex", Monero, "5BE5543FF73456AB9F2D207887E2AF87322C651EA1A873C5B25B7FFAE456C320", "5be5543ff73456ab9f2d207887e2af87322c651ea1a873c5b25b7ffae456c320"},
		{"BNBBeacon/OK", BNBBeacon, "BNB136NS6LFW4ZS5HG4N85VDTHAAD7HQ5M4GTKGF23", "bnb136ns6lfw4zs5hg4n85vdthaad7hq5m4gtkgf23"},
		{"BNBBeacon/Err/Checksum", BNBBeacon, "bnb136ns6lfw4zs5hg4n85vdthaad7hq5m4gtkgf24", ""},
		{"Unknown/Err", Family("cardano"), "addr1v8", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, st := Normalize(tc.f, tc.in)
			wantSt := StatusOK
			if tc.want == "" {
				wantSt = StatusInvalid
			}
			if c != tc.want || st != wantSt {
				t.Fatalf("Normalize(%s, %s) = %q, %s; want %q, %s", tc.f, tc.in, c, st, tc.want, wantSt)
			}
		})
	}
}
