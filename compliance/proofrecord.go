package compliance

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"sync"

	"github.com/cairn-dev/cairn/merkle"
	"github.com/klauspost/compress/s2"
)

// A proof document is kept in the Proofs store in parts, so that a
// screening neither encodes its multiproofs as JSON nor compresses their
// hex digests (random bytes that zstd cannot shrink below their binary
// size): the JSON parts, which compress well, and the multiproofs in
// binary. Reading a record rebuilds the document byte for byte as it was
// served (proofRecord.document), the results exactly the bytes that
// resultsHash hashes.
//
// Record, version 4:
//
//	0x04                                  format (a zstd frame starts 0x28: records of before are zstd JSON)
//	uvarint classes, then per class:      the membership multiproofs, in class name order
//	  root                                32 bytes
//	  uvarint top                         how many of the tree's first nodes its top record holds (0: none)
//	  uvarint n, n uvarints               the leaves' tree indices, descending
//	  uvarint n, n proof hashes           32 bytes each: those of nodes at top or below
//	uvarint classes, then per class:      the exclusion multiproofs, in class name order, as above
//	S2 block, to the end of the record:   the JSON parts
//	  string header                       the document's members but merkleProofs, exclusionProofs and results (ProofDoc)
//	  string results                      the results array, as hashed
//	  per membership class: string name, uvarint n, n times string family, string address (the values)
//	  per exclusion class: string name, uvarint n, n times string family, string low, string high
//
// where a string is a uvarint length and the bytes. What a record does
// not store is rebuilt when it is read:
//   - a multiproof's leaves: each is the leaf hash of its value (the
//     membership trees' ["string","string"], the exclusion trees' three
//     strings);
//   - its flags and the order of its proof hashes: the steps of the
//     multiproof of the leaves at those tree indices (merkle.MultiProofWalk);
//   - the proof hashes of the tree's first top nodes (its first topLevels
//     levels, the root's included, where the paths of a batch's leaves
//     meet and every screening of a list version would store the same
//     hashes): they are kept once per tree, in its top record
//     (prooftop.go).
//
// For 100 addresses against a 1,000,000-address list that is 44% of the
// bytes of version 2 (21.5 KB against 49.3 KB, BenchmarkProofPieces). The JSON parts are compressed with S2, which
// takes a fifth of zstd's time for a few KB more.
//
// Records of before still read. Version 3 (0x03) stores, after each root,
// the proof hashes (uvarint n, n hashes) and the flags (uvarint n,
// ceil(n/8) bytes, flag i in bit i%8 of byte i/8, unused bits 0) instead
// of top and the tree indices; version 2 (0x02) is version 3 with each
// multiproof's leaves after its root (uvarint n, n leaves of 32 bytes)
// and the JSON parts as one zstd frame; version 1 (0x01) is version 2
// without the exclusion parts (documents stored before clear results were
// proven).
const (
	proofFormatV1 = 0x01
	proofFormatV2 = 0x02
	proofFormatV3 = 0x03
	proofFormatV4 = 0x04
)

// proofRecord is a screening's proof document in its parts.
type proofRecord struct {
	head    []byte // the JSON object of the ProofDoc
	results []byte // the JSON array of results, as hashed
	proofs  []classProof
	// gaps are the exclusion multiproofs of the results not in each
	// class's tree; nil in a record of version 1 (its document has no
	// exclusionProofs).
	gaps []gapProof
}

// classProof is the multiproof of the listed results of one class.
type classProof struct {
	Class string
	ResultProof
	shape
}

// gapProof is the exclusion multiproof of the results that are not in
// the tree of one class.
type gapProof struct {
	Class string
	GapResultProof
	shape
}

// shape is what a record of version 4 keeps of a multiproof instead of
// its flags and its proof hashes near the root.
type shape struct {
	// nodes are the tree indices of the leaves, descending
	// (merkle.MultiProof.Nodes); nil in a record read from a version
	// before 4.
	nodes []int
	// top is how many of the tree's first nodes its top record holds.
	top int
	// cut tells that the multiproof holds only the proof hashes of nodes
	// at top or beyond, those a record of version 4 keeps
	// (merkle.Tree.MultiProofBelow): it has no record of another version
	// and no document (proofRecord.document) until read back.
	cut bool
}

// below is the tree index from which a cut multiproof holds its proof
// hashes: 0 (all of them) when it is not cut.
func (sh shape) below() int {
	if sh.cut {
		return sh.top
	}
	return 0
}

// GapResultProof is the OpenZeppelin multiproof of exclusion tree leaves
// (gaps) against the exclusion root of one class, kept in the stored
// proof document so that the results not in that class's tree are proven
// absent from it. Its Values are the (family, low, high) gaps of Leaves,
// in order, "" at an open end.
type GapResultProof = LeafProof[[3]string]

var errRecord = errors.New("compliance: malformed proof record")

// document is the proof document as it is served: the header's members,
// "merkleProofs" (an object by class), "exclusionProofs" (an object by
// class; not in documents of version 1) and "results".
func (r *proofRecord) document() ([]byte, error) {
	if !isObject(r.head) || r.cut() {
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
	var gaps []byte
	if r.gaps != nil {
		gapsByClass := make(map[string]GapResultProof, len(r.gaps))
		for _, p := range r.gaps {
			gapsByClass[p.Class] = p.GapResultProof
		}
		if gaps, err = json.Marshal(gapsByClass); err != nil {
			return nil, err
		}
	}
	doc := make([]byte, 0, len(r.head)+len(proofs)+len(gaps)+len(r.results)+64)
	doc = append(append(append(doc, r.head[:len(r.head)-1]...), `,"merkleProofs":`...), proofs...)
	if gaps != nil {
		doc = append(append(doc, `,"exclusionProofs":`...), gaps...)
	}
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

// appendBinary appends the record in its stored form to dst: version 4
// when every multiproof has its shape (the leaves' tree indices, as the
// trees' multiproofs give them), else version 3. The leaves of its
// multiproofs must be the leaf hashes of their values (as the trees'
// multiproofs give them): neither version keeps them.
func (r *proofRecord) appendBinary(dst []byte) []byte {
	if r.shaped() {
		return r.appendFormat(dst, proofFormatV4)
	}
	return r.appendFormat(dst, proofFormatV3)
}

// cut tells whether a multiproof of the record is cut (shape.cut).
func (r *proofRecord) cut() bool {
	for _, p := range r.proofs {
		if p.shape.cut {
			return true
		}
	}
	for _, p := range r.gaps {
		if p.shape.cut {
			return true
		}
	}
	return false
}

// shaped tells whether every multiproof of the record has its shape.
func (r *proofRecord) shaped() bool {
	for _, p := range r.proofs {
		if len(p.nodes) != len(p.Leaves) {
			return false
		}
	}
	for _, p := range r.gaps {
		if len(p.nodes) != len(p.Leaves) {
			return false
		}
	}
	return true
}

// appendFormat appends the record in the given format: version 4 (a
// shaped record) or 3, or the versions of before (for their tests),
// version 1 for a record without exclusion parts.
func (r *proofRecord) appendFormat(dst []byte, format byte) []byte {
	dst = append(dst, format)
	dst = binary.AppendUvarint(dst, uint64(len(r.proofs)))
	for _, p := range r.proofs {
		dst = appendMulti(dst, format, p.Root, p.Leaves, p.Proof, p.ProofFlags, p.shape)
	}
	if format != proofFormatV1 {
		dst = binary.AppendUvarint(dst, uint64(len(r.gaps)))
		for _, p := range r.gaps {
			dst = appendMulti(dst, format, p.Root, p.Leaves, p.Proof, p.ProofFlags, p.shape)
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
	for _, p := range r.gaps {
		text = appendString(text, p.Class)
		text = binary.AppendUvarint(text, uint64(len(p.Values)))
		for _, v := range p.Values {
			text = appendString(appendString(appendString(text, v[0]), v[1]), v[2])
		}
	}
	if format >= proofFormatV3 {
		n := s2.MaxEncodedLen(len(text))
		dst = slices.Grow(dst, n)
		dst = dst[:len(dst)+len(s2.Encode(dst[len(dst):len(dst)+n], text))]
	} else {
		dst = proofEncoder.EncodeAll(text, dst)
	}
	*bp = text
	textPool.Put(bp)
	return dst
}

// appendMulti appends the binary form of a multiproof in the format: in
// version 4 its root, top, the tree indices of its leaves and its proof
// hashes below the top; before, its root, leaves (version 1 and 2), proof
// hashes and flags.
func appendMulti(dst []byte, format byte, root merkle.Hash, leaves, proof []merkle.Hash, flags []bool, sh shape) []byte {
	dst = append(dst, root[:]...)
	if format == proofFormatV4 {
		return appendShaped(dst, proof, sh)
	}
	if sh.cut {
		panic("compliance: a multiproof cut below its tree's top has no record of version " + string('0'+format))
	}
	if format != proofFormatV3 {
		dst = appendHashes(dst, leaves)
	}
	return appendFlagged(dst, proof, flags)
}

// appendShaped appends the shape of a multiproof and those of its proof
// hashes that are not of the tree's top: with no leaves, all of them (the
// proof of nothing is the root).
func appendShaped(dst []byte, proof []merkle.Hash, sh shape) []byte {
	dst = binary.AppendUvarint(dst, uint64(sh.top))
	dst = binary.AppendUvarint(dst, uint64(len(sh.nodes)))
	for _, n := range sh.nodes {
		dst = binary.AppendUvarint(dst, uint64(n))
	}
	if len(sh.nodes) == 0 || sh.cut {
		return appendHashes(dst, proof) // a cut multiproof's are those kept
	}
	// The hashes go after room for their count, which is known once
	// they are: then the count is put before them.
	const room = binary.MaxVarintLen64
	at := len(dst)
	dst = append(dst, make([]byte, room)...)
	i := 0
	merkle.MultiProofWalk(sh.nodes, func(s int, pair bool) {
		if pair {
			return
		}
		if s >= sh.top {
			dst = append(dst, proof[i][:]...)
		}
		i++
	})
	var count [room]byte
	c := binary.PutUvarint(count[:], uint64((len(dst)-at-room)/32))
	copy(dst[at+c:], dst[at+room:])
	copy(dst[at:], count[:c])
	return dst[:len(dst)-room+c]
}

// appendFlagged appends a multiproof's proof hashes and flags.
func appendFlagged(dst []byte, proof []merkle.Hash, flags []bool) []byte {
	dst = appendHashes(dst, proof)
	dst = binary.AppendUvarint(dst, uint64(len(flags)))
	var b byte
	for i, f := range flags {
		if f {
			b |= 1 << (i % 8)
		}
		if i%8 == 7 || i == len(flags)-1 {
			dst, b = append(dst, b), 0
		}
	}
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

// topSource gives the top record of the tree of root: its first n nodes
// (prooftop.go).
type topSource func(root merkle.Hash, n int) ([]merkle.Hash, error)

// parseProofRecord reads a record of version 1 to 4 (appendFormat), the
// proof hashes of the trees' tops of version 4 from tops. Every slice of
// the result is non-nil, as the document is written, but gaps in a record
// of version 1.
func parseProofRecord(rec []byte, tops topSource) (*proofRecord, error) {
	if len(rec) == 0 || rec[0] < proofFormatV1 || rec[0] > proofFormatV4 {
		return nil, errRecord
	}
	format := rec[0]
	rd := &reader{b: rec[1:]}
	r := &proofRecord{proofs: make([]classProof, rd.count(len(rd.b)/32))}
	for i := range r.proofs {
		p := &r.proofs[i]
		p.Root, p.Leaves, p.Proof, p.ProofFlags, p.shape = rd.multi(format)
	}
	if format != proofFormatV1 {
		r.gaps = make([]gapProof, rd.count(len(rd.b)/32))
		for i := range r.gaps {
			p := &r.gaps[i]
			p.Root, p.Leaves, p.Proof, p.ProofFlags, p.shape = rd.multi(format)
		}
	}
	if rd.err != nil {
		return nil, rd.err
	}
	text, err := decodeText(format, rd.b)
	if err != nil {
		return nil, errRecord
	}
	rd = &reader{b: text}
	r.head = rd.bytes(rd.count(len(rd.b)))
	r.results = rd.bytes(rd.count(len(rd.b)))
	for i := range r.proofs {
		p := &r.proofs[i]
		p.Class = rd.string()
		if i > 0 && p.Class <= r.proofs[i-1].Class {
			return nil, errRecord // one entry per class, in name order
		}
		p.Values = make([][2]string, rd.count(len(rd.b)/2))
		for j := range p.Values {
			p.Values[j] = [2]string{rd.string(), rd.string()}
		}
	}
	for i := range r.gaps {
		p := &r.gaps[i]
		p.Class = rd.string()
		if i > 0 && p.Class <= r.gaps[i-1].Class {
			return nil, errRecord
		}
		p.Values = make([][3]string, rd.count(len(rd.b)/3))
		for j := range p.Values {
			p.Values[j] = [3]string{rd.string(), rd.string(), rd.string()}
		}
	}
	if rd.err != nil || len(rd.b) != 0 || !isObject(r.head) {
		return nil, errRecord
	}
	if format >= proofFormatV3 {
		r.hashLeaves()
	}
	if format == proofFormatV4 {
		if err := r.unfold(tops); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// unfold makes the multiproofs of a record of version 4 whole: their
// flags, and their proof hashes with those of the trees' tops.
func (r *proofRecord) unfold(tops topSource) error {
	for i := range r.proofs {
		p := &r.proofs[i]
		if err := unfoldOne(p.Root, len(p.Values), p.shape, &p.Proof, &p.ProofFlags, tops); err != nil {
			return err
		}
	}
	for i := range r.gaps {
		p := &r.gaps[i]
		if err := unfoldOne(p.Root, len(p.Values), p.shape, &p.Proof, &p.ProofFlags, tops); err != nil {
			return err
		}
	}
	return nil
}

// unfoldOne makes one multiproof of n values whole: proof holds the
// hashes below the top as read, and is replaced by all of them.
func unfoldOne(root merkle.Hash, n int, sh shape, proof *[]merkle.Hash, flags *[]bool, tops topSource) error {
	if len(sh.nodes) != n {
		return errRecord
	}
	*flags = []bool{}
	if n == 0 {
		return nil // the proof of nothing: its hashes as stored (the root)
	}
	var top []merkle.Hash
	if sh.top > 0 {
		var err error
		if top, err = tops(root, sh.top); err != nil {
			return err
		}
		if len(top) != sh.top {
			return errRecord
		}
	}
	below := *proof
	*proof = make([]merkle.Hash, 0, len(below)+len(sh.nodes)*16)
	i, ok := 0, true
	walked := merkle.MultiProofWalk(sh.nodes, func(s int, pair bool) {
		*flags = append(*flags, pair)
		switch {
		case pair:
		case s < len(top):
			*proof = append(*proof, top[s])
		case i < len(below):
			*proof = append(*proof, below[i])
			i++
		default:
			ok = false
		}
	})
	if !walked || !ok || i != len(below) {
		return errRecord
	}
	return nil
}

// decodeText decompresses the JSON parts of a record of the format: S2
// from version 3, zstd before.
func decodeText(format byte, b []byte) ([]byte, error) {
	if format < proofFormatV3 {
		return proofDecoder.DecodeAll(b, nil)
	}
	if n, err := s2.DecodedLen(b); err != nil || n > maxProofBytes {
		return nil, errRecord
	}
	return s2.Decode(nil, b)
}

// hashLeaves sets the leaves of the record's multiproofs, which a record
// of version 3 or 4 does not keep: the leaf hash of each value.
func (r *proofRecord) hashLeaves() {
	for i := range r.proofs {
		p := &r.proofs[i]
		p.Leaves = make([]merkle.Hash, len(p.Values))
		for j, v := range p.Values {
			p.Leaves[j] = merkle.LeafHashStrings2(v[0], v[1])
		}
	}
	for i := range r.gaps {
		p := &r.gaps[i]
		p.Leaves = make([]merkle.Hash, len(p.Values))
		for j, v := range p.Values {
			p.Leaves[j] = merkle.LeafHashStrings3(v[0], v[1], v[2])
		}
	}
}

// multi reads the binary form of a multiproof in the format
// (appendMulti): of version 4, proof holds the hashes below the top (to
// unfold) and flags is nil; before, no shape, and the leaves only in
// versions 1 and 2.
func (rd *reader) multi(format byte) (root merkle.Hash, leaves, proof []merkle.Hash, flags []bool, sh shape) {
	root = rd.hash()
	if format == proofFormatV4 {
		sh.top = rd.count(math.MaxInt32)
		sh.nodes = make([]int, rd.count(len(rd.b)))
		for j := range sh.nodes {
			sh.nodes[j] = rd.count(math.MaxInt32)
		}
		return root, nil, rd.hashes(), nil, sh
	}
	if format != proofFormatV3 {
		leaves = rd.hashes()
	}
	proof = rd.hashes()
	flags = make([]bool, rd.count(8*len(rd.b)))
	bits := rd.bytes((len(flags) + 7) / 8)
	if rd.err != nil {
		return root, leaves, proof, flags, sh
	}
	for j := range flags {
		flags[j] = bits[j/8]&(1<<(j%8)) != 0
	}
	if n := len(flags); n%8 != 0 && bits[len(bits)-1]>>(n%8) != 0 {
		rd.err = errRecord // bits past the last flag
	}
	return root, leaves, proof, flags, sh
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

// string reads a string: a uvarint length and its bytes.
func (rd *reader) string() string { return string(rd.bytes(rd.count(len(rd.b)))) }

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
