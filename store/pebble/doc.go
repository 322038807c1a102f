// Package pebble is the embedded default storage backend of cairn: every
// store interface implemented on one cockroachdb/pebble database in the data
// directory (or in memory for tests).
//
// Every write is one pebble.Batch committed with pebble.Sync, so a method
// either commits all of its records durably or none of them. Pebble has no
// read-write transactions, so read-modify-write (ledger entries, agent
// updates, uniqueness checks, deposit indexes) is serialized by striped
// mutexes keyed by developer, agent or unique key; different developers
// never wait for each other. Records are stored as JSON; keys, their
// prefixes and their order are defined in keys.go alone.
//
// The package imports the root package, store and pebble; it must not import
// the HTTP front end, the domain services, the chain packages or another
// backend.
package pebble
