package wire

import (
	"bytes"
	"encoding/json"
)

// ExclusionProof proves that an address is not in a tree: Leaf is the
// exclusion tree leaf of Value (family, low, high; leaf encoding
// ["string","string","string"], "" at an open end), and Proof leads from
// it to Root. Low and High are the arguments of the contract's
// isNotSanctioned: for EVM 0x addresses, an open end written as 0x00..00
// (Low) or 0xff..ff (High).
type ExclusionProof struct {
	High  string    `json:"high"`
	Leaf  string    `json:"leaf"`
	Low   string    `json:"low"`
	Proof []string  `json:"proof"`
	Root  string    `json:"root"`
	Value [3]string `json:"value"`
}

// MerkleProof is the Merkle proof of one address (getMerkleProof): Proof
// leads from Leaf (the OpenZeppelin StandardMerkleTree leaf of
// LeafEncoding ["string","string"] = (Family, CanonicalAddress)) to Root,
// the root of the tree of its Class. An unlisted address has an empty
// Proof.
type MerkleProof struct {
	Address          string `json:"address"`
	CanonicalAddress string `json:"canonicalAddress"`
	Chain            string `json:"chain"`
	// Class is sanctions, community, or nil when the address is not
	// listed.
	Class *string `json:"class"`
	// CommunityExclusionProof proves that the address is not in the
	// community tree (nil when it is), ExclusionProof that it is not in
	// the sanctions tree.
	CommunityExclusionProof *ExclusionProof    `json:"communityExclusionProof,omitempty"`
	CommunityExclusionRoot  string             `json:"communityExclusionRoot"`
	CommunityRoot           string             `json:"communityRoot"`
	ExclusionLeafEncoding   []string           `json:"exclusionLeafEncoding"`
	ExclusionProof          *ExclusionProof    `json:"exclusionProof,omitempty"`
	ExclusionRoot           string             `json:"exclusionRoot"`
	Family                  string             `json:"family"`
	Leaf                    string             `json:"leaf"`
	LeafEncoding            []string           `json:"leafEncoding"`
	ListVersion             int64              `json:"listVersion"`
	Listed                  bool               `json:"listed"`
	Proof                   []string           `json:"proof"`
	RateLimit               ScreeningRateLimit `json:"rateLimit"`
	Root                    string             `json:"root"`
	Sanctioned              bool               `json:"sanctioned"`
	SanctionsRoot           string             `json:"sanctionsRoot"`
}

// AddressProof is the proof of one address of a batch; an invalid address
// has Valid false and nil Leaf and Root.
type AddressProof struct {
	Address          string  `json:"address"`
	CanonicalAddress string  `json:"canonicalAddress"`
	Chain            string  `json:"chain"`
	Class            *string `json:"class"`
	// CommunityExclusionProof and ExclusionProof prove the absence of a
	// valid address from each tree it is not in.
	CommunityExclusionProof *ExclusionProof `json:"communityExclusionProof,omitempty"`
	ExclusionProof          *ExclusionProof `json:"exclusionProof,omitempty"`
	Family                  string          `json:"family"`
	Leaf                    *string         `json:"leaf"`
	Listed                  bool            `json:"listed"`
	Proof                   []string        `json:"proof"`
	// Root is the root of the class's tree.
	Root       *string `json:"root"`
	Sanctioned bool    `json:"sanctioned"`
	Valid      bool    `json:"valid"`
}

// Multiproof is an OpenZeppelin multiproof: Leaves are the leaf hashes of
// Values (each a (family, canonical address) pair, leaf encoding
// ["string","string"]), in the order MerkleProof.multiProofVerify takes
// them with Proof and ProofFlags.
type Multiproof struct {
	Leaves     []string    `json:"leaves"`
	Proof      []string    `json:"proof"`
	ProofFlags []bool      `json:"proofFlags"`
	Values     [][2]string `json:"values"`
}

// ExclusionMultiproof is an OpenZeppelin multiproof of exclusion tree
// leaves: Values are their (family, low, high) gaps.
type ExclusionMultiproof struct {
	Leaves     []string    `json:"leaves"`
	Proof      []string    `json:"proof"`
	ProofFlags []bool      `json:"proofFlags"`
	Values     [][3]string `json:"values"`
}

// MerkleProofBatch is the result of getMerkleProofBatch. With multiproof,
// Multiproof proves the listed addresses of class sanctions against
// SanctionsRoot and CommunityMultiproof those of class community against
// CommunityRoot (nil when the class has none); ExclusionMultiproof and
// CommunityExclusionMultiproof prove the gaps of the valid addresses not
// in each tree against ExclusionRoot and CommunityExclusionRoot.
type MerkleProofBatch struct {
	CommunityExclusionMultiproof *ExclusionMultiproof `json:"communityExclusionMultiproof,omitempty"`
	CommunityExclusionRoot       string               `json:"communityExclusionRoot"`
	CommunityMultiproof          *Multiproof          `json:"communityMultiproof,omitempty"`
	CommunityRoot                string               `json:"communityRoot"`
	ExclusionLeafEncoding        []string             `json:"exclusionLeafEncoding"`
	ExclusionMultiproof          *ExclusionMultiproof `json:"exclusionMultiproof,omitempty"`
	ExclusionRoot                string               `json:"exclusionRoot"`
	LeafEncoding                 []string             `json:"leafEncoding"`
	ListVersion                  int64                `json:"listVersion"`
	Multiproof                   *Multiproof          `json:"multiproof,omitempty"`
	RateLimit                    ScreeningRateLimit   `json:"rateLimit"`
	Results                      []AddressProof       `json:"results"`
	// Root is the sanctions root.
	Root          string `json:"root"`
	SanctionsRoot string `json:"sanctionsRoot"`
}

// Disabled is the status of an Anchor or Oracle the server does not
// keep: it is written with its status only.
const Disabled = "disabled"

// Anchor is the on-chain anchoring of the roots. Status is disabled (and
// nothing else is set or written) when no chain is configured, else
// pending, submitted, synced or failed; the pointers are nil (written as
// null) until known.
type Anchor struct {
	BlockNumber *int64 `json:"blockNumber"`
	ChainID     int64  `json:"chainId"`
	// Confirmations is how many blocks, counting the transaction's, must
	// be mined before a version is synced.
	Confirmations int64   `json:"confirmations,omitzero"`
	Contract      string  `json:"contract"` // 0x address, lower case
	Error         *string `json:"error"`
	// HeadBlock is the newest block the service read from the node while
	// the transaction waited for its confirmations (omitted before any).
	HeadBlock int64 `json:"headBlock,omitzero"`
	// ListVersion is the list version whose roots are being anchored.
	ListVersion *int64  `json:"listVersion"`
	Status      string  `json:"status"`
	SyncedAt    *Time   `json:"syncedAt"`
	TxHash      *string `json:"txHash"`
}

// MarshalJSON writes the status alone when a is Disabled, else every
// member.
func (a Anchor) MarshalJSON() ([]byte, error) {
	type members Anchor
	return marshalStatus(a.Status, members(a))
}

// Oracle is the state of the verifier contract's isSanctioned(address)
// storage, which the service keeps in step with the anchored version.
// Status is disabled (and nothing else is set or written) when it is not
// kept, else syncing, synced or failed.
type Oracle struct {
	Error *string `json:"error"`
	// ListVersion is the anchored list version the storage is kept in
	// step with (nil before any is anchored).
	ListVersion *int64 `json:"listVersion"`
	// Pending is how many addresses are still to be added or removed.
	Pending int     `json:"pending"`
	Status  string  `json:"status"`
	TxHash  *string `json:"txHash"`
}

// MarshalJSON writes the status alone when o is Disabled, else every
// member.
func (o Oracle) MarshalJSON() ([]byte, error) {
	type members Oracle
	return marshalStatus(o.Status, members(o))
}

// marshalStatus is {"status": status} when status is Disabled, else v,
// without HTML escaping, as the server writes it.
func marshalStatus(status string, v any) ([]byte, error) {
	if status == Disabled {
		v = Status{status}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// MerkleRoot is the result of getMerkleRoot: the roots of the current
// list version (Root = SanctionsRoot; an empty tree's root is zero).
type MerkleRoot struct {
	Anchor                      Anchor `json:"anchor"`
	BuiltAt                     *Time  `json:"builtAt"`
	CommunityExclusionLeafCount int    `json:"communityExclusionLeafCount"`
	// CommunityExclusionRoot and ExclusionRoot are the roots of the
	// exclusion trees (leaf encoding ExclusionLeafEncoding).
	CommunityExclusionRoot string   `json:"communityExclusionRoot"`
	CommunityLeafCount     int      `json:"communityLeafCount"`
	CommunityRoot          string   `json:"communityRoot"`
	ExclusionLeafCount     int      `json:"exclusionLeafCount"`
	ExclusionLeafEncoding  []string `json:"exclusionLeafEncoding"`
	ExclusionRoot          string   `json:"exclusionRoot"`
	LeafCount              int      `json:"leafCount"`
	ListVersion            int64    `json:"listVersion"`
	Oracle                 Oracle   `json:"oracle"`
	Root                   string   `json:"root"`
	SanctionsLeafCount     int      `json:"sanctionsLeafCount"`
	SanctionsRoot          string   `json:"sanctionsRoot"`
}
