package ingest

import (
	"bufio"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	cairn "github.com/cairn-dev/cairn"
)

// dcaPrefix starts the name of every OFAC feature type that carries a
// digital currency address ("Digital Currency Address - XBT").
const dcaPrefix = "Digital Currency Address - "

// dcaTicker returns the ticker of a feature type name, or "" when the name
// is not a digital currency address type.
func dcaTicker(name string) string {
	name = strings.TrimSpace(name)
	if len(name) <= len(dcaPrefix) || !strings.EqualFold(name[:len(dcaPrefix)], dcaPrefix) {
		return ""
	}
	t := strings.ToUpper(strings.TrimSpace(name[len(dcaPrefix):]))
	if strings.ContainsAny(t, " \t") {
		return ""
	}
	return t
}

// maxText bounds the text collected for one element; OFAC values are short.
const maxText = 64 << 10

// xmlWalker streams tokens, keeps the path of open local names (namespace
// prefixes ignored) and collects the character data of one element at a time.
type xmlWalker struct {
	d        *xml.Decoder
	path     []string // local names of the open elements
	spaces   []string // their namespace prefixes, as written
	text     []byte
	capture  int // depth whose text is collected; 0 when none
	tooLong  bool
	what     string
	elements int
}

func newXMLWalker(r io.Reader, what string) *xmlWalker {
	d := xml.NewDecoder(bufio.NewReaderSize(r, 256<<10))
	d.Strict = true
	d.CharsetReader = func(label string, in io.Reader) (io.Reader, error) {
		return nil, errCharset
	}
	return &xmlWalker{d: d, path: make([]string, 0, 16), what: what}
}

// next returns the next start or end element; character data is collected
// when capturing. It returns io.EOF at the end of a well-formed document.
func (w *xmlWalker) next() (xml.Token, error) {
	for {
		tok, err := w.d.RawToken()
		if err != nil {
			if err == io.EOF {
				if w.elements == 0 {
					return nil, w.errorf("no XML element")
				}
				if len(w.path) > 0 {
					return nil, w.errorf("malformed XML: unexpected EOF inside <%s>", w.path[len(w.path)-1])
				}
				return nil, io.EOF
			}
			return nil, w.wrap(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			w.elements++
			w.path = append(w.path, t.Name.Local)
			w.spaces = append(w.spaces, t.Name.Space)
			return t, nil
		case xml.EndElement:
			// RawToken does not pair tags; the path does.
			if len(w.path) == 0 || w.path[len(w.path)-1] != t.Name.Local || w.spaces[len(w.spaces)-1] != t.Name.Space {
				return nil, w.errorf("unexpected end element </%s>", t.Name.Local)
			}
			return t, nil
		case xml.CharData:
			if w.capture > 0 && len(w.path) >= w.capture {
				if len(w.text)+len(t) > maxText {
					w.tooLong = true
				} else {
					w.text = append(w.text, t...)
				}
			}
		}
	}
}

// pop must be called after handling an EndElement.
func (w *xmlWalker) pop() {
	if len(w.path) == w.capture {
		w.capture = 0
	}
	w.path = w.path[:len(w.path)-1]
	w.spaces = w.spaces[:len(w.spaces)-1]
}

// walk reads the document to its end: start gets each start element (the
// first must be named root), end each end element's name before the
// element is left.
func (w *xmlWalker) walk(root string, start func(xml.StartElement) error, end func(name string) error) error {
	for {
		tok, err := w.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if w.depth() == 1 && t.Name.Local != root {
				return w.errorf("root element is <%s>, want <%s>", t.Name.Local, root)
			}
			if err := start(t); err != nil {
				return err
			}
		case xml.EndElement:
			if err := end(t.Name.Local); err != nil {
				return err
			}
			w.pop()
		}
	}
}

// depth is the number of open elements (the current one included).
func (w *xmlWalker) depth() int { return len(w.path) }

// parent returns the local name n levels above the current element.
func (w *xmlWalker) parent(n int) string {
	if i := len(w.path) - 1 - n; i >= 0 {
		return w.path[i]
	}
	return ""
}

// startText begins collecting the text of the current element.
func (w *xmlWalker) startText() {
	w.text, w.tooLong, w.capture = w.text[:0], false, len(w.path)
}

// takeText returns the collected text, trimmed, and whether it fitted.
func (w *xmlWalker) takeText() (string, bool) {
	s := strings.TrimSpace(string(w.text))
	w.text = w.text[:0]
	return s, !w.tooLong
}

func (w *xmlWalker) errorf(format string, args ...any) error {
	line, _ := w.d.InputPos()
	return cairn.Errorf(cairn.EINVALID, "%s: line %d: %s", w.what, line, fmt.Sprintf(format, args...))
}

func (w *xmlWalker) wrap(err error) error {
	var se *xml.SyntaxError
	if errors.As(err, &se) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, errCharset) {
		return w.errorf("malformed XML: %v", err)
	}
	return fmt.Errorf("%s: %w", w.what, err)
}

// errCharset rejects documents that declare an encoding other than UTF-8.
var errCharset = errors.New("only UTF-8 is supported")

// attr returns the value of the attribute with the local name, or "".
func attr(se xml.StartElement, local string) string {
	for _, a := range se.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}
