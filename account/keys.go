package account

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"strings"
)

// KeyPrefix starts every API key and rotation secret.
const KeyPrefix = "sk_live_"

// newSecret returns KeyPrefix followed by 256 random bits in base64url
// (43 characters), and its SHA-256 digest.
func newSecret() (string, []byte) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("account: crypto/rand failed: " + err.Error())
	}
	s := KeyPrefix + base64.RawURLEncoding.EncodeToString(b[:])
	return s, HashSecret(s)
}

// HashSecret returns the SHA-256 digest under which a key or secret is
// stored.
func HashSecret(s string) []byte {
	h := sha256.Sum256([]byte(s))
	return h[:]
}

// LooksLikeKey reports whether s has the shape of an API key. It is a cheap
// filter, not an authentication.
func LooksLikeKey(s string) bool {
	return strings.HasPrefix(s, KeyPrefix) && len(s) > len(KeyPrefix) && len(s) <= 128
}

// equalHash compares two digests in constant time.
func equalHash(a, b []byte) bool {
	return len(a) == len(b) && len(a) > 0 && subtle.ConstantTimeCompare(a, b) == 1
}
