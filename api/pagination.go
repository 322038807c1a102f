package api

import (
	"strconv"

	"github.com/cairn-dev/cairn"
	"github.com/gin-gonic/gin"
)

// Page sizes (spec 8).
const (
	DefaultPageSize = 50
	MaxPageSize     = 100
)

// pageLimit reads ?limit (default 50, 1..100).
func pageLimit(c *gin.Context) (int, error) {
	v, ok := c.GetQuery("limit")
	if !ok {
		return DefaultPageSize, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > MaxPageSize {
		return 0, cairn.Errorf(cairn.EINVALID, "limit must be an integer from 1 to %d.", MaxPageSize).With("field", "limit")
	}
	return n, nil
}
