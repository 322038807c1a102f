package compliance

import (
	"context"
	"io"

	"github.com/cairn-dev/cairn"
)

// Snapshot opens the raw copy of a sanctions source a list version was
// built from, by its SHA-256 (lowercase hex), and returns it with its size.
// An unknown digest is ENOTFOUND; a stored copy whose digest is not the
// one asked for is EUPSTREAM (never served as if it were).
func (s *Service) Snapshot(ctx context.Context, sha256 string) (io.ReadSeekCloser, int64, error) {
	if !isHexDigest(sha256) {
		return nil, 0, cairn.Errorf(cairn.ENOTFOUND, "Snapshot not found.")
	}
	rc, info, err := s.Blobs.Open(ctx, "snapshots/"+sha256)
	if cairn.IsCode(err, cairn.ENOTFOUND) {
		return nil, 0, cairn.Errorf(cairn.ENOTFOUND, "Snapshot not found.")
	} else if err != nil {
		return nil, 0, cairn.Errorf(cairn.EUPSTREAM, "Reading the snapshot failed.")
	}
	if info.SHA256 != "" && info.SHA256 != sha256 {
		_ = rc.Close()
		return nil, 0, cairn.Errorf(cairn.EUPSTREAM, "The stored snapshot does not match its digest.")
	}
	return rc, info.Size, nil
}

func isHexDigest(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
