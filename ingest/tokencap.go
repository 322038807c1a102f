package ingest

import (
	"fmt"
	"io"
	"strings"
)

// DefaultMaxXMLToken is the longest XML token (a tag with its attributes, a
// text run, a comment, a CDATA section, a processing instruction or a
// directive) of a source by default: 1 MiB, where the longest of
// SDN_ADVANCED.XML is a few KB.
const DefaultMaxXMLToken = 1 << 20

// tokenCap reads an XML document and fails once one token grows past max
// bytes, so that no token the decoder holds whole can be endless. It follows
// the token boundaries of XML itself, not just '<': a CDATA section, a
// comment, a processing instruction or a directive may hold '<' (and a tag
// may hold '>' in a quoted attribute value) without ending.
type tokenCap struct {
	r     io.Reader
	max   int
	run   int      // bytes of the current token
	state capState // where in the markup the last byte was
	tail  [16]byte // the last bytes of the current markup, for its end and kind
	quote byte     // the open quote of an attribute value in a tag or directive
	depth int      // open '<' inside a directive
	dsub  int      // inside a directive: 1-3 matching "!--" after a '<', 4 in a comment
	b0    byte     // inside a directive's comment: the two bytes before
	b1    byte
	n     int // bytes of the current markup seen (up to len(tail))
}

type capState uint8

const (
	inText      capState = iota
	inOpen               // just after '<': the kind of markup is not known yet
	inBang               // after "<!": a comment, CDATA or a directive
	inTag                // a start or end tag
	inComment            // <!-- ... -->
	inCDATA              // <![CDATA[ ... ]]>
	inPI                 // <? ... ?>
	inDirective          // <!DOCTYPE ...> and the like, nesting '<' '>'
)

func newTokenCap(r io.Reader, max int) *tokenCap {
	if max <= 0 {
		max = DefaultMaxXMLToken
	}
	return &tokenCap{r: r, max: max}
}

func (t *tokenCap) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	for _, c := range p[:n] {
		t.step(c)
		if t.run > t.max {
			return 0, t.tooLong()
		}
	}
	return n, err
}

// step moves the scanner past c. A token ends (run back to 0) at the '<'
// that ends a text run and at the '>' that ends a markup.
func (t *tokenCap) step(c byte) {
	t.run++
	if t.state != inText {
		copy(t.tail[:], t.tail[1:])
		t.tail[len(t.tail)-1] = c
		if t.n < len(t.tail) {
			t.n++
		}
	}
	switch t.state {
	case inText:
		if c == '<' {
			t.begin()
		}
	case inOpen:
		switch c {
		case '!':
			t.state = inBang
		case '?':
			t.state = inPI
		default:
			t.state = inTag
			t.tag(c)
		}
	case inBang:
		// As encoding/xml reads it: "<!--" a comment, "<![CDATA[" a CDATA
		// section, and any other byte after "<!" the first of a
		// directive (inert: it never ends it). A "-" or "[" not followed
		// as required is a syntax error; such markup is counted as a
		// directive.
		seen := string(t.tail[len(t.tail)-(t.n-2):])
		switch {
		case seen == "--":
			t.state = inComment
		case seen == "[CDATA[":
			t.state = inCDATA
		case seen == "-" || strings.HasPrefix("[CDATA[", seen):
		default:
			t.state, t.depth, t.quote, t.dsub = inDirective, 0, 0, 0
			for i := len(t.tail) - (t.n - 2) + 1; i < len(t.tail); i++ {
				t.directive(t.tail[i])
			}
		}
	case inTag:
		t.tag(c)
	case inComment:
		if t.ends("-->") && t.n >= len("<!---->") {
			t.end()
		}
	case inCDATA:
		if t.ends("]]>") && t.n >= len("<![CDATA[]]>") {
			t.end()
		}
	case inPI:
		if t.ends("?>") && t.n >= len("<??>") {
			t.end()
		}
	case inDirective:
		t.directive(c)
	}
}

func (t *tokenCap) begin() {
	t.run, t.state, t.n, t.quote = 0, inOpen, 1, 0
	t.tail[len(t.tail)-1] = '<'
}

func (t *tokenCap) end() { t.run, t.state = 0, inText }

// ends reports whether the markup seen so far ends with s.
func (t *tokenCap) ends(s string) bool { return string(t.tail[len(t.tail)-len(s):]) == s }

func (t *tokenCap) tag(c byte) {
	switch {
	case t.quote != 0:
		if c == t.quote {
			t.quote = 0
		}
	case c == '"' || c == '\'':
		t.quote = c
	case c == '>':
		t.end()
	}
}

// directive moves past byte c of a directive as encoding/xml does: it ends
// at a '>' outside quotes with no '<' open; quoted brackets do not nest,
// and a comment inside ("<!--" to "-->") counts neither brackets nor
// quotes.
func (t *tokenCap) directive(c byte) {
	switch {
	case t.dsub >= 1 && t.dsub <= 3: // after a '<'
		if c == "!--"[t.dsub-1] {
			if t.dsub++; t.dsub == 4 {
				t.b0, t.b1 = 0, 0
			}
			return
		}
		t.dsub = 0
		t.depth++ // the '<' opened a level; c counts as it is
		t.directiveByte(c)
	case t.dsub == 4: // in a comment
		if t.b0 == '-' && t.b1 == '-' {
			t.dsub = 0 // c is its '>' (anything else is a syntax error)
			return
		}
		t.b0, t.b1 = t.b1, c
	case t.quote == 0 && c == '>' && t.depth == 0:
		t.end()
	default:
		t.directiveByte(c)
	}
}

func (t *tokenCap) directiveByte(c byte) {
	switch {
	case c == t.quote:
		t.quote = 0
	case t.quote != 0:
	case c == '\'' || c == '"':
		t.quote = c
	case c == '>':
		t.depth--
	case c == '<':
		t.dsub = 1
	}
}

func (t *tokenCap) tooLong() error {
	return fmt.Errorf("XML token longer than %d bytes (--ingest-max-xml-token)", t.max)
}
