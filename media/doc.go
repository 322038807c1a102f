// Package media owns agents' media files: the category a MIME type gives,
// MIME detection from the bytes, safe blob names, the options of an upload
// form (ParseOptions, ParseMetadata), upload with a size limit and expiry,
// listing, reading for streaming, deletion and the sweep of expired files,
// and the deletes of failed uploads' blobs, retried in the background while
// the blob store is unreachable (orphans.go).
//
// It imports the root package, the store and blob contracts,
// internal/ttlcache (the cache of media records) and the standard library;
// never an implementation nor HTTP routing.
package media
