package cairn

import (
	"strconv"
	"strings"
	"time"
)

// Anchor is the anchoring of one list version's Merkle roots to one
// verifier contract (its Target), with the one transaction that carries
// them: the record the anchor store keeps and the state chain.Anchorer
// reports, one shape for both. Status takes the values of chain.Anchor*;
// chain.RootsOf reads its roots.
type Anchor struct {
	Target        string `json:"target"` // "<chain id>:<contract 0x hex, lower-case>"
	ListVersion   uint64 `json:"listVersion"`
	SanctionsRoot string `json:"sanctionsRoot"` // 0x hex
	CommunityRoot string `json:"communityRoot"` // 0x hex
	// The exclusion roots, 0x hex. A record written before they were
	// anchored has none: "" (Pebble) or, after PostgreSQL's migration
	// 0011, the zero root; both read as the zero root.
	ExclusionRoot          string `json:"exclusionRoot"`
	CommunityExclusionRoot string `json:"communityExclusionRoot"`
	Status                 string `json:"status"`

	// The transaction: signed and stored before it is broadcast, so that
	// after a restart the same bytes are sent again.
	From         string   `json:"from,omitempty"` // sender, 0x hex
	Nonce        uint64   `json:"nonce"`
	RawTx        []byte   `json:"rawTx,omitempty"` // binary (EIP-2718) encoding
	TxHash       string   `json:"txHash,omitempty"`
	PrevTxHashes []string `json:"prevTxHashes,omitempty"` // earlier ones that can no longer be mined
	BlockNumber  uint64   `json:"blockNumber"`

	Attempts    int       `json:"attempts"`    // failures in a row
	NextAttempt time.Time `json:"nextAttempt"` // not before: the backoff after a failure
	Error       string    `json:"error,omitempty"`
	CreatedAt   time.Time `json:"createdAt"`
	SubmittedAt time.Time `json:"submittedAt"`
	SyncedAt    time.Time `json:"syncedAt"`

	// Oracle records only (the target of chain/evm's Oracle, "<target>/oracle",
	// one record per anchored list version, whose roots it carries): the
	// addresses still to add or remove, as last counted, and how many of
	// its transactions were mined. The transaction fields hold the one in
	// flight.
	Pending int `json:"pending,omitempty"`
	Batches int `json:"batches,omitempty"`
}

// ChainID is the chain of the record's Target, 0 when it names none.
func (a Anchor) ChainID() uint64 {
	id, _ := a.chain()
	return id
}

// Contract is the verifier contract of the record's Target (0x hex,
// lower-case), "" when it names none.
func (a Anchor) Contract() string {
	_, contract := a.chain()
	return contract
}

// chain splits the Target, "<chain id>:<contract>" (an oracle record's
// with "/oracle" after it).
func (a Anchor) chain() (uint64, string) {
	target, _, _ := strings.Cut(a.Target, "/")
	id, contract, ok := strings.Cut(target, ":")
	n, err := strconv.ParseUint(id, 10, 64)
	if !ok || err != nil {
		return 0, ""
	}
	return n, contract
}
