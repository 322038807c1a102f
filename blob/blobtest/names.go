package blobtest

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

// validNames are names every backend accepts, all stored side by side.
var validNames = []string{
	"a",
	"a/b",
	"a/b/c",
	"A/B",
	"memory/semantic/notes/a b/v1",
	"media/photo/cat__ab12cd34.jpg",
	"ünïcødé/日本語/файл.txt",
	"emoji/🙂/x",
	" leading and trailing space ",
	".hidden/.x/...",
	"a..b/..c/c..",
	"%2e%2e/%2F/%00",
	"query?x=1&y=2#frag",
	"colon:semi;comma,at@plus+",
	"long/" + strings.Repeat("n", 300),
}

// storedNames returns the valid names the backend stores (all of them
// unless it declares a MaxSegmentLen).
func storedNames(ctl Control) []string {
	var out []string
	for _, name := range validNames {
		if ctl.fits(name) {
			out = append(out, name)
		}
	}
	return out
}

func testValidNames(t *testing.T, s blob.Store, ctl Control) {
	ctx := t.Context()
	for _, name := range validNames {
		if !ctl.fits(name) {
			_, err := s.Put(ctx, name, strings.NewReader("x"), blob.PutOptions{})
			wantCode(t, fmt.Sprintf("Put(%q) with a segment over MaxSegmentLen", name), err, cairn.EINVALID)
		}
	}
	validNames := storedNames(ctl)
	for i, name := range validNames {
		put(t, s, name, []byte(fmt.Sprintf("content %d", i)), blob.PutOptions{})
	}
	for i, name := range validNames {
		wantBytes(t, fmt.Sprintf("Get(%q)", name), mustGet(t, s, name), []byte(fmt.Sprintf("content %d", i)))
		st, err := s.Stat(ctx, name)
		if err != nil || st.Name != name {
			t.Fatalf("Stat(%q) = %+v, %v", name, st, err)
		}
		if err := s.ExtendExpiry(ctx, name, time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC)); err != nil {
			t.Fatalf("ExtendExpiry(%q): %v", name, err)
		}
	}
	for i, name := range validNames {
		if err := s.Delete(ctx, name); err != nil {
			t.Fatalf("Delete(%q): %v", name, err)
		}
		_, err := s.Stat(ctx, name)
		wantCode(t, "Stat after Delete", err, cairn.ENOTFOUND)
		for _, other := range validNames[i+1:] {
			if _, err := s.Stat(ctx, other); err != nil {
				t.Fatalf("Stat(%q) after Delete(%q): %v", other, name, err)
			}
		}
	}
}

// invalidNames are EINVALID for every method.
var invalidNames = []string{
	"",
	"/",
	"/a",
	"a/",
	"a//b",
	".",
	"..",
	"./a",
	"a/.",
	"../a",
	"a/..",
	"a/../b",
	"a/./b",
	"../../etc/passwd",
	`a\b`,
	`\`,
	`..\a`,
	"a\x00b",
	"a\nb",
	"tab\there",
	"del\x7f",
	"c1\u0085control",
	"bad\xff\xfeutf8",
}

func testInvalidNames(t *testing.T, s blob.Store, _ Control) {
	ctx := t.Context()
	for _, name := range invalidNames {
		t.Run(fmt.Sprintf("%q", name), func(t *testing.T) {
			_, err := s.Put(ctx, name, strings.NewReader("x"), blob.PutOptions{})
			wantCode(t, "Put", err, cairn.EINVALID)
			_, _, err = s.Get(ctx, name, 0, -1)
			wantCode(t, "Get", err, cairn.EINVALID)
			_, _, err = s.Open(ctx, name)
			wantCode(t, "Open", err, cairn.EINVALID)
			_, err = s.Stat(ctx, name)
			wantCode(t, "Stat", err, cairn.EINVALID)
			err = s.Delete(ctx, name)
			wantCode(t, "Delete", err, cairn.EINVALID)
			err = s.ExtendExpiry(ctx, name, time.Time{})
			wantCode(t, "ExtendExpiry", err, cairn.EINVALID)
		})
	}
}

// testURL: every valid name has a distinct, parseable URL ending in its
// escaped form.
func testURL(t *testing.T, s blob.Store, ctl Control) {
	seen := map[string]string{}
	for _, name := range storedNames(ctl) {
		u := s.URL(name)
		if prev, dup := seen[u]; dup {
			t.Fatalf("URL(%q) = URL(%q) = %q", name, prev, u)
		}
		seen[u] = name
		p, err := url.Parse(u)
		if err != nil || p.Scheme == "" {
			t.Fatalf("URL(%q) = %q: not an absolute URL (%v)", name, u, err)
		}
		if strings.ContainsAny(u, " \t\n") {
			t.Fatalf("URL(%q) = %q: unescaped white space", name, u)
		}
		if !strings.HasSuffix(p.Path, name) {
			t.Fatalf("URL(%q) = %q: path %q does not end in the name", name, u, p.Path)
		}
	}
}
