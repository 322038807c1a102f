package blobtest

import (
	"fmt"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

type rangeCase struct {
	off, n int64
	ok     bool // false: ERANGE
}

func checkRanges(t *testing.T, s blob.Store, name string, data []byte, cases []rangeCase) {
	size := int64(len(data))
	for _, c := range cases {
		t.Run(fmt.Sprintf("%d+%d", c.off, c.n), func(t *testing.T) {
			got, info, err := get(t, s, name, c.off, c.n)
			if !c.ok {
				wantCode(t, "Get out of range", err, cairn.ERANGE)
				return
			}
			if err != nil {
				t.Fatalf("Get: %v", err)
			}
			end := size
			if c.n >= 0 {
				end = c.off + c.n
			}
			wantBytes(t, "Get range", got, data[c.off:end])
			if info.Size != size || info.SHA256 != hexSHA(data) {
				t.Fatalf("Get range Info %+v: want the whole blob's size %d and digest", info, size)
			}
		})
	}
}

// testRange reads ranges of a blob: whole, empty, to the end, across chunk
// boundaries, and outside the blob (ERANGE: a range is never clamped).
func testRange(t *testing.T, s blob.Store, _ Control) {
	const size = 200000
	data := content(9, size)
	put(t, s, "range/blob", data, blob.PutOptions{})
	checkRanges(t, s, "range/blob", data, []rangeCase{
		{0, -1, true},
		{0, size, true},
		{0, 0, true},
		{0, 1, true},
		{size - 1, 1, true},
		{size - 1, -1, true},
		{size, 0, true},
		{size, -1, true},
		{10, 100, true},
		{1000, -7, true}, // any negative length: to the end
		{65535, 2, true},
		{65536, 65536, true},
		{65536*2 - 1, 65538, true},
		{100, size - 200, true},
		{size + 1, -1, false},
		{size + 1, 0, false},
		{0, size + 1, false},
		{size - 1, 2, false},
		{size, 1, false},
		{-1, 10, false},
		{-1, -1, false},
		{1 << 62, 1 << 62, false},
	})
}

func testRangeEmpty(t *testing.T, s blob.Store, _ Control) {
	put(t, s, "range/empty", nil, blob.PutOptions{})
	checkRanges(t, s, "range/empty", []byte{}, []rangeCase{
		{0, -1, true},
		{0, 0, true},
		{0, 1, false},
		{1, -1, false},
		{1, 0, false},
	})
}
