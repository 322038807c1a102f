package screening

// Bech32 and bech32m as specified by BIP-173 and BIP-350.

const bech32Charset = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"

// bech32Rev maps a lower-case charset byte to its 5-bit value, -1 otherwise.
var bech32Rev = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for i := 0; i < len(bech32Charset); i++ {
		t[bech32Charset[i]] = int8(i)
	}
	return t
}()

// bech32Variant is the checksum constant that distinguishes the encodings.
type bech32Variant uint32

const (
	variantBech32  bech32Variant = 1
	variantBech32m bech32Variant = 0x2bc830a3
)

// bech32MaxLen is the BIP-173 length limit.
const bech32MaxLen = 90

var bech32Gen = [5]uint64{0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3}

func bech32Polymod(c uint32, v byte) uint32 {
	return uint32(polymodStep(uint64(c), v, 25, &bech32Gen))
}

// polymodStep is one step of a BCH checksum over 5-bit symbols (bech32,
// cashaddr) whose state has top bits: shift d in and add the generator of
// each of the 5 bits shifted out.
func polymodStep(c uint64, d byte, top uint, gen *[5]uint64) uint64 {
	out := c >> top
	c = (c&(1<<top-1))<<5 ^ uint64(d)
	for i, g := range gen {
		c ^= g & -(out >> i & 1)
	}
	return c
}

// bech32Decode checks s and returns its human-readable part (lower-case, a
// substring of s only when s is lower-case), its data part without checksum
// as 5-bit values in out, the checksum variant and whether s was upper-case.
// Mixed case is invalid (BIP-173).
func bech32Decode(s string, out *[bech32MaxLen]byte) (hrpLen, n int, v bech32Variant, upper, ok bool) {
	if len(s) < 8 || len(s) > bech32MaxLen {
		return 0, 0, 0, false, false
	}
	var lower, up bool
	sep := -1
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c < 33 || c > 126:
			return 0, 0, 0, false, false
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= 'A' && c <= 'Z':
			up = true
		case c == '1':
			sep = i
		}
	}
	if lower && up {
		return 0, 0, 0, false, false
	}
	if sep < 1 || sep+7 > len(s) {
		return 0, 0, 0, false, false
	}
	c := uint32(1)
	for i := 0; i < sep; i++ {
		c = bech32Polymod(c, toLowerASCII(s[i])>>5)
	}
	c = bech32Polymod(c, 0)
	for i := 0; i < sep; i++ {
		c = bech32Polymod(c, toLowerASCII(s[i])&31)
	}
	data := len(s) - sep - 1
	for i := sep + 1; i < len(s); i++ {
		d := bech32Rev[toLowerASCII(s[i])]
		if d < 0 {
			return 0, 0, 0, false, false
		}
		c = bech32Polymod(c, byte(d))
		if i < len(s)-6 {
			out[i-sep-1] = byte(d)
		}
	}
	switch bech32Variant(c) {
	case variantBech32, variantBech32m:
		return sep, data - 6, bech32Variant(c), up, true
	}
	return 0, 0, 0, false, false
}

// convertBits5to8 regroups 5-bit values into bytes. Padding must be fewer
// than 5 bits and zero, as BIP-173 requires of a decoder.
func convertBits5to8(in []byte, out []byte) (int, bool) {
	acc, bits, n := uint32(0), uint(0), 0
	for _, v := range in {
		acc = acc<<5 | uint32(v)
		bits += 5
		for bits >= 8 {
			bits -= 8
			if n == len(out) {
				return 0, false
			}
			out[n] = byte(acc >> bits)
			n++
		}
	}
	if bits >= 5 || acc&(1<<bits-1) != 0 {
		return 0, false
	}
	return n, true
}

// hrpIs reports whether the first len(hrp) bytes of s equal the lower-case
// hrp, ignoring the case of s.
func hrpIs(s string, hrpLen int, hrp string) bool {
	if hrpLen != len(hrp) {
		return false
	}
	for i := 0; i < hrpLen; i++ {
		if toLowerASCII(s[i]) != hrp[i] {
			return false
		}
	}
	return true
}

// segwitValid reports whether s is a valid segregated witness address with
// the given human-readable part (BIP-173 as amended by BIP-350).
func segwitValid(s, hrp string) (upper, ok bool) {
	var d [bech32MaxLen]byte
	hl, n, v, up, ok := bech32Decode(s, &d)
	if !ok || n < 1 || !hrpIs(s, hl, hrp) {
		return false, false
	}
	ver := d[0]
	if ver > 16 || (ver == 0) != (v == variantBech32) {
		return false, false
	}
	var prog [bech32MaxLen]byte
	pl, ok := convertBits5to8(d[1:n], prog[:40])
	if !ok || pl < 2 || pl > 40 || (ver == 0 && pl != 20 && pl != 32) {
		return false, false
	}
	return up, true
}

// bech32DataValid reports whether s is a plain (not segwit) bech32 string of
// the given variant and human-readable part whose data is size bytes.
func bech32DataValid(s, hrp string, want bech32Variant, size int) (upper, ok bool) {
	var d [bech32MaxLen]byte
	hl, n, v, up, ok := bech32Decode(s, &d)
	if !ok || v != want || !hrpIs(s, hl, hrp) {
		return false, false
	}
	var b [bech32MaxLen]byte
	bl, ok := convertBits5to8(d[:n], b[:])
	if !ok || bl != size {
		return false, false
	}
	return up, true
}

func toLowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
