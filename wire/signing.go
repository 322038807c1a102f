package wire

// SigningKey is a public key screening proof documents are signed with.
type SigningKey struct {
	KeyID string `json:"keyId"`
	Alg   string `json:"alg"`
	// PublicKey is the 32-byte Ed25519 public key, lower-case hex.
	PublicKey string `json:"publicKey"`
	// Current is true for the key new documents are signed with; false
	// for a retired one, kept so that older documents still verify.
	Current bool `json:"current"`
}

// SigningKeys is the answer of getSigningKeys: the current key first, then
// the retired ones.
type SigningKeys struct {
	Keys []SigningKey `json:"keys"`
}
