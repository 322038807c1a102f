package api

import (
	"bytes"
	"io"

	"github.com/cairn-dev/cairn/screening"
	"github.com/gin-gonic/gin"
)

// bindScreenRequest decodes the body of POST /v1/compliance/screen. The
// form clients send, {"addresses":[{"address":"...","chain":"..."},...]}
// with plain ASCII strings and an optional includeCommunity, is read by
// parseScreenRequest, which decodes it in a fraction of what reflection
// costs; any other body (escapes, other keys, errors) goes to bindJSON
// over the same bytes, followed by the same read error, so that its answer
// is what it always was.
func bindScreenRequest(c *gin.Context, req *screenRequest) error {
	r := c.Request
	if err := checkJSONContentType(r, false); err != nil {
		return err
	}
	buf := bytes.NewBuffer(make([]byte, 0, max(r.ContentLength, 0)+bytes.MinRead))
	_, err := buf.ReadFrom(r.Body)
	if err == nil && parseScreenRequest(buf.String(), req) {
		return nil
	}
	*req = screenRequest{}
	r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(buf.Bytes()), errReader{err}))
	return bindJSON(c, req, false)
}

// errReader replays the error a body's read ended with (EOF after a
// complete body).
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) {
	if e.err == nil {
		return 0, io.EOF
	}
	return 0, e.err
}

// parseScreenRequest decodes body into req when it is one JSON object of
// at most the members "addresses" (an array of objects of at most the
// members "address" and "chain") and "includeCommunity" (true or false),
// each once, the strings printable ASCII without escapes: then req is what
// encoding/json decodes (FuzzParseScreenRequest). Otherwise it reports
// false, and req is to be decoded again.
func parseScreenRequest(body string, req *screenRequest) bool {
	p := jsonScan{s: body}
	if !p.skip('{') {
		return false
	}
	var addresses, community bool
	for {
		switch key, ok := p.str(); {
		case !ok || !p.skip(':'):
			return false
		case key == "addresses" && !addresses:
			addresses = true
			if req.Addresses, ok = p.queries(); !ok {
				return false
			}
		case key == "includeCommunity" && !community:
			community = true
			v, ok := p.boolean()
			if !ok {
				return false
			}
			req.IncludeCommunity = &v
		default:
			return false
		}
		if !p.skip(',') {
			return p.skip('}') && p.end()
		}
	}
}

// jsonScan reads the subset of JSON that parseScreenRequest takes.
type jsonScan struct {
	s string
	i int
}

// space skips JSON whitespace.
func (p *jsonScan) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// skip consumes c after whitespace, reporting whether it was there.
func (p *jsonScan) skip(c byte) bool {
	p.space()
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

// end reports whether only whitespace is left.
func (p *jsonScan) end() bool {
	p.space()
	return p.i == len(p.s)
}

// str reads a string of printable ASCII without escapes: a slice of the
// body, not a copy.
func (p *jsonScan) str() (string, bool) {
	if !p.skip('"') {
		return "", false
	}
	for start := p.i; p.i < len(p.s); p.i++ {
		switch c := p.s[p.i]; {
		case c == '"':
			p.i++
			return p.s[start : p.i-1], true
		case c < 0x20 || c > 0x7e || c == '\\':
			return "", false
		}
	}
	return "", false
}

func (p *jsonScan) boolean() (bool, bool) {
	p.space()
	for _, lit := range [...]string{"true", "false"} {
		if len(p.s)-p.i >= len(lit) && p.s[p.i:p.i+len(lit)] == lit {
			p.i += len(lit)
			return lit == "true", true
		}
	}
	return false, false
}

// queries reads the array of addresses (empty, not nil, when it is []).
func (p *jsonScan) queries() ([]screening.Query, bool) {
	if !p.skip('[') {
		return nil, false
	}
	out := make([]screening.Query, 0, 128)
	if p.skip(']') {
		return out, true
	}
	for {
		q, ok := p.query()
		if !ok {
			return nil, false
		}
		out = append(out, q)
		if !p.skip(',') {
			return out, p.skip(']')
		}
	}
}

// query reads one {"address": ..., "chain": ...} object.
func (p *jsonScan) query() (screening.Query, bool) {
	var q screening.Query
	if !p.skip('{') {
		return q, false
	}
	var address, chain bool
	for {
		key, ok := p.str()
		if !ok || !p.skip(':') {
			return q, false
		}
		switch {
		case key == "address" && !address:
			address = true
			q.Address, ok = p.str()
		case key == "chain" && !chain:
			chain = true
			q.Chain, ok = p.str()
		default:
			ok = false
		}
		if !ok {
			return q, false
		}
		if !p.skip(',') {
			return q, p.skip('}')
		}
	}
}
