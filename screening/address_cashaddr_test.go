package screening

import (
	"encoding/hex"
	"strings"
	"testing"
)

// Vectors of the cashaddr specification: every type and hash size.
var cashaddrVectors = []struct {
	addr string
	typ  byte
	hash string
}{
	{"bitcoincash:qr6m7j9njldwwzlg9v7v53unlr4jkmx6eylep8ekg2", 0, "F5BF48B397DAE70BE82B3CCA4793F8EB2B6CDAC9"},
	{"bchtest:pr6m7j9njldwwzlg9v7v53unlr4jkmx6eyvwc0uz5t", 1, "F5BF48B397DAE70BE82B3CCA4793F8EB2B6CDAC9"},
	{"pref:pr6m7j9njldwwzlg9v7v53unlr4jkmx6ey65nvtks5", 1, "F5BF48B397DAE70BE82B3CCA4793F8EB2B6CDAC9"},
	{"prefix:0r6m7j9njldwwzlg9v7v53unlr4jkmx6ey3qnjwsrf", 15, "F5BF48B397DAE70BE82B3CCA4793F8EB2B6CDAC9"},
	{"bitcoincash:q9adhakpwzztepkpwp5z0dq62m6u5v5xtyj7j3h2ws4mr9g0", 0, "7ADBF6C17084BC86C1706827B41A56F5CA32865925E946EA"},
	{"bchtest:p9adhakpwzztepkpwp5z0dq62m6u5v5xtyj7j3h2u94tsynr", 1, "7ADBF6C17084BC86C1706827B41A56F5CA32865925E946EA"},
	{"pref:p9adhakpwzztepkpwp5z0dq62m6u5v5xtyj7j3h2khlwwk5v", 1, "7ADBF6C17084BC86C1706827B41A56F5CA32865925E946EA"},
	{"prefix:09adhakpwzztepkpwp5z0dq62m6u5v5xtyj7j3h2p29kc2lp", 15, "7ADBF6C17084BC86C1706827B41A56F5CA32865925E946EA"},
	{"bitcoincash:qgagf7w02x4wnz3mkwnchut2vxphjzccwxgjvvjmlsxqwkcw59jxxuz", 0, "3A84F9CF51AAE98A3BB3A78BF16A6183790B18719126325BFC0C075B"},
	{"bchtest:pgagf7w02x4wnz3mkwnchut2vxphjzccwxgjvvjmlsxqwkcvs7md7wt", 1, "3A84F9CF51AAE98A3BB3A78BF16A6183790B18719126325BFC0C075B"},
	{"prefix:0gagf7w02x4wnz3mkwnchut2vxphjzccwxgjvvjmlsxqwkc5djw8s9g", 15, "3A84F9CF51AAE98A3BB3A78BF16A6183790B18719126325BFC0C075B"},
	{"bitcoincash:qvch8mmxy0rtfrlarg7ucrxxfzds5pamg73h7370aa87d80gyhqxq5nlegake", 0, "3173EF6623C6B48FFD1A3DCC0CC6489B0A07BB47A37F47CFEF4FE69DE825C060"},
	{"bchtest:pvch8mmxy0rtfrlarg7ucrxxfzds5pamg73h7370aa87d80gyhqxq7fqng6m6", 1, "3173EF6623C6B48FFD1A3DCC0CC6489B0A07BB47A37F47CFEF4FE69DE825C060"},
	{"bitcoincash:qnq8zwpj8cq05n7pytfmskuk9r4gzzel8qtsvwz79zdskftrzxtar994cgutavfklv39gr3uvz", 0, "C07138323E00FA4FC122D3B85B9628EA810B3F381706385E289B0B25631197D194B5C238BEB136FB"},
	{"bitcoincash:qh3krj5607v3qlqh5c3wq3lrw3wnuxw0sp8dv0zugrrt5a3kj6ucysfz8kxwv2k53krr7n933jfsunqex2w82sl", 0, "E361CA9A7F99107C17A622E047E3745D3E19CF804ED63C5C40C6BA763696B98241223D8CE62AD48D863F4CB18C930E4C"},
	{"bitcoincash:qmvl5lzvdm6km38lgga64ek5jhdl7e3aqd9895wu04fvhlnare5937w4ywkq57juxsrhvw8ym5d8qx7sz7zz0zvcypqscw8jd03f", 0, "D9FA7C4C6EF56DC4FF423BAAE6D495DBFF663D034A72D1DC7D52CBFE7D1E6858F9D523AC0A7A5C34077638E4DD1A701BD017842789982041"},
	{"prefix:0lg0x333p4238k0qrc5ej7rzfw5g8e4a4r6vvzyrcy8j3s5k0en7calvclhw46hudk5flttj6ydvjc0pv3nchp52amk97tqa5zygg96ms92w6845", 15, "D0F346310D5513D9E01E299978624BA883E6BDA8F4C60883C10F28C2967E67EC77ECC7EEEAEAFC6DA89FAD72D11AC961E164678B868AEEEC5F2C1DA08884175B"},
}

func TestCashaddrSpecVectors(t *testing.T) {
	for _, v := range cashaddrVectors {
		t.Run(v.addr, func(t *testing.T) {
			prefix, payload, _ := strings.Cut(v.addr, ":")
			var buf [cashaddrMax]byte
			p, a, ok := cashaddrDecode(v.addr, "unused", &buf)
			if !ok || p != prefix || a.typ != v.typ || !strings.EqualFold(hex.EncodeToString(a.hash), v.hash) {
				t.Fatalf("decode = %q %d %x %v", p, a.typ, a.hash, ok)
			}
			if _, _, ok := cashaddrDecode(payload, prefix, &buf); !ok {
				t.Fatal("prefix-less decode with the right default prefix failed")
			}
			if _, _, ok := cashaddrDecode(payload, prefix+"x", &buf); ok {
				t.Fatal("prefix-less decode accepted a wrong prefix")
			}
			h, _ := hex.DecodeString(v.hash)
			if got := string(cashaddrAppend(nil, prefix, v.typ, h)); got != payload {
				t.Fatalf("encode = %s, want %s", got, payload)
			}
		})
	}
}

func TestBitcoinCashNormalize(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		// Legacy translations from the cashaddr specification.
		{"OK/LegacyP2PKH1", "1BpEi6DfDAUFd7GtittLSdBeYJvcoaVggu", "qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a"},
		{"OK/LegacyP2PKH2", "1KXrWXciRDZUpQwQmuM1DbwsKDLYAYsVLR", "qr95sy3j9xwd2ap32xkykttr4cvcu7as4y0qverfuy"},
		{"OK/LegacyP2PKH3", "16w1D5WRVKJuZUsSRzdLp9w3YGcgoxDXb", "qqq3728yw0y47sqn6l2na30mcw6zm78dzqre909m2r"},
		{"OK/LegacyP2SH1", "3CWFddi6m4ndiGyKqzYvsFYagqDLPVMTzC", "ppm2qsznhks23z7629mms6s4cwef74vcwvn0h829pq"},
		{"OK/LegacyP2SH2", "3LDsS579y7sruadqu11beEJoTjdFiFCdX4", "pr95sy3j9xwd2ap32xkykttr4cvcu7as4yc93ky28e"},
		{"OK/LegacyP2SH3", "31nwvkZwyPdgzjBJZXfDmSWsC4ZLKpYyUw", "pqq3728yw0y47sqn6l2na30mcw6zm78dzq5ucqzc37"},
		{"OK/Prefixed", "bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a", "qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a"},
		{"OK/Upper", "BITCOINCASH:QPM2QSZNHKS23Z7629MMS6S4CWEF74VCWVY22GDX6A", "qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a"},
		{"OK/UpperBare", "QPM2QSZNHKS23Z7629MMS6S4CWEF74VCWVY22GDX6A", "qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a"},
		{"OK/Canonical", "qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a", "qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a"},
		// CashTokens token-aware forms of the spec's first vector.
		{"OK/TokenAwareP2PKH", "bitcoincash:zr6m7j9njldwwzlg9v7v53unlr4jkmx6eycnjehshe", "qr6m7j9njldwwzlg9v7v53unlr4jkmx6eylep8ekg2"},
		{"Err/Testnet", "bchtest:pr6m7j9njldwwzlg9v7v53unlr4jkmx6eyvwc0uz5t", ""},
		{"Err/OtherPrefix", "pref:pr6m7j9njldwwzlg9v7v53unlr4jkmx6ey65nvtks5", ""},
		{"Err/Type15", "prefix:0r6m7j9njldwwzlg9v7v53unlr4jkmx6ey3qnjwsrf", ""},
		{"Err/P2PKH24", "bitcoincash:q9adhakpwzztepkpwp5z0dq62m6u5v5xtyj7j3h2ws4mr9g0", ""},
		{"Err/Checksum", "bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6b", ""},
		{"Err/MixedCase", "bitcoincash:Qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a", ""},
		{"Err/TwoColons", "bitcoincash::qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a", ""},
		{"Err/LegacyLitecoin", "LNf2JDiuunBz7GMDKFYHN4rq5meXWxiwfb", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, st := Normalize(BitcoinCash, tc.in)
			wantSt := StatusOK
			if tc.want == "" {
				wantSt = StatusInvalid
			}
			if c != tc.want || st != wantSt {
				t.Fatalf("Normalize(%s) = %q, %s; want %q, %s", tc.in, c, st, tc.want, wantSt)
			}
		})
	}
}
