package screening

import (
	"strings"
	"testing"
)

// FuzzNormalize checks, for every family and any input, that Normalize
// never panics, that a valid result is a fixed point (the canonical form of
// the canonical form is itself, with StatusOK), and that the canonical form
// is set exactly when the status says it is.
func FuzzNormalize(f *testing.F) {
	seeds := []string{
		"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
		"0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed",
		"5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED",
		"1BpEi6DfDAUFd7GtittLSdBeYJvcoaVggu",
		"3CWFddi6m4ndiGyKqzYvsFYagqDLPVMTzC",
		"BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4",
		"bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0",
		"bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a",
		"BITCOINCASH:ZR6M7J9NJLDWWZLG9V7V53UNLR4JKMX6EYCNJEHSHE",
		"LNf2JDiuunBz7GMDKFYHN4rq5meXWxiwfb",
		"t1MMXtBrSp1XG38Lx9cePcNUCJj5vdWfUWL",
		"TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
		"41a614f803b6fd780986a42c78ec9c7f77e6ded13c",
		"TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
		"rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh",
		"49HqitRzdnhYjgTEAhgGpCfsjdTeMbUTU6cyR4JV1R7k2Eej9rGT8JpFiYDa4tZM6RZiFrHmMzgSrhHEqpDYKBe5B2ufNsL",
		"5BE5543FF73456AB9F2D207887E2AF87322C651EA1A873C5B25B7FFAE456C320",
		"bnb136ns6lfw4zs5hg4n85vdthaad7hq5m4gtkgf23",
		" \t\u00a0", "", "1", "\xff\xfe", strings.Repeat("1", 200), strings.Repeat("z", 129),
	}
	for i, s := range seeds {
		f.Add(uint8(i), s)
	}
	f.Fuzz(func(t *testing.T, fi uint8, address string) {
		fam := families[int(fi)%len(families)]
		c, st := Normalize(fam, address)
		switch st {
		case StatusOK, StatusBadChecksum:
			if c == "" {
				t.Fatalf("%s %q: status %s with empty canonical form", fam, address, st)
			}
			c2, st2 := Normalize(fam, c)
			if st2 != StatusOK || c2 != c {
				t.Fatalf("%s %q: canonical %q renormalises to %q, %s", fam, address, c, c2, st2)
			}
			if strings.TrimSpace(c) != c || len(c) > maxAddressLen {
				t.Fatalf("%s %q: canonical %q is not trimmed or too long", fam, address, c)
			}
		case StatusInvalid:
			if c != "" {
				t.Fatalf("%s %q: invalid with canonical %q", fam, address, c)
			}
		default:
			t.Fatalf("%s %q: unknown status %q", fam, address, st)
		}
		// The format decides for a ticker; it must agree with Normalize.
		if lf, lc, err := NormalizeForTicker("USDT", address); err == nil {
			if c2, st2 := Normalize(lf, lc); st2 != StatusOK || c2 != lc {
				t.Fatalf("USDT %q: %s %q renormalises to %q, %s", address, lf, lc, c2, st2)
			}
		}
	})
}

// FuzzChainFamily checks that ChainFamily never panics and that every
// failure is a client error.
func FuzzChainFamily(f *testing.F) {
	for _, s := range []string{"ethereum", "Bitcoin Cash", "", "\xff", "bnb_beacon"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, chain string) {
		fam, err := ChainFamily(chain)
		if (err == nil) != fam.Valid() {
			t.Fatalf("ChainFamily(%q) = %q, %v", chain, fam, err)
		}
	})
}
