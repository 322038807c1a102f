package compliance

import (
	"bytes"
	"context"
	"encoding/hex"
	"strconv"
	"sync"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/merkle"
	"github.com/cairn-dev/cairn/screening"
)

// The paths of a batch's leaves meet near the root, and every screening
// against a list version proves its leaves up to the same roots: the
// proof hashes of a tree's first levels are the same from one stored proof
// to the next. A record of version 4 leaves those of a tree's first
// topLevels levels (its first 2^topLevels - 1 nodes, all of the nodes of a
// smaller tree) to the tree's top record: the hashes of those
// nodes in the tree's flat layout, 32 bytes each, stored once in the
// Proofs store under topID (no screening id: never served as a proof)
// before the first record that leaves hashes to it. Two tops of one root
// are the same bytes (the root commits to every node), so instances
// sharing a store may store the same top record, the second finding it
// there.
//
// Twenty levels hold every node of a tree of up to 524,288 leaves, every
// internal node of one of up to 1,048,576, and all but the lowest four
// levels of one of 10 million: at 1,000,000 addresses a record keeps at
// most one proof hash per proven leaf (its sibling), 8.7 KB
// for a batch of 100 where sixteen levels left 21.5 KB, and every
// screening writes those bytes twice (the log, then the blob file). The
// price is paid once per tree and version: 32 MiB in the store
// (BENCHMARKS.md, "Proof records with twenty levels of tops").
const topLevels = 20 // 32 MiB of hashes for a tree of 524,288 leaves or more

// topNodes is how many of a tree's first nodes the service's records leave
// to its top record: those of topLevels, or of Service.topLevels when set
// (the tests' smaller trees).
func (s *Service) topNodes() int {
	if s.topLevels > 0 {
		return topNodesOf(s.topLevels)
	}
	return topNodesOf(topLevels)
}

// topNodesOf is the number of nodes of a tree's first levels.
func topNodesOf(levels int) int { return 1<<levels - 1 }

// topID is the Proofs store id of the top record of the first n nodes of
// the tree of root.
func topID(root merkle.Hash, n int) string {
	return "tree-top-" + hex.EncodeToString(root[:]) + "-" + strconv.Itoa(n)
}

// topKey names a top record.
type topKey struct {
	root merkle.Hash
	n    int
}

// maxReadTops bounds the top records a service keeps in memory once read
// (32 MiB each at most): the trees of older versions proofs are read for.
// Those of the versions the index holds are read from its trees.
const maxReadTops = 2

// topCache holds what a service knows of the top records: those it stored
// or found stored, and those it read back.
type topCache struct {
	mu     sync.Mutex
	stored map[topKey]bool
	read   map[topKey][]merkle.Hash
}

// storeTops stores the top records the record's multiproofs leave hashes
// to, the first time this service needs each: from then on the record can
// be read. A top record already stored (by another instance) is not
// written again.
func (s *Service) storeTops(ctx context.Context, ix *screening.Index, rec *proofRecord) error {
	for _, p := range rec.proofs {
		if err := s.storeTop(ctx, ix, p.Class, false, p.Root, p.top); err != nil {
			return err
		}
	}
	for _, p := range rec.gaps {
		if err := s.storeTop(ctx, ix, p.Class, true, p.Root, p.top); err != nil {
			return err
		}
	}
	return nil
}

// storeTop stores the top record of the first n nodes of the tree of
// class in ix (of its exclusion tree with exclusion), whose root is root.
// Screenings wait for the first one to store it (once per tree).
func (s *Service) storeTop(ctx context.Context, ix *screening.Index, class string, exclusion bool, root merkle.Hash, n int) error {
	if n == 0 {
		return nil
	}
	k := topKey{root, n}
	c := &s.tops
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stored[k] {
		return nil
	}
	top := ix.Top(class, exclusion, n)
	if len(top) != n || top[0] != root {
		return cairn.Errorf(cairn.EINTERNAL, "The top of the %s tree does not match its proof.", class)
	}
	// Another instance, or this one before a restart, may have stored it:
	// then it is not sent again (up to 32 MiB).
	id := topID(root, n)
	found, err := s.Proofs.HasProof(ctx, id)
	if err != nil {
		return err
	}
	if found {
		c.markStored(k)
		return nil
	}
	b := make([]byte, 0, 32*n)
	for i := range top {
		b = append(b, top[i][:]...)
	}
	if err := s.Proofs.PutProof(ctx, id, b); err != nil && !cairn.IsCode(err, cairn.ECONFLICT) {
		return err
	}
	c.markStored(k)
	return nil
}

// markStored records that the top record k is in the store. The caller
// holds c.mu.
func (c *topCache) markStored(k topKey) {
	if c.stored == nil {
		c.stored = map[topKey]bool{}
	}
	c.stored[k] = true
}

// readTop returns the first n node hashes of the tree of root from its top
// record: errRecord when it is missing or is not the top of that root.
func (s *Service) readTop(ctx context.Context, root merkle.Hash, n int) ([]merkle.Hash, error) {
	if top := s.heldTop(root, n); top != nil {
		return top, nil
	}
	k := topKey{root, n}
	c := &s.tops
	c.mu.Lock()
	top, ok := c.read[k]
	c.mu.Unlock()
	if ok {
		return top, nil
	}
	b, err := s.Proofs.Proof(ctx, topID(root, n))
	if err != nil {
		return nil, err
	}
	if len(b) != 32*n || !bytes.Equal(b[:32], root[:]) {
		return nil, errRecord
	}
	top = make([]merkle.Hash, n)
	for i := range top {
		copy(top[i][:], b[32*i:])
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.read == nil {
		c.read = map[topKey][]merkle.Hash{}
	}
	for old := range c.read {
		if len(c.read) < maxReadTops {
			break
		}
		delete(c.read, old)
	}
	c.read[k] = top
	return top, nil
}

// heldTop returns the first n nodes of the tree of root from the index
// being served, or the one kept beside it while a newer version is
// anchored, when root is one of their trees' roots: nil otherwise. The
// nodes are the tree's own (Top is a view), so a proof of those versions
// reads no top record and copies nothing.
func (s *Service) heldTop(root merkle.Hash, n int) []merkle.Hash {
	if s.Screening == nil {
		return nil
	}
	for _, v := range s.Screening.Held() {
		if ix, ok := s.Screening.Version(v); ok {
			for _, t := range treeTops(ix, n) {
				if len(t.top) == n && t.top[0] == root {
					return t.top
				}
			}
		}
	}
	return nil
}

// treeTop is the first nodes of one of an index's trees.
type treeTop struct {
	class     string
	exclusion bool // the class's exclusion tree
	top       []merkle.Hash
}

// treeTops gives the first n nodes (fewer for a smaller tree) of each of
// ix's non-empty trees: each class's membership and exclusion tree.
func treeTops(ix *screening.Index, n int) []treeTop {
	var out []treeTop
	for _, class := range [...]string{screening.ClassSanctions, screening.ClassCommunity} {
		for _, exclusion := range [...]bool{false, true} {
			if top := ix.Top(class, exclusion, n); len(top) > 0 {
				out = append(out, treeTop{class, exclusion, top})
			}
		}
	}
	return out
}

// StoreTops stores the top records of the current index's trees, ahead of
// the first screening against its list version, which would otherwise
// store them on its way (and the screenings beside it would wait): called
// once a version is installed. A top record already stored is left as it
// is; a failure is logged, and the first screening tries again.
func (s *Service) StoreTops(ctx context.Context) {
	if s.Proofs == nil || s.Screening == nil {
		return
	}
	ix := s.Screening.Current()
	for _, t := range treeTops(ix, s.topNodes()) {
		if err := s.storeTop(ctx, ix, t.class, t.exclusion, t.top[0], len(t.top)); err != nil && s.Logger != nil {
			s.Logger.WarnContext(ctx, "storing a tree's top record failed", "version", ix.Version, "class", t.class,
				"exclusion", t.exclusion, "err", err)
		}
	}
}
