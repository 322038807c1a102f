package aptos

import (
	"strconv"
	"strings"

	aptossdk "github.com/aptos-labs/aptos-go-sdk"
	"github.com/aptos-labs/aptos-go-sdk/api"
)

// APT held in a CoinStore<AptosCoin> moves with events of 0x1::coin, and
// which ones depends on the framework's version: the handle events
// DepositEvent and WithdrawEvent, on the store's event handles (matched to
// the store by GUID); the module events CoinDeposit and CoinWithdraw
// {coin_type, account, amount}, which today's coin.move emits instead when
// module_event_migration_enabled; or, in one earlier version, both for
// every movement, the module event first. A node translating module events
// (enable_event_v2_translation) replaces each in place by a handle event.
// The feature flag holds for the whole transaction, so its coin movements
// all show in the same kinds: per account, the larger of the two kinds'
// sums counts each movement once.

// coinPath adds up a transaction's coin events of APT, each kind apart.
type coinPath struct {
	// deposits and withdraws map the GUIDs of the event handles of every
	// CoinStore<AptosCoin> the transaction wrote to the account holding it.
	deposits, withdraws map[guidKey]aptossdk.AccountAddress
	legacy, module      coinMoves
}

// coinMoves is what one kind of coin event moved: into the owner, and out
// of each account.
type coinMoves struct {
	in  uint64
	out map[aptossdk.AccountAddress]uint64
}

func newCoinPath(user *api.UserTransaction) *coinPath {
	p := &coinPath{legacy: coinMoves{out: map[aptossdk.AccountAddress]uint64{}}, module: coinMoves{out: map[aptossdk.AccountAddress]uint64{}}}
	p.deposits, p.withdraws = coinStoreGUIDs(user)
	return p
}

// add counts e if it is a coin event of APT: a deposit into owner, or a
// withdrawal from any account.
func (p *coinPath) add(e *api.Event, owner aptossdk.AccountAddress) error {
	switch e.Type {
	case coinDepositEvent:
		if a, ok := p.deposits[eventGUID(e)]; ok && a == owner {
			return addAmount(&p.legacy.in, e.Data["amount"])
		}
	case coinDepositV2:
		if a, ok := aptCoinEvent(e); ok && a == owner {
			return addAmount(&p.module.in, e.Data["amount"])
		}
	case coinWithdrawEvent:
		if a, ok := p.withdraws[eventGUID(e)]; ok {
			return p.legacy.withdrawn(a, e.Data["amount"])
		}
	case coinWithdrawV2:
		if a, ok := aptCoinEvent(e); ok {
			return p.module.withdrawn(a, e.Data["amount"])
		}
	}
	return nil
}

func (m *coinMoves) withdrawn(from aptossdk.AccountAddress, amount any) error {
	n := m.out[from]
	if err := addAmount(&n, amount); err != nil {
		return err
	}
	m.out[from] = n
	return nil
}

// counted returns what came into owner and what left each account, every
// movement once (see the top of this file).
func (p *coinPath) counted() (in uint64, out map[aptossdk.AccountAddress]uint64) {
	out = map[aptossdk.AccountAddress]uint64{}
	for a, n := range p.legacy.out {
		out[a] = n
	}
	for a, n := range p.module.out {
		out[a] = max(out[a], n)
	}
	return max(p.legacy.in, p.module.in), out
}

// aptCoinEvent returns the account of a CoinDeposit or CoinWithdraw event
// of AptosCoin.
func aptCoinEvent(e *api.Event) (aptossdk.AccountAddress, bool) {
	coinType, _ := e.Data["coin_type"].(string)
	if !isAPTCoinType(coinType) {
		return aptossdk.AccountAddress{}, false
	}
	return addressField(e.Data["account"])
}

// isAPTCoinType reports whether a type name is 0x1::aptos_coin::AptosCoin,
// its address in any form (type_name writes it 0x1).
func isAPTCoinType(s string) bool {
	addr, rest, ok := strings.Cut(strings.TrimSpace(s), "::")
	if !ok || rest != "aptos_coin::AptosCoin" {
		return false
	}
	a, ok := addressField(addr)
	return ok && a == aptossdk.AccountOne
}

type guidKey struct {
	addr aptossdk.AccountAddress
	num  uint64
}

func eventGUID(e *api.Event) guidKey {
	if e.Guid == nil || e.Guid.AccountAddress == nil {
		return guidKey{num: ^uint64(0)}
	}
	return guidKey{*e.Guid.AccountAddress, e.Guid.CreationNumber}
}

// coinStoreGUIDs finds, in the transaction's changes, every
// CoinStore<AptosCoin> and maps the GUIDs of its deposit and withdraw
// events to the account holding it.
func coinStoreGUIDs(user *api.UserTransaction) (deposits, withdraws map[guidKey]aptossdk.AccountAddress) {
	deposits, withdraws = map[guidKey]aptossdk.AccountAddress{}, map[guidKey]aptossdk.AccountAddress{}
	for _, c := range user.Changes {
		w, ok := c.Inner.(*api.WriteSetChangeWriteResource)
		if !ok || w.Address == nil || w.Data == nil || w.Data.Type != aptCoinStore {
			continue
		}
		for field, m := range map[string]map[guidKey]aptossdk.AccountAddress{"deposit_events": deposits, "withdraw_events": withdraws} {
			events, _ := w.Data.Data[field].(map[string]any)
			guid, _ := events["guid"].(map[string]any)
			id, _ := guid["id"].(map[string]any)
			addr, ok := addressField(id["addr"])
			numText, _ := id["creation_num"].(string)
			num, err := strconv.ParseUint(numText, 10, 64)
			if ok && err == nil {
				m[guidKey{addr, num}] = *w.Address
			}
		}
	}
	return deposits, withdraws
}
