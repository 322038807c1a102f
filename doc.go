// Package cairn is the shared vocabulary of the service: identifiers, the
// Error type with its stable codes, the Clock, and the domain records that
// more than one package handles (agents, developer accounts, ledger and audit
// entries, media, memories and their versions, sanctions list versions and
// their entries, idempotency records, rate counts).
//
// It imports only the standard library. Every other package may import it;
// it imports none of them.
package cairn
