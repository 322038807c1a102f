// Package media owns agents' media files: the category a MIME type gives,
// MIME detection from the bytes, safe blob names, upload with a size limit
// and expiry, listing, reading for streaming, deletion and the sweep of
// expired files.
//
// It imports the root package, the store and blob contracts and the
// standard library; never an implementation nor HTTP routing.
package media
