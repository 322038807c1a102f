package merkle

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math/big"
	"strings"

	"github.com/cairn-dev/cairn"
)

// Supported leaf encoding types. abi.encode of a tuple of these is what a
// StandardMerkleTree leaf hashes; the encoder is checked byte for byte
// against go-ethereum's accounts/abi in the tests.
const (
	TypeString  = "string"
	TypeBytes   = "bytes"
	TypeAddress = "address"
	TypeUint256 = "uint256"
	TypeBytes32 = "bytes32"
	TypeBool    = "bool"
)

// checkTypes rejects an empty or unsupported leaf encoding.
func checkTypes(types []string) error {
	if len(types) == 0 {
		return cairn.Errorf(cairn.EINVALID, "merkle: empty leaf encoding")
	}
	for _, t := range types {
		switch t {
		case TypeString, TypeBytes, TypeAddress, TypeUint256, TypeBytes32, TypeBool:
		default:
			return cairn.Errorf(cairn.EINVALID, "merkle: unsupported leaf type %q", clip(t))
		}
	}
	return nil
}

// AbiEncode appends abi.encode(values) for the given types to dst: one
// 32-byte head word per value (the value itself, or for string and bytes
// the offset of its tail), then the tails (length word and the data padded
// to 32 bytes). Accepted Go values per type:
//
//	string  string
//	bytes   []byte, or a 0x-prefixed hex string
//	address [20]byte, or a 0x-prefixed 40-digit hex string (any case, no checksum check)
//	uint256 *big.Int, uint64, int (>= 0), or a decimal or 0x-hex string, or json.Number
//	bytes32 Hash, [32]byte, or a 0x-prefixed 64-digit hex string
//	bool    bool
func AbiEncode(dst []byte, types []string, values []any) ([]byte, error) {
	if err := checkTypes(types); err != nil {
		return dst, err
	}
	if len(values) != len(types) {
		return dst, cairn.Errorf(cairn.EINVALID, "merkle: %d values for %d leaf types", len(values), len(types))
	}
	base := len(dst)
	head := 32 * len(types)
	dst = append(dst, make([]byte, head)...)
	for i, t := range types {
		w := dst[base+32*i : base+32*i+32]
		var err error
		switch t {
		case TypeString, TypeBytes:
			var p []byte
			if p, err = dynamicBytes(t, values[i]); err == nil {
				putUint(w, uint64(len(dst)-base))
				dst = appendTail(dst, p)
			}
		default:
			err = staticWord(w, t, values[i])
		}
		if err != nil {
			return dst[:base], cairn.Errorf(cairn.EINVALID, "merkle: value %d (%s): %s", i, t, err.Error())
		}
	}
	return dst, nil
}

func putUint(w []byte, v uint64) {
	clear(w)
	binary.BigEndian.PutUint64(w[24:], v)
}

// appendTail appends the length word and p padded with zeros to 32 bytes.
func appendTail(dst, p []byte) []byte {
	var lw [32]byte
	binary.BigEndian.PutUint64(lw[24:], uint64(len(p)))
	dst = append(dst, lw[:]...)
	dst = append(dst, p...)
	if r := len(p) % 32; r != 0 {
		dst = append(dst, make([]byte, 32-r)...)
	}
	return dst
}

func dynamicBytes(t string, v any) ([]byte, error) {
	switch x := v.(type) {
	case string:
		if t == TypeString {
			return []byte(x), nil
		}
		return hex0x(x, -1)
	case []byte:
		if t == TypeBytes {
			return x, nil
		}
	}
	return nil, fmt.Errorf("unsupported Go type %T", v)
}

// hex0x decodes a 0x-prefixed hex string of n bytes (any length if n < 0).
func hex0x(s string, n int) ([]byte, error) {
	if !strings.HasPrefix(s, "0x") && !strings.HasPrefix(s, "0X") {
		return nil, fmt.Errorf("%q is not 0x-prefixed hex", clip(s))
	}
	b, err := hex.DecodeString(s[2:])
	if err != nil || (n >= 0 && len(b) != n) {
		return nil, fmt.Errorf("%q is not %d bytes of hex", clip(s), n)
	}
	return b, nil
}

func staticWord(w []byte, t string, v any) error {
	clear(w)
	switch t {
	case TypeBool:
		b, ok := v.(bool)
		if !ok {
			return fmt.Errorf("unsupported Go type %T", v)
		}
		if b {
			w[31] = 1
		}
	case TypeAddress:
		switch x := v.(type) {
		case [20]byte:
			copy(w[12:], x[:])
		case string:
			b, err := hex0x(x, 20)
			if err != nil {
				return err
			}
			copy(w[12:], b)
		default:
			return fmt.Errorf("unsupported Go type %T", v)
		}
	case TypeBytes32:
		switch x := v.(type) {
		case Hash:
			copy(w, x[:])
		case [32]byte:
			copy(w, x[:])
		case string:
			b, err := hex0x(x, 32)
			if err != nil {
				return err
			}
			copy(w, b)
		default:
			return fmt.Errorf("unsupported Go type %T", v)
		}
	case TypeUint256:
		n, err := toUint256(v)
		if err != nil {
			return err
		}
		n.FillBytes(w)
	}
	return nil
}

var maxUint256 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))

func toUint256(v any) (*big.Int, error) {
	var n *big.Int
	switch x := v.(type) {
	case *big.Int:
		n = x
	case uint64:
		n = new(big.Int).SetUint64(x)
	case int:
		n = big.NewInt(int64(x))
	case fmt.Stringer: // json.Number and friends
		return parseUint256(x.String())
	case string:
		return parseUint256(x)
	default:
		return nil, fmt.Errorf("unsupported Go type %T", v)
	}
	if n == nil || n.Sign() < 0 || n.Cmp(maxUint256) > 0 {
		return nil, fmt.Errorf("%v is out of uint256 range", v)
	}
	return n, nil
}

func parseUint256(s string) (*big.Int, error) {
	digits, base := s, 10
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		digits, base = s[2:], 16
	}
	n, ok := new(big.Int), digits != ""
	for i := 0; ok && i < len(digits); i++ {
		c := digits[i]
		ok = c >= '0' && c <= '9' || base == 16 && (c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')
	}
	if ok {
		_, ok = n.SetString(digits, base)
	}
	if !ok || n.Cmp(maxUint256) > 0 {
		return nil, fmt.Errorf("%q is not a uint256", clip(s))
	}
	return n, nil
}
