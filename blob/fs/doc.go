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
//	                                    digests, content type, times, gen,
//	                                    the verified stamp (verify.go);
//	                                    for content shorter than one 64 KiB
//	                                    chunk, a newline and the content
//	                                    itself (format 2, "inline")
//	<root>/<kk>/<key>.<gen>.blob        content of a longer blob, immutable
//	                                    once its sidecar names it
//	<root>/<kk>/<key>.<gen>.meta.tmp    sidecar being written
//
// so no name can escape the root, names differing only in case or Unicode
// normalisation never share a file, and a blob "a" never collides with a
// blob "a/b". (Earlier versions also wrote <key>.<gen>.blob.tmp; the sweep
// still removes such leftovers.)
//
// # Writes
//
// Put keeps short content inline: one file, one fsync. Longer content is
// streamed into its generation's .blob file, recording the SHA-256 of the
// whole content and of every 64 KiB chunk, and the file and its directory
// entry are synced. Put then writes the sidecar to a temp file and fsyncs
// it, and the group commit (commit.go) renames it over <key>.meta and
// fsyncs the directory, once for all the Puts committed together. Renaming
// the sidecar is the commit: until then readers see the previous blob (or
// none), afterwards the new one, and they see it only once it is durable.
// ExtendExpiry rewrites only the sidecar (temp file, fsync, rename, fsync of
// the directory). Leftovers of a crash (temp files, content no sidecar
// refers to) are never read, and are removed by New and by DeleteExpired.
//
// # Reads
//
// Get and Open verify each chunk they return against its digest before the
// bytes leave the store, so a range read hashes only the chunks it touches
// and a full read verifies everything. A mismatch is EUPSTREAM. A content
// file that a full read (or Scrub) verified a while after it was last
// written is marked verified in its sidecar with its stamp (inode, change
// time), and Open reads it without hashing, or lets the kernel send it,
// while the stamp is unchanged (verify.go). An inline
// blob is read with its sidecar: one file read. The content files of the
// last 128 blobs read stay open (handles.go), shared by their readers, until
// the blob changes, so that a small read of a hot blob makes no open, stat
// or close; the read cache (cache.go) keeps decoded sidecars and verified
// chunks.
//
// One process owns a root at a time. Writes to the same name are serialised
// inside the process; readers never block writers for longer than a sidecar
// read. Open files stay readable when the blob is replaced or deleted
// (POSIX unlink semantics).
//
// The package imports the root package, blob and the standard library only.
package fs
