package compliance

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"sync"

	"github.com/cairn-dev/cairn/merkle"
)

// A proof document is kept in the Proofs store in parts, so that a
// screening neither encodes its multiproofs as JSON nor compresses their
// hex digests (random bytes that zstd cannot shrink below their binary
// size): the JSON parts, which compress well, and the multiproofs in
// binary. Reading a record rebuilds the document byte for byte as it was
// served (proofRecord.document), the results exactly the bytes that
// resultsHash hashes.
//
// Record, version 1:
//
//	0x01                                  format (a zstd frame starts 0x28: records of before are zstd JSON)
//	uvarint classes, then per class:      the multiproofs, in class name order
//	  root                                32 bytes
//	  uvarint n, n leaves                 32 bytes each
//	  uvarint n, n proof hashes           32 bytes each
//	  uvarint n, ceil(n/8) bytes          proof flags, flag i in bit i%8 of byte i/8, unused bits 0
//	zstd frame, to the end of the record: the JSON parts
//	  string header                       the document's members but merkleProofs and results (ProofDoc)
//	  string results                      the results array, as hashed
//	  per class: string name, uvarint n, n times string family, string address (the values)
//
// where a string is a uvarint length and the bytes.
const proofFormatV1 = 0x01

// proofRecord is a screening's proof document in its parts.
type proofRecord struct {
	head    []byte // the JSON object of the ProofDoc
	results []byte // the JSON array of results, as hashed
	proofs  []classProof
}

// classProof is the multiproof of the listed results of one class.
type classProof struct {
	Class string
	ResultProof
}

var errRecord = errors.New("compliance: malformed proof record")

// document is the proof document as it is served: the header's members,
// "merkleProofs" (an object by class) and "results".
func (r *proofRecord) document() ([]byte, error) {
	if !isObject(r.head) {
		return nil, errRecord
	}
	byClass := make(map[string]ResultProof, len(r.proofs))
	for _, p := range r.proofs {
		byClass[p.Class] = p.ResultProof
	}
	proofs, err := json.Marshal(byClass)
	if err != nil {
		return nil, err
	}
	doc := make([]byte, 0, len(r.head)+len(proofs)+len(r.results)+32)
	doc = append(append(append(doc, r.head[:len(r.head)-1]...), `,"merkleProofs":`...), proofs...)
	return append(append(append(doc, `,"results":`...), r.results...), '}'), nil
}

// isObject tells a header the document can be assembled around: the
// bytes of one JSON object (as ProofDoc encodes).
func isObject(head []byte) bool {
	return len(head) >= 2 && head[0] == '{' && head[len(head)-1] == '}'
}

// textPool holds the buffers the JSON parts are gathered in before they
// are compressed.
var textPool = sync.Pool{New: func() any { return new([]byte) }}

// appendBinary appends the record in its stored form (version 1) to dst.
func (r *proofRecord) appendBinary(dst []byte) []byte {
	dst = append(dst, proofFormatV1)
	dst = binary.AppendUvarint(dst, uint64(len(r.proofs)))
	for _, p := range r.proofs {
		dst = append(dst, p.Root[:]...)
		dst = appendHashes(dst, p.Leaves)
		dst = appendHashes(dst, p.Proof)
		dst = binary.AppendUvarint(dst, uint64(len(p.ProofFlags)))
		var b byte
		for i, f := range p.ProofFlags {
			if f {
				b |= 1 << (i % 8)
			}
			if i%8 == 7 || i == len(p.ProofFlags)-1 {
				dst, b = append(dst, b), 0
			}
		}
	}
	bp := textPool.Get().(*[]byte)
	text := appendString((*bp)[:0], r.head)
	text = appendString(text, r.results)
	for _, p := range r.proofs {
		text = appendString(text, p.Class)
		text = binary.AppendUvarint(text, uint64(len(p.Values)))
		for _, v := range p.Values {
			text = appendString(appendString(text, v[0]), v[1])
		}
	}
	dst = proofEncoder.EncodeAll(text, dst)
	*bp = text
	textPool.Put(bp)
	return dst
}

func appendHashes(dst []byte, hs []merkle.Hash) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(hs)))
	for i := range hs {
		dst = append(dst, hs[i][:]...)
	}
	return dst
}

func appendString[S ~string | ~[]byte](dst []byte, s S) []byte {
	return append(binary.AppendUvarint(dst, uint64(len(s))), s...)
}

// parseProofRecord reads a record of version 1 (appendBinary). Every
// slice of the result is non-nil, as the document is written.
func parseProofRecord(rec []byte) (*proofRecord, error) {
	if len(rec) == 0 || rec[0] != proofFormatV1 {
		return nil, errRecord
	}
	rd := &reader{b: rec[1:]}
	r := &proofRecord{proofs: make([]classProof, rd.count(len(rd.b)/32))}
	for i := range r.proofs {
		p := &r.proofs[i]
		p.Root = rd.hash()
		p.Leaves = rd.hashes()
		p.Proof = rd.hashes()
		p.ProofFlags = make([]bool, rd.count(8*len(rd.b)))
		bits := rd.bytes((len(p.ProofFlags) + 7) / 8)
		if rd.err != nil {
			return nil, rd.err
		}
		for j := range p.ProofFlags {
			p.ProofFlags[j] = bits[j/8]&(1<<(j%8)) != 0
		}
		if n := len(p.ProofFlags); n%8 != 0 && bits[len(bits)-1]>>(n%8) != 0 {
			return nil, errRecord // bits past the last flag
		}
	}
	if rd.err != nil {
		return nil, rd.err
	}
	text, err := proofDecoder.DecodeAll(rd.b, nil)
	if err != nil {
		return nil, errRecord
	}
	rd = &reader{b: text}
	r.head = rd.bytes(rd.count(len(rd.b)))
	r.results = rd.bytes(rd.count(len(rd.b)))
	for i := range r.proofs {
		p := &r.proofs[i]
		p.Class = string(rd.bytes(rd.count(len(rd.b))))
		if i > 0 && p.Class <= r.proofs[i-1].Class {
			return nil, errRecord // one entry per class, in name order
		}
		p.Values = make([][2]string, rd.count(len(rd.b)/2))
		for j := range p.Values {
			p.Values[j][0] = string(rd.bytes(rd.count(len(rd.b))))
			p.Values[j][1] = string(rd.bytes(rd.count(len(rd.b))))
		}
	}
	if rd.err != nil || len(rd.b) != 0 || !isObject(r.head) {
		return nil, errRecord
	}
	return r, nil
}

// reader takes a record apart. The first error sticks: every read after
// it gives zero values (empty slices, zero counts).
type reader struct {
	b   []byte
	err error
}

// count reads a uvarint count of at most limit.
func (rd *reader) count(limit int) int {
	v, k := binary.Uvarint(rd.b)
	if rd.err != nil || k <= 0 || v > uint64(limit) {
		rd.err = errRecord
		return 0
	}
	rd.b = rd.b[k:]
	return int(v)
}

// bytes reads n bytes: a view of the input, cut to length.
func (rd *reader) bytes(n int) []byte {
	if rd.err != nil || n > len(rd.b) {
		rd.err = errRecord
		return []byte{}
	}
	out := rd.b[:n:n]
	rd.b = rd.b[n:]
	return out
}

func (rd *reader) hash() merkle.Hash {
	var h merkle.Hash
	copy(h[:], rd.bytes(len(h)))
	return h
}

func (rd *reader) hashes() []merkle.Hash {
	out := make([]merkle.Hash, rd.count(len(rd.b)/32))
	for i := range out {
		out[i] = rd.hash()
	}
	return out
}

// isZstd tells a record stored as one zstd frame of the JSON document (as
// before proofFormatV1) by the frame's magic number.
func isZstd(rec []byte) bool {
	return bytes.HasPrefix(rec, []byte{0x28, 0xb5, 0x2f, 0xfd})
}
