package screening

// Bitcoin Cash addresses come in two notations for the same locking script:
// the legacy base58check form inherited from Bitcoin (1... and 3...) and
// cashaddr (bitcoincash:q... and bitcoincash:p...). The canonical form is
// cashaddr, lower-case, without its prefix, for both notations: a legacy
// address is converted, so an address listed in one notation matches a query
// in the other. OFAC lists Bitcoin Cash addresses in both notations.
//
// CashTokens token-aware addresses (types 2 and 3, z... and r...) pay to the
// same locking script as types 0 and 1 and are canonicalised to them.
//
// Legacy strings are the same as Bitcoin's and Bitcoin SV's. Families stay
// distinct all the same: OFAC lists each currency's addresses separately (the
// fixture lists under BCH and BSV hold no address of the XBT list), so an
// address matches in the family it was listed in.

const bchPrefix = "bitcoincash"

// Cashaddr types: 0 P2PKH, 1 P2SH, 2 and 3 their token-aware variants.
const (
	cashP2PKH = 0
	cashP2SH  = 1
)

func bchNormalize(s string) (string, Status) {
	var b [maxDecoded]byte
	if p, ok := bitcoinAlphabet.decodeCheck(s, &b); ok && len(p) == 21 && (p[0] == 0x00 || p[0] == 0x05) {
		typ := byte(cashP2PKH)
		if p[0] == 0x05 {
			typ = cashP2SH
		}
		var out [cashaddrMax]byte
		return string(cashaddrAppend(out[:0], bchPrefix, typ, p[1:])), StatusOK
	}
	var buf [cashaddrMax]byte
	prefix, a, ok := cashaddrDecode(s, bchPrefix, &buf)
	if !ok || !equalFoldASCII(prefix, bchPrefix) || a.typ > 3 {
		return "", StatusInvalid
	}
	typ := a.typ & 1
	if typ == cashP2PKH && len(a.hash) != 20 || typ == cashP2SH && len(a.hash) != 20 && len(a.hash) != 32 {
		return "", StatusInvalid
	}
	if a.typ == typ && !hasByte(s, ':') && !hasUpperASCII(s) {
		return s, StatusOK // already canonical
	}
	var out [cashaddrMax]byte
	return string(cashaddrAppend(out[:0], bchPrefix, typ, a.hash)), StatusOK
}

func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if toLowerASCII(a[i]) != toLowerASCII(b[i]) {
			return false
		}
	}
	return true
}

func hasByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

func hasUpperASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' {
			return true
		}
	}
	return false
}
