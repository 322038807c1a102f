package screening

import "crypto/sha256"

// maxDecoded bounds every base58 decode. Inputs are at most maxAddressLen
// characters, and 128 base58 digits need at most 94 bytes.
const maxDecoded = 96

// b58Alphabet is one base58 alphabet with its reverse table.
type b58Alphabet struct {
	chars string
	index [256]int8
}

func newB58Alphabet(chars string) *b58Alphabet {
	a := &b58Alphabet{chars: chars}
	for i := range a.index {
		a.index[i] = -1
	}
	for i := 0; i < len(chars); i++ {
		a.index[chars[i]] = int8(i)
	}
	return a
}

var (
	// bitcoinAlphabet is the alphabet of Bitcoin and every coin derived from
	// it, of Tron, Solana and Monero.
	bitcoinAlphabet = newB58Alphabet("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz")
	// rippleAlphabet is the XRP Ledger's own ordering of the same 58 symbols.
	rippleAlphabet = newB58Alphabet("rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz")
)

// decode decodes s into out and returns the byte count. Each leading zero
// digit is one leading zero byte, so a byte string has exactly one encoding
// and a valid address string is its own canonical form.
func (a *b58Alphabet) decode(s string, out *[maxDecoded]byte) (int, bool) {
	if len(s) == 0 || len(s) > maxAddressLen {
		return 0, false
	}
	zeros := 0
	for zeros < len(s) && s[zeros] == a.chars[0] {
		zeros++
	}
	var work [maxDecoded]byte
	size := (len(s)-zeros)*733/1000 + 1 // log(58)/log(256), rounded up
	length := 0
	for i := zeros; i < len(s); i++ {
		carry := int(a.index[s[i]])
		if carry < 0 {
			return 0, false
		}
		n := 0
		for j := size - 1; (carry != 0 || n < length) && j >= 0; j-- {
			carry += 58 * int(work[j])
			work[j] = byte(carry)
			carry >>= 8
			n++
		}
		if carry != 0 {
			return 0, false
		}
		length = n
	}
	start := size - length
	for start < size && work[start] == 0 {
		start++
	}
	total := zeros + size - start
	if total > maxDecoded {
		return 0, false
	}
	for i := 0; i < zeros; i++ {
		out[i] = 0
	}
	copy(out[zeros:], work[start:size])
	return total, true
}

// encode appends the encoding of b to dst.
func (a *b58Alphabet) encode(dst []byte, b []byte) []byte {
	zeros := 0
	for zeros < len(b) && b[zeros] == 0 {
		zeros++
	}
	var work [2 * maxDecoded]byte
	size := (len(b)-zeros)*138/100 + 1 // log(256)/log(58), rounded up
	length := 0
	for _, c := range b[zeros:] {
		carry := int(c)
		n := 0
		for j := size - 1; (carry != 0 || n < length) && j >= 0; j-- {
			carry += 256 * int(work[j])
			work[j] = byte(carry % 58)
			carry /= 58
			n++
		}
		length = n
	}
	for i := 0; i < zeros; i++ {
		dst = append(dst, a.chars[0])
	}
	start := size - length
	for start < size && work[start] == 0 {
		start++
	}
	for _, d := range work[start:size] {
		dst = append(dst, a.chars[d])
	}
	return dst
}

// decodeCheck decodes a base58check string: payload followed by the first
// four bytes of the double SHA-256 of the payload. It returns the payload
// (version bytes included) as a slice of out.
func (a *b58Alphabet) decodeCheck(s string, out *[maxDecoded]byte) ([]byte, bool) {
	n, ok := a.decode(s, out)
	if !ok || n < 5 {
		return nil, false
	}
	payload := out[:n-4]
	sum := doubleSHA256(payload)
	if sum[0] != out[n-4] || sum[1] != out[n-3] || sum[2] != out[n-2] || sum[3] != out[n-1] {
		return nil, false
	}
	return payload, true
}

// encodeCheck appends the base58check encoding of payload to dst.
func (a *b58Alphabet) encodeCheck(dst []byte, payload []byte) []byte {
	var buf [maxDecoded]byte
	n := copy(buf[:], payload)
	sum := doubleSHA256(payload)
	n += copy(buf[n:], sum[:4])
	return a.encode(dst, buf[:n])
}

func doubleSHA256(b []byte) [32]byte {
	first := sha256.Sum256(b)
	return sha256.Sum256(first[:])
}
