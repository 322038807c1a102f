package s3

import (
	"context"
	"strings"
	"time"

	"github.com/minio/minio-go/v7"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

// Delete removes the blob. Deleting an absent or expired blob succeeds.
func (s *Store) Delete(ctx context.Context, name string) error {
	key, err := s.key(name)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	defer s.lockName(key)()
	if err := s.client.RemoveObject(ctx, s.bucket, key, minio.RemoveObjectOptions{}); err != nil && !isNotFound(err) {
		return s.fail(ctx, "deleting a blob", err)
	}
	return nil
}

// ExtendExpiry sets a new expiry (zero: never) for a live blob by copying
// its object onto itself with replaced metadata, on the condition that it
// is still the version read; a blob replaced meanwhile is read again.
// ENOTFOUND when the blob is absent or already expired.
func (s *Store) ExtendExpiry(ctx context.Context, name string, expiresAt time.Time) error {
	key, err := s.key(name)
	if err != nil {
		return err
	}
	defer s.lockName(key)()
	for range attempts {
		rec, err := s.live(ctx, key)
		if err != nil {
			return err
		}
		rec.ExpiresAt = time.Time{}
		if !expiresAt.IsZero() {
			rec.ExpiresAt = expiresAt.UTC()
		}
		src := minio.CopySrcOptions{Bucket: s.bucket, Object: key, MatchETag: rec.etag}
		dst := minio.CopyDestOptions{Bucket: s.bucket, Object: key, ReplaceMetadata: true,
			UserMetadata: rec.metadata(), ContentType: httpContentType(rec.ContentType)}
		_, err = s.client.CopyObject(ctx, dst, src)
		switch {
		case err == nil:
			return nil
		case ctx.Err() != nil:
			return s.fail(ctx, "extending a blob's expiry", err)
		case isPrecondition(err): // replaced meanwhile: read it again
		case isNotFound(err):
			// Gone, or a server that cannot find the copy's source (s3rver
			// leaves reserved characters of the source escaped).
			if cur, herr := s.head(ctx, key); herr == nil && cur.Gen == rec.Gen {
				err := s.rewrite(ctx, key, rec)
				if !cairn.IsCode(err, cairn.EPRECONDITION) {
					return err
				}
			}
		default:
			return s.fail(ctx, "extending a blob's expiry", err)
		}
	}
	return cairn.Errorf(cairn.EUPSTREAM, "blob kept changing while its expiry was extended")
}

// rewrite uploads a blob's content again, read and verified, with rec's
// metadata and on the condition that the object is still rec's version:
// ExtendExpiry's way on a server whose copy cannot find the object.
func (s *Store) rewrite(ctx context.Context, key string, rec *record) error {
	r := s.newReader(ctx, key, rec, 0, rec.Size, func() {})
	defer r.Close()
	sp, err := s.spool(ctx, r)
	if err != nil {
		return err
	}
	defer sp.close()
	return s.put(ctx, key, sp, rec, rec.etag)
}

// DeleteExpired removes the objects of blobs that have expired at now and
// returns how many it removed. A full pass lists the bucket under the
// prefix and reads each object's metadata, so it runs at most once per
// Options.SweepEvery: a call before then returns 0 at once. Objects that
// are not blobs of this store are left alone.
//
// A blob replaced between its HEAD and its DELETE would be removed with
// the expired one: the services never reuse a blob name once its blob
// expired, so this only matters to a caller that does.
func (s *Store) DeleteExpired(ctx context.Context, now time.Time) (int, error) {
	s.sweepMu.Lock()
	defer s.sweepMu.Unlock()
	if s.sweepEvery > 0 && !s.lastSweep.IsZero() && s.clock.Now().Sub(s.lastSweep) < s.sweepEvery {
		return 0, nil
	}
	removed := 0
	for oi := range s.client.ListObjects(ctx, s.bucket, minio.ListObjectsOptions{Prefix: s.prefix, Recursive: true}) {
		if oi.Err != nil {
			return removed, s.fail(ctx, "listing blobs", oi.Err)
		}
		name, ok := strings.CutPrefix(oi.Key, s.prefix)
		if !ok || blob.ValidateName(name) != nil {
			continue
		}
		gone, err := s.deleteIfExpired(ctx, oi.Key, now)
		if err != nil {
			return removed, err
		}
		if gone {
			removed++
		}
	}
	if err := ctx.Err(); err != nil {
		return removed, err
	}
	s.lastSweep = s.clock.Now()
	return removed, nil
}

// deleteIfExpired deletes the object of key if it holds a blob expired at
// now.
func (s *Store) deleteIfExpired(ctx context.Context, key string, now time.Time) (bool, error) {
	defer s.lockName(key)()
	rec, err := s.head(ctx, key)
	if cairn.IsCode(err, cairn.ENOTFOUND) || notOurs(err) {
		return false, nil // gone meanwhile, or not one of ours
	} else if err != nil {
		return false, err
	}
	if !blob.Expired(rec.ExpiresAt, now) {
		return false, nil
	}
	if err := s.client.RemoveObject(ctx, s.bucket, key, minio.RemoveObjectOptions{}); err != nil && !isNotFound(err) {
		return false, s.fail(ctx, "deleting an expired blob", err)
	}
	return true, nil
}
