package screening

import "github.com/cairn-dev/cairn"

// tickerFamilies maps each OFAC "Digital Currency Address - <ticker>" ticker to
// the families its addresses may belong to, most likely first. Where a ticker
// spans chains the address format decides (NormalizeForTicker).
var tickerFamilies = map[string][]Family{
	"XBT":  {Bitcoin},
	"BTC":  {Bitcoin},
	"ETH":  {EVM},
	"ETC":  {EVM},
	"ARB":  {EVM},
	"BSC":  {EVM},
	"BNB":  {EVM, BNBBeacon}, // bnb1... Beacon Chain or BNB Smart Chain 0x...
	"XMR":  {Monero},
	"LTC":  {Litecoin},
	"ZEC":  {Zcash},
	"DASH": {Dash},
	"BTG":  {BitcoinGold},
	"BSV":  {BitcoinSV},
	"BCH":  {BitcoinCash},
	"XVG":  {Verge},
	"DOGE": {Dogecoin},
	"TRX":  {Tron},
	"SOL":  {Solana},
	"XRP":  {Ripple},
	// Stablecoins: ERC-20 and BEP-20 (0x...), TRC-20 (T...), Omni on Bitcoin
	// (1... and 3...), SPL on Solana.
	"USDT": {EVM, Tron, Bitcoin, Solana},
	"USDC": {EVM, Solana, Tron},
}

// TickerFamilies returns the families of an OFAC currency ticker (case
// ignored), or nil for an unknown ticker.
func TickerFamilies(ticker string) []Family {
	var buf [8]byte
	if len(ticker) > len(buf) {
		return nil
	}
	for i := 0; i < len(ticker); i++ {
		c := ticker[i]
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		buf[i] = c
	}
	fs := tickerFamilies[string(buf[:len(ticker)])]
	return append([]Family(nil), fs...)
}

// NormalizeForTicker normalises an address listed under an OFAC ticker and
// returns the family and canonical form to index it under. The first of the
// ticker's families whose format the address fits wins.
//
// An address that fits none of them is still indexed when its format fits
// another family, under that family: lists do file addresses under the wrong
// currency (the SDN list of 2025-11-19 has the Tron address
// TUCsTq7TofTCJRRoHk6RvhMoS2mJLm5Yzq under XBT), and dropping such an
// address would screen a listed address clear.
//
// The error is a *cairn.Error with code EINVALID when the ticker is unknown
// or the address fits no family at all.
func NormalizeForTicker(ticker, address string) (Family, string, error) {
	fs := TickerFamilies(ticker)
	if fs == nil {
		return "", "", cairn.Errorf(cairn.EINVALID, "unknown currency ticker %q", ticker)
	}
	for _, f := range fs {
		if c, ok := listable(f, address); ok {
			return f, c, nil
		}
	}
	for _, f := range families {
		if c, ok := listable(f, address); ok {
			return f, c, nil
		}
	}
	return "", "", cairn.Errorf(cairn.EINVALID, "address %q is not a valid %s address", address, ticker)
}

// listable normalises a listed address. An EVM address whose letter case
// breaks EIP-55 is still indexed: the listing names those 20 bytes.
func listable(f Family, address string) (string, bool) {
	c, st := Normalize(f, address)
	return c, st == StatusOK || st == StatusBadChecksum
}
