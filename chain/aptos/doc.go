// Package aptos derives cairn's Aptos deposit addresses: one address per
// agent, from one BIP-39 mnemonic, at the BIP-44 path m/44'/637'/{index}'/0'/0'
// (SLIP-0010 ed25519, every level hardened, empty BIP-39 passphrase: the
// scheme Petra and the Aptos SDKs use, so the operator can open any deposit
// account in a standard wallet). The address is the single-signer ed25519
// authentication key, sha3-256(public key || 0x00), written 0x + 64 lower-case
// hex digits.
//
// It verifies deposits (Verifier, a chain.DepositVerifier): a transaction
// looked up on a node's REST API is a deposit of APT into an agent's address
// when it is a committed, successful user transaction with a
// 0x1::fungible_asset::Deposit event into the address's primary APT store,
// or a coin deposit into its CoinStore<AptosCoin>: a legacy
// 0x1::coin::DepositEvent on the store's handle, or a 0x1::coin::CoinDeposit
// module event of AptosCoin naming the address (counted once when a
// transaction shows one transfer both ways).
//
// It also keeps the mnemonic: given by the operator, or generated once and
// stored in the data directory with mode 0600.
//
// It imports the root package, chain, internal/secretfile (the mnemonic
// file), the Aptos SDK (aptos-go-sdk: BIP-39 seed, SLIP-0010 derivation,
// keys, authentication key) and go-bip39 (word list, mnemonic generation);
// never storage, HTTP or gin.
package aptos
