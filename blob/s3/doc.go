// Package s3 is the blob store of cairn on an S3-compatible object store
// (AWS S3, MinIO, Cloudflare R2, the S3 gateways of Storj or Filebase),
// through github.com/minio/minio-go/v7. Several cairn instances can share
// one bucket.
//
// # Layout
//
// A blob is one object whose key is the store's prefix followed by the blob
// name, so that a bucket listing or a presigned URL shows the names. The
// body is the content, unchanged. What the store knows about the blob is in
// the object's user metadata (x-amz-meta-cairn-*), all of it written at
// every Put:
//
//	gen      16 hex digits drawn at each Put: the version of the blob
//	size     content length in bytes
//	sha256   hex SHA-256 of the whole content
//	chunk    bytes covered by one chunk digest: 64 KiB, doubled until the
//	         blob has at most 24 chunks (so at most 64 MiB: the largest
//	         blob is 24 chunks of 64 MiB)
//	sums     base64 of the SHA-256 of each chunk, concatenated
//	created  RFC 3339 time of the Put
//	expires  RFC 3339 expiry, or "never"
//	type     "t" and the query-escaped content type
//
// which stays well inside the 2 KB S3 allows for user metadata (the content
// type is limited to 256 bytes escaped).
//
// # Writes
//
// Put first reads the content into a spool (memory up to 1 MiB, then a
// temporary file), hashing it, since the metadata goes with the request
// headers, before the body. It then uploads it in one PUT that carries the
// content's SHA-256 (signed as x-amz-content-sha256) and MD5, so that the
// server refuses a body damaged on the way; an object is visible whole or
// not at all. A failing reader or a done context stops Put before anything
// is sent.
//
// Create-only: a Put without Replace must not take a name a live blob holds,
// and of concurrent Puts of one new name exactly one may win. When the
// server honours conditional writes (AWS S3 since 2024, MinIO, gofakes3)
// the PUT carries If-None-Match: *, which the server checks atomically; if
// the name is taken by an expired blob, the Put replaces it with If-Match
// on that object's ETag, so that a concurrent Put that took the name first
// still wins. A PUT the client sends again because the answer to one the
// server stored was lost is refused the same way; the object then carries
// this Put's own version tag (gen), so the Put succeeds. New finds out
// whether the server honours If-None-Match by
// writing a probe object twice (Options.Conditional overrides). When it
// does not (s3rver, some gateways), create-only is a best-effort check: a
// HEAD of the name, then the PUT; two processes creating one name at the
// same instant may then both succeed, the later upload winning. Such
// servers may also rewrite an object in place under a reader, so there the
// store serialises, inside the process, every change of a name (Put,
// Delete, ExtendExpiry) with its reads: a reader holds a shared lock on the
// name until it is closed.
//
// ExtendExpiry does not upload the content again: it copies the object onto
// itself with replaced metadata (x-amz-metadata-directive: REPLACE) on the
// condition that the source is still the version it read
// (x-amz-copy-source-if-match). Only when the server's copy cannot find an
// object its HEAD has just shown (s3rver leaves the reserved characters of
// the copy source escaped, so a name holding "?" or "#" fails there) is
// the content read again, verified, and uploaded with If-Match.
//
// # Reads
//
// Stat is one HEAD. Get of a whole blob is one GET (the metadata comes with
// the body); Get of a range and Open make a HEAD, then GET the chunks that
// cover the bytes asked for (Open lazily, at the position of each Read after
// a Seek). Every chunk is checked against its digest before any byte of it
// is returned, so damaged content (or a server returning other bytes) is
// EUPSTREAM, never data; a GET whose response names another version than the
// HEAD is retried from the HEAD. Expiry is enforced on every read with the
// store's clock, whether or not the object still exists: an expired blob is
// absent for Get, Open, Stat and ExtendExpiry and gives its name up to Put.
// DeleteExpired removes expired objects (a listing and a HEAD per object, so
// it runs a full pass at most once per Options.SweepEvery); the services
// delete the blobs of their expired records themselves.
//
// # URLs
//
// URL returns the object's path-style address (or Options.BaseURL and the
// escaped name): a stable reference, readable by third parties only if the
// bucket allows it. PresignGet (blob.Presigner) returns a URL signed for up
// to 7 days (the S3 limit) that anyone can GET; screening proofs name it as
// a snapshot's storageUrl. A presigned URL serves the object as long as it
// exists, even past the blob's expiry until the object is deleted.
//
// The package imports the root package, blob, minio-go and the standard
// library only.
package s3
