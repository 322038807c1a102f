// Package compliance is the home of the screening service's orchestration:
// what a screening or a Merkle proof costs (the developer's free window,
// then credits), what is answered, and the proof document that is stored;
// and community reports (Reports): which accounts' reports count toward
// escalation, and the administrators' confirmations, rejections and
// delistings.
// Each operation takes the principal it acts for and returns a result or a
// *cairn.Error; the HTTP front end only parses requests and writes answers.
//
// It builds on screening (the in-memory index), billing (the ledger) and
// the store and blob interfaces. It imports neither gin nor HTTP, nor any
// storage or chain implementation.
package compliance
