package blob_test

import (
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

func TestValidateName(t *testing.T) {
	cases := []struct {
		name string
		ok   bool
	}{
		{"memory/semantic/notes/a b/v1", true},
		{"media/photo/cat__ab12cd34.jpg", true},
		{strings.Repeat("x", blob.MaxNameLen), true},
		{strings.Repeat("x", blob.MaxNameLen+1), false},
		{strings.Repeat("é", blob.MaxNameLen/2), true},
		{"...", true},
		{"a/.../b", true},
		{"", false},
		{"a/", false},
		{"/a", false},
		{"a/../b", false},
		{"a\\b", false},
		{"a\u00a0b", false}, // no-break space: not printable in Go's sense
		{"a\u202eb", false}, // bidi override: a format character
		{"a\x1bb", false},
	}
	for _, c := range cases {
		t.Run(strings.ToValidUTF8(c.name[:min(len(c.name), 40)], "?"), func(t *testing.T) {
			err := blob.ValidateName(c.name)
			if c.ok && err != nil {
				t.Fatalf("ValidateName: %v", err)
			}
			if !c.ok && !cairn.IsCode(err, cairn.EINVALID) {
				t.Fatalf("ValidateName: %v, want EINVALID", err)
			}
		})
	}
}
