// Package billing owns prices and the credit ledger: live operation costs
// (defaults from the interface, changeable by an administrator), charges
// before the effect, refunds as their own ledger entries, grants, balances
// and the paginated transaction history.
//
// It imports the root package, store and the standard library; never an
// implementation nor HTTP.
package billing
