package media

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cairn-dev/cairn"
)

func TestCategory(t *testing.T) {
	for mt, want := range map[string]string{
		"image/png": cairn.MediaPhoto, "image/svg+xml": cairn.MediaPhoto, "video/mp4": cairn.MediaVideo,
		"audio/mpeg": cairn.MediaAudio, "application/pdf": cairn.MediaDocument, "text/plain": cairn.MediaDocument,
		"imagex/png": cairn.MediaDocument, "": cairn.MediaDocument,
	} {
		if got := Category(mt); got != want {
			t.Errorf("Category(%q) = %q, want %q", mt, got, want)
		}
	}
}

func TestDetectMIME(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	for _, tc := range []struct {
		name, declared string
		head           []byte
		want           string
	}{
		{"DeclaredWins", "audio/mpeg", png, "audio/mpeg"},
		{"OctetStreamSniffed", "application/octet-stream", png, "image/png"},
		{"MissingSniffed", "", png, "image/png"},
		{"InvalidSniffed", "not a type", []byte("%PDF-1.7\n"), "application/pdf"},
		{"TextKeepsCharset", "text/plain; charset=utf-8; foo=bar", []byte("hi"), "text/plain; charset=utf-8"},
		{"ParamsDropped", "image/png; x=y", png, "image/png"},
		{"UnknownBytes", "", []byte{0, 1, 2, 3}, "application/octet-stream"},
		{"SniffedText", "", []byte("hello"), "text/plain; charset=utf-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := DetectMIME(tc.declared, tc.head); got != tc.want {
				t.Fatalf("DetectMIME(%q) = %q, want %q", tc.declared, got, tc.want)
			}
		})
	}
}

func TestSanitizeFilename(t *testing.T) {
	for in, want := range map[string]string{
		"cat.png":                "cat.png",
		"../../etc/passwd":       "passwd",
		`C:\Users\me\doc.pdf`:    "doc.pdf",
		"a\x00b\x1fc.txt":        "abc.txt",
		"evil\u202egnp.exe":      "evilgnp.exe",
		"  spaced.txt  ":         "spaced.txt",
		"...":                    "file",
		"":                       "file",
		"/":                      "file",
		"\xff\xfe":               "file",
		"café.txt":               "café.txt",
		strings.Repeat("é", 200): strings.Repeat("é", 127),
	} {
		if got := SanitizeFilename(in); got != want {
			t.Errorf("SanitizeFilename(%q) = %q, want %q", in, got, want)
		}
	}
}

var blobNameRE = regexp.MustCompile(`^media/(photo|video|audio|document)/[^/\\\x00-\x1f]+__[0-9a-f]{8}(\.[a-z0-9]{1,11})?$`)

func TestBlobName(t *testing.T) {
	for _, tc := range []struct{ cat, file, mime, prefix, ext string }{
		{"photo", "Cat Pic.PNG", "image/png", "media/photo/Cat-Pic__", ".png"},
		{"document", "report", "application/pdf", "media/document/report__", ".pdf"},
		{"document", "archive.tar.gz", "application/gzip", "media/document/archive.tar__", ".gz"},
		{"document", "weird.ext!", "application/x-unknown", "media/document/weird.ext__", ""},
		{"audio", "...", "audio/x-nothing", "media/audio/file__", ""},
	} {
		got := BlobName(tc.cat, tc.file, tc.mime)
		if !strings.HasPrefix(got, tc.prefix) || !strings.HasSuffix(got, tc.ext) || !blobNameRE.MatchString(got) {
			t.Errorf("BlobName(%q) = %q, want %s…%s", tc.file, got, tc.prefix, tc.ext)
		}
	}
	if BlobName("photo", "a.png", "image/png") == BlobName("photo", "a.png", "image/png") {
		t.Error("two uploads of one name share a blob name")
	}
}

func FuzzNames(f *testing.F) {
	for _, s := range []string{"cat.png", "../../x", "a\x00b", "é.txt", "...", `\\server\share\f.doc`, "x.toolongextension"} {
		f.Add(s, "image/png")
	}
	f.Fuzz(func(t *testing.T, name, mt string) {
		fn := SanitizeFilename(name)
		if fn == "" || !utf8.ValidString(fn) || strings.ContainsAny(fn, "/\\") || len(fn) > 255 {
			t.Fatalf("SanitizeFilename(%q) = %q", name, fn)
		}
		if SanitizeFilename(fn) != fn {
			t.Fatalf("not idempotent: %q -> %q", fn, SanitizeFilename(fn))
		}
		detected := DetectMIME(mt, []byte(name))
		bn := BlobName(Category(detected), fn, detected)
		if !blobNameRE.MatchString(bn) || strings.Contains(bn, "..") || utf8.RuneCountInString(bn) > 130 {
			t.Fatalf("BlobName(%q, %q) = %q", fn, detected, bn)
		}
	})
}

func FuzzParseMetadata(f *testing.F) {
	for _, s := range []string{`{"tags":["a"]}`, `[]`, `null`, `{"a":1} {}`, `{`, ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMetadata(s)
		if err != nil {
			if !cairn.IsCode(err, cairn.EINVALID) {
				t.Fatalf("error kind %v", err)
			}
			return
		}
		if m == nil {
			t.Fatal("nil metadata accepted")
		}
	})
}
