// Package compliance is the home of the screening service's orchestration:
// what a screening or a Merkle proof costs (the developer's free window,
// then credits), what is answered, and the proof document that is stored
// and read back by screening id (Proof); the raw source snapshots a list
// version was built from, read by their SHA-256 (Snapshot); the current
// roots and their anchoring (Roots); and community reports (Reports):
// which accounts' reports count toward escalation, the administrators'
// confirmations, rejections and delistings, the community listings the
// index is built with (CommunityListings) and the counts of the
// statistics; and the verification of the documents it answers (Verify:
// a Merkle proof or a screening proof, check by check, with what needs the
// outside world, fetching snapshots and keys or reading a chain, passed in
// as functions), which cairn verify-proof runs.
// Each operation takes the principal it acts for and returns a result or a
// *cairn.Error; the HTTP front end only parses requests and writes answers.
//
// It builds on screening (the in-memory index), merkle, billing (the
// ledger), the store and blob interfaces and the chain contract (anchor
// states). It imports neither gin nor HTTP, nor any storage or chain
// implementation.
package compliance
