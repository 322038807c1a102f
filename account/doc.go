// Package account owns developer accounts, agents and their credentials:
// self-registration with starter credits and a deposit address, API key
// authentication, key rotation with the rotation secret, revocation, agents
// created by agents, and developer JWTs.
//
// Keys and rotation secrets are random 256-bit values shown once and kept
// only as SHA-256 digests; comparisons are constant-time.
//
// It imports the root package, the store and chain contracts, wire (the
// deposit instructions it hands out are the API's wire.DepositInfo),
// internal/ttlcache (the cache of authenticated keys), the standard
// library and the JWT library; never an implementation (store/pebble,
// chain/aptos) nor HTTP.
package account
