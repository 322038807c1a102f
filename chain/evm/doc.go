// Package evm anchors cairn's list roots on an EVM chain: the go-ethereum
// bindings of the verifier contract (contracts/CairnVerifier.sol, generated
// by abigen; regenerate with contracts/generate.sh), deploying it, reading
// the operator's key file, and the Anchorer that sends each new list
// version's four roots (sanctions, community and their exclusion trees) to
// the contract in one setRoots transaction and follows the
// transaction until it has the required confirmations; and the Oracle,
// which then keeps the contract's isSanctioned(address) storage in step
// with that version (addSanctioned and removeSanctioned in batches that
// fit the gas bound, each transaction proven against the version's trees).
//
// The anchor and oracle state lives in the store (store.Anchors), so that it survives
// restarts: a transaction is signed and persisted before it is broadcast,
// and after a restart the same signed bytes are broadcast again rather than
// a new transaction signed.
//
// It imports the root package, chain, store, internal/secretfile (the key
// file) and go-ethereum; never a store backend, a domain package, HTTP or
// gin.
package evm
