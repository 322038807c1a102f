package compliance

import (
	"unicode/utf8"

	"github.com/cairn-dev/cairn/screening"
)

// The results of a screening are encoded by hand, byte for byte as
// encoding/json encodes []ScreenResult (TestAppendResultsAsMarshal,
// FuzzAppendJSONString): they are most of a screening's JSON, and the
// reflection over every result and the re-validation of each match's
// MarshalJSON output cost more than the screening itself. The bytes are
// the ones resultsHash hashes, so any difference would be a different
// document.

// appendResults appends the JSON array of results, each screened at at.
func appendResults(dst []byte, results []screening.Result, at string) []byte {
	if results == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i := range results {
		if i > 0 {
			dst = append(dst, ',')
		}
		r := &results[i]
		dst = appendJSONString(append(dst, `{"address":`...), r.Address)
		dst = appendJSONString(append(dst, `,"chain":`...), r.Chain)
		dst = appendJSONString(append(dst, `,"status":`...), r.Status)
		dst = appendJSONString(append(dst, `,"family":`...), string(r.Family))
		dst = appendJSONString(append(dst, `,"canonicalAddress":`...), r.Canonical)
		dst = appendJSONString(append(dst, `,"checksum":`...), r.Checksum)
		dst = append(dst, `,"matches":`...)
		if r.Matches == nil {
			dst = append(dst, "null"...)
		} else {
			dst = append(dst, '[')
			for j := range r.Matches {
				if j > 0 {
					dst = append(dst, ',')
				}
				dst = appendMatch(dst, &r.Matches[j])
			}
			dst = append(dst, ']')
		}
		dst = appendJSONString(append(dst, `,"screenedAt":`...), at)
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

// appendMatch appends m as screening.Match.MarshalJSON writes it: the
// entity's id and name null when empty, the programs only when there are
// some (a match without programs is the bytes it was before they were
// kept, so resultsHash is unchanged for it).
func appendMatch(dst []byte, m *screening.Match) []byte {
	dst = appendNullableString(append(dst, `{"entityId":`...), m.EntityID)
	dst = appendNullableString(append(dst, `,"entityName":`...), m.EntityName)
	if m.Programs != "" {
		dst = m.Programs.AppendJSON(append(dst, `,"programs":`...))
	}
	dst = appendJSONString(append(dst, `,"source":`...), m.Source)
	dst = appendJSONString(append(dst, `,"category":`...), m.Category)
	dst = appendJSONString(append(dst, `,"severity":`...), m.Severity)
	return append(dst, '}')
}

func appendNullableString(dst []byte, s string) []byte {
	if s == "" {
		return append(dst, "null"...)
	}
	return appendJSONString(dst, s)
}

const hexDigits = "0123456789abcdef"

// jsonPlain holds the ASCII bytes appendJSONString copies as they are: a
// table read per byte instead of six comparisons (the results' strings are
// tens of KB a screening).
var jsonPlain = func() (t [utf8.RuneSelf]bool) {
	for b := byte(0x20); b < utf8.RuneSelf; b++ {
		t[b] = b != '"' && b != '\\' && b != '<' && b != '>' && b != '&'
	}
	return t
}()

// appendJSONString appends s as a JSON string escaped as encoding/json
// escapes it: ", \ and the control characters, <, > and & (HTML), U+2028
// and U+2029, and each invalid UTF-8 byte as \ufffd.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if jsonPlain[b] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '"', '\\':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xf])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			dst = append(append(dst, s[start:i]...), `\ufffd`...)
		case c == '\u2028' || c == '\u2029':
			dst = append(append(dst, s[start:i]...), '\\', 'u', '2', '0', '2', hexDigits[c&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(append(dst, s[start:]...), '"')
}
