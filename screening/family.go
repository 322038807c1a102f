package screening

import (
	"strings"

	"github.com/cairn-dev/cairn"
)

// Family names an address format shared by one or more chains. It is the
// first string of every Merkle leaf (family, canonical address), so these
// values are part of the published data and never change.
//
// EVM covers every chain with Ethereum-style addresses, Ethereum Classic
// included: a key controls the same address on all of them, and OFAC lists
// the same 0x address under ETH, ETC, ARB, BSC, USDT and USDC.
//
// The Bitcoin-derived families stay distinct even where their legacy strings
// coincide (see address_bch.go).
type Family string

const (
	EVM         Family = "evm"
	Bitcoin     Family = "bitcoin"
	Litecoin    Family = "litecoin"
	BitcoinCash Family = "bitcoin-cash"
	BitcoinSV   Family = "bitcoin-sv"
	BitcoinGold Family = "bitcoin-gold"
	Dogecoin    Family = "dogecoin"
	Dash        Family = "dash"
	Zcash       Family = "zcash"
	Monero      Family = "monero"
	Tron        Family = "tron"
	Solana      Family = "solana"
	Ripple      Family = "ripple"
	Verge       Family = "verge"
	// BNBBeacon is the retired BNB Beacon Chain (bnb1... bech32 addresses),
	// which OFAC lists under BNB. BNB Smart Chain is EVM.
	BNBBeacon Family = "bnb-beacon"
)

// families lists every family. Its order is the order in which
// NormalizeForTicker tries families for an address filed under a ticker it
// does not fit; Bitcoin precedes the forks that share its strings.
var families = []Family{
	EVM, Bitcoin, Tron, Litecoin, BitcoinCash, BitcoinSV, BitcoinGold, Dogecoin,
	Dash, Zcash, Monero, Solana, Ripple, Verge, BNBBeacon,
}

// Families returns every family, in a fixed order.
func Families() []Family { return append([]Family(nil), families...) }

// Valid reports whether f is a known family.
func (f Family) Valid() bool {
	for _, g := range families {
		if f == g {
			return true
		}
	}
	return false
}

// maxChainLen bounds a chain identifier; longer ones are unknown.
const maxChainLen = 32

// ChainFamily returns the family of a screening chain identifier. Matching
// ignores case and surrounding white space, and treats '_' and ' ' as '-'.
// An unknown chain is a *cairn.Error with code EINVALID naming it.
func ChainFamily(chain string) (Family, error) {
	var buf [maxChainLen]byte
	s := strings.TrimSpace(chain)
	if len(s) <= maxChainLen {
		for i := 0; i < len(s); i++ {
			c := toLowerASCII(s[i])
			if c == '_' || c == ' ' {
				c = '-'
			}
			buf[i] = c
		}
		if f, ok := chainFamilies[string(buf[:len(s)])]; ok {
			return f, nil
		}
	}
	name := chain
	if len(name) > 64 {
		name = name[:64] + "..."
	}
	return "", cairn.Errorf(cairn.EINVALID, "unknown chain %q", name).With("chain", name)
}

// SupportedChains names the chains a screening takes, one per family
// (EVM standing for every EVM chain); ChainFamily takes more spellings.
const SupportedChains = "ethereum (or any EVM chain: bsc, polygon, arbitrum, optimism, base, avalanche, ...), bitcoin, " +
	"litecoin, bitcoin-cash, bitcoin-sv, bitcoin-gold, dogecoin, dash, zcash, monero, tron, solana, ripple, verge, bnb-beacon"

// UnknownChain is the EINVALID of a chain ChainFamily does not know, on the
// request member field (for example "addresses[0].chain"): it names the
// chain, or says it is missing, and lists the supported ones.
func UnknownChain(field, chain string) error {
	if strings.TrimSpace(chain) == "" {
		return cairn.Errorf(cairn.EINVALID, "%s is missing: give the chain of the address, one of %s.", field, SupportedChains).With("field", field)
	}
	name := chain
	if len(name) > 64 {
		name = name[:64] + "..."
	}
	return cairn.Errorf(cairn.EINVALID, "%s: unknown chain %q; supported: %s.", field, name, SupportedChains).
		With("field", field).With("chain", name)
}
