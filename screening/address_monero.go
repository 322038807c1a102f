package screening

import "math/bits"

// Monero addresses use base58 in blocks: every 8 bytes become exactly 11
// characters and a final partial block of k bytes becomes moneroBlockLen[k]
// characters. The last 4 bytes are the first 4 of the Keccak-256 of the rest.

var moneroBlockLen = [9]int{0, 2, 3, 5, 6, 7, 9, 10, 11}

// Mainnet network bytes (one-byte varints): standard, integrated, subaddress.
const (
	moneroStandard   = 18
	moneroIntegrated = 19
	moneroSubaddress = 42
)

// moneroDecode decodes s into out and returns the byte count.
func moneroDecode(s string, out *[maxDecoded]byte) (int, bool) {
	full, rem := len(s)/11, len(s)%11
	last := -1
	for k, l := range moneroBlockLen {
		if l == rem {
			last = k
		}
	}
	if last < 0 || full*8+last > maxDecoded {
		return 0, false
	}
	n := 0
	for b := 0; b <= full; b++ {
		size, chars := 8, 11
		if b == full {
			size, chars = last, rem
		}
		block := s[b*11 : b*11+chars]
		var v uint64
		for i := 0; i < len(block); i++ {
			d := bitcoinAlphabet.index[block[i]]
			if d < 0 {
				return 0, false
			}
			hi, lo := bits.Mul64(v, 58)
			lo, carry := bits.Add64(lo, uint64(d), 0)
			if hi != 0 || carry != 0 {
				return 0, false
			}
			v = lo
		}
		if size < 8 && v>>(8*size) != 0 {
			return 0, false
		}
		for i := size - 1; i >= 0; i-- {
			out[n+i] = byte(v)
			v >>= 8
		}
		n += size
	}
	return n, true
}

// moneroValid reports whether s is a mainnet standard address, subaddress or
// integrated address with a correct checksum.
func moneroValid(s string) bool {
	var b [maxDecoded]byte
	n, ok := moneroDecode(s, &b)
	if !ok {
		return false
	}
	switch {
	case n == 69 && (b[0] == moneroStandard || b[0] == moneroSubaddress):
	case n == 77 && b[0] == moneroIntegrated:
	default:
		return false
	}
	sum := keccak256(b[:n-4])
	return sum[0] == b[n-4] && sum[1] == b[n-3] && sum[2] == b[n-2] && sum[3] == b[n-1]
}
