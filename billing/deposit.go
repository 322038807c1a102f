package billing

import (
	"context"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/chain"
	"github.com/cairn-dev/cairn/store"
)

// DefaultCreditsPerAPT is how many credits one APT buys by default.
const DefaultCreditsPerAPT = 1000

// octasPerAPT is APT's smallest unit: 1 APT = 10^8 octas.
const octasPerAPT = 100_000_000

// OperationDeposit is the ledger operation of a credited deposit.
const OperationDeposit = "deposit"

// depositKeyPrefix makes a deposit's unique ledger key of its transaction
// hash: a hash is credited at most once, across all accounts.
const depositKeyPrefix = "aptos:"

// Deposits credits on-chain deposits: a transaction that moved APT into an
// agent's deposit address becomes credits on its developer account, once.
type Deposits struct {
	Verifier chain.DepositVerifier
	Store    store.Ledger
	// Audit records every refusal with its reason, and every credit.
	Audit         store.Audit
	CreditsPerAPT int64
	Clock         cairn.Clock
	// OnCredited, when set, hears each deposit once it is credited (the
	// deposit.credited webhook).
	OnCredited func(context.Context, *DepositResult)
}

// DepositResult is a credited deposit.
type DepositResult struct {
	Entry   *cairn.LedgerEntry
	Deposit chain.Deposit
}

// Credit verifies txHash on chain and credits what it moved into the
// agent's deposit address: octas x CreditsPerAPT / 10^8 credits, rounded
// down. A hash already credited (to anyone) is EALREADYCREDITED with the
// original credit; the unique key written with the credit makes that hold
// under concurrent calls. Nothing is credited on any error.
func (d *Deposits) Credit(ctx context.Context, agent *cairn.Agent, txHash, requestID string) (*DepositResult, error) {
	hash, ok := d.Verifier.NormalizeTxHash(txHash)
	if !ok {
		return nil, cairn.Errorf(cairn.EINVALID, "txHash must be a transaction hash: 0x and 64 hex digits.").With("field", "txHash")
	}
	if e, err := d.Store.LedgerByUniqueKey(ctx, depositKeyPrefix+hash); err == nil {
		d.audit(ctx, agent, hash, requestID, "already_credited", nil)
		return nil, alreadyCredited(e)
	} else if !cairn.IsCode(err, cairn.ENOTFOUND) {
		return nil, err
	}
	dep, err := d.Verifier.VerifyDeposit(ctx, hash, agent.DepositAddress)
	if err != nil {
		d.audit(ctx, agent, hash, requestID, refusalReason(err), err)
		return nil, err
	}
	credits := creditsFor(dep.Amount, d.CreditsPerAPT)
	if credits <= 0 {
		err := cairn.Errorf(cairn.EUNPROCESSABLE, "%s APT buys less than one credit (%d credits per APT); nothing was credited.",
			aptText(dep.Amount), d.CreditsPerAPT).With("reason", "below_one_credit")
		d.audit(ctx, agent, hash, requestID, "below_one_credit", err)
		return nil, err
	}
	e := &cairn.LedgerEntry{
		ID: cairn.NewID(), DeveloperID: agent.DeveloperID, AgentID: agent.ID, Kind: cairn.LedgerDeposit,
		Operation: OperationDeposit, Amount: credits, RequestID: requestID,
		Reason:    depositReason(dep, hash),
		UniqueKey: depositKeyPrefix + hash, CreatedAt: d.Clock.Now(),
	}
	if err := d.Store.Apply(context.WithoutCancel(ctx), e); cairn.IsCode(err, cairn.ECONFLICT) {
		// Another request credited the hash first.
		orig, lerr := d.Store.LedgerByUniqueKey(ctx, depositKeyPrefix+hash)
		if lerr != nil {
			return nil, lerr
		}
		d.audit(ctx, agent, hash, requestID, "already_credited", nil)
		return nil, alreadyCredited(orig)
	} else if err != nil {
		return nil, err
	}
	d.audit(ctx, agent, hash, requestID, "credited", nil)
	res := &DepositResult{Entry: e, Deposit: dep}
	if d.OnCredited != nil {
		d.OnCredited(context.WithoutCancel(ctx), res)
	}
	return res, nil
}

// depositReason is the reason of a deposit's ledger entry, which
// DepositOf reads back.
func depositReason(dep chain.Deposit, hash string) string {
	return fmt.Sprintf("deposit of %s APT (%d octas) in Aptos transaction %s, version %d, from %s",
		aptText(dep.Amount), dep.Amount, hash, dep.Version, dep.Sender)
}

// DepositOf returns the transaction hash and the octas a deposit's
// ledger entry was credited for, ok false for other entries.
func DepositOf(e *cairn.LedgerEntry) (txHash string, octas uint64, ok bool) {
	if e.Kind != cairn.LedgerDeposit || !strings.HasPrefix(e.UniqueKey, depositKeyPrefix) {
		return "", 0, false
	}
	i := strings.Index(e.Reason, " APT (")
	j := strings.Index(e.Reason, " octas)")
	if i < 0 || j < i {
		return "", 0, false
	}
	octas, err := strconv.ParseUint(e.Reason[i+len(" APT ("):j], 10, 64)
	return DepositTxHash(e), octas, err == nil
}

// DepositTxHash returns the transaction hash a deposit's ledger entry was
// credited for ("" for other entries).
func DepositTxHash(e *cairn.LedgerEntry) string {
	if e.Kind != cairn.LedgerDeposit {
		return ""
	}
	return strings.TrimPrefix(e.UniqueKey, depositKeyPrefix)
}

// creditsFor is octas x perAPT / 10^8, rounded down, without overflow.
func creditsFor(octas uint64, perAPT int64) int64 {
	n := new(big.Int).Mul(new(big.Int).SetUint64(octas), big.NewInt(perAPT))
	n.Quo(n, big.NewInt(octasPerAPT))
	if !n.IsInt64() || n.Int64() > 1e12 {
		return 1e12 // the ledger's largest single movement
	}
	return n.Int64()
}

// aptText writes octas as APT with every significant decimal.
func aptText(octas uint64) string {
	s := fmt.Sprintf("%d.%08d", octas/octasPerAPT, octas%octasPerAPT)
	return strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
}

func alreadyCredited(e *cairn.LedgerEntry) error {
	return cairn.Errorf(cairn.EALREADYCREDITED, "This transaction was already credited.").With("credit", map[string]any{
		"transactionId": e.ID, "amount": e.Amount, "txHash": strings.TrimPrefix(e.UniqueKey, depositKeyPrefix),
		"creditedAt": e.CreatedAt.UTC().Format(time.RFC3339Nano),
	})
}

func refusalReason(err error) string {
	if ce, ok := err.(*cairn.Error); ok {
		if r, ok := ce.Details["reason"].(string); ok {
			return r
		}
		return ce.Code
	}
	return cairn.ErrorCode(err)
}

func (d *Deposits) audit(ctx context.Context, agent *cairn.Agent, hash, requestID, outcome string, err error) {
	if d.Audit == nil {
		return
	}
	detail := map[string]any{"txHash": hash, "outcome": outcome}
	if err != nil {
		detail["reason"] = cairn.ErrorMessage(err)
	}
	_ = d.Audit.AppendAudit(context.WithoutCancel(ctx), &cairn.AuditEntry{AgentID: agent.ID, Action: cairn.AuditDeposit,
		Resource: hash, Detail: detail, RequestID: requestID})
}
