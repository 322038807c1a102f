package aptos

import (
	"strconv"
	"strings"

	aptossdk "github.com/aptos-labs/aptos-go-sdk"
	"github.com/aptos-labs/aptos-go-sdk/api"
	"github.com/cairn-dev/cairn"
)

// migrationFunctions are the entry functions that move a CoinStore's
// balance, already credited when it arrived, into the owner's primary
// fungible store: they emit a fungible_asset::Deposit and move nothing
// from anyone. migrate_coin_store_to_fungible_store is permissionless
// (anyone may migrate anyone's store).
var migrationFunctions = map[string]bool{
	"0x1::coin::migrate_to_fungible_store":            true,
	"0x1::coin::migrate_coin_store_to_fungible_store": true,
}

// isMigration reports whether the transaction's entry function is one of
// migrationFunctions.
func isMigration(user *api.UserTransaction) bool {
	if user.Payload == nil {
		return false
	}
	ef, ok := user.Payload.Inner.(*api.TransactionPayloadEntryFunction)
	return ok && migrationFunctions[ef.Function]
}

// aptDeposited returns the APT a successful user transaction moved into
// owner's account from other accounts: what arrived (fungible-asset
// Deposit events into owner's primary APT store, coin deposits into
// owner's CoinStore<AptosCoin>: legacy DepositEvents or CoinDeposit module
// events, see coinPath) less what left owner's own stores, capped by what
// left other accounts' APT stores (fungible-asset Withdraw events from an
// APT store that is not owner's, coin withdrawals of another account:
// legacy WithdrawEvents or CoinWithdraw module events). A Deposit that
// nobody paid for, such as a CoinStore migrated into the fungible store
// inside another call, or a mint, adds nothing.
func aptDeposited(user *api.UserTransaction, owner aptossdk.AccountAddress) (uint64, error) {
	ownStore := PrimaryAPTStore(owner)
	stores := aptStores(user)
	coin := newCoinPath(user)
	var in, outOwn, outOthers uint64
	for _, e := range user.Events {
		var err error
		switch e.Type {
		case faDepositEvent:
			if store, ok := addressField(e.Data["store"]); ok && store == ownStore {
				err = addAmount(&in, e.Data["amount"])
			}
		case faWithdrawEvent:
			store, ok := addressField(e.Data["store"])
			holder, apt := stores[store]
			switch {
			case !ok:
			case store == ownStore || apt && holder == owner:
				err = addAmount(&outOwn, e.Data["amount"])
			case apt:
				err = addAmount(&outOthers, e.Data["amount"])
			}
		default:
			err = coin.add(e, owner)
		}
		if err != nil {
			return 0, err
		}
	}
	coinIn, coinOut := coin.counted()
	err := addChecked(&in, coinIn)
	for a, n := range coinOut {
		if err == nil {
			err = addChecked(pick(a == owner, &outOwn, &outOthers), n)
		}
	}
	if err != nil {
		return 0, err
	}
	if in <= outOwn {
		return 0, nil
	}
	return min(in-outOwn, outOthers), nil
}

// addAmount adds an event's amount, a decimal u64 in a string, to sum.
func addAmount(sum *uint64, text any) error {
	s, _ := text.(string)
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return errAmount()
	}
	return addChecked(sum, n)
}

// addChecked adds n to sum, refusing an overflow.
func addChecked(sum *uint64, n uint64) error {
	if *sum+n < *sum {
		return errAmount()
	}
	*sum += n
	return nil
}

func errAmount() error {
	return cairn.Errorf(cairn.EUPSTREAM, "The node's answer holds an amount that does not decode.")
}

func pick(own bool, ownSum, othersSum *uint64) *uint64 {
	if own {
		return ownSum
	}
	return othersSum
}

// aptStores maps the fungible stores of APT the transaction wrote (their
// FungibleStore names metadata 0xa) to their owners (their ObjectCore; the
// zero address when not written). The sender's primary APT store counts
// too, as it may not be written as a FungibleStore (a concurrent balance).
func aptStores(user *api.UserTransaction) map[aptossdk.AccountAddress]aptossdk.AccountAddress {
	apt := map[aptossdk.AccountAddress]bool{}
	owners := map[aptossdk.AccountAddress]aptossdk.AccountAddress{}
	for _, c := range user.Changes {
		w, ok := c.Inner.(*api.WriteSetChangeWriteResource)
		if !ok || w.Address == nil || w.Data == nil {
			continue
		}
		switch w.Data.Type {
		case fungibleStore:
			meta, _ := w.Data.Data["metadata"].(map[string]any)
			if a, ok := addressField(meta["inner"]); ok && a == aptMetadata {
				apt[*w.Address] = true
			}
		case objectCore:
			if a, ok := addressField(w.Data.Data["owner"]); ok {
				owners[*w.Address] = a
			}
		}
	}
	out := map[aptossdk.AccountAddress]aptossdk.AccountAddress{}
	for s := range apt {
		out[s] = owners[s]
	}
	if user.Sender != nil {
		out[PrimaryAPTStore(*user.Sender)] = *user.Sender
	}
	return out
}

// addressField parses an address member of an event or resource.
func addressField(v any) (aptossdk.AccountAddress, bool) {
	s, _ := v.(string)
	var a aptossdk.AccountAddress
	if s == "" || a.ParseStringRelaxed(strings.TrimSpace(s)) != nil {
		return a, false
	}
	return a, true
}
