package fs

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

// Delete removes the blob. Deleting an absent or expired blob succeeds. The
// sidecar goes first (that is the commit), then the content file.
func (s *Store) Delete(ctx context.Context, name string) error {
	l, lk, err := s.lookup(ctx, name)
	if err != nil {
		return err
	}
	lk.Lock()
	defer lk.Unlock()
	rec, rerr := readRecord(l) // damaged: the sidecar still goes, a sweep finds the orphan
	if cairn.IsCode(rerr, cairn.ENOTFOUND) {
		return nil
	}
	s.forget(l.key)
	if err := os.Remove(l.metaPath()); err != nil && !errors.Is(err, os.ErrNotExist) {
		return cairn.Upstream(err, "deleting blob failed")
	}
	if err := syncDir(l.dir); err != nil {
		return cairn.Upstream(err, "deleting blob failed")
	}
	if rec != nil && !rec.isInline() {
		os.Remove(l.blobPath(rec.Gen)) // a failure leaves an orphan for the sweep
	}
	return nil
}

// ExtendExpiry sets a new expiry (zero: never) for a live blob, rewriting
// only its sidecar. ENOTFOUND when the blob is absent or already expired.
func (s *Store) ExtendExpiry(ctx context.Context, name string, expiresAt time.Time) error {
	l, lk, err := s.lookup(ctx, name)
	if err != nil {
		return err
	}
	lk.Lock()
	defer lk.Unlock()
	rec, err := readRecord(l)
	if err != nil {
		return err
	}
	if blob.Expired(rec.ExpiresAt, s.clock.Now()) {
		return cairn.Errorf(cairn.ENOTFOUND, "blob not found")
	}
	rec.ExpiresAt = time.Time{}
	if !expiresAt.IsZero() {
		rec.ExpiresAt = expiresAt.UTC()
	}
	s.forget(l.key)
	_, err = writeRecord(l, rec)
	return err
}
