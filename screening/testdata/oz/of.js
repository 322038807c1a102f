// Reads a JSON document {"encoding": [...], "values": [[...], ...],
// "prove": [value index, ...]} on standard input and prints
// StandardMerkleTree.of(values, encoding) of @openzeppelin/merkle-tree as
// {"root", "proofs": [[...], ...]}, one proof per index of "prove".
"use strict";
const { StandardMerkleTree } = require("@openzeppelin/merkle-tree");

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (c) => (input += c));
process.stdin.on("end", () => {
  const { encoding, values, prove } = JSON.parse(input);
  const tree = StandardMerkleTree.of(values, encoding);
  const proofs = (prove || []).map((i) => tree.getProof(i));
  process.stdout.write(JSON.stringify({ root: tree.root, proofs }) + "\n");
});
