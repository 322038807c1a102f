package cairn

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
)

// Cursors encodes pagination cursors: opaque to clients and tamper-evident.
// A cursor is base64url(JSON state || HMAC-SHA256(key, JSON state)[:16]); a
// cursor that was altered, truncated or minted by another server key fails
// to decode with EINVALID.
type Cursors struct {
	key []byte
}

// NewCursors returns a codec keyed with key (at least 16 bytes).
func NewCursors(key []byte) *Cursors {
	k := make([]byte, len(key))
	copy(k, key)
	return &Cursors{key: k}
}

const cursorMACLen = 16

// Encode returns the cursor for v.
func (c *Cursors) Encode(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic("cairn: cursor state not encodable: " + err.Error())
	}
	m := hmac.New(sha256.New, c.key)
	m.Write(b)
	return base64.RawURLEncoding.EncodeToString(m.Sum(b)[:len(b)+cursorMACLen])
}

// Decode fills v from cursor s, or returns an EINVALID error.
func (c *Cursors) Decode(s string, v any) error {
	bad := InvalidCursor()
	if len(s) > 4096 {
		return bad
	}
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(raw) <= cursorMACLen {
		return bad
	}
	body, mac := raw[:len(raw)-cursorMACLen], raw[len(raw)-cursorMACLen:]
	m := hmac.New(sha256.New, c.key)
	m.Write(body)
	if !hmac.Equal(m.Sum(nil)[:cursorMACLen], mac) {
		return bad
	}
	if err := json.Unmarshal(body, v); err != nil {
		return bad
	}
	return nil
}

// pageCursor is the state of every listing's cursor: who listed, with
// which filter, and the position after which the next page starts.
type pageCursor struct {
	Principal string `json:"p"`
	Filter    string `json:"f,omitempty"`
	Pos       string `json:"o"`
}

// InvalidCursor is the error of a cursor that does not belong to the
// request it is sent with: altered, minted by another server key, or for
// another principal or filter (EINVALID, field "cursor").
func InvalidCursor() *Error {
	return Errorf(EINVALID, "Invalid cursor.").With("field", "cursor")
}

// AgentPrincipal and DeveloperPrincipal name who listed, the principal a
// page cursor is bound to: an agent by its key, a developer by a developer
// token or by its own ledger.
func AgentPrincipal(id string) string { return "agent:" + id }

// DeveloperPrincipal: see AgentPrincipal.
func DeveloperPrincipal(id string) string { return "developer:" + id }

// EncodePage returns the cursor of the page after position pos of the
// listing that principal made with filter.
func (c *Cursors) EncodePage(principal, filter, pos string) string {
	return c.Encode(pageCursor{Principal: principal, Filter: filter, Pos: pos})
}

// DecodePage returns the position a cursor from EncodePage carries when
// it was minted for the same principal and filter, else InvalidCursor.
func (c *Cursors) DecodePage(s, principal, filter string) (string, error) {
	var pc pageCursor
	if err := c.Decode(s, &pc); err != nil {
		return "", err
	}
	if pc.Principal != principal || pc.Filter != filter || pc.Pos == "" {
		return "", InvalidCursor()
	}
	return pc.Pos, nil
}
