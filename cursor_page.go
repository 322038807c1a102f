package cairn

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
