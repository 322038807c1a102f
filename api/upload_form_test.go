package api_test

import (
	"bytes"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/media"
	"github.com/cairn-dev/cairn/memory"
)

// TestE2EUploadFormsAlike checks that the media and memory uploads read
// their multipart bodies the same way: the first value of a repeated field
// counts, a second file part is refused, an oversized file is 413 with the
// limit, an overlong field is 400 naming it, and nothing is charged for a
// refused upload.
func TestE2EUploadFormsAlike(t *testing.T) {
	ts := apitest.NewServer(t)
	a := ts.Register(t, "forms")
	file := func(name string, body []byte) apitest.Part {
		return apitest.Part{Name: "file", Filename: name, ContentType: "image/png", Body: body}
	}
	for _, tc := range []struct {
		path      string
		required  []apitest.Part // the fields the route needs besides the file
		fieldName string         // a field whose value the answer shows
		shown     func(r *apitest.Response) string
		fieldMax  int
	}{
		{"/v1/media/upload", nil, "title", func(r *apitest.Response) string { return r.Str("title") }, media.MaxFieldBytes},
		{"/v1/memory/upload", []apitest.Part{apitest.Field("type", "semantic")}, "key", func(r *apitest.Response) string { return r.Str("key") },
			memory.MaxUploadFieldBytes},
	} {
		t.Run(tc.path, func(t *testing.T) {
			with := func(ps ...apitest.Part) []apitest.Part {
				return append(append([]apitest.Part{}, tc.required...), ps...)
			}
			// Repeated field: the first value counts, before or after the file.
			r := ts.UploadTo(t, tc.path, a.Key, with(apitest.Field(tc.fieldName, "first"), file("a.png", apitest.PNG), apitest.Field(tc.fieldName, "second"))...).Must(t, 201)
			if got := tc.shown(r); got != "first" {
				t.Fatalf("%s = %q, want the first value: %s", tc.fieldName, got, r.Body)
			}
			before := ts.Balance(t, a.Key)
			refused := []struct {
				parts       []apitest.Part
				status      int
				code, field string
			}{
				{with(apitest.Field(tc.fieldName, "two"), file("a.png", apitest.PNG), file("b.png", apitest.PNG)), 400, cairn.EINVALID, "file"},
				{with(apitest.Field(tc.fieldName, "none")), 400, cairn.EINVALID, "file"},
				{with(apitest.Field(tc.fieldName, "long"), apitest.Field("blobFilename", string(bytes.Repeat([]byte("x"), tc.fieldMax+1))), file("a.png", apitest.PNG)),
					400, cairn.EINVALID, "blobFilename"},
				{with(apitest.Field(tc.fieldName, "big"), file("big.png", make([]byte, 10<<20+1))), 413, cairn.ETOOLARGE, ""},
			}
			for i, rc := range refused {
				r := ts.UploadTo(t, tc.path, a.Key, rc.parts...).Problem(t, rc.status, rc.code)
				if rc.field != "" && r.Str("field") != rc.field {
					t.Fatalf("case %d: field %q, want %q: %s", i, r.Str("field"), rc.field, r.Body)
				}
				if rc.status == 413 && r.Num("limit") != 10<<20 {
					t.Fatalf("case %d: limit %v: %s", i, r.JSON["limit"], r.Body)
				}
			}
			if after := ts.Balance(t, a.Key); after != before {
				t.Fatalf("refused uploads moved the balance from %d to %d", before, after)
			}
		})
	}
}
