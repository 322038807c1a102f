// Package pebble is the embedded default storage backend of cairn: every
// store interface implemented on one cockroachdb/pebble database in the data
// directory (or in memory for tests).
//
// Every write is one pebble.Batch, so a method commits all of its records
// or none of them, and is committed with pebble.Sync, except for writes
// whose loss in a crash only ever costs the service, never a client: ledger
// charges, read audit entries, free-tier takes inside an open window and the
// screening count (screenings.go). The WAL is synced in commit order, so any
// later synced write makes them durable too. Charges are moreover held in
// memory and written together, at the latest DefaultChargeFlush after they
// were taken and always before a synced write, another entry of the ledger
// or a read of a balance or ledger (charges.go). Pebble has no
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
