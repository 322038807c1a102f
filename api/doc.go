// Package api is the HTTP front end of cairn, on gin: every route
// (routes.go), the one table that maps error codes to statuses (errors.go),
// request ids, logging, metrics, authentication, rate limits and the one
// billing mechanism every priced endpoint goes through. Handlers are thin:
// bind, call one domain service, write JSON.
//
// It imports the domain packages (account, billing, ...), the store and blob
// contracts and the root package; never an implementation (store/pebble,
// store/postgres, blob/fs, blob/s3, chain/evm, chain/aptos): cmd/cairn wires
// those in.
package api
