// Package cairn is the shared vocabulary of the service: identifiers, the
// Error type with its stable codes, the Clock, TTL durations (ParseTTL),
// the signed pagination cursors every listing uses (Cursors: a cursor is
// bound to the principal that listed and to the filter it listed with),
// and the records that more than one package handles: agents and
// developer accounts, ledger and audit entries, media, memories with
// their versions, filters and pages, sanctions list versions with their
// entries and changes, community reports and their moderations and
// escalations, the anchoring of list versions, idempotency records and
// rate counts. The storage contracts (store) speak in these records; so
// do the domain services and the HTTP front end, which therefore never
// needs a storage package to render one.
//
// Where a type lives follows one rule: every value a storage contract
// takes or returns (a record, the filter or query of a listing or a
// search, the outcome of a take or a count) is declared here, beside the
// records it speaks of; store declares only the interfaces and the
// functions over them (deps_test.go checks that it declares no struct).
//
// It imports only the standard library. Every other package may import it;
// it imports none of them.
package cairn
