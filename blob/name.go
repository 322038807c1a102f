package blob

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cairn-dev/cairn"
)

// MaxNameLen is the longest blob name accepted, in bytes.
const MaxNameLen = 1024

// ValidateName reports whether name is a valid blob name (the names every
// Store accepts): 1 to MaxNameLen bytes of UTF-8, slash-separated segments that are neither empty, "." nor
// "..", made of printable characters (unicode.IsPrint, which admits the
// ASCII space) other than backslash. An invalid name is EINVALID.
func ValidateName(name string) error {
	switch {
	case name == "":
		return cairn.Errorf(cairn.EINVALID, "blob name is empty")
	case len(name) > MaxNameLen:
		return cairn.Errorf(cairn.EINVALID, "blob name is longer than %d bytes", MaxNameLen)
	case !utf8.ValidString(name):
		return cairn.Errorf(cairn.EINVALID, "blob name is not valid UTF-8")
	}
	for seg := range strings.SplitSeq(name, "/") {
		switch seg {
		case "":
			return cairn.Errorf(cairn.EINVALID, "blob name has an empty segment (leading, trailing or double slash)")
		case ".", "..":
			return cairn.Errorf(cairn.EINVALID, "blob name has a %q segment", seg)
		}
	}
	for _, r := range name {
		if r == '\\' {
			return cairn.Errorf(cairn.EINVALID, "blob name contains a backslash")
		}
		if !unicode.IsPrint(r) {
			return cairn.Errorf(cairn.EINVALID, "blob name contains the non-printable character %U", r)
		}
	}
	return nil
}
