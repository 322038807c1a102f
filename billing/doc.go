// Package billing owns prices and the credit ledger: live operation costs
// (defaults from the interface, changeable by an administrator) and the
// pricing note written from them, charges before the effect, refunds as
// their own ledger entries, grants, balances and the paginated transaction
// history; the Bill of a request, which holds its charges and settles
// them by its response status as spec 7 says (refunds, per-item charges
// of bulk requests, settled marks), and the checkpoint of the crash
// recovery of charges (Recovery) that the running bills give.
//
// It imports the root package, store and the standard library; never an
// implementation nor an HTTP framework (spec 7's refunds are stated in
// status numbers, which is all it knows of HTTP).
package billing
