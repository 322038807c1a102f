package store

import "context"

// Proofs holds screening proof documents by screening id: written once
// with the screening's answer and read by anyone holding the id. The bytes
// are opaque to the store (the compliance service stores a compact binary
// record of each document, and, under ids that are no screening id, the
// top records of the trees those records leave their first proof hashes
// to: compliance/prooftop.go).
// Writes are synced, and a backend commits concurrent ones together (one
// log sync for many), so that a screening does not cost a file and an
// fsync of its own.
type Proofs interface {
	// PutProof stores doc under id, durably. An id already stored is
	// ECONFLICT (ids are random: a second write is a bug, never a retry).
	// The store keeps no reference to doc once PutProof returns: the
	// caller may use the buffer again.
	PutProof(ctx context.Context, id string, doc []byte) error

	// PutNewProof stores doc under id, durably, as PutProof does, for an
	// id the caller has just drawn at random (cairn.NewRandomID, 122
	// bits) and has never written: no stored document can have it, so
	// the store may skip the check that PutProof makes (a read of the
	// keyspace per write, for an answer that is always "none"). A second
	// write of one id through PutNewProof is a bug of the caller that a
	// backend need not detect: then either document may be the one
	// stored. Any other id (a fixed name, one that came from outside)
	// goes through PutProof.
	PutNewProof(ctx context.Context, id string, doc []byte) error

	// Proof returns the document stored under id (ENOTFOUND when none).
	Proof(ctx context.Context, id string) ([]byte, error)

	// HasProof reports whether a document is stored under id, without
	// reading it (a tree's top record is tens of MiB).
	HasProof(ctx context.Context, id string) (bool, error)
}
