// Package billing owns prices and the credit ledger: live operation costs
// (defaults from the interface, changeable by an administrator) and the
// pricing note written from them and the free tier (Note), charges before
// the effect, refunds as their own ledger entries, grants, balances and the
// paginated transaction history; the Biller, which opens the Bill of each
// priced request (the Bill holds the request's charges and settles them by
// its response status as spec 7 says: refunds, per-item charges of bulk
// requests, settled marks) and knows which bills are still running, the
// checkpoint of the crash recovery of charges (Recovery); and the
// crediting of on-chain deposits (Deposits).
//
// It imports the root package, the store and chain contracts and the
// standard library; never an implementation nor an HTTP framework (spec
// 7's refunds are stated in status numbers, which is all it knows of
// HTTP).
package billing
