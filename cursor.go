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
