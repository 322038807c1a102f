package aptos

import (
	"fmt"
	"strconv"

	aptossdk "github.com/aptos-labs/aptos-go-sdk"
	"github.com/aptos-labs/aptos-go-sdk/crypto"
	"github.com/aptos-labs/aptos-go-sdk/crypto/hd"
	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/chain"
	"github.com/tyler-smith/go-bip39"
)

// networks names the networks NewHD accepts.
var networks = []string{"mainnet", "testnet", "devnet", "localnet"}

// MaxIndex is the largest derivation index: indexes are hardened, so they
// stay below 2^31.
const MaxIndex = hd.HardenedOffset - 1

// HD derives deposit addresses from one mnemonic. The BIP-39 seed is
// computed once, in NewHD; Address costs a few HMAC-SHA512 and one ed25519
// base-point multiplication. An HD is safe for concurrent use.
type HD struct {
	seed    []byte // 64-byte BIP-39 seed, empty passphrase; never changed
	network string
}

var _ chain.DepositAddresses = (*HD)(nil)

// NewHD returns the deposit addresses of mnemonic on network: mainnet,
// testnet, devnet or localnet. The mnemonic is checked as NormalizeMnemonic
// does; errors are *cairn.Error with code EINVALID and never quote it.
func NewHD(mnemonic, network string) (*HD, error) {
	known := false
	for _, n := range networks {
		known = known || n == network
	}
	if !known {
		return nil, cairn.Errorf(cairn.EINVALID, "aptos network %q is not one of %v.", network, networks)
	}
	m, err := NormalizeMnemonic(mnemonic)
	if err != nil {
		return nil, err
	}
	return &HD{seed: bip39.NewSeed(m, ""), network: network}, nil
}

// Network returns the network given to NewHD.
func (h *HD) Network() string { return h.network }

// SupportedTokens returns the tokens accepted as deposits: APT only.
func (h *HD) SupportedTokens() []string { return []string{"APT"} }

// Address returns the deposit address of index: the account of the ed25519
// key at m/44'/637'/{index}'/0'/0', as 0x followed by 64 lower-case hex
// digits. Indexes above MaxIndex are an error.
func (h *HD) Address(index uint32) (string, error) {
	key, err := h.key(index)
	if err != nil {
		return "", err
	}
	defer key.Clear()
	var addr aptossdk.AccountAddress
	addr.FromAuthKey(key.AuthKey())
	return addr.StringLong(), nil
}

// Path returns the derivation path of index.
func Path(index uint32) string {
	b := make([]byte, 0, 32)
	b = append(b, "m/44'/637'/"...)
	b = strconv.AppendUint(b, uint64(index), 10)
	b = append(b, "'/0'/0'"...)
	return string(b)
}

// key derives the private key of index. The caller clears it.
func (h *HD) key(index uint32) (*crypto.Ed25519PrivateKey, error) {
	if index > MaxIndex {
		return nil, fmt.Errorf("aptos deposit index %d is above the hardened limit %d", index, MaxIndex)
	}
	raw, err := hd.DeriveEd25519PrivateKey(Path(index), h.seed)
	if err != nil {
		return nil, fmt.Errorf("aptos deposit index %d: %w", index, err)
	}
	defer clear(raw)
	key := &crypto.Ed25519PrivateKey{}
	if err := key.FromBytes(raw); err != nil {
		return nil, fmt.Errorf("aptos deposit index %d: %w", index, err)
	}
	return key, nil
}
