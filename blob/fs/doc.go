// Package fs is the embedded blob store of cairn: blobs are files under one
// root directory (the service passes <data-dir>/blobs), checked against
// SHA-256 digests on every read.
//
// # Layout
//
// A blob name is never used as a path. The store hashes it (SHA-256, hex) and
// keeps everything about the blob in the fan-out directory named by the first
// two hex digits:
//
//	<root>/<kk>/<key>.meta              sidecar record (JSON): name, size,
//	                                    digests, content type, times, gen
//	<root>/<kk>/<key>.<gen>.blob        content, immutable once written
//	<root>/<kk>/<key>.<gen>.blob.tmp    content being written
//	<root>/<kk>/<key>.<rnd>.meta.tmp    sidecar being written
//
// so no name can escape the root, names differing only in case or Unicode
// normalisation never share a file, and a blob "a" never collides with a
// blob "a/b".
//
// # Writes
//
// Put streams the content into a temp file, recording the SHA-256 of the
// whole content and of every 64 KiB chunk, fsyncs it, renames it to its
// generation's .blob name and fsyncs the directory; then it writes the
// sidecar to a temp file, fsyncs it, renames it over <key>.meta and fsyncs
// the directory. Renaming the sidecar is the commit: until then readers see
// the previous blob (or none), afterwards the new one. ExtendExpiry rewrites
// only the sidecar, the same way. Leftovers of a crash (temp files, content
// no sidecar refers to) are never read, and are removed by New and by
// DeleteExpired.
//
// # Reads
//
// Get and Open verify each chunk they return against its digest before the
// bytes leave the store, so a range read hashes only the chunks it touches
// and a full read verifies everything. A mismatch is EUPSTREAM.
//
// One process owns a root at a time. Writes to the same name are serialised
// inside the process; readers never block writers for longer than a sidecar
// read. Open files stay readable when the blob is replaced or deleted
// (POSIX unlink semantics).
//
// The package imports the root package, blob and the standard library only.
package fs
