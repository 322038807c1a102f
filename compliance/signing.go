package compliance

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/wire"
)

// A screening proof document is signed by its issuer, so that its holder
// cannot rewrite it: resultsHash alone is an unkeyed digest, which anyone
// flipping a result to clear can recompute. The signature (Ed25519) is
// over the document's statement (Statement): the screening id and time,
// resultsHash (and through it every result, byte for byte), the list
// version, every root the proofs lead to, the data sources and their
// snapshots' digests. The proofs need no signature: they are checked
// against those roots. A document names the key that signed it (keyId);
// GET /v1/compliance/signing-keys publishes the current key and the
// retired ones, so that documents signed before a rotation stay
// verifiable.

// SignatureAlg is the only signature algorithm of proof documents.
const SignatureAlg = "Ed25519"

// statementHeader starts every statement: the format, versioned.
const statementHeader = "cairn-screening-proof-statement-v1\n"

// ProofSignature is a proof document's signature.
type ProofSignature struct {
	Alg   string `json:"alg"`
	KeyID string `json:"keyId"`
	// Value is the standard, padded base64 of the 64-byte Ed25519
	// signature of the document's Statement.
	Value string `json:"value"`
}

// SigningKey is a published public key of proof documents.
type SigningKey = wire.SigningKey

// KeyID names a public key: "ed25519-" and the first 16 hex digits of the
// SHA-256 of its 32 bytes.
func KeyID(pub ed25519.PublicKey) string {
	sum := sha256.Sum256(pub)
	return "ed25519-" + hex.EncodeToString(sum[:8])
}

// Signer signs proof documents with one Ed25519 key and publishes it with
// the retired ones.
type Signer struct {
	key     ed25519.PrivateKey
	id      string
	retired []ed25519.PublicKey
}

// NewSigner makes a signer of the 32-byte Ed25519 seed, publishing the
// retired public keys beside its own.
func NewSigner(seed []byte, retired []ed25519.PublicKey) (*Signer, error) {
	if len(seed) != ed25519.SeedSize {
		return nil, fmt.Errorf("a signing key seed is %d bytes, not %d", ed25519.SeedSize, len(seed))
	}
	key := ed25519.NewKeyFromSeed(seed)
	return &Signer{key: key, id: KeyID(key.Public().(ed25519.PublicKey)), retired: retired}, nil
}

// KeyID is the id of the signer's key.
func (s *Signer) KeyID() string { return s.id }

// Keys returns the published keys: the current one first, then the
// retired ones (a retired key equal to the current one is listed once).
func (s *Signer) Keys() []SigningKey {
	pub := s.key.Public().(ed25519.PublicKey)
	keys := []SigningKey{{KeyID: s.id, Alg: SignatureAlg, PublicKey: hex.EncodeToString(pub), Current: true}}
	for _, r := range s.retired {
		if r.Equal(pub) || slices.ContainsFunc(keys, func(k SigningKey) bool { return k.KeyID == KeyID(r) }) {
			continue
		}
		keys = append(keys, SigningKey{KeyID: KeyID(r), Alg: SignatureAlg, PublicKey: hex.EncodeToString(r)})
	}
	return keys
}

// Sign returns the signature of the document's statement.
func (s *Signer) Sign(doc *ProofDoc) (*ProofSignature, error) {
	st, err := Statement(doc)
	if err != nil {
		return nil, err
	}
	return &ProofSignature{Alg: SignatureAlg, KeyID: s.id, Value: base64.StdEncoding.EncodeToString(ed25519.Sign(s.key, st))}, nil
}

// Statement returns the bytes a document's signature signs: the line
// "cairn-screening-proof-statement-v1", then one line "name=value" for
// each of screeningId, timestamp, resultsHash, listVersion (decimal),
// merkleRoot, sanctionsRoot, communityRoot, exclusionRoot,
// communityExclusionRoot, dataSources (the names in the document's order,
// joined by ",") and dataSnapshots (for each source name in byte order,
// "name sha256", joined by ","), each line ending in "\n". A value holding
// a line break, or a source name holding "," or a space, has no statement (an
// EINVALID error): a document that could be read two ways is not signed.
func Statement(doc *ProofDoc) ([]byte, error) {
	names := make([]string, 0, len(doc.DataSnapshots))
	for name := range doc.DataSnapshots {
		names = append(names, name)
	}
	slices.Sort(names)
	snaps := make([]string, len(names))
	for i, name := range names {
		snaps[i] = name + " " + doc.DataSnapshots[name].SHA256
	}
	for _, n := range slices.Concat(doc.DataSources, names) {
		if strings.ContainsAny(n, ", ") {
			return nil, cairn.Errorf(cairn.EINVALID, "compliance: data source name %q holds ',' or a space", n)
		}
	}
	var b strings.Builder
	b.WriteString(statementHeader)
	for _, f := range [][2]string{
		{"screeningId", doc.ScreeningID},
		{"timestamp", doc.Timestamp},
		{"resultsHash", doc.ResultsHash},
		{"listVersion", strconv.FormatUint(doc.ListVersion, 10)},
		{"merkleRoot", doc.MerkleRoot},
		{"sanctionsRoot", doc.SanctionsRoot},
		{"communityRoot", doc.CommunityRoot},
		{"exclusionRoot", doc.ExclusionRoot},
		{"communityExclusionRoot", doc.CommunityExclusionRoot},
		{"dataSources", strings.Join(doc.DataSources, ",")},
		{"dataSnapshots", strings.Join(snaps, ",")},
	} {
		if strings.ContainsAny(f[1], "\n\r") {
			return nil, cairn.Errorf(cairn.EINVALID, "compliance: %s holds a line break", f[0])
		}
		b.WriteString(f[0] + "=" + f[1] + "\n")
	}
	return []byte(b.String()), nil
}

// VerifySignature checks the document's signature with the published
// keys: the key it names must be among them and the signature must be
// that key's of the document's statement. A document without a signature
// is EINVALID too.
func VerifySignature(doc *ProofDoc, keys []SigningKey) (SigningKey, error) {
	sig := doc.Signature
	if sig == nil {
		return SigningKey{}, cairn.Errorf(cairn.EINVALID, "the document is not signed")
	}
	if sig.Alg != SignatureAlg {
		return SigningKey{}, cairn.Errorf(cairn.EINVALID, "signature algorithm %q is not %s", sig.Alg, SignatureAlg)
	}
	i := slices.IndexFunc(keys, func(k SigningKey) bool { return k.KeyID == sig.KeyID })
	if i < 0 {
		return SigningKey{}, cairn.Errorf(cairn.EINVALID, "signing key %q is not among the %d published keys", sig.KeyID, len(keys))
	}
	key := keys[i]
	pub, err := hex.DecodeString(key.PublicKey)
	if err != nil || len(pub) != ed25519.PublicKeySize || KeyID(pub) != key.KeyID {
		return key, cairn.Errorf(cairn.EINVALID, "published key %q is not a 32-byte hex Ed25519 key of that id", key.KeyID)
	}
	value, err := base64.StdEncoding.DecodeString(sig.Value)
	if err != nil {
		return key, cairn.Errorf(cairn.EINVALID, "the signature is not base64")
	}
	st, err := Statement(doc)
	if err != nil {
		return key, err
	}
	if !ed25519.Verify(pub, st, value) {
		return key, cairn.Errorf(cairn.EINVALID, "the signature does not match the document (key %s)", key.KeyID)
	}
	return key, nil
}
