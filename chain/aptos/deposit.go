package aptos

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	aptossdk "github.com/aptos-labs/aptos-go-sdk"
	"github.com/aptos-labs/aptos-go-sdk/api"
	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/chain"
	"golang.org/x/crypto/sha3"
)

// Public REST endpoints of the Aptos networks (the default of
// --aptos-node-url for --aptos-network).
var NodeURLs = map[string]string{
	"mainnet": "https://api.mainnet.aptoslabs.com/v1",
	"testnet": "https://api.testnet.aptoslabs.com/v1",
	"devnet":  "https://api.devnet.aptoslabs.com/v1",
}

// Event and resource types a deposit of APT shows as.
const (
	faDepositEvent    = "0x1::fungible_asset::Deposit"
	faWithdrawEvent   = "0x1::fungible_asset::Withdraw"
	coinDepositEvent  = "0x1::coin::DepositEvent"
	coinWithdrawEvent = "0x1::coin::WithdrawEvent"
	coinDepositV2     = "0x1::coin::CoinDeposit"
	coinWithdrawV2    = "0x1::coin::CoinWithdraw"
	aptCoinStore      = "0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>"
	fungibleStore     = "0x1::fungible_asset::FungibleStore"
	objectCore        = "0x1::object::ObjectCore"
)

// aptMetadata is the address of APT's fungible-asset metadata object, 0xa.
var aptMetadata = func() (a aptossdk.AccountAddress) { a[31] = 0x0a; return a }()

// PrimaryAPTStore returns the address of owner's primary fungible store of
// APT: sha3-256(owner || 0x…0a || 0xFC), the object address derived from
// the owner and the metadata address (0xFC: derived from an object seed).
func PrimaryAPTStore(owner aptossdk.AccountAddress) aptossdk.AccountAddress {
	h := sha3.New256()
	h.Write(owner[:])
	h.Write(aptMetadata[:])
	h.Write([]byte{0xFC})
	var out aptossdk.AccountAddress
	copy(out[:], h.Sum(nil))
	return out
}

// NormalizeTxHash returns a transaction hash as 0x and 64 lower-case hex
// digits; it accepts upper case and a missing 0x.
func NormalizeTxHash(s string) (string, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.TrimPrefix(s, "0x")
	if len(s) != 64 {
		return "", false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return "", false
		}
	}
	return "0x" + s, true
}

// NormalizeTxHash is NormalizeTxHash, for chain.DepositVerifier.
func (v *Verifier) NormalizeTxHash(s string) (string, bool) { return NormalizeTxHash(s) }

// Verifier checks APT deposits against an Aptos node's REST API
// (chain.DepositVerifier).
type Verifier struct {
	node *aptossdk.NodeClient
}

var _ chain.DepositVerifier = (*Verifier)(nil)

// NewVerifier talks to the node's REST API at nodeURL (…/v1), each call
// bounded by timeout.
func NewVerifier(nodeURL string, timeout time.Duration) (*Verifier, error) {
	node, err := aptossdk.NewNodeClientWithHttpClient(nodeURL, 0, &http.Client{Timeout: timeout})
	if err != nil {
		return nil, err
	}
	return &Verifier{node: node}, nil
}

// VerifyDeposit looks the transaction up and returns the APT it moved into
// address from other accounts (see aptDeposited). A migration of a coin
// store into the fungible store is refused outright.
// Refusals are *cairn.Error: ENOTFOUND (unknown), EPENDING (not committed
// yet), EUNPROCESSABLE (not a user transaction, failed, or no APT into
// address), EUPSTREAM (the node is unreachable or failing).
func (v *Verifier) VerifyDeposit(ctx context.Context, txHash, address string) (chain.Deposit, error) {
	hash, ok := NormalizeTxHash(txHash)
	if !ok {
		return chain.Deposit{}, cairn.Errorf(cairn.EINVALID, "txHash must be 0x and 64 hex digits.").With("field", "txHash")
	}
	var owner aptossdk.AccountAddress
	if err := owner.ParseStringRelaxed(address); err != nil {
		return chain.Deposit{}, fmt.Errorf("aptos: deposit address %q: %w", address, err)
	}
	if err := ctx.Err(); err != nil {
		return chain.Deposit{}, err
	}
	txn, err := v.node.TransactionByHash(hash)
	if err != nil {
		return chain.Deposit{}, nodeError(err)
	}
	switch txn.Type {
	case api.TransactionVariantPending:
		return chain.Deposit{}, cairn.Errorf(cairn.EPENDING, "The transaction is not committed yet; try again in a few seconds.")
	case api.TransactionVariantUser:
	default:
		return chain.Deposit{}, cairn.Errorf(cairn.EUNPROCESSABLE, "The transaction is a %s, not a user transaction.", txn.Type).
			With("reason", "not_user_transaction")
	}
	user, err := txn.UserTransaction()
	if err != nil {
		return chain.Deposit{}, cairn.Errorf(cairn.EUPSTREAM, "The node's answer does not decode.")
	}
	if !user.Success {
		return chain.Deposit{}, cairn.Errorf(cairn.EUNPROCESSABLE, "The transaction failed on chain (%s); it moved nothing.", clip(user.VmStatus)).
			With("reason", "failed_transaction")
	}
	if isMigration(user) {
		return chain.Deposit{}, cairn.Errorf(cairn.EUNPROCESSABLE, "The transaction moves a coin balance the address already held into its fungible store; it deposits nothing.").
			With("reason", "coin_store_migration")
	}
	amount, err := aptDeposited(user, owner)
	if err != nil {
		return chain.Deposit{}, err
	}
	if amount == 0 {
		return chain.Deposit{}, cairn.Errorf(cairn.EUNPROCESSABLE, "The transaction moved no APT into this agent's deposit address.").
			With("reason", "no_apt_deposit")
	}
	d := chain.Deposit{TxHash: hash, To: owner.String(), Amount: amount, Version: user.Version}
	if user.Sender != nil {
		d.Sender = user.Sender.String()
	}
	return d, nil
}

// nodeError maps a failed lookup: the node's 404 is an unknown
// transaction; anything else is the node's fault, not the client's.
func nodeError(err error) error {
	var he *aptossdk.HttpError
	if errors.As(err, &he) {
		if he.StatusCode == http.StatusNotFound {
			return cairn.Errorf(cairn.ENOTFOUND, "The Aptos node knows no transaction with this hash.")
		}
		return cairn.Errorf(cairn.EUPSTREAM, "The Aptos node answered %d; nothing was credited, try again later.", he.StatusCode)
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return cairn.Errorf(cairn.EUPSTREAM, "The Aptos node did not answer in time; nothing was credited, try again later.")
	}
	// The error text may hold the node's URL: it stays out of the answer.
	return cairn.Errorf(cairn.EUPSTREAM, "The Aptos node could not be reached; nothing was credited, try again later.")
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}
