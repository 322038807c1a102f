package main

import (
	"bytes"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/media"
	"github.com/cairn-dev/cairn/memory"
)

// TestE2EUploadFormsAlike checks that the media and memory uploads read
// their multipart bodies the same way: the first value of a repeated field
// counts, a second file part is refused, an oversized file is 413 with the
// limit, an overlong field is 400 naming it, and nothing is charged for a
// refused upload.
func TestE2EUploadFormsAlike(t *testing.T) {
	ts := startServer(t, testConfig(t, t.TempDir()))
	a := ts.register(t, "forms")
	file := func(name string, body []byte) part {
		return part{name: "file", filename: name, contentType: "image/png", body: body}
	}
	field := func(name, v string) part { return part{name: name, body: []byte(v)} }
	for _, tc := range []struct {
		path      string
		required  []part // the fields the route needs besides the file
		fieldName string // a field whose value the answer shows
		shown     func(r *response) string
		fieldMax  int
	}{
		{"/v1/media/upload", nil, "title", func(r *response) string { return r.str("title") }, media.MaxFieldBytes},
		{"/v1/memory/upload", []part{field("type", "semantic")}, "key", func(r *response) string { return r.str("key") },
			memory.MaxUploadFieldBytes},
	} {
		t.Run(tc.path, func(t *testing.T) {
			with := func(ps ...part) []part { return append(append([]part{}, tc.required...), ps...) }
			// Repeated field: the first value counts, before or after the file.
			r := ts.uploadTo(t, tc.path, a.Key, with(field(tc.fieldName, "first"), file("a.png", pngBytes), field(tc.fieldName, "second"))...).must(t, 201)
			if got := tc.shown(r); got != "first" {
				t.Fatalf("%s = %q, want the first value: %s", tc.fieldName, got, r.Body)
			}
			before := ts.balance(t, a.Key)
			refused := []struct {
				parts       []part
				status      int
				code, field string
			}{
				{with(field(tc.fieldName, "two"), file("a.png", pngBytes), file("b.png", pngBytes)), 400, cairn.EINVALID, "file"},
				{with(field(tc.fieldName, "none")), 400, cairn.EINVALID, "file"},
				{with(field(tc.fieldName, "long"), field("blobFilename", string(bytes.Repeat([]byte("x"), tc.fieldMax+1))), file("a.png", pngBytes)),
					400, cairn.EINVALID, "blobFilename"},
				{with(field(tc.fieldName, "big"), file("big.png", make([]byte, 10<<20+1))), 413, cairn.ETOOLARGE, ""},
			}
			for i, rc := range refused {
				r := ts.uploadTo(t, tc.path, a.Key, rc.parts...).problem(t, rc.status, rc.code)
				if rc.field != "" && r.str("field") != rc.field {
					t.Fatalf("case %d: field %q, want %q: %s", i, r.str("field"), rc.field, r.Body)
				}
				if rc.status == 413 && r.num("limit") != 10<<20 {
					t.Fatalf("case %d: limit %v: %s", i, r.JSON["limit"], r.Body)
				}
			}
			if after := ts.balance(t, a.Key); after != before {
				t.Fatalf("refused uploads moved the balance from %d to %d", before, after)
			}
		})
	}
}
