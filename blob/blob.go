// Package blob is the blob storage contract: named, immutable byte blobs with
// an expiry, read whole or by byte range. Memory content, media files, source
// snapshots and screening proofs live in a blob store.
//
// Implementations: blob/fs (embedded default), blob/s3. blob/blobtest is the
// one conformance suite they all pass. This package imports only the root
// package and the standard library.
package blob

import (
	"context"
	"io"
	"time"
)

// Info describes a stored blob.
type Info struct {
	Name        string
	Size        int64
	SHA256      string // lower-case hex digest of the whole content
	ContentType string
	CreatedAt   time.Time
	ExpiresAt   time.Time // zero: never expires
}

// PutOptions are the optional attributes of a new blob.
type PutOptions struct {
	ContentType string
	ExpiresAt   time.Time // zero: never expires
	// Replace lets Put replace a live blob of the same name. Without it
	// Put only creates: a live blob under the name is ECONFLICT.
	Replace bool
}

// ReadSeekCloser is what Open returns: enough for http.ServeContent.
type ReadSeekCloser interface {
	io.ReadSeeker
	io.Closer
}

// Store is a blob store. Names are slash-separated paths of printable
// characters without "." or ".." segments; an invalid name is EINVALID.
//
// An expired blob behaves as absent (ENOTFOUND) for Get, Open and Stat even
// before any cleanup. Content that no longer matches the digest recorded at
// Put is reported as EUPSTREAM, never returned as if it were good data.
type Store interface {
	// Put stores r under name and returns its Info. The blob becomes
	// visible only once complete. Put creates: when a blob that has not
	// expired already holds the name it is ECONFLICT and the stored blob
	// is left as it was (of concurrent Puts of one new name, exactly one
	// succeeds), unless opts.Replace is set; an expired blob is replaced.
	Put(ctx context.Context, name string, r io.Reader, opts PutOptions) (Info, error)

	// Get returns a reader over length bytes starting at offset (length < 0:
	// to the end). A range outside the blob is ERANGE.
	Get(ctx context.Context, name string, offset, length int64) (io.ReadCloser, Info, error)

	// Open returns a seekable reader over the whole blob.
	Open(ctx context.Context, name string) (ReadSeekCloser, Info, error)

	// Stat returns the blob's Info.
	Stat(ctx context.Context, name string) (Info, error)

	// Delete removes the blob. Deleting an absent or expired blob succeeds.
	Delete(ctx context.Context, name string) error

	// ExtendExpiry sets a new expiry for an existing blob without rewriting
	// its content (ENOTFOUND when absent or already expired).
	ExtendExpiry(ctx context.Context, name string, expiresAt time.Time) error

	// URL returns the address under which the blob can be referenced, e.g.
	// in a screening proof's dataSnapshots.
	URL(name string) string
	// DeleteExpired removes the blobs that have expired at now and returns
	// how many it removed (the TTL sweep). A store whose full pass is
	// costly may pass over a call that comes soon after its last pass and
	// return 0; the first call always makes a pass.
	DeleteExpired(ctx context.Context, now time.Time) (int, error)
}

// Presigner is implemented by a Store whose blobs a third party can fetch
// straight from the storage service, without credentials of its own, at a
// URL signed for a limited time (blob/s3). A screening proof names such a
// URL as a snapshot's storageUrl when the service's Store provides one.
type Presigner interface {
	// PresignGet returns a URL at which a plain GET returns the blob's
	// content until ttl has passed (a store may shorten ttl to its own
	// limit). It does not check that the blob exists: a GET of an absent
	// blob fails at the storage service.
	PresignGet(ctx context.Context, name string, ttl time.Duration) (string, error)
}
