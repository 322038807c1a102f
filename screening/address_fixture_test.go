package screening

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// misfiled lists the fixture addresses that OFAC files under a ticker whose
// format they do not have, with the family their format gives.
var misfiled = map[string]Family{
	"TUCsTq7TofTCJRRoHk6RvhMoS2mJLm5Yzq": Tron, // under XBT
}

// TestFixtureListsNormalise checks every address of every real OFAC list in
// testdata: it must normalise as valid under the ticker of its file, in one
// of the ticker's families, to the canonical form the issue states, and the
// canonical form must be a fixed point.
func TestFixtureListsNormalise(t *testing.T) {
	files, err := filepath.Glob("testdata/*/sanctioned_addresses_*.txt")
	if err != nil || len(files) < 30 {
		t.Fatalf("fixture lists: %d files, err %v", len(files), err)
	}
	total := 0
	for _, file := range files {
		ticker := strings.TrimPrefix(filepath.Base(file), "sanctioned_addresses_")
		ticker, _, _ = strings.Cut(ticker, ".")
		t.Run(filepath.Base(filepath.Dir(file))+"/"+ticker, func(t *testing.T) {
			addrs := readList(t, file)
			if len(addrs) == 0 {
				t.Fatal("empty list")
			}
			for _, addr := range addrs {
				total++
				f, canon, err := NormalizeForTicker(ticker, addr)
				if err != nil {
					t.Errorf("%s: %v", addr, err)
					continue
				}
				if want, ok := misfiled[addr]; ok {
					if f != want {
						t.Errorf("%s: family %s, want %s", addr, f, want)
					}
				} else if !slices.Contains(TickerFamilies(ticker), f) {
					t.Errorf("%s: family %s not among %v", addr, f, TickerFamilies(ticker))
				}
				if c, st := Normalize(f, addr); st != StatusOK || c != canon {
					t.Errorf("Normalize(%s, %s) = %q, %s; want %q, ok", f, addr, c, st, canon)
				}
				if want := wantCanonical(f, addr); want != "" && canon != want {
					t.Errorf("%s: canonical %q, want %q", addr, canon, want)
				}
				if c, st := Normalize(f, canon); st != StatusOK || c != canon {
					t.Errorf("%s: canonical %q renormalises to %q, %s", addr, canon, c, st)
				}
			}
		})
	}
	if total < 1400 {
		t.Errorf("checked %d addresses, want all of them (>= 1400)", total)
	}
}

// wantCanonical states the canonical form independently of the code under
// test, or "" where only a conversion can say (legacy Bitcoin Cash).
func wantCanonical(f Family, addr string) string {
	lower := strings.ToLower(addr)
	switch {
	case f == EVM:
		return lower
	case f == BitcoinCash:
		if addr[0] == '1' || addr[0] == '3' {
			return ""
		}
		return strings.TrimPrefix(lower, "bitcoincash:")
	case f == Monero && len(addr) == 64:
		return lower
	}
	for _, hrp := range []string{"bc1", "ltc1", "btg1", "zs1", "tex1", "bnb1"} {
		if strings.HasPrefix(lower, hrp) {
			return lower
		}
	}
	return addr
}

// readList reads the non-blank lines of a list file, trimmed.
func readList(t *testing.T, file string) []string {
	t.Helper()
	fh, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var out []string
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			out = append(out, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestFixtureSameAddressAcrossEVMAssets checks the fixture's own edge cases:
// an address listed under several EVM assets is one key.
func TestFixtureSameAddressAcrossEVMAssets(t *testing.T) {
	const addr = "0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c" // ETH, ARB and BSC
	for _, ticker := range []string{"ETH", "ARB", "BSC", "USDT", "USDC", "ETC", "BNB"} {
		t.Run(ticker, func(t *testing.T) {
			f, c, err := NormalizeForTicker(ticker, strings.ToUpper(addr[2:]))
			if err != nil || f != EVM || c != addr {
				t.Fatalf("got %s %q %v, want evm %q", f, c, err, addr)
			}
		})
	}
	for _, chain := range []string{"ethereum", "bsc", "arbitrum", "polygon", "base", "optimism", "avalanche", "ethereum-classic"} {
		t.Run(chain, func(t *testing.T) {
			f, err := ChainFamily(chain)
			if err != nil || f != EVM {
				t.Fatalf("ChainFamily(%q) = %s, %v", chain, f, err)
			}
		})
	}
}
