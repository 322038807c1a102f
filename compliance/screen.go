package compliance

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"sync"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
	"github.com/cairn-dev/cairn/merkle"
	"github.com/cairn-dev/cairn/screening"
)

// ScreenResult is the screening of one address with the time it was
// screened. A screening's results are encoded by appendResults, byte for
// byte as encoding/json encodes a []ScreenResult.
type ScreenResult struct {
	screening.Result
	ScreenedAt string `json:"screenedAt"`
}

// ProofDoc is the stored, independently verifiable record of a screening.
type ProofDoc struct {
	ScreeningID   string                        `json:"screeningId"`
	Timestamp     string                        `json:"timestamp"`
	ResultsHash   string                        `json:"resultsHash"`
	DataSources   []string                      `json:"dataSources"`
	DataSnapshots map[string]screening.Snapshot `json:"dataSnapshots"`
	ListVersion   uint64                        `json:"listVersion"`
	// MerkleRoot is the sanctions root (as when there was one tree);
	// SanctionsRoot names it again beside CommunityRoot.
	MerkleRoot    string `json:"merkleRoot"`
	SanctionsRoot string `json:"sanctionsRoot"`
	CommunityRoot string `json:"communityRoot"`
	// ExclusionRoot and CommunityExclusionRoot are the roots of the
	// exclusion trees the document's exclusionProofs lead to (absent
	// from documents stored before clear results were proven).
	ExclusionRoot          string `json:"exclusionRoot,omitempty"`
	CommunityExclusionRoot string `json:"communityExclusionRoot,omitempty"`
	// ProofURL is where anyone holding the screening id reads this
	// document, without an account.
	ProofURL string `json:"proofUrl,omitempty"`
	// Signature is the issuer's signature of the document's statement
	// (signing.go); absent from documents stored before documents were
	// signed, or when the service signs none.
	Signature *ProofSignature `json:"signature,omitempty"`
}

// ResultProof is the OpenZeppelin multiproof of the listed results of one
// class against that class's root, kept in the stored proof document so
// that it can be checked offline or with one eth_call
// (multiProofVerify). Its Values are the (family, canonical address) of
// Leaves, in order.
type ResultProof = LeafProof[[2]string]

// LeafProof is an OpenZeppelin multiproof of Leaves against Root, with
// Values, what each leaf hashes, in the order of Leaves.
type LeafProof[V any] struct {
	Root       merkle.Hash   `json:"root"`
	Leaves     []merkle.Hash `json:"leaves"`
	Proof      []merkle.Hash `json:"proof"`
	ProofFlags []bool        `json:"proofFlags"`
	Values     []V           `json:"values"`
}

// Screened is a served screening. Results are the bytes resultsHash
// hashes; Proof is the encoded proof document (without the results). The
// stored document is Proof with "results": Results appended.
type Screened struct {
	Results     json.RawMessage
	Proof       json.RawMessage
	DataSources []string
	Usage       Usage

	buf *[]byte // Results' buffer, from resultsPool
}

// resultsPool holds the buffers a screening's results are encoded in.
var resultsPool = sync.Pool{New: func() any { return new([]byte) }}

// Release hands the buffer of Results back for another screening: the
// caller calls it once it has written them, and reads neither Results
// nor Proof after. Not calling it only leaves the buffer to the
// collector.
func (s *Screened) Release() {
	if s.buf != nil {
		*s.buf = s.Results[:0]
		resultsPool.Put(s.buf)
		s.buf, s.Results = nil, nil
	}
}

// Screen screens up to MaxAddresses addresses against the current list
// version, bills them (free window, then 1 credit per address) and stores
// the proof document. An unknown chain fails the whole batch (EINVALID);
// an invalid address gets its own status. Nothing is charged or taken
// from the free window for a request that fails.
func (s *Service) Screen(ctx context.Context, p Principal, qs []screening.Query, includeCommunity bool) (*Screened, error) {
	if err := checkCount(len(qs)); err != nil {
		return nil, err
	}
	ix := s.Screening.Current()
	buf := screenBufs.Get().(*screenBuf)
	defer buf.release()
	results, at, err := ix.ScreenLocated(qs, includeCommunity, buf.results, buf.at)
	if err != nil {
		return nil, err // an unknown chain is the client's mistake, list or not
	}
	buf.results, buf.at = results, at
	if err := s.CheckReady(); err != nil {
		return nil, err
	}
	pm, err := s.pay(ctx, p, len(qs))
	if err != nil {
		return nil, err
	}
	out, err := s.prove(ctx, ix, results, at, includeCommunity)
	if err != nil {
		s.refund(ctx, p, pm)
		return nil, err
	}
	if err := s.Screenings.AddScreenings(ctx, 1); err != nil {
		// The count is a statistic: the screening goes on.
		s.Logger.ErrorContext(ctx, "counting a screening failed", "err", err)
	}
	out.Usage = pm.usage
	return out, nil
}

// screenBuf holds a screening's results and where their addresses are
// in the index (screening.Index.ScreenLocated) until its answer is
// assembled: a screening encodes them (prove) and keeps neither.
type screenBuf struct {
	results []screening.Result
	at      []screening.Located
}

var screenBufs = sync.Pool{New: func() any { return new(screenBuf) }}

// release hands the buffers back, emptied: they would hold the request's
// strings and the index's matches.
func (b *screenBuf) release() {
	clear(b.results)
	clear(b.at)
	b.results, b.at = b.results[:0], b.at[:0]
	screenBufs.Put(b)
}

// prove assembles the proof document of the results and stores it; loc
// tells where the results' addresses are in ix.
func (s *Service) prove(ctx context.Context, ix *screening.Index, results []screening.Result, loc []screening.Located, community bool) (*Screened, error) {
	at := Timestamp(s.Clock.Now())
	// The results as json.Marshal of []ScreenResult encodes them
	// (resultsjson.go), about 300 bytes each.
	buf := resultsPool.Get().(*[]byte)
	resultsJSON := appendResults(slices.Grow((*buf)[:0], 320*len(results)+64), results, at)
	sum := sha256.Sum256(resultsJSON)
	root := ix.Root().String()
	doc := ProofDoc{
		ScreeningID: cairn.NewRandomID(), Timestamp: at, ResultsHash: hex.EncodeToString(sum[:]),
		DataSources: []string{}, DataSnapshots: map[string]screening.Snapshot{},
		ListVersion: ix.Version, MerkleRoot: root, SanctionsRoot: root, CommunityRoot: ix.CommunityRoot().String(),
		ExclusionRoot: ix.ExclusionRoot().String(), CommunityExclusionRoot: ix.CommunityExclusionRoot().String(),
	}
	for _, src := range ix.Sources {
		// Without includeCommunity the community source is not consulted.
		if community || src != screening.SourceCommunity {
			doc.DataSources = append(doc.DataSources, src)
		}
	}
	for name, snap := range ix.Snapshots {
		if community || name != screening.SourceCommunity {
			snap.StorageURL = s.snapshotURL(ctx, snap)
			doc.DataSnapshots[name] = snap
		}
	}
	if s.PublicURL != "" {
		doc.ProofURL = s.PublicURL + "/v1/compliance/proofs/" + doc.ScreeningID
	}
	// With a Proofs store, the multiproofs are cut to what the record
	// keeps (appendBinary writes version 4): the hashes of the trees'
	// tops are neither gathered nor copied. A document stored as a blob
	// holds them all.
	cut := s.Proofs != nil
	proofs, err := resultProofs(ix, results, loc, s.topNodes(), cut)
	if err != nil {
		return nil, err
	}
	gaps, err := resultGaps(ix, results, loc, community, s.topNodes(), cut)
	if err != nil {
		return nil, err
	}
	if s.Signer != nil {
		if doc.Signature, err = s.Signer.Sign(&doc); err != nil {
			return nil, err
		}
	}
	proofJSON, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	// The results bytes are stored as they are hashed and served, encoded
	// once.
	if err := s.storeProof(ctx, ix, doc.ScreeningID, &proofRecord{head: proofJSON, results: resultsJSON, proofs: proofs, gaps: gaps}); err != nil {
		return nil, err
	}
	return &Screened{Results: resultsJSON, Proof: proofJSON, DataSources: doc.DataSources, buf: buf}, nil
}

// PresignedSnapshotTTL is how long the presigned storageUrl of a snapshot
// in a proof document stays valid, when the service has no public URL and
// the blob store gives one: 7 days, the longest an S3 signature allows.
const PresignedSnapshotTTL = 7 * 24 * time.Hour

// snapshotURL is where a proof document says a snapshot can be fetched:
// the service's own route under PublicURL (GET
// /v1/compliance/snapshots/{sha256}, no account), which works as long as
// the document does and names neither the blob store's endpoint nor its
// credentials; without a public URL, a URL of the blob store, signed for
// PresignedSnapshotTTL when the store gives one (blob.Presigner), else the
// blob store's URL recorded with the list version.
func (s *Service) snapshotURL(ctx context.Context, snap screening.Snapshot) string {
	if s.PublicURL != "" && snap.SHA256 != "" {
		return SnapshotURL(s.PublicURL, snap.SHA256)
	}
	if p, ok := s.Blobs.(blob.Presigner); ok && snap.BlobName != "" {
		u, err := p.PresignGet(ctx, snap.BlobName, PresignedSnapshotTTL)
		if err == nil {
			return u
		}
		if s.Logger != nil {
			s.Logger.WarnContext(ctx, "presigning a snapshot URL failed", "blob", snap.BlobName, "err", err)
		}
	}
	return snap.StorageURL
}

// SnapshotURL is where a snapshot is served by its digest under the
// public base URL.
func SnapshotURL(publicURL, sha256 string) string {
	return publicURL + "/v1/compliance/snapshots/" + sha256
}

// listedIn tells the trees a result's matches put its address in: the
// sanctions tree for a match of a sanctions source, the community tree
// for a community one.
func listedIn(r screening.Result) (sanctions, community bool) {
	s, c := matchCounts(r)
	return s > 0, c > 0
}

// matchCounts counts a result's matches of sanctions sources and of the
// community.
func matchCounts(r screening.Result) (sanctions, community int) {
	for _, m := range r.Matches {
		if screening.SanctionsSource(m.Source) {
			sanctions++
		} else {
			community++
		}
	}
	return sanctions, community
}

// resultProofs is the multiproof of the listed results of each class, in
// class name order (a class with no listed result is left out); at tells
// where the results' addresses are in ix (ScreenLocated). An address
// screened twice is proved once. The record leaves the hashes of each
// tree's first top nodes to its top record (prooftop.go); with cut, the
// multiproofs hold only the proof hashes the record keeps (shape.cut),
// which only a record of version 4 can hold.
func resultProofs(ix *screening.Index, results []screening.Result, at []screening.Located, top int, cut bool) ([]classProof, error) {
	bp := locatedPool.Get().(*[]screening.Located)
	defer putLocated(bp)
	var out []classProof
	for _, c := range [...]struct {
		class     string
		community bool
		root      merkle.Hash
	}{{screening.ClassCommunity, true, ix.CommunityRoot()}, {screening.ClassSanctions, false, ix.Root()}} {
		in := (*bp)[:0]
		for i, r := range results {
			if inSanctions, inCommunity := listedIn(r); c.community && inCommunity || !c.community && inSanctions {
				in = append(in, at[i])
			}
		}
		*bp = in
		if len(in) == 0 {
			continue
		}
		sh := shape{top: len(ix.Top(c.class, false, top)), cut: cut}
		mp, values, err := ix.MultiProofAtBelow(c.class, in, sh.below())
		if err != nil {
			return nil, err
		}
		nonNil(&mp)
		sh.nodes = mp.Nodes
		out = append(out, classProof{c.class, ResultProof{Root: c.root, Leaves: mp.Leaves, Proof: mp.Proof, ProofFlags: mp.ProofFlags, Values: values}, sh})
	}
	return out, nil
}

// locatedPool holds the buffers in which resultProofs and resultGaps
// gather the results of one class.
var locatedPool = sync.Pool{New: func() any { return new([]screening.Located) }}

// putLocated hands a buffer back, emptied to its capacity: each class's
// results were gathered in it in turn.
func putLocated(bp *[]screening.Located) {
	clear((*bp)[:cap(*bp)])
	*bp = (*bp)[:0]
	locatedPool.Put(bp)
}

// resultGaps is the exclusion multiproof of each class's tree over the
// valid results not in it, in class name order: every valid result that
// no sanctions source lists is proven absent from the sanctions tree and,
// when the community list was consulted, every one that no community
// escalation lists from the community tree. A class with no such result
// is left out; a gap shared by several results is proved once. The slice
// is never nil (a document of version 2 has "exclusionProofs"). at, top
// and cut are resultProofs'.
func resultGaps(ix *screening.Index, results []screening.Result, at []screening.Located, community bool, top int, cut bool) ([]gapProof, error) {
	bp := locatedPool.Get().(*[]screening.Located)
	defer putLocated(bp)
	out := []gapProof{}
	for _, class := range [...]string{screening.ClassCommunity, screening.ClassSanctions} {
		if class == screening.ClassCommunity && !community {
			continue
		}
		notIn := (*bp)[:0]
		for i, r := range results {
			if r.Status == screening.StatusInvalidAddress {
				continue
			}
			if inSanctions, inCommunity := listedIn(r); class == screening.ClassCommunity && !inCommunity || class == screening.ClassSanctions && !inSanctions {
				notIn = append(notIn, at[i])
			}
		}
		*bp = notIn
		if len(notIn) == 0 {
			continue
		}
		sh := shape{top: len(ix.Top(class, true, top)), cut: cut}
		mp, values, err := ix.ExclusionMultiProofAtBelow(class, notIn, sh.below())
		if err != nil {
			return nil, err
		}
		nonNil(&mp)
		sh.nodes = mp.Nodes
		out = append(out, gapProof{class, GapResultProof{Root: ix.ExclusionRootOf(class), Leaves: mp.Leaves, Proof: mp.Proof,
			ProofFlags: mp.ProofFlags, Values: values}, sh})
	}
	return out, nil
}

// ProofBlob is the blob name of a screening's proof document when the
// service keeps proofs in the blob store (no Proofs store), and where the
// documents stored before the Proofs store existed are read.
func ProofBlob(screeningID string) string { return "proofs/" + screeningID + ".json" }
