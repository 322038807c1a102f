package screening

// chainFamilies maps each accepted chain identifier (lower-case, '-' as the
// word separator) to its family. Identifiers are chain names, common short
// names and tickers; tickers that span chains map to their native chain.
var chainFamilies = func() map[string]Family {
	m := make(map[string]Family)
	add := func(f Family, names ...string) {
		for _, n := range names {
			if _, dup := m[n]; dup {
				panic("screening: duplicate chain identifier " + n)
			}
			m[n] = f
		}
	}
	add(EVM,
		"evm", "ethereum", "eth", "erc20", "ethereum-mainnet",
		"bsc", "bnb", "bep20", "binance-smart-chain", "bnb-smart-chain", "bnb-chain",
		"polygon", "matic", "pol", "polygon-pos",
		"arbitrum", "arb", "arbitrum-one", "arbitrum-nova",
		"optimism", "op", "op-mainnet",
		"base",
		"avalanche", "avax", "avalanche-c", "avax-c", "c-chain",
		"ethereum-classic", "etc",
		"fantom", "ftm", "sonic", "gnosis", "xdai", "linea", "scroll",
		"zksync", "zksync-era", "celo", "cronos", "cro", "moonbeam", "mantle",
		"blast", "unichain", "berachain", "sei-evm",
	)
	add(Bitcoin, "bitcoin", "btc", "xbt", "omni")
	add(Litecoin, "litecoin", "ltc")
	add(BitcoinCash, "bitcoin-cash", "bitcoincash", "bch")
	add(BitcoinSV, "bitcoin-sv", "bitcoinsv", "bsv")
	add(BitcoinGold, "bitcoin-gold", "bitcoingold", "btg")
	add(Dogecoin, "dogecoin", "doge")
	add(Dash, "dash")
	add(Zcash, "zcash", "zec")
	add(Monero, "monero", "xmr")
	add(Tron, "tron", "trx", "trc20")
	add(Solana, "solana", "sol", "spl")
	add(Ripple, "ripple", "xrp", "xrpl", "xrp-ledger")
	add(Verge, "verge", "xvg")
	add(BNBBeacon, "bnb-beacon", "bnb-beacon-chain", "binance-chain", "bep2")
	return m
}()
