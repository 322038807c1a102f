// Package merkle owns cairn's keccak256 Merkle tree, byte-compatible with
// OpenZeppelin's merkle-tree library (npm @openzeppelin/merkle-tree 1.0.8):
// the same leaf hashes (StandardMerkleTree: keccak256(keccak256(abi.encode(
// values)))), the same sorted-pair node hash, the same flat tree layout, the
// same proofs and multiproofs, and the same dump format ("standard-v1" and
// "simple-v1"), so that a root built here verifies with MerkleProof.sol and
// with the JavaScript library, and a dump loads in either.
//
// Layout: a tree over n leaves is one flat []Hash of 2n-1 nodes; node i has
// children 2i+1 and 2i+2; the leaves occupy the last n slots in reverse
// order (leaf k of the build order is node 2n-2-k). With sortLeaves (the
// OpenZeppelin default) the build order is ascending by leaf hash, so a
// lookup by hash is a binary search and needs no extra index.
//
// An empty tree does not exist: Build refuses zero leaves with EINVALID, as
// OpenZeppelin throws "Expected non-zero number of leaves". A list version
// with no addresses has no root to anchor.
//
// The package does no I/O and imports neither storage, chain, gin nor cron:
// only the root package cairn (for *cairn.Error) and golang.org/x/crypto/sha3
// (legacy keccak256, measured faster here than go-ethereum's crypto/keccak;
// see BenchmarkKeccakPair).
package merkle
