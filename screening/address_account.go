package screening

// Account-based chains whose addresses are not EVM hex: Solana, XRP Ledger
// and Monero. Their canonical forms are the base58 strings as written.

// solanaNormalize accepts a base58 string that decodes to exactly 32 bytes
// (an ed25519 public key or a program-derived address). Solana addresses have
// no checksum, so this is the whole of what can be checked.
func solanaNormalize(s string) (string, Status) {
	if len(s) < 32 || len(s) > 44 {
		return "", StatusInvalid
	}
	var b [maxDecoded]byte
	if n, ok := bitcoinAlphabet.decode(s, &b); !ok || n != 32 {
		return "", StatusInvalid
	}
	return s, StatusOK
}

// rippleNormalize accepts a classic XRP Ledger address: base58check in the
// ripple alphabet of version 0x00 and a 20-byte account id (r...).
// X-addresses (XLS-5d) are not accepted.
func rippleNormalize(s string) (string, Status) {
	var b [maxDecoded]byte
	p, ok := rippleAlphabet.decodeCheck(s, &b)
	if !ok || len(p) != 21 || p[0] != 0x00 {
		return "", StatusInvalid
	}
	return s, StatusOK
}

// moneroNormalize accepts mainnet standard addresses (4...), subaddresses
// (8...) and integrated addresses (4..., 106 characters), checksum verified.
//
// It also accepts 64 hex digits, lower-cased: OFAC lists one XMR "address"
// in that form (5be5543f...c320 in the SDN list of 2025-11-19), and a query
// of the same value must match it.
func moneroNormalize(s string) (string, Status) {
	if moneroValid(s) {
		return s, StatusOK
	}
	if len(s) != 64 {
		return "", StatusInvalid
	}
	upper := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if unhex(c) < 0 {
			return "", StatusInvalid
		}
		upper = upper || c >= 'A' && c <= 'F'
	}
	if upper {
		var b [64]byte
		for i := 0; i < len(s); i++ {
			b[i] = toLowerASCII(s[i])
		}
		return string(b[:]), StatusOK
	}
	return s, StatusOK
}
