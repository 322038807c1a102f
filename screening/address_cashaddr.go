package screening

// CashAddr, the Bitcoin Cash address format
// (https://reference.cash/protocol/blockchain/encoding/cashaddr).

const cashaddrMax = 128

var cashGen = [5]uint64{0x98f2bc8e61, 0x79b76d99e2, 0xf33e5fb3c4, 0xae2eabe2a8, 0x1e4f43e470}

func cashPolymod(c uint64, d byte) uint64 { return polymodStep(c, d, 35, &cashGen) }

// cashaddrSizes maps the size bits of the version byte to the hash length.
var cashaddrSizes = [8]int{20, 24, 28, 32, 40, 48, 56, 64}

// cashaddr is a decoded address: the type from the version byte and the
// hash.
type cashaddr struct {
	typ  byte
	hash []byte
}

// cashaddrDecode decodes s, with or without its prefix; a missing prefix is
// defaultPrefix. It returns the prefix that the checksum covers, as written
// (compare it with equalFoldASCII).
func cashaddrDecode(s, defaultPrefix string, buf *[cashaddrMax]byte) (prefix string, a cashaddr, ok bool) {
	if len(s) > cashaddrMax {
		return "", a, false
	}
	var lower, upper bool
	colon := -1
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= 'A' && c <= 'Z':
			upper = true
		case c == ':':
			if colon >= 0 {
				return "", a, false
			}
			colon = i
		case c >= '0' && c <= '9':
		default:
			return "", a, false
		}
	}
	if lower && upper {
		return "", a, false
	}
	c := uint64(1)
	payload := s
	if colon >= 0 {
		if colon == 0 {
			return "", a, false
		}
		for i := 0; i < colon; i++ {
			c = cashPolymod(c, toLowerASCII(s[i])&0x1f)
		}
		payload = s[colon+1:]
		prefix = s[:colon]
	} else {
		for i := 0; i < len(defaultPrefix); i++ {
			c = cashPolymod(c, defaultPrefix[i]&0x1f)
		}
		prefix = defaultPrefix
	}
	c = cashPolymod(c, 0)
	if len(payload) < 8+2 {
		return "", a, false
	}
	var five [cashaddrMax]byte
	for i := 0; i < len(payload); i++ {
		d := bech32Rev[toLowerASCII(payload[i])]
		if d < 0 {
			return "", a, false
		}
		five[i] = byte(d)
		c = cashPolymod(c, byte(d))
	}
	if c^1 != 0 {
		return "", a, false
	}
	n, ok := convertBits5to8(five[:len(payload)-8], buf[:])
	if !ok || n < 1 {
		return "", a, false
	}
	ver := buf[0]
	if ver&0x80 != 0 || cashaddrSizes[ver&7] != n-1 {
		return "", a, false
	}
	return prefix, cashaddr{typ: ver >> 3 & 0x0f, hash: buf[1:n]}, true
}

// cashaddrAppend appends the prefix-less cashaddr encoding of (typ, hash)
// under prefix to dst; hash is 20, 24, 28, 32, 40, 48, 56 or 64 bytes.
func cashaddrAppend(dst []byte, prefix string, typ byte, hash []byte) []byte {
	var ver byte
	for i, n := range cashaddrSizes {
		if n == len(hash) {
			ver = typ<<3 | byte(i)
		}
	}
	var five [cashaddrMax]byte
	acc, bits, n := uint32(ver), uint(8), 0
	for i := 0; ; i++ {
		for bits >= 5 {
			bits -= 5
			five[n] = byte(acc>>bits) & 31
			n++
		}
		if i == len(hash) {
			break
		}
		acc = acc<<8 | uint32(hash[i])
		bits += 8
	}
	if bits > 0 {
		five[n] = byte(acc<<(5-bits)) & 31
		n++
	}
	c := uint64(1)
	for i := 0; i < len(prefix); i++ {
		c = cashPolymod(c, prefix[i]&0x1f)
	}
	c = cashPolymod(c, 0)
	for _, d := range five[:n] {
		c = cashPolymod(c, d)
		dst = append(dst, bech32Charset[d])
	}
	for i := 0; i < 8; i++ {
		c = cashPolymod(c, 0)
	}
	c ^= 1
	for i := 0; i < 8; i++ {
		dst = append(dst, bech32Charset[c>>(5*(7-i))&31])
	}
	return dst
}
