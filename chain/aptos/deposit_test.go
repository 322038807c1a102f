package aptos

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	aptossdk "github.com/aptos-labs/aptos-go-sdk"
	"github.com/cairn-dev/cairn"
)

// Recorded mainnet REST answers (testdata/node/PROVENANCE.md).
const (
	faHash      = "0x650da387b6e7de0e9a83ca5f7c12e41ef865d0d12c38e793b55091da7ec90b39"
	faRecipient = "0x49ffe7968750a5ffea80af6fd7657bb246ff8ce6657cbf2c8ed13d9276096b3f"
	faStore     = "0x4f8733c98d484ea506fcfd7ecdec17c4b27f7489fb0c8962975bf0cf213b6242"
	// faSenderStore is the recorded transfer's sender's primary APT store.
	faSenderStore = "0xa66d5588e5e71987999dea776e5798be8926470f012e4a4f320e0737903ecba1"
	coinHash      = "0x434d4f991a70384d11f41ae1627089173f82f014db60c0c4b806afaf32384b49"
	coinOwner     = "0x4c1b416e4e3793724dabd2d10909689bd534159a2d4d4b605ec22d9e593bbad3"
	otherFAHash   = "0x011a1662cc1cd84b893c37d413d57d96f89dd8eb601ad629ed6dd6fcb537a395"
	otherFAOwner  = "0x541e28fb12aa661a30358f2bebcd44460187ec918cb9cee075c2db86ee6aed93"
	epilogueHash  = "0xf10cd146a3990b19262ab913b207ea1f8c70653bc4775251fc0c135523da5d3e"
)

func fixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/node/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// fakeNode serves GET /v1/transactions/by_hash/{hash} from bodies by hash
// (404 otherwise, as a node answers).
func fakeNode(t *testing.T, bodies map[string]string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hash := strings.TrimPrefix(r.URL.Path, "/v1/transactions/by_hash/")
		body, ok := bodies[hash]
		w.Header().Set("Content-Type", "application/json")
		switch {
		case !ok:
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"message":"Transaction not found by Transaction hash(` + hash + `)","error_code":"transaction_not_found","vm_error_code":null}`))
		case body == "500":
			w.WriteHeader(http.StatusInternalServerError)
			w.Write([]byte(`{"message":"internal error","error_code":"internal_error"}`))
		case body == "slow":
			time.Sleep(500 * time.Millisecond)
		default:
			w.Write([]byte(body))
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestPrimaryAPTStore(t *testing.T) {
	var owner aptossdk.AccountAddress
	if err := owner.ParseStringRelaxed(faRecipient); err != nil {
		t.Fatal(err)
	}
	store := PrimaryAPTStore(owner)
	if got := store.String(); got != faStore {
		t.Fatalf("primary APT store of %s = %s, want %s (the recorded Deposit event's store)", faRecipient, got, faStore)
	}
}

func TestVerifyDeposit(t *testing.T) {
	fa := fixture(t, "by_hash_aptos_account_transfer_fa_orderless.json")
	coin := fixture(t, "mainnet_v147811396_coin_v1_deposit_event_usdt_claim.json")
	// The legacy positive case: the recorded DepositEvent rewritten into
	// the owner's AptosCoin CoinStore, paid by another account's
	// (testdata/node/PROVENANCE.md).
	coinAPT := fixture(t, "edited_coin_v1_apt_transfer.json")
	failed := strings.Replace(fa, `"success": true`, `"success": false`, 1)
	failed = strings.Replace(failed, `"vm_status": "Executed successfully"`, `"vm_status": "Move abort in 0x1::coin: EINSUFFICIENT_BALANCE(0x10006)"`, 1)
	pending := `{"type":"pending_transaction","hash":"` + hashN(6) + `","sender":"` + faRecipient + `","sequence_number":"1","max_gas_amount":"10","gas_unit_price":"100","expiration_timestamp_secs":"1","payload":{"type":"entry_function_payload","function":"0x1::aptos_account::transfer","type_arguments":[],"arguments":["` + faRecipient + `","1"]},"signature":{"type":"ed25519_signature","public_key":"0x` + strings.Repeat("00", 32) + `","signature":"0x` + strings.Repeat("00", 64) + `"}}`
	twice := strings.Replace(fa, `"events": [`, `"events": [{"guid":{"creation_number":"0","account_address":"0x0"},"sequence_number":"0","type":"0x1::fungible_asset::Deposit","data":{"amount":"5","store":"`+faStore+`"}},{"guid":{"creation_number":"0","account_address":"0x0"},"sequence_number":"0","type":"0x1::fungible_asset::Withdraw","data":{"amount":"5","store":"`+faSenderStore+`"}},`, 1)
	node := fakeNode(t, map[string]string{
		faHash: fa, coinHash: coin, hashN(1): coinAPT, hashN(2): failed, otherFAHash: fixture(t, "mainnet_v3665938237_fa_transfer_non_apt_fee_payer.json"),
		epilogueHash: fixture(t, "mainnet_v3665938238_block_epilogue.json"), hashN(3): "500", hashN(4): "slow", hashN(6): pending, hashN(7): twice,
	})
	v, err := NewVerifier(node.URL+"/v1", 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, tc := range []struct {
		name, hash, to string
		amount         uint64
		code, reason   string
	}{
		{"FungibleAssetAPT", faHash, faRecipient, 20000, "", ""},
		{"HashUpperCaseNo0x", strings.ToUpper(faHash[2:]), faRecipient, 20000, "", ""},
		{"TwoDepositsSummed", hashN(7), faRecipient, 20005, "", ""},
		{"LegacyCoinAPT", hashN(1), coinOwner, 50000, "", ""},
		{"ErrLegacyCoinNotAPT", coinHash, coinOwner, 0, cairn.EUNPROCESSABLE, "no_apt_deposit"},
		{"ErrFungibleAssetNotAPT", otherFAHash, otherFAOwner, 0, cairn.EUNPROCESSABLE, "no_apt_deposit"},
		{"ErrToAnotherAddress", faHash, coinOwner, 0, cairn.EUNPROCESSABLE, "no_apt_deposit"},
		{"ErrFailed", hashN(2), faRecipient, 0, cairn.EUNPROCESSABLE, "failed_transaction"},
		{"ErrNotUser", epilogueHash, faRecipient, 0, cairn.EUNPROCESSABLE, "not_user_transaction"},
		{"ErrPending", hashN(6), faRecipient, 0, cairn.EPENDING, ""},
		{"ErrUnknown", hashN(5), faRecipient, 0, cairn.ENOTFOUND, ""},
		{"ErrNode500", hashN(3), faRecipient, 0, cairn.EUPSTREAM, ""},
		{"ErrNodeTimeout", hashN(4), faRecipient, 0, cairn.EUPSTREAM, ""},
		{"ErrMalformed", "0x1234", faRecipient, 0, cairn.EINVALID, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := v.VerifyDeposit(ctx, tc.hash, tc.to)
			if tc.code == "" {
				if err != nil || d.Amount != tc.amount || d.To != tc.to || d.TxHash != strings.ToLower("0x"+strings.TrimPrefix(strings.ToLower(tc.hash), "0x")) || d.Version == 0 {
					t.Fatalf("deposit %+v, %v; want %d octas", d, err, tc.amount)
				}
				return
			}
			if !cairn.IsCode(err, tc.code) {
				t.Fatalf("err %v, want %s", err, tc.code)
			}
			var ce *cairn.Error
			if tc.reason != "" && (!asError(err, &ce) || ce.Details["reason"] != tc.reason) {
				t.Fatalf("err %v, want reason %s", err, tc.reason)
			}
		})
	}
	node.Close()
	if _, err := v.VerifyDeposit(ctx, faHash, faRecipient); !cairn.IsCode(err, cairn.EUPSTREAM) || strings.Contains(err.Error(), "127.0.0.1") {
		t.Fatalf("node down: %v (must be upstream, without the node's URL)", err)
	}
}

func hashN(n int) string { return "0x" + strings.Repeat("0", 63) + string(rune('0'+n)) }

func asError(err error, target **cairn.Error) bool { return errors.As(err, target) }

// TestVerifyDepositLive asks a real node (CAIRN_TEST_APTOS_NODE_URL, a
// mainnet REST endpoint such as https://api.mainnet.aptoslabs.com/v1)
// about two recorded mainnet transactions that deposit other assets: both
// are refused as deposits of APT. Skipped unless the variable is set.
func TestVerifyDepositLive(t *testing.T) {
	url := os.Getenv("CAIRN_TEST_APTOS_NODE_URL")
	if url == "" {
		t.Skip("CAIRN_TEST_APTOS_NODE_URL is not set")
	}
	v, err := NewVerifier(url, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for hash, owner := range map[string]string{coinHash: coinOwner, otherFAHash: otherFAOwner} {
		var ce *cairn.Error
		if _, err := v.VerifyDeposit(context.Background(), hash, owner); !asError(err, &ce) || ce.Details["reason"] != "no_apt_deposit" {
			t.Errorf("%s: %v, want a refusal with reason no_apt_deposit", hash, err)
		}
	}
}
