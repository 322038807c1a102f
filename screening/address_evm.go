package screening

// EVM addresses: 20 bytes as 40 hex digits after "0x". The canonical form is
// all lower-case. A mixed-case address carries an EIP-55 checksum in the case
// of its letters; an all-lower or all-upper address carries none.

// evmNormalize returns the canonical form of s. It allocates only when s is
// not already canonical.
//
// On StatusBadChecksum the canonical form is still returned: the hex is
// well-formed and only its letter case disagrees with EIP-55, so screening
// looks the address up anyway and a listed address never screens clear
// because of its case.
func evmNormalize(s string) (string, Status) {
	hex := s
	prefixed := false
	if len(s) == 42 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		hex, prefixed = s[2:], true
	}
	if len(hex) != 40 {
		return "", StatusInvalid
	}
	var upper, lower bool
	for i := 0; i < 40; i++ {
		switch c := hex[i]; {
		case c >= '0' && c <= '9':
		case c >= 'a' && c <= 'f':
			lower = true
		case c >= 'A' && c <= 'F':
			upper = true
		default:
			return "", StatusInvalid
		}
	}
	if !upper && prefixed && s[1] == 'x' {
		return s, StatusOK
	}
	var buf [42]byte
	buf[0], buf[1] = '0', 'x'
	for i := 0; i < 40; i++ {
		buf[2+i] = toLowerASCII(hex[i])
	}
	status := StatusOK
	if upper && lower && !eip55Valid(hex, buf[2:]) {
		status = StatusBadChecksum
	}
	return string(buf[:]), status
}

// eip55Valid reports whether the letter case of hex matches the EIP-55
// checksum: a letter is upper-case exactly when the matching nibble of
// keccak256(lower-case hex) is 8 or more.
func eip55Valid(hex string, lowerHex []byte) bool {
	sum := keccak256(lowerHex)
	for i := 0; i < 40; i++ {
		c := hex[i]
		if c <= '9' {
			continue
		}
		nibble := sum[i/2]
		if i%2 == 0 {
			nibble >>= 4
		}
		if (nibble&0xf >= 8) != (c <= 'F') {
			return false
		}
	}
	return true
}
