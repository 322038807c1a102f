package wire

// Paging is how a page of a listing goes on: its size, the cursor of the
// next page (nil on the last) and whether there is one. A page type
// embeds it where its members hasMore, limit and nextCursor stand
// together in the bytes the server writes.
type Paging struct {
	HasMore    bool    `json:"hasMore"`
	Limit      int     `json:"limit"`
	NextCursor *string `json:"nextCursor"`
}

// PagingOf is the paging of a page of limit items whose next page is at
// next (nil when there is none).
func PagingOf(limit int, next *string) Paging {
	return Paging{HasMore: next != nil, Limit: limit, NextCursor: next}
}
