package client

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/cairn-dev/cairn/wire"
)

// AddressRef is an address on a chain.
type AddressRef struct {
	Address string `json:"address"`
	Chain   string `json:"chain"`
}

// ScreeningMatch is one list entry an address matched.
type ScreeningMatch struct {
	EntityID   *string `json:"entityId"`
	EntityName *string `json:"entityName"`
	// Programs are the sanctions programs the source lists the entity
	// under (gov_sdn: OFAC codes such as DPRK3); nil when it names none.
	Programs []string `json:"programs,omitempty"`
	Source   string   `json:"source"`
	Category string   `json:"category"`
	Severity string   `json:"severity"`
}

// ScreeningResult is the verdict on one address.
type ScreeningResult struct {
	Address          string           `json:"address"`
	Chain            string           `json:"chain"`
	Status           string           `json:"status"`
	Family           string           `json:"family"`
	CanonicalAddress string           `json:"canonicalAddress"`
	Checksum         string           `json:"checksum"`
	Matches          []ScreeningMatch `json:"matches"`
	ScreenedAt       time.Time        `json:"screenedAt"`
}

// DataSnapshot is the raw copy of a source a list version was built from:
// GetSnapshot(SHA256) (or StorageURL) returns bytes whose SHA-256 is
// SHA256.
type DataSnapshot = wire.Snapshot

// ScreeningProof is the proof of a screening: ResultsHash is the hex
// SHA-256 of the results array as the server serialised it, and the roots
// are those of the list version the results were screened against. Hashes
// are 0x-prefixed lower-case hex (32 bytes) unless said otherwise.
type ScreeningProof struct {
	ScreeningID   string                  `json:"screeningId"`
	Timestamp     time.Time               `json:"timestamp"`
	ResultsHash   string                  `json:"resultsHash"` // hex, no 0x
	DataSources   []string                `json:"dataSources"`
	DataSnapshots map[string]DataSnapshot `json:"dataSnapshots"`
	ListVersion   int64                   `json:"listVersion"`
	// MerkleRoot is the sanctions root (= SanctionsRoot).
	MerkleRoot    string `json:"merkleRoot"`
	SanctionsRoot string `json:"sanctionsRoot,omitempty"`
	CommunityRoot string `json:"communityRoot,omitempty"`
	// ExclusionRoot and CommunityExclusionRoot are the roots of the
	// exclusion trees (empty in documents stored before clear results
	// were proven).
	ExclusionRoot          string `json:"exclusionRoot,omitempty"`
	CommunityExclusionRoot string `json:"communityExclusionRoot,omitempty"`
	// ProofURL is where anyone reads the stored proof document, without an
	// account (GetScreeningProof).
	ProofURL string `json:"proofUrl,omitempty"`
	// Signature is the issuer's Ed25519 signature of the document's
	// statement (GetSigningKeys); nil in documents stored before documents
	// were signed.
	Signature *ProofSignature `json:"signature,omitempty"`
}

// ProofSignature is a proof document's signature: Value is the standard
// base64 of the 64-byte Ed25519 signature by the key KeyID.
type ProofSignature struct {
	Alg   string `json:"alg"`
	KeyID string `json:"keyId"`
	Value string `json:"value"`
}

// GetSigningKeys lists the keys proof documents are signed with, the
// current one first (getSigningKeys; no account needed).
func (c *Client) GetSigningKeys(ctx context.Context) (*SigningKeys, error) {
	var out SigningKeys
	if _, err := c.do(ctx, &request{method: http.MethodGet, path: "/v1/compliance/signing-keys", auth: authNone}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Screening is the result of screenAddresses.
type Screening struct {
	Results     []ScreeningResult  `json:"results"`
	DataSources []string           `json:"dataSources"`
	Proof       ScreeningProof     `json:"proof"`
	RateLimit   ScreeningRateLimit `json:"rateLimit"`
	// ResultsJSON is the results array exactly as the server sent it:
	// Proof.ResultsHash is the hex SHA-256 of its compact form.
	ResultsJSON json.RawMessage `json:"-"`
}

// ScreenAddresses screens up to 100 addresses (screenAddresses).
// includeCommunity nil means the server's default (true).
func (c *Client) ScreenAddresses(ctx context.Context, addrs []AddressRef, includeCommunity *bool) (*Screening, error) {
	body := map[string]any{"addresses": addrs}
	if includeCommunity != nil {
		body["includeCommunity"] = *includeCommunity
	}
	r, err := jsonRequest(http.MethodPost, "/v1/compliance/screen", body)
	if err != nil {
		return nil, err
	}
	var out Screening
	raw, err := c.do(ctx, r, &out)
	if err != nil {
		return nil, err
	}
	out.ResultsJSON = rawResults(raw)
	return &out, nil
}

// ClassMultiproof is the multiproof of the listed results of one class
// against that class's root.
type ClassMultiproof struct {
	Root string `json:"root"`
	Multiproof
}

// ClassExclusionMultiproof is the multiproof of the gaps of one class's
// exclusion tree against its root.
type ClassExclusionMultiproof struct {
	Root string `json:"root"`
	ExclusionMultiproof
}

// ScreeningProofDocument is a stored screening proof with the results it
// hashes (getScreeningProof).
type ScreeningProofDocument struct {
	ScreeningProof
	Results []ScreeningResult `json:"results"`
	// MerkleProofs holds, by class (sanctions, community), the multiproof
	// of the listed results against that class's root; a class with no
	// listed result is absent.
	MerkleProofs map[string]ClassMultiproof `json:"merkleProofs,omitempty"`
	// ExclusionProofs holds, by class, the multiproof of the exclusion
	// tree gaps that hold the results not in that class's tree.
	ExclusionProofs map[string]ClassExclusionMultiproof `json:"exclusionProofs,omitempty"`
	// ResultsJSON is the results array exactly as the server sent it:
	// ResultsHash is the hex SHA-256 of its compact form.
	ResultsJSON json.RawMessage `json:"-"`
}

// GetScreeningProof returns a stored screening proof (getScreeningProof,
// no authentication).
func (c *Client) GetScreeningProof(ctx context.Context, screeningID string) (*ScreeningProofDocument, error) {
	var out ScreeningProofDocument
	raw, err := c.do(ctx, &request{method: http.MethodGet, path: "/v1/compliance/proofs/" + esc(screeningID), auth: authNone}, &out)
	if err != nil {
		return nil, err
	}
	out.ResultsJSON = rawResults(raw)
	return &out, nil
}

// ScreeningProofJSON returns a stored screening proof document as the
// server sent it (getScreeningProof, no authentication): the bytes its
// results hash and signature cover, which client/verify checks.
func (c *Client) ScreeningProofJSON(ctx context.Context, screeningID string) ([]byte, error) {
	return c.do(ctx, &request{method: http.MethodGet, path: "/v1/compliance/proofs/" + esc(screeningID), auth: authNone}, nil)
}

// MerkleProofJSON returns the Merkle proof of an address, at the list
// version listVersion names (see GetMerkleProofAt), as the server sent
// it.
func (c *Client) MerkleProofJSON(ctx context.Context, address, chain, listVersion string) ([]byte, error) {
	return c.do(ctx, &request{method: http.MethodGet, path: "/v1/compliance/merkle-proof",
		query: query("address", address, "chain", chain, "listVersion", listVersion)}, nil)
}

// URL is the absolute URL of a path on the client's server.
func (c *Client) URL(path string) string { return c.base + path }

// rawResults returns the results member of a JSON object as sent.
func rawResults(body []byte) json.RawMessage {
	var v struct {
		Results json.RawMessage `json:"results"`
	}
	_ = json.Unmarshal(body, &v)
	return v.Results
}

// GetMerkleProof returns the Merkle proof of an address against the
// current list version (getMerkleProof).
func (c *Client) GetMerkleProof(ctx context.Context, address, chain string) (*MerkleProof, error) {
	return c.GetMerkleProofAt(ctx, address, chain, "")
}

// GetMerkleProofAt returns the Merkle proof of an address against the list
// version listVersion names: "" or "current", "anchored" (the version the
// chain holds, so that the proof passes the contract while a newer one is
// being anchored), or a version number.
func (c *Client) GetMerkleProofAt(ctx context.Context, address, chain, listVersion string) (*MerkleProof, error) {
	return getFor[MerkleProof](ctx, c, "/v1/compliance/merkle-proof",
		query("address", address, "chain", chain, "listVersion", listVersion))
}

// GetMerkleProofBatch returns proofs of up to 100 addresses
// (getMerkleProofBatch); multiproof asks for one OpenZeppelin multiproof
// per class.
func (c *Client) GetMerkleProofBatch(ctx context.Context, addrs []AddressRef, multiproof bool) (*MerkleProofBatch, error) {
	return c.GetMerkleProofBatchAt(ctx, addrs, multiproof, "")
}

// GetMerkleProofBatchAt is GetMerkleProofBatch against the list version
// listVersion names (as GetMerkleProofAt).
func (c *Client) GetMerkleProofBatchAt(ctx context.Context, addrs []AddressRef, multiproof bool, listVersion string) (*MerkleProofBatch, error) {
	body := map[string]any{"addresses": addrs, "multiproof": multiproof}
	if listVersion != "" {
		body["listVersion"] = listVersion
	}
	return callFor[MerkleProofBatch](ctx, c, http.MethodPost, "/v1/compliance/merkle-proof/batch", body, authAgent)
}

// GetMerkleRoot returns the current roots and their anchor (getMerkleRoot).
func (c *Client) GetMerkleRoot(ctx context.Context) (*MerkleRoot, error) {
	return callFor[MerkleRoot](ctx, c, http.MethodGet, "/v1/compliance/merkle-root", nil, authAgent)
}

// RunIngest ingests the configured sources now (runIngest, admin).
func (c *Client) RunIngest(ctx context.Context) (*Ingestion, error) {
	return callFor[Ingestion](ctx, c, http.MethodPost, "/v1/admin/ingest", nil, authAdmin)
}

// GetSnapshot streams a source snapshot by digest (getSnapshot, no
// authentication); o may ask for a Range.
func (c *Client) GetSnapshot(ctx context.Context, sha256 string, o RangeOptions) (*Stream, error) {
	r := &request{method: http.MethodGet, path: "/v1/compliance/snapshots/" + esc(sha256), auth: authNone}
	o.apply(r)
	return c.stream(ctx, r)
}

// ReportAddress files a community report (reportAddress).
func (c *Client) ReportAddress(ctx context.Context, rep ReportRequest) (*ReportResult, error) {
	return callFor[ReportResult](ctx, c, http.MethodPost, "/v1/compliance/report", rep, authAgent)
}

// ComplianceStats returns list and report statistics (complianceStats, no
// authentication).
func (c *Client) ComplianceStats(ctx context.Context) (*ComplianceStatistics, error) {
	return callFor[ComplianceStatistics](ctx, c, http.MethodGet, "/v1/compliance/stats", nil, authNone)
}
