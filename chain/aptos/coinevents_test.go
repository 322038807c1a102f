package aptos

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
)

// The recorded devnet transfer of 0.2 APT shown only by the module events
// CoinWithdraw and CoinDeposit (testdata/node/PROVENANCE.md).
const (
	moduleHash      = "0x169238641c3f97f2bc0b4a46707faf12457de857015f0882c6b2635e17486e4a"
	moduleSender    = "0x140549f1a4aade6333b361764d772256c962810c3f934d451e1d84481732d874"
	moduleRecipient = "0x1961df628d2d224ecc91d56dfd0a4b9a545e9cf0ec9da2337c6c5c73f6171db8"
	aptTypeField    = `"coin_type": "0x1::aptos_coin::AptosCoin"`
)

// TestVerifyDepositCoinModuleEvents: APT that reaches a CoinStore shown
// by the module event 0x1::coin::CoinDeposit is credited to the account
// it names, only for AptosCoin, and once when the handle event of the same
// transfer is there too. The recorded devnet answer is the positive case;
// the others are built from it here (each says what it changes) or are
// the edited recording edited_coin_both_events_apt_transfer.json.
func TestVerifyDepositCoinModuleEvents(t *testing.T) {
	recorded := fixture(t, "devnet_v47261875_coin_module_events_apt_transfer.json")
	both := fixture(t, "edited_coin_both_events_apt_transfer.json")
	// Built: the recipient's address given 00 as its first byte
	// everywhere, and the CoinDeposit naming it short, as Move prints
	// an address (0x and no leading zeros).
	zeroed := "0x00" + moduleRecipient[4:]
	short := strings.ReplaceAll(recorded, moduleRecipient, zeroed)
	short = strings.Replace(short, `"account": "`+zeroed, `"account": "0x`+strings.TrimLeft(zeroed[2:], "0"), 1)
	// Built: the same transfer of another coin (the recorded USDT type).
	usdt := strings.ReplaceAll(recorded, aptTypeField, `"coin_type": "0xf22bede237a07e121b56d91a491eb7bcdfd1f5907926a9e58338f964a01b17fa::asset::USDT"`)
	// Built: the CoinWithdraw names the recipient: it pays itself.
	self := strings.Replace(recorded, `"account": "`+moduleSender, `"account": "`+moduleRecipient, 1)
	// Built: in the edited recording with both kinds, the recipient also
	// pays 0.05 APT on, shown by both kinds too (its withdraw handle is
	// creation number 3).
	onward := strings.Replace(both, `"events": [`, `"events": [`+
		`{"guid":{"creation_number":"0","account_address":"0x0"},"sequence_number":"0","type":"0x1::coin::CoinWithdraw","data":{"account":"`+moduleRecipient+`","amount":"5000000",`+aptTypeField+`}},`+
		`{"guid":{"creation_number":"3","account_address":"`+moduleRecipient+`"},"sequence_number":"0","type":"0x1::coin::WithdrawEvent","data":{"amount":"5000000"}},`, 1)
	hash := func(b byte) string { return "0x" + strings.Repeat(string([]byte{'b', b}), 32) }
	node := fakeNode(t, map[string]string{
		moduleHash: recorded, "0x" + strings.Repeat("a6", 32): both,
		hash('1'): short, hash('2'): usdt, hash('3'): self, hash('4'): onward,
	})
	v, err := NewVerifier(node.URL+"/v1", 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, hash, to string
		amount         uint64
	}{
		{"CoinDepositOnly", moduleHash, moduleRecipient, 20_000_000},
		{"CoinDepositShortAddress", hash('1'), zeroed, 20_000_000},
		{"BothEventsCountedOnce", "0x" + strings.Repeat("a6", 32), moduleRecipient, 20_000_000},
		{"OwnWithdrawalBothEventsCountedOnce", hash('4'), moduleRecipient, 15_000_000},
		{"ErrNotAPT", hash('2'), moduleRecipient, 0},
		{"ErrToAnotherAccount", moduleHash, coinOwner, 0},
		{"ErrToTheSender", moduleHash, moduleSender, 0},
		{"ErrPaidByItself", hash('3'), moduleRecipient, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := v.VerifyDeposit(context.Background(), tc.hash, tc.to)
			if tc.amount != 0 {
				if err != nil || d.Amount != tc.amount || d.To != tc.to {
					t.Fatalf("deposit %+v, %v; want %d octas to %s", d, err, tc.amount, tc.to)
				}
				return
			}
			var ce *cairn.Error
			if !asError(err, &ce) || ce.Code != cairn.EUNPROCESSABLE || ce.Details["reason"] != "no_apt_deposit" {
				t.Fatalf("deposit %+v, %v; want a refusal with reason no_apt_deposit", d, err)
			}
		})
	}
}

func TestIsAPTCoinType(t *testing.T) {
	for s, want := range map[string]bool{
		"0x1::aptos_coin::AptosCoin": true,
		"0x0000000000000000000000000000000000000000000000000000000000000001::aptos_coin::AptosCoin": true,
		"0x2::aptos_coin::AptosCoin":     false,
		"0x1::aptos_coin::AptosCoinX":    false,
		"0x1::coin::AptosCoin":           false,
		"aptos_coin::AptosCoin":          false,
		"":                               false,
		"0x1::aptos_coin::AptosCoin<u8>": false,
	} {
		if got := isAPTCoinType(s); got != want {
			t.Errorf("isAPTCoinType(%q) = %v, want %v", s, got, want)
		}
	}
}
