package account

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"strings"
)

// KeyPrefix starts every API key and rotation secret (spec 2.3).
const KeyPrefix = "sk_live_"

// SecretPrefix starts the rotation secrets issued since they were told
// apart from API keys: still KeyPrefix (spec 2.3), then "rs_", which no
// new API key starts with, so that a secret sent as a key gets an answer
// that says so.
const SecretPrefix = KeyPrefix + "rs_"

// newSecret returns KeyPrefix followed by 256 random bits in base64url
// (43 characters) that do not start with "rs_", and its SHA-256 digest:
// a new API key.
func newSecret() (string, []byte) {
	for {
		s := KeyPrefix + randomText()
		if !strings.HasPrefix(s, SecretPrefix) {
			return s, HashSecret(s)
		}
	}
}

// newRotationSecret returns SecretPrefix followed by 256 random bits in
// base64url, and its SHA-256 digest.
func newRotationSecret() (string, []byte) {
	s := SecretPrefix + randomText()
	return s, HashSecret(s)
}

func randomText() string {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("account: crypto/rand failed: " + err.Error())
	}
	return base64.RawURLEncoding.EncodeToString(b[:])
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
