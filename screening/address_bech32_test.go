package screening

import "testing"

// BIP-173 and BIP-350 test vectors.

func TestBech32Strings(t *testing.T) {
	valid := []struct {
		s string
		v bech32Variant
	}{
		{"A12UEL5L", variantBech32},
		{"a12uel5l", variantBech32},
		{"an83characterlonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1tt5tgs", variantBech32},
		{"abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw", variantBech32},
		{"11qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqc8247j", variantBech32},
		{"split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w", variantBech32},
		{"?1ezyfcl", variantBech32},
		{"A1LQFN3A", variantBech32m},
		{"a1lqfn3a", variantBech32m},
		{"an83characterlonghumanreadablepartthatcontainsthetheexcludedcharactersbioandnumber11sg7hg6", variantBech32m},
		{"abcdef1l7aum6echk45nj3s0wdvt2fg8x9yrzpqzd3ryx", variantBech32m},
		{"11llllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllludsr8", variantBech32m},
		{"split1checkupstagehandshakeupstreamerranterredcaperredlc445v", variantBech32m},
		{"?1v759aa", variantBech32m},
	}
	for _, tc := range valid {
		t.Run("OK/"+tc.s, func(t *testing.T) {
			var d [bech32MaxLen]byte
			_, _, v, _, ok := bech32Decode(tc.s, &d)
			if !ok || v != tc.v {
				t.Fatalf("decode: ok=%v variant=%x, want %x", ok, v, tc.v)
			}
		})
	}
	invalid := []string{
		" 1nwldj5", "\x7f1axkwrx", "\x801eym55h",
		"an84characterslonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1569pvx",
		"pzry9x0s0muk", "1pzry9x0s0muk", "x1b4n0q5v", "li1dgmt3", "de1lg7wt\xff", "A1G7SGD8", "10a06t8", "1qzzfhee",
		" 1xj0phk", "\x7f1g6xzxy", "\x801vctc34",
		"an84characterslonghumanreadablepartthatcontainsthetheexcludedcharactersbioandnumber11d6pts4",
		"qyrz8wqd2c9m", "1qyrz8wqd2c9m", "y1b0jsk6g", "lt1igcx5c0", "in1muywd", "mm1crxm3i", "au1s5cgom",
		"M1VUXWEZ", "16plkw9", "1p2gdwpf",
	}
	for _, s := range invalid {
		t.Run("Err/"+s, func(t *testing.T) {
			var d [bech32MaxLen]byte
			if _, _, _, _, ok := bech32Decode(s, &d); ok {
				t.Fatal("accepted")
			}
		})
	}
}

func TestSegwitAddresses(t *testing.T) {
	valid := []struct{ s, hrp string }{
		{"BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4", "bc"},
		{"tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7", "tb"},
		{"bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y", "bc"},
		{"BC1SW50QGDZ25J", "bc"},
		{"bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs", "bc"},
		{"tb1qqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesrxh6hy", "tb"},
		{"tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c", "tb"},
		{"bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0", "bc"},
		{"bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3", "bc"},
	}
	for _, tc := range valid {
		t.Run("OK/"+tc.s, func(t *testing.T) {
			if _, ok := segwitValid(tc.s, tc.hrp); !ok {
				t.Fatal("rejected")
			}
			_, st := Normalize(Bitcoin, tc.s)
			if want := tc.hrp == "bc"; (st == StatusOK) != want {
				t.Fatalf("Normalize(bitcoin) status %s, want ok=%v (mainnet only)", st, want)
			}
		})
	}
	invalid := []string{
		// BIP-350
		"tc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut",
		"bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd",
		"tb1z0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqglt7rf",
		"BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL",
		"bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh",
		"tb1q0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq24jc47",
		"bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4",
		"BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R",
		"bc1pw5dgrnzv",
		"bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav",
		"BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P",
		"tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq",
		"bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf",
		"tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vpggkg4j",
		"bc1gmk9yu",
		// BIP-173
		"tc1qw508d6qejxtdg4y5r3zarvary0c5xw7kg3g4ty",
		"bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5",
		"BC13W508D6QEJXTDG4Y5R3ZARVARY0C5XW7KN40WF2",
		"bc1rw5uspcuh",
		"bc10w508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kw5rljs90",
		"tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sL5k7",
		"bc1zw508d6qejxtdg4y5r3zarvaryvqyzf3du",
		"tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3pjxtptv",
		// BIP-173 valid, but v1+ with a bech32 checksum is invalid since BIP-350
		"bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7k7grplx",
	}
	for _, s := range invalid {
		t.Run("Err/"+s, func(t *testing.T) {
			for _, hrp := range []string{"bc", "tb"} {
				if _, ok := segwitValid(s, hrp); ok {
					t.Fatalf("accepted with hrp %s", hrp)
				}
			}
			if c, st := Normalize(Bitcoin, s); st != StatusInvalid || c != "" {
				t.Fatalf("Normalize = %q, %s", c, st)
			}
		})
	}
}

func TestSegwitCanonicalIsLowerCase(t *testing.T) {
	c, st := Normalize(Bitcoin, "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4")
	if st != StatusOK || c != "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4" {
		t.Fatalf("got %q, %s", c, st)
	}
}
