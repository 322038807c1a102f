package ingest

import (
	"encoding/xml"
	"io"
	"os"
	"strings"
	"testing"
)

// capRead reads all of doc through a cap of max bytes per token, in reads
// of chunk bytes (so that token boundaries fall across reads).
func capRead(doc string, max, chunk int) error {
	_, err := io.CopyBuffer(io.Discard, newTokenCap(&chunked{strings.NewReader(doc), chunk}, max), make([]byte, 1<<16))
	return err
}

type chunked struct {
	r io.Reader
	n int
}

func (c *chunked) Read(p []byte) (int, error) {
	if len(p) > c.n {
		p = p[:c.n]
	}
	return c.r.Read(p)
}

// TestTokenCapFollowsXMLTokens: the cap holds whatever the token's kind,
// including the kinds that may hold '<' (CDATA, comments, processing
// instructions, directives), and a document whose tokens are all short
// passes whatever it holds.
func TestTokenCapFollowsXMLTokens(t *testing.T) {
	long := func(unit string) string { return strings.Repeat(unit, 200) } // 200 x len(unit) bytes
	for _, tc := range []struct {
		name string
		doc  string
		ok   bool
	}{
		{"short tokens", "<?xml version=\"1.0\"?><!DOCTYPE a><a x='1'>" + strings.Repeat("<b>text</b>", 100) + "</a>", true},
		{"long text", "<a>" + long("xxxxx") + "</a>", false},
		{"long tag", "<a " + long("b='1' ") + ">", false},
		{"CDATA with '<' inside", "<a><![CDATA[" + long("<x<y ") + "]]></a>", false},
		{"comment with '<' inside", "<a><!--" + long("<x<y ") + "--></a>", false},
		{"processing instruction with '<' inside", "<?pi " + long("<x<y ") + "?><a/>", false},
		{"directive with '<' inside", "<!DOCTYPE a [" + long("<!ENTITY e 'v'>") + "]><a/>", false},
		{"quoted '>' in a tag", "<a b='" + long(">x>y>") + "'/>", false},
		{"short CDATA, comment and PI with '<' and '>'", "<a><![CDATA[a<b>c]]><!-- <x> --><?p <q> ?>" + strings.Repeat("<c/>", 300) + "</a>", true},
		{"CDATA ends only at ]]>", "<a><![CDATA[" + strings.Repeat("]>", 100) + "]]>" + strings.Repeat("<c/>", 300) + "</a>", true},
	} {
		for _, chunk := range []int{1, 3, 7, 1 << 16} {
			err := capRead(tc.doc, 500, chunk)
			if (err == nil) != tc.ok {
				t.Errorf("%s (reads of %d bytes): err = %v, want ok=%v", tc.name, chunk, err, tc.ok)
			}
		}
	}
}

// TestTokenCapPassesTheRealSDNFile: the real SDN advanced XML excerpt reads
// whole through the default cap and through one a little over its longest
// token.
func TestTokenCapPassesTheRealSDNFile(t *testing.T) {
	b, err := os.ReadFile("testdata/ofac_xml/sdn_advanced_excerpt.xml")
	if err != nil {
		t.Fatal(err)
	}
	if err := capRead(string(b), 0, 4096); err != nil {
		t.Fatalf("real SDN XML through the default cap: %v", err)
	}
	if err := capRead(string(b), 64<<10, 4096); err != nil {
		t.Fatalf("real SDN XML through a 64 KiB cap: %v", err)
	}
}

// FuzzTokenCap: whatever the document, when the cap lets all of it through,
// no token encoding/xml reads from it is longer than the cap.
func FuzzTokenCap(f *testing.F) {
	for _, s := range []string{"<a>x</a>", "<a><![CDATA[<<<]]></a>", "<!--<-->", "<?p <?>", "<!DOCTYPE a [<!ENTITY e 'v'>]><a/>",
		"<a b='>'>t</a>", "<![CDATA[]]>", "<!-->", "<?>", "<!>"} {
		f.Add(s, 8)
	}
	f.Fuzz(func(t *testing.T, doc string, max int) {
		if max < 4 || max > 64 {
			return
		}
		if capRead(doc, max, 5) != nil {
			return
		}
		d := xml.NewDecoder(strings.NewReader(doc))
		d.Strict = true
		for {
			tok, err := d.RawToken()
			if err != nil {
				return // the end, or not well-formed (the parser refuses it anyway)
			}
			if n := tokenLen(tok); n > max {
				t.Fatalf("the cap of %d passed a token of %d bytes: %#v", max, n, tok)
			}
		}
	})
}

// tokenLen is the number of bytes of a token's own content.
func tokenLen(tok xml.Token) int {
	switch v := tok.(type) {
	case xml.CharData:
		return len(v)
	case xml.Comment:
		return len(v)
	case xml.Directive:
		return len(v)
	case xml.ProcInst:
		return len(v.Target) + len(v.Inst)
	case xml.StartElement:
		n := len(v.Name.Space) + len(v.Name.Local)
		for _, a := range v.Attr {
			n += len(a.Name.Space) + len(a.Name.Local) + len(a.Value)
		}
		return n
	}
	return 0
}
