// OpenZeppelin-compatible Merkle trees: StandardMerkleTree leaves of
// ["string","string"] (family, canonical address) and
// ["string","string","string"] (family, low, high), and the proofs and
// multiproofs of MerkleProof.sol and @openzeppelin/merkle-tree.
import { keccak256, toHex, fromHex, compareBytes, concat, utf8, word } from './bytes.js';

/** parseHash reads a 0x-prefixed 32-byte hex hash (any case); null when it is not one. */
export function parseHash(s) {
  if (typeof s !== 'string' || s.length !== 66 || s[0] !== '0' || (s[1] !== 'x' && s[1] !== 'X')) return null;
  return fromHex(s.slice(2));
}

/** hashHex writes a hash as 0x and lower-case hex. */
export function hashHex(h) {
  return '0x' + toHex(h);
}

/** abiEncodeStrings is abi.encode(string, ..., string). */
export function abiEncodeStrings(strings) {
  const bodies = strings.map((s) => {
    const b = utf8(s);
    const padded = new Uint8Array(32 + Math.ceil(b.length / 32) * 32);
    padded.set(word(b.length), 0);
    padded.set(b, 32);
    return padded;
  });
  const heads = [];
  let offset = 32 * strings.length;
  for (const b of bodies) {
    heads.push(word(offset));
    offset += b.length;
  }
  return concat(...heads, ...bodies);
}

/** standardLeaf is the StandardMerkleTree leaf of string values: keccak256(keccak256(abi.encode(...))). */
export function standardLeaf(strings) {
  return keccak256(keccak256(abiEncodeStrings(strings)));
}

/** leafHash is the leaf of (family, canonical address) in the sanctions and community trees. */
export function leafHash(family, canonicalAddress) {
  return standardLeaf([family, canonicalAddress]);
}

/** gapLeafHash is the leaf of the gap (family, low, high) in the exclusion trees. */
export function gapLeafHash(family, low, high) {
  return standardLeaf([family, low, high]);
}

/** hashPair hashes two nodes in sorted order, as OpenZeppelin does. */
export function hashPair(a, b) {
  return compareBytes(a, b) <= 0 ? keccak256(concat(a, b)) : keccak256(concat(b, a));
}

/** processProof folds a proof into the root it implies for leaf. */
export function processProof(leaf, proof) {
  let h = leaf;
  for (const p of proof) h = hashPair(h, p);
  return h;
}

/** verifyProof reports whether proof leads from leaf to root. */
export function verifyProof(root, leaf, proof) {
  return compareBytes(processProof(leaf, proof), root) === 0;
}

/**
 * processMultiProof returns the root a multiproof implies, or null when it
 * is malformed, with OpenZeppelin's checks: at least as many proof hashes
 * as false flags, leaves + proof = flags + 1, and the steps neither run
 * out of values nor leave more than one.
 */
export function processMultiProof(leaves, proof, flags) {
  const falses = flags.filter((f) => !f).length;
  if (proof.length < falses || leaves.length + proof.length !== flags.length + 1) return null;
  const queue = leaves.slice();
  let head = 0;
  let pi = 0;
  for (const flag of flags) {
    if (head >= queue.length) return null;
    const a = queue[head++];
    let b;
    if (flag) {
      if (head >= queue.length) return null;
      b = queue[head++];
    } else {
      b = proof[pi++];
    }
    queue.push(hashPair(a, b));
  }
  const rest = queue.length - head;
  if (rest + proof.length - pi !== 1) return null;
  return rest === 1 ? queue[queue.length - 1] : proof[pi];
}

/** verifyMultiProof reports whether a multiproof proves its leaves under root; a malformed one does not. */
export function verifyMultiProof(root, leaves, proof, flags) {
  const r = processMultiProof(leaves, proof, flags);
  return r !== null && compareBytes(r, root) === 0;
}

/**
 * inGap reports whether the gap value [family, low, high] holds the
 * canonical address of family: "" is an open end, the comparison byte by
 * byte.
 */
export function inGap(value, family, canonical) {
  const [f, low, high] = value;
  const c = utf8(canonical);
  return (
    f === family &&
    canonical !== '' &&
    (low === '' || compareBytes(utf8(low), c) < 0) &&
    (high === '' || compareBytes(c, utf8(high)) < 0)
  );
}
