// Reference benchmark: @openzeppelin/merkle-tree 1.0.8 StandardMerkleTree.of
// over the same synthetic ["string","string"] leaves as
// merkle/merkle_bench_test.go (syntheticPairs): splitmix64 seeded with 42;
// every fourth leaf is ("bitcoin", "bc1q" + 38 bech32 characters), the
// others ("evm", "0x" + 40 hex digits).
//
// Usage: node bench.js [n ...]   (default: 100000 1000000)
// Prints, per n: leaf generation is excluded; the time of StandardMerkleTree.of
// (leaf hashing, sorting and tree building), the time of one getProof by
// value and the root.
'use strict';
const { StandardMerkleTree } = require('@openzeppelin/merkle-tree');

const MASK = (1n << 64n) - 1n;
const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

function splitmix64(seed) {
  let state = BigInt(seed) & MASK;
  return () => {
    state = (state + 0x9e3779b97f4a7c15n) & MASK;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
    return z ^ (z >> 31n);
  };
}

function syntheticPairs(n) {
  const next = splitmix64(42);
  const out = new Array(n);
  for (let i = 0; i < n; i++) {
    if (i % 4 === 3) {
      let s = 'bc1q';
      for (let w = 0; w < 4; w++) {
        const x = next();
        const chars = w < 3 ? 12 : 2;
        for (let j = 0; j < chars; j++) s += BECH32[Number((x >> BigInt(5 * j)) & 31n)];
      }
      out[i] = ['bitcoin', s];
    } else {
      const a = next(), b = next(), c = next();
      out[i] = ['evm', '0x' + a.toString(16).padStart(16, '0') + b.toString(16).padStart(16, '0') +
        (c >> 32n).toString(16).padStart(8, '0')];
    }
  }
  return out;
}

const sizes = process.argv.slice(2).map(Number);
for (const n of sizes.length ? sizes : [100000, 1000000]) {
  const pairs = syntheticPairs(n);
  const t0 = process.hrtime.bigint();
  const tree = StandardMerkleTree.of(pairs, ['string', 'string']);
  const t1 = process.hrtime.bigint();
  const reps = 1000;
  for (let i = 0; i < reps; i++) tree.getProof(pairs[(i * 7919) % n]);
  const t2 = process.hrtime.bigint();
  console.log(JSON.stringify({
    n,
    first: pairs[0],
    fourth: pairs[3],
    build_ms: Number(t1 - t0) / 1e6,
    proof_by_value_us: Number(t2 - t1) / 1e3 / reps,
    root: tree.root,
  }));
}
