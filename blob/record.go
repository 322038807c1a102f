package blob

import (
	"crypto/sha256"
	"time"
)

// What both backends' records of a blob compute the same way: its expiry,
// its chunks (the content in chunks of a fixed size, the last one shorter,
// each with its SHA-256 recorded), the hex fields of its record.

// Expired reports whether a blob that expires at expiresAt (zero: never)
// has expired at now: from its expiresAt instant on.
func Expired(expiresAt, now time.Time) bool {
	return !expiresAt.IsZero() && !now.Before(expiresAt)
}

// ChunkLen is the length of chunk i of size bytes cut in chunks of
// chunkSize.
func ChunkLen(size, chunkSize, i int64) int64 { return min(chunkSize, size-i*chunkSize) }

// ChunkSum is the digest of chunk i in sums, the SHA-256 digests of every
// chunk concatenated.
func ChunkSum(sums []byte, i int64) []byte { return sums[i*sha256.Size : (i+1)*sha256.Size] }

// IsHex reports whether s is n lower-case hexadecimal digits.
func IsHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
