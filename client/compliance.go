package client

import (
	"context"
	"net/http"
	"time"
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
	Source     string  `json:"source"`
	Category   string  `json:"category"`
	Severity   string  `json:"severity"`
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

// Screening is the result of screenAddresses.
type Screening struct {
	Results     []ScreeningResult `json:"results"`
	DataSources []string          `json:"dataSources"`
	Proof       Object            `json:"proof"`
	RateLimit   struct {
		FreeLimit         int       `json:"freeLimit"`
		FreeRemaining     int       `json:"freeRemaining"`
		FreeReset         time.Time `json:"freeReset"`
		BillableAddresses int       `json:"billableAddresses"`
		CreditCharged     int64     `json:"creditCharged"`
	} `json:"rateLimit"`
}

// ScreenAddresses screens up to 100 addresses (screenAddresses).
// includeCommunity nil means the server's default (true).
func (c *Client) ScreenAddresses(ctx context.Context, addrs []AddressRef, includeCommunity *bool) (*Screening, error) {
	body := map[string]any{"addresses": addrs}
	if includeCommunity != nil {
		body["includeCommunity"] = *includeCommunity
	}
	var out Screening
	return ret(&out, c.call(ctx, http.MethodPost, "/v1/compliance/screen", body, &out, authAgent))
}

// GetScreeningProof returns a stored screening proof (getScreeningProof,
// no authentication).
func (c *Client) GetScreeningProof(ctx context.Context, screeningID string) (Object, error) {
	var out Object
	return out, c.call(ctx, http.MethodGet, "/v1/compliance/proofs/"+esc(screeningID), nil, &out, authNone)
}

// MerkleProof is the Merkle proof of one address.
type MerkleProof struct {
	Address          string   `json:"address"`
	Chain            string   `json:"chain"`
	Family           string   `json:"family"`
	CanonicalAddress string   `json:"canonicalAddress"`
	Class            *string  `json:"class"`
	Sanctioned       bool     `json:"sanctioned"`
	Listed           bool     `json:"listed"`
	Leaf             string   `json:"leaf"`
	Proof            []string `json:"proof"`
	LeafEncoding     []string `json:"leafEncoding"`
	Root             string   `json:"root"`
	SanctionsRoot    string   `json:"sanctionsRoot,omitempty"`
	CommunityRoot    string   `json:"communityRoot,omitempty"`
	ListVersion      int64    `json:"listVersion"`
	RateLimit        Object   `json:"rateLimit,omitempty"`
}

// GetMerkleProof returns the Merkle proof of an address (getMerkleProof).
func (c *Client) GetMerkleProof(ctx context.Context, address, chain string) (*MerkleProof, error) {
	var out MerkleProof
	_, err := c.do(ctx, &request{method: http.MethodGet, path: "/v1/compliance/merkle-proof",
		query: query("address", address, "chain", chain)}, &out)
	return ret(&out, err)
}

// GetMerkleProofBatch returns proofs of up to 100 addresses
// (getMerkleProofBatch); multiproof asks for one OpenZeppelin multiproof.
func (c *Client) GetMerkleProofBatch(ctx context.Context, addrs []AddressRef, multiproof bool) (Object, error) {
	var out Object
	return out, c.call(ctx, http.MethodPost, "/v1/compliance/merkle-proof/batch",
		map[string]any{"addresses": addrs, "multiproof": multiproof}, &out, authAgent)
}

// GetMerkleRoot returns the current roots and their anchor (getMerkleRoot).
func (c *Client) GetMerkleRoot(ctx context.Context) (Object, error) {
	var out Object
	return out, c.call(ctx, http.MethodGet, "/v1/compliance/merkle-root", nil, &out, authAgent)
}

// RunIngest ingests the configured sources now (runIngest, admin).
func (c *Client) RunIngest(ctx context.Context) (Object, error) {
	var out Object
	return out, c.call(ctx, http.MethodPost, "/v1/admin/ingest", nil, &out, authAdmin)
}

// GetSnapshot streams a source snapshot by digest (getSnapshot, no
// authentication); o may ask for a Range.
func (c *Client) GetSnapshot(ctx context.Context, sha256 string, o RangeOptions) (*Stream, error) {
	r := &request{method: http.MethodGet, path: "/v1/compliance/snapshots/" + esc(sha256), auth: authNone}
	o.apply(r)
	return c.stream(ctx, r)
}

// ReportRequest is the body of reportAddress.
type ReportRequest struct {
	Address  string   `json:"address"`
	Chain    string   `json:"chain,omitempty"`
	Category string   `json:"category"`
	Reason   string   `json:"reason"`
	Evidence []string `json:"evidence,omitempty"`
}

// ReportResult is the result of reportAddress.
type ReportResult struct {
	ReportID               string `json:"reportId"`
	Status                 string `json:"status"`
	AutoEscalated          bool   `json:"autoEscalated"`
	CountsTowardEscalation bool   `json:"countsTowardEscalation"`
	Disclaimer             string `json:"disclaimer"`
}

// ReportAddress files a community report (reportAddress).
func (c *Client) ReportAddress(ctx context.Context, rep ReportRequest) (*ReportResult, error) {
	var out ReportResult
	return ret(&out, c.call(ctx, http.MethodPost, "/v1/compliance/report", rep, &out, authAgent))
}

// ComplianceStats returns list and report statistics (complianceStats).
func (c *Client) ComplianceStats(ctx context.Context) (Object, error) {
	var out Object
	return out, c.call(ctx, http.MethodGet, "/v1/compliance/stats", nil, &out, authAgent)
}
