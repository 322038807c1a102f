package aptos

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
)

// TestVerifyDepositOnlyFromOthers: a fungible_asset::Deposit into the
// agent's primary store is credited only as far as APT left another
// account in the same transaction. The migration transactions are
// recorded ones edited as testdata/node/PROVENANCE.md says.
func TestVerifyDepositOnlyFromOthers(t *testing.T) {
	fa := fixture(t, "by_hash_aptos_account_transfer_fa_orderless.json")
	// The recipient pays itself: the Withdraw is from its own store.
	self := strings.Replace(fa, `"store": "`+faSenderStore+`"`, `"store": "`+faStore+`"`, 1)
	selfHash := "0x" + strings.Repeat("a5", 32)
	node := fakeNode(t, map[string]string{
		"0x" + strings.Repeat("a1", 32): fixture(t, "edited_migrate_coin_store_to_fungible_store.json"),
		"0x" + strings.Repeat("a2", 32): fixture(t, "edited_migration_inside_other_call.json"),
		"0x" + strings.Repeat("a3", 32): fixture(t, "edited_transfer_with_migration.json"),
		selfHash:                        self,
	})
	v, err := NewVerifier(node.URL+"/v1", 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, hash string
		amount     uint64
		reason     string
	}{
		{"TransferThatMigratesTheRecipient", "0x" + strings.Repeat("a3", 32), 20000, ""},
		{"ErrMigrationEntryFunction", "0x" + strings.Repeat("a1", 32), 0, "coin_store_migration"},
		{"ErrMigrationInsideAnotherCall", "0x" + strings.Repeat("a2", 32), 0, "no_apt_deposit"},
		{"ErrPaidByItself", selfHash, 0, "no_apt_deposit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := v.VerifyDeposit(context.Background(), tc.hash, faRecipient)
			if tc.reason == "" {
				if err != nil || d.Amount != tc.amount {
					t.Fatalf("deposit %+v, %v; want %d octas", d, err, tc.amount)
				}
				return
			}
			var ce *cairn.Error
			if !asError(err, &ce) || ce.Code != cairn.EUNPROCESSABLE || ce.Details["reason"] != tc.reason {
				t.Fatalf("deposit %+v, %v; want a refusal with reason %s", d, err, tc.reason)
			}
		})
	}
}
