// Package screening owns address normalisation and the immutable in-memory
// index of listed addresses.
//
// Normalisation turns a screening input {address, chain} or a listed
// {ticker, address} into a key (Family, canonical address). Families name an
// address format, not a network: every EVM chain shares the family "evm", so
// an EVM address listed under any EVM asset matches on every EVM chain. The
// family string is the first element of each Merkle leaf, so family names are
// stable and never renamed.
//
// Canonical forms: EVM lower-case hex with 0x (mixed case must carry a valid
// EIP-55 checksum), bech32 and bech32m lower-case, cashaddr lower-case without
// its prefix, base58 verbatim. Every format is validated with its checksum
// and version bytes, so a typo is reported as an invalid address rather than
// screened as clear.
//
// The index is built once per list version and swapped atomically; lookups
// take no lock and allocate nothing beyond the result.
//
// screening does no I/O. It imports neither storage (store, blob), chain, gin
// nor cron; it depends on the root package cairn, merkle (the index's
// trees) and hashing code only.
package screening
