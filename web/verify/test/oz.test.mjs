// The bundle's leaves, proofs and multiproofs against
// @openzeppelin/merkle-tree 1.0.8's StandardMerkleTree on the same
// values: the trees cairn builds are that package's.
import test from 'node:test';
import assert from 'node:assert/strict';
import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import * as cv from '../dist/cairn-verify.js';

const hex = (h) => cv.hashHex(h);
const parse = (h) => cv.parseHash(h);

function addresses(n, seed) {
  const out = [];
  let x = BigInt(seed);
  for (let i = 0; i < n; i++) {
    x = (x * 6364136223846793005n + 1442695040888963407n) & ((1n << 160n) - 1n);
    out.push('0x' + x.toString(16).padStart(40, '0'));
  }
  return out;
}

for (const n of [1, 2, 3, 7, 16, 33]) {
  test(`membership tree of ${n} leaves`, () => {
    const values = addresses(n, n).map((a) => ['evm', a]);
    values.push(['bitcoin', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4']);
    const tree = StandardMerkleTree.of(values, ['string', 'string']);
    const root = parse(tree.root);
    for (const [i, v] of tree.entries()) {
      assert.equal(hex(cv.leafHash(v[0], v[1])), tree.leafHash(v));
      const proof = tree.getProof(i).map(parse);
      assert.ok(cv.verifyProof(root, cv.leafHash(v[0], v[1]), proof));
      assert.equal(cv.verifyProof(root, cv.leafHash(v[0], v[1] + '0'), proof), false);
    }
    const pick = [...tree.entries()].map(([i]) => i).filter((i) => i % 2 === 0);
    const mp = tree.getMultiProof(pick);
    const leaves = mp.leaves.map((v) => cv.leafHash(v[0], v[1]));
    assert.equal(hex(cv.processMultiProof(leaves, mp.proof.map(parse), mp.proofFlags)), tree.root);
    assert.ok(cv.verifyMultiProof(root, leaves, mp.proof.map(parse), mp.proofFlags));
    if (mp.proof.length > 0) {
      const bad = mp.proof.map(parse);
      bad[0] = cv.keccak256(bad[0]);
      assert.equal(cv.verifyMultiProof(root, leaves, bad, mp.proofFlags), false);
    }
    assert.equal(cv.verifyMultiProof(root, leaves, mp.proof.map(parse), [...mp.proofFlags, true]), false);
  });
}

test('exclusion tree: gaps with open ends', () => {
  const listed = addresses(9, 5).sort();
  const bounds = ['', ...listed, ''];
  const gaps = [];
  for (let i = 0; i + 1 < bounds.length; i++) gaps.push(['evm', bounds[i], bounds[i + 1]]);
  gaps.push(['tron', '', '']);
  const tree = StandardMerkleTree.of(gaps, ['string', 'string', 'string']);
  for (const [i, v] of tree.entries()) {
    assert.equal(hex(cv.gapLeafHash(...v)), tree.leafHash(v));
    assert.ok(cv.verifyProof(parse(tree.root), cv.gapLeafHash(...v), tree.getProof(i).map(parse)));
  }
  assert.ok(cv.inGap(['evm', '', listed[0]], 'evm', '0x0000000000000000000000000000000000000000'));
  assert.equal(cv.inGap(['evm', listed[0], listed[1]], 'evm', listed[0]), false);
  assert.equal(cv.inGap(['evm', listed[0], listed[1]], 'evm', listed[1]), false);
  assert.ok(cv.inGap(['tron', '', ''], 'tron', 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb'));
  assert.equal(cv.inGap(['tron', '', ''], 'tron', ''), false);
});
