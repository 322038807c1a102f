package ingest

import (
	"bytes"
	"fmt"
	"io"
)

// DefaultMaxXMLToken is the longest XML token (a tag with its attributes,
// or a text run) of a source by default: 1 MiB, where the longest of
// SDN_ADVANCED.XML is a few KB.
const DefaultMaxXMLToken = 1 << 20

// tokenCap reads an XML document and fails once more than max bytes pass
// without a '<': every tag starts with one and every text run ends before
// one, so no single token the decoder holds whole can grow past max.
type tokenCap struct {
	r   io.Reader
	max int
	run int // bytes since the last '<'
}

func newTokenCap(r io.Reader, max int) *tokenCap {
	if max <= 0 {
		max = DefaultMaxXMLToken
	}
	return &tokenCap{r: r, max: max}
}

func (t *tokenCap) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	b := p[:n]
	for {
		i := bytes.IndexByte(b, '<')
		if i < 0 {
			t.run += len(b)
			break
		}
		if t.run+i > t.max {
			return 0, t.tooLong()
		}
		t.run, b = 0, b[i+1:]
	}
	if t.run > t.max {
		return 0, t.tooLong()
	}
	return n, err
}

func (t *tokenCap) tooLong() error {
	return fmt.Errorf("XML token longer than %d bytes (--ingest-max-xml-token)", t.max)
}
