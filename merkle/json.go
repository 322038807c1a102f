package merkle

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"unicode/utf8"
)

// The dump writer emits exactly what JavaScript's JSON.stringify emits for
// OpenZeppelin's dump object: no spaces, members in the library's order,
// strings escaped as JSON.stringify escapes them (only '"', '\\' and
// control characters; '<', '>', '&', U+2028 and U+2029 stay literal).

func appendJSONString(dst []byte, s string) []byte {
	const hexdigits = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				dst = append(dst, `\ufffd`...)
			} else {
				dst = append(dst, s[i:i+size]...)
			}
			i += size
			continue
		}
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\b':
			dst = append(dst, `\b`...)
		case '\f':
			dst = append(dst, `\f`...)
		case '\n':
			dst = append(dst, `\n`...)
		case '\r':
			dst = append(dst, `\r`...)
		case '\t':
			dst = append(dst, `\t`...)
		default:
			if c < 0x20 {
				dst = append(dst, '\\', 'u', '0', '0', hexdigits[c>>4], hexdigits[c&15])
			} else {
				dst = append(dst, c)
			}
		}
		i++
	}
	return append(dst, '"')
}

func appendJSONHex(dst []byte, b []byte) []byte {
	dst = append(dst, '"', '0', 'x')
	dst = hex.AppendEncode(dst, b)
	return append(dst, '"')
}

func appendJSONStrings(dst []byte, ss []string) []byte {
	dst = append(dst, '[')
	for i, s := range ss {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONString(dst, s)
	}
	return append(dst, ']')
}

// appendJSONValue writes one leaf value element: strings and json.Number
// as they were read; byte values as 0x hex; integers as decimal strings
// (JSON numbers lose precision past 2^53 in JavaScript).
func appendJSONValue(dst []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case string:
		return appendJSONString(dst, x), nil
	case bool:
		return strconv.AppendBool(dst, x), nil
	case json.Number:
		return append(dst, x...), nil
	case *big.Int:
		return appendJSONString(dst, x.String()), nil
	case uint64:
		return appendJSONString(dst, strconv.FormatUint(x, 10)), nil
	case int:
		return appendJSONString(dst, strconv.Itoa(x)), nil
	case []byte:
		return appendJSONHex(dst, x), nil
	case [20]byte:
		return appendJSONHex(dst, x[:]), nil
	case [32]byte:
		return appendJSONHex(dst, x[:]), nil
	case Hash:
		return appendJSONHex(dst, x[:]), nil
	}
	return dst, fmt.Errorf("merkle: cannot dump a value of Go type %T", v)
}

// appendJSONTree writes `"tree":[...]`.
func appendJSONTree(dst []byte, nodes []Hash) []byte {
	dst = append(dst, `"tree":[`...)
	for i := range nodes {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONHex(dst, nodes[i][:])
	}
	return append(dst, ']')
}
