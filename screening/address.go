package screening

import "strings"

// Status is the outcome of normalising one address. It is reported per
// address: an invalid address never fails the batch it came in.
type Status string

const (
	// StatusOK: the address is valid for its family; the canonical form is set.
	StatusOK Status = "ok"
	// StatusInvalid: the address is not a valid address of the family (bad
	// characters, length, version bytes or checksum).
	StatusInvalid Status = "invalid_address"
	// StatusBadChecksum: an EVM address in mixed case whose case is not its
	// EIP-55 checksum. The canonical form is set and should still be screened.
	StatusBadChecksum Status = "bad_checksum"
)

// maxAddressLen bounds the input after trimming. The longest accepted form is
// a prefixed cashaddr of a 64-byte hash (124 characters).
const maxAddressLen = 128

// Normalize validates address as an address of family f and returns its
// canonical form. Surrounding white space is trimmed; any other byte outside
// printable ASCII, white space inside included, makes the address invalid.
// An unknown family yields StatusInvalid. The canonical form is "" unless
// the status is StatusOK or StatusBadChecksum.
//
// Normalize never panics, and it is idempotent: the canonical form of a
// canonical form is itself, with StatusOK. When address is already canonical
// the result shares its memory and nothing is allocated.
func Normalize(f Family, address string) (string, Status) {
	s, ok := trimAddress(address)
	if !ok {
		return "", StatusInvalid
	}
	switch f {
	case EVM:
		return evmNormalize(s)
	case Bitcoin, Litecoin, BitcoinSV, BitcoinGold, Dogecoin, Dash, Verge, Zcash, Tron:
		return utxoNormalize(f, s)
	case BitcoinCash:
		return bchNormalize(s)
	case Monero:
		return moneroNormalize(s)
	case Solana:
		return solanaNormalize(s)
	case Ripple:
		return rippleNormalize(s)
	case BNBBeacon:
		up, ok := bech32DataValid(s, "bnb", variantBech32, 20)
		return bech32Normalize(s, up, ok)
	}
	return "", StatusInvalid
}

// trimAddress trims surrounding white space and rejects empty, overlong and
// non-printable-ASCII input.
func trimAddress(address string) (string, bool) {
	s := address
	if len(s) > 0 && (isSpace(s[0]) || isSpace(s[len(s)-1])) {
		s = strings.TrimSpace(s)
	}
	if len(s) == 0 || len(s) > maxAddressLen {
		return "", false
	}
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] > '~' {
			return "", false
		}
	}
	return s, true
}

func isSpace(c byte) bool { return c <= ' ' || c >= 0x80 }

// bech32Normalize turns the result of a bech32 validity check into the
// lower-case canonical form.
func bech32Normalize(s string, upper, ok bool) (string, Status) {
	if !ok {
		return "", StatusInvalid
	}
	if upper {
		return strings.ToLower(s), StatusOK
	}
	return s, StatusOK
}
