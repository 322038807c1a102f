package screening

import (
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
)

func TestChainFamily(t *testing.T) {
	tests := []struct {
		chain string
		want  Family
	}{
		{"ethereum", EVM}, {"ETH", EVM}, {"bsc", EVM}, {"bnb", EVM}, {"binance-smart-chain", EVM},
		{"matic", EVM}, {"Polygon", EVM}, {"avax", EVM}, {"avalanche", EVM}, {"arb", EVM},
		{"arbitrum", EVM}, {"op", EVM}, {"optimism", EVM}, {"base", EVM}, {"etc", EVM},
		{"ethereum-classic", EVM}, {"ethereum_classic", EVM}, {" Ethereum Classic ", EVM},
		{"bitcoin", Bitcoin}, {"BTC", Bitcoin}, {"xbt", Bitcoin},
		{"litecoin", Litecoin}, {"ltc", Litecoin},
		{"bitcoin-cash", BitcoinCash}, {"bch", BitcoinCash},
		{"bsv", BitcoinSV}, {"btg", BitcoinGold}, {"doge", Dogecoin}, {"dogecoin", Dogecoin},
		{"dash", Dash}, {"zec", Zcash}, {"zcash", Zcash}, {"xmr", Monero}, {"monero", Monero},
		{"trx", Tron}, {"tron", Tron}, {"sol", Solana}, {"solana", Solana},
		{"xrp", Ripple}, {"ripple", Ripple}, {"xvg", Verge}, {"verge", Verge},
		{"bnb-beacon", BNBBeacon},
	}
	for _, tc := range tests {
		t.Run("OK/"+tc.chain, func(t *testing.T) {
			f, err := ChainFamily(tc.chain)
			if err != nil || f != tc.want {
				t.Fatalf("ChainFamily(%q) = %s, %v; want %s", tc.chain, f, err, tc.want)
			}
			if !f.Valid() {
				t.Fatalf("%s is not Valid", f)
			}
		})
	}
	for _, chain := range []string{"", "cardano", "ethereum2", "bitcoin-cash-abc", strings.Repeat("x", 500), "eth\x00"} {
		t.Run("ErrUnknown/"+chain[:min(len(chain), 20)], func(t *testing.T) {
			f, err := ChainFamily(chain)
			if f != "" || !cairn.IsCode(err, cairn.EINVALID) {
				t.Fatalf("ChainFamily = %s, %v; want EINVALID", f, err)
			}
			msg := cairn.ErrorMessage(err)
			if !strings.Contains(msg, "unknown chain") || len(msg) > 100 ||
				!strings.Contains(msg, strings.TrimRight(chain[:min(len(chain), 20)], "\x00")) {
				t.Fatalf("message %q does not name the chain", msg)
			}
		})
	}
}

func TestTickerFamilies(t *testing.T) {
	// Every "Digital Currency Address - XXX" feature type of SDN_ADVANCED.XML
	// (2025-11-19), plus DOGE.
	ofac := []string{"XBT", "ETH", "XMR", "LTC", "ZEC", "DASH", "BTG", "ETC", "BSV", "BCH",
		"XVG", "USDT", "XRP", "BNB", "TRX", "USDC", "ARB", "BSC", "SOL", "DOGE"}
	for _, tk := range ofac {
		t.Run(tk, func(t *testing.T) {
			fs := TickerFamilies(tk)
			if len(fs) == 0 {
				t.Fatal("no family")
			}
			if lower := TickerFamilies(strings.ToLower(tk)); len(lower) != len(fs) {
				t.Fatalf("lower-case ticker gives %v", lower)
			}
			for _, f := range fs {
				if !f.Valid() {
					t.Fatalf("invalid family %s", f)
				}
			}
		})
	}
	if fs := TickerFamilies("ADA"); fs != nil {
		t.Errorf("unknown ticker gave %v", fs)
	}
	if _, _, err := NormalizeForTicker("ADA", "x"); !cairn.IsCode(err, cairn.EINVALID) {
		t.Errorf("unknown ticker: %v", err)
	}
}

func TestNormalizeForTickerFormatDecides(t *testing.T) {
	tests := []struct {
		ticker, addr string
		f            Family
		want         string
	}{
		{"USDT", "0x175d44451403Edf28469dF03A9280c1197ADb92c", EVM, "0x175d44451403edf28469df03a9280c1197adb92c"},
		{"USDT", "TEAqwfMhXLaomXhZ8KeMhx3njGmQEDnsUR", Tron, "TEAqwfMhXLaomXhZ8KeMhx3njGmQEDnsUR"},
		{"USDT", "16iWn2J1McqjToYLHSsAyS6En3QA8YQ91H", Bitcoin, "16iWn2J1McqjToYLHSsAyS6En3QA8YQ91H"},
		{"BNB", "bnb136ns6lfw4zs5hg4n85vdthaad7hq5m4gtkgf23", BNBBeacon, "bnb136ns6lfw4zs5hg4n85vdthaad7hq5m4gtkgf23"},
		{"BCH", "18M8bJWMzWHDBMxoLqjHHAffdRy4SrzkfB", BitcoinCash, ""},
		{"XBT", "TUCsTq7TofTCJRRoHk6RvhMoS2mJLm5Yzq", Tron, "TUCsTq7TofTCJRRoHk6RvhMoS2mJLm5Yzq"},
		// A listed EVM address whose case breaks EIP-55 is still indexed.
		{"ETH", "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", EVM, "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"},
	}
	for _, tc := range tests {
		t.Run(tc.ticker+"/"+tc.addr, func(t *testing.T) {
			f, c, err := NormalizeForTicker(tc.ticker, tc.addr)
			if err != nil || f != tc.f || tc.want != "" && c != tc.want {
				t.Fatalf("got %s %q %v; want %s %q", f, c, err, tc.f, tc.want)
			}
		})
	}
	if _, _, err := NormalizeForTicker("ETH", "0x1234"); !cairn.IsCode(err, cairn.EINVALID) {
		t.Errorf("invalid listed address: %v", err)
	}
}

// TestBitcoinCashLegacyMatchesCashaddr checks that both notations of a
// listed Bitcoin Cash address give one key.
func TestBitcoinCashLegacyMatchesCashaddr(t *testing.T) {
	legacy, _ := Normalize(BitcoinCash, "1BpEi6DfDAUFd7GtittLSdBeYJvcoaVggu")
	cash, _ := Normalize(BitcoinCash, "bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a")
	if legacy == "" || legacy != cash {
		t.Fatalf("legacy %q, cashaddr %q", legacy, cash)
	}
}
