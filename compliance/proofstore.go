package compliance

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"slices"
	"sync"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
	"github.com/cairn-dev/cairn/merkle"
	"github.com/cairn-dev/cairn/screening"
	"github.com/klauspost/compress/zstd"
)

// The JSON parts of a stored proof record are compressed with zstd (and
// whole documents were, before proofFormatV1). Both codecs are safe for
// concurrent use.
var (
	proofEncoder, _ = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1))
	proofDecoder, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecoderMaxMemory(maxProofBytes))
)

// maxProofBytes bounds a proof document read back (a batch of the largest
// size with every address listed stays far below it).
const maxProofBytes = 64 << 20

// storeProof keeps the proof document of a screening against ix, under
// id, drawn at random for it (cairn.NewRandomID) and written nowhere yet: as a
// record (proofRecord.appendBinary) in the Proofs store, whose synced
// commits concurrent screenings share, after the top records of its trees
// (storeTops), or, when the service has none, as a JSON blob of its own.
func (s *Service) storeProof(ctx context.Context, ix *screening.Index, id string, rec *proofRecord) error {
	var err error
	if s.Proofs != nil {
		if err = s.storeTops(ctx, ix, rec); err == nil {
			// The store copies the record (store.Proofs): its buffer is
			// used again.
			bp := recordPool.Get().(*[]byte)
			b := rec.appendBinary(slices.Grow((*bp)[:0], proofRecordSize(rec)))
			// id was drawn at random for this screening (prove).
			err = s.Proofs.PutNewProof(ctx, id, b)
			*bp = b
			recordPool.Put(bp)
		}
	} else {
		var doc []byte
		if doc, err = rec.document(); err == nil {
			_, err = s.Blobs.Put(ctx, ProofBlob(id), bytes.NewReader(doc), blob.PutOptions{ContentType: "application/json"})
		}
	}
	if err != nil {
		return cairn.Errorf(cairn.EUPSTREAM, "Storing the screening proof failed.")
	}
	return nil
}

// recordPool holds the buffers records are encoded in for the Proofs
// store.
var recordPool = sync.Pool{New: func() any { return new([]byte) }}

// proofRecordSize is about the size of the stored form of rec: the proof
// hashes, and the JSON parts compressed to a fifth.
func proofRecordSize(rec *proofRecord) int {
	n := 16 + (len(rec.head)+len(rec.results))/5
	for _, p := range rec.proofs {
		n += 40 + 32*(1+len(p.Proof)) + len(p.ProofFlags)/8 + 28*len(p.Values)
	}
	for _, p := range rec.gaps {
		n += 40 + 32*(1+len(p.Proof)) + len(p.ProofFlags)/8 + 40*len(p.Values)
	}
	return n
}

// Proof returns the proof document of a screening, as it was served
// (JSON). An unknown or malformed id is ENOTFOUND. Documents stored before
// the Proofs store existed are read from their blob.
func (s *Service) Proof(ctx context.Context, id string) (json.RawMessage, error) {
	notFound := cairn.Errorf(cairn.ENOTFOUND, "Screening proof not found.")
	if !cairn.ValidID(id) {
		return nil, notFound
	}
	unreadable := cairn.Errorf(cairn.EUPSTREAM, "Reading the screening proof failed.")
	if s.Proofs != nil {
		packed, err := s.Proofs.Proof(ctx, id)
		switch {
		case err == nil:
			doc, err := proofDocument(packed, func(root merkle.Hash, n int) ([]merkle.Hash, error) { return s.readTop(ctx, root, n) })
			if err != nil {
				return nil, unreadable
			}
			return doc, nil
		case !cairn.IsCode(err, cairn.ENOTFOUND):
			return nil, unreadable
		}
	}
	rc, _, err := s.Blobs.Get(ctx, ProofBlob(id), 0, -1)
	if cairn.IsCode(err, cairn.ENOTFOUND) {
		return nil, notFound
	} else if err != nil {
		return nil, unreadable
	}
	defer rc.Close()
	doc, err := io.ReadAll(io.LimitReader(rc, maxProofBytes))
	if err != nil || !json.Valid(doc) {
		return nil, unreadable
	}
	return doc, nil
}

// proofDocument is the JSON document of a record of the Proofs store: a
// record (parseProofRecord, the trees' tops from tops), or one zstd frame
// of the document as stored before records.
func proofDocument(rec []byte, tops topSource) ([]byte, error) {
	if isZstd(rec) {
		return proofDecoder.DecodeAll(rec, nil)
	}
	r, err := parseProofRecord(rec, tops)
	if err != nil {
		return nil, err
	}
	return r.document()
}
