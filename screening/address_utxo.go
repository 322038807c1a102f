package screening

// Base58check version bytes and segwit human-readable parts of the families
// derived from Bitcoin, and of Tron, which uses the same encoding.

// b58Version is one accepted base58check form: its version prefix and the
// length of the hash that follows.
type b58Version struct {
	prefix string
	hash   int
}

type utxoFormat struct {
	versions []b58Version
	hrp      string // segwit human-readable part; "" when the chain has none
}

var utxoFormats = map[Family]utxoFormat{
	// P2PKH 1..., P2SH 3..., segwit bc1...
	Bitcoin: {versions: []b58Version{{"\x00", 20}, {"\x05", 20}}, hrp: "bc"},
	// P2PKH L..., P2SH M... and the older 3..., segwit ltc1...
	Litecoin: {versions: []b58Version{{"\x30", 20}, {"\x32", 20}, {"\x05", 20}}, hrp: "ltc"},
	// Bitcoin SV kept Bitcoin's legacy version bytes and has no segwit.
	BitcoinSV: {versions: []b58Version{{"\x00", 20}, {"\x05", 20}}},
	// P2PKH G..., P2SH A..., segwit btg1...
	BitcoinGold: {versions: []b58Version{{"\x26", 20}, {"\x17", 20}}, hrp: "btg"},
	// P2PKH D..., P2SH 9... or A...
	Dogecoin: {versions: []b58Version{{"\x1e", 20}, {"\x16", 20}}},
	// P2PKH X..., P2SH 7...
	Dash: {versions: []b58Version{{"\x4c", 20}, {"\x10", 20}}},
	// P2PKH D..., P2SH E...
	Verge: {versions: []b58Version{{"\x1e", 20}, {"\x21", 20}}},
	// Transparent t1... (P2PKH) and t3... (P2SH), Sprout shielded zc...
	// (paying key and transmission key). Sapling zs... is bech32, below.
	Zcash: {versions: []b58Version{{"\x1c\xb8", 20}, {"\x1c\xbd", 20}, {"\x16\x9a", 64}}},
	// T...: 0x41 followed by the last 20 bytes of the account's key hash.
	Tron: {versions: []b58Version{{"\x41", 20}}},
}

// utxoNormalize validates s for a family of utxoFormats. Base58 forms are
// canonical as written; bech32 forms are lower-cased.
func utxoNormalize(f Family, s string) (string, Status) {
	form := utxoFormats[f]
	if b58Valid(s, form.versions) {
		return s, StatusOK
	}
	if form.hrp != "" {
		up, ok := segwitValid(s, form.hrp)
		return bech32Normalize(s, up, ok)
	}
	switch f {
	case Zcash:
		// Sapling: bech32 (not bech32m) with 43 bytes (diversifier and
		// transmission key); ZIP-320 TEX: bech32m with a 20-byte key hash.
		if up, ok := bech32DataValid(s, "zs", variantBech32, 43); ok {
			return bech32Normalize(s, up, ok)
		}
		up, ok := bech32DataValid(s, "tex", variantBech32m, 20)
		return bech32Normalize(s, up, ok)
	case Tron:
		return tronHexNormalize(s)
	}
	return "", StatusInvalid
}

// b58Valid reports whether s is base58check with one of the versions.
func b58Valid(s string, versions []b58Version) bool {
	var buf [maxDecoded]byte
	p, ok := bitcoinAlphabet.decodeCheck(s, &buf)
	if !ok {
		return false
	}
	for _, v := range versions {
		if len(p) == len(v.prefix)+v.hash && string(p[:len(v.prefix)]) == v.prefix {
			return true
		}
	}
	return false
}

// tronHexNormalize accepts the hex form of a Tron address ("41" and 40 hex
// digits, as shown by some explorers and APIs) and returns its base58check
// form, the form under which Tron addresses are listed.
func tronHexNormalize(s string) (string, Status) {
	if len(s) != 42 || s[0] != '4' || s[1] != '1' {
		return "", StatusInvalid
	}
	var raw [21]byte
	for i := 0; i < 21; i++ {
		hi, lo := unhex(s[2*i]), unhex(s[2*i+1])
		if hi < 0 || lo < 0 {
			return "", StatusInvalid
		}
		raw[i] = byte(hi<<4 | lo)
	}
	var out [64]byte
	return string(bitcoinAlphabet.encodeCheck(out[:0], raw[:])), StatusOK
}

func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c - 'a' + 10)
	case c >= 'A' && c <= 'F':
		return int(c - 'A' + 10)
	}
	return -1
}
