package compliance

import (
	"bytes"
	"context"
	"encoding/json"
	"io"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
	"github.com/klauspost/compress/zstd"
)

// Proof documents are kept compressed with zstd: most of a document is
// hex digests (4 bits of information per byte) and repeated JSON keys, so
// it shrinks to well under half. Both codecs are safe for concurrent use.
var (
	proofEncoder, _ = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1))
	proofDecoder, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecoderMaxMemory(maxProofBytes))
)

// maxProofBytes bounds a proof document read back (a batch of the largest
// size with every address listed stays far below it).
const maxProofBytes = 64 << 20

// storeProof keeps the proof document of a screening: compressed in the
// Proofs store, whose synced commits concurrent screenings share, or, when
// the service has none, as a blob of its own.
func (s *Service) storeProof(ctx context.Context, id string, doc []byte) error {
	var err error
	if s.Proofs != nil {
		err = s.Proofs.PutProof(ctx, id, proofEncoder.EncodeAll(doc, make([]byte, 0, len(doc)/3)))
	} else {
		_, err = s.Blobs.Put(ctx, ProofBlob(id), bytes.NewReader(doc), blob.PutOptions{ContentType: "application/json"})
	}
	if err != nil {
		return cairn.Errorf(cairn.EUPSTREAM, "Storing the screening proof failed.")
	}
	return nil
}

// Proof returns the proof document of a screening, as it was stored (JSON).
// An unknown or malformed id is ENOTFOUND. Documents stored before the
// Proofs store existed are read from their blob.
func (s *Service) Proof(ctx context.Context, id string) (json.RawMessage, error) {
	notFound := cairn.Errorf(cairn.ENOTFOUND, "Screening proof not found.")
	if !cairn.ValidID(id) {
		return nil, notFound
	}
	if s.Proofs != nil {
		packed, err := s.Proofs.Proof(ctx, id)
		switch {
		case err == nil:
			doc, err := proofDecoder.DecodeAll(packed, nil)
			if err != nil {
				return nil, cairn.Errorf(cairn.EUPSTREAM, "Reading the screening proof failed.")
			}
			return doc, nil
		case !cairn.IsCode(err, cairn.ENOTFOUND):
			return nil, cairn.Errorf(cairn.EUPSTREAM, "Reading the screening proof failed.")
		}
	}
	rc, _, err := s.Blobs.Get(ctx, ProofBlob(id), 0, -1)
	if cairn.IsCode(err, cairn.ENOTFOUND) {
		return nil, notFound
	} else if err != nil {
		return nil, cairn.Errorf(cairn.EUPSTREAM, "Reading the screening proof failed.")
	}
	defer rc.Close()
	doc, err := io.ReadAll(io.LimitReader(rc, maxProofBytes))
	if err != nil || !json.Valid(doc) {
		return nil, cairn.Errorf(cairn.EUPSTREAM, "Reading the screening proof failed.")
	}
	return doc, nil
}
