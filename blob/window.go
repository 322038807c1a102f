package blob

import (
	"io"

	"github.com/cairn-dev/cairn"
)

// Window checks a range of a blob of size bytes as Store.Get takes it
// (length < 0: to the end) and returns the range's end: ERANGE unless the
// range lies inside the blob, never clamped.
func Window(size, offset, length int64) (end int64, err error) {
	end = size
	if length >= 0 {
		end = offset + length
	}
	if offset < 0 || offset > size || end < offset || end > size {
		return 0, cairn.Errorf(cairn.ERANGE, "range offset %d length %d is outside the blob of %d bytes", offset, length, size)
	}
	return end, nil
}

// SeekWindow is the io.Seeker of a reader over the window [start, end) of
// a blob, at the absolute position *pos: it moves *pos and returns the new
// position relative to start. Positions past the end are allowed (a Read
// there returns io.EOF); one before the start is EINVALID.
func SeekWindow(pos *int64, start, end, offset int64, whence int) (int64, error) {
	var abs int64
	switch whence {
	case io.SeekStart:
		abs = start + offset
	case io.SeekCurrent:
		abs = *pos + offset
	case io.SeekEnd:
		abs = end + offset
	default:
		return 0, cairn.Errorf(cairn.EINVALID, "seek: invalid whence %d", whence)
	}
	if abs < start {
		return 0, cairn.Errorf(cairn.EINVALID, "seek: negative position")
	}
	*pos = abs
	return abs - start, nil
}

// ReadChunks is the Read of a reader over a window ending at end of a blob
// in chunks of chunkSize, at the absolute position *pos: it copies from the
// verified chunk that load returns and moves *pos. direct, when not nil, is
// tried first at the start of a chunk: it reads whole chunks into p itself
// (moving *pos), or returns 0 and no error to leave it to load.
func ReadChunks(p []byte, pos *int64, end, chunkSize int64, direct func(p []byte, ci int64) (int, error), load func(ci int64) ([]byte, error)) (int, error) {
	if *pos >= end {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	ci := *pos / chunkSize
	if direct != nil && *pos == ci*chunkSize {
		if n, err := direct(p, ci); n > 0 || err != nil {
			return n, err
		}
	}
	buf, err := load(ci)
	if err != nil {
		return 0, err
	}
	n := copy(p, buf[*pos-ci*chunkSize:min(int64(len(buf)), end-ci*chunkSize)])
	*pos += int64(n)
	return n, nil
}
