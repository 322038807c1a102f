// Compiles the contracts offline with solc-js and OpenZeppelin's sources
// from node_modules, and writes each one's ABI (JSON, NAME.abi) and
// creation code (hex, no 0x, NAME.bin) beside its source:
//
//   CairnVerifier.sol            -> CairnVerifier.{abi,bin}
//   examples/SanctionsGuard.sol  -> examples/GuardedToken.{abi,bin}
//
//   node build.js              write the artifacts
//   node build.js --out DIR    write them under DIR instead (same layout)
//
// The compile is deterministic: the same source, compiler and settings give
// the same bytes (the metadata hash covers the source text and settings).
"use strict";

const fs = require("fs");
const path = require("path");
const solc = require("solc");

// Each target: its source (relative to this folder) and the contract whose
// artifacts are written beside it.
const TARGETS = [
  { source: "CairnVerifier.sol", contract: "CairnVerifier" },
  { source: "examples/SanctionsGuard.sol", contract: "GuardedToken" },
];

// shanghai: the newest fork the local test node (ganache 7.9) runs; no
// Cancun opcodes (MCOPY, TSTORE) are needed.
function settings(source, contract) {
  return {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: "shanghai",
    outputSelection: { [source]: { [contract]: ["abi", "evm.bytecode.object"] } },
  };
}

function findImport(p) {
  const file = path.join(__dirname, "node_modules", p);
  if (!p.startsWith("@openzeppelin/contracts/") || !fs.existsSync(file)) {
    return { error: `import ${p} not found under node_modules` };
  }
  return { contents: fs.readFileSync(file, "utf8") };
}

function compile({ source, contract }) {
  const input = {
    language: "Solidity",
    // The source keeps the name it had when only CairnVerifier.sol was
    // compiled, so that its bytes (and metadata hash) stay the same.
    sources: { [source]: { content: fs.readFileSync(path.join(__dirname, source), "utf8") } },
    settings: settings(source, contract),
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport }));
  const errors = (out.errors || []).filter((e) => e.severity === "error");
  for (const e of out.errors || []) process.stderr.write(e.formattedMessage + "\n");
  if (errors.length > 0) throw new Error(`${source}: ${errors.length} compile error(s)`);
  const c = out.contracts[source][contract];
  return { abi: JSON.stringify(c.abi, null, 2) + "\n", bin: c.evm.bytecode.object + "\n" };
}

function main() {
  const args = process.argv.slice(2);
  let root = __dirname;
  if (args[0] === "--out" && args[1]) root = path.resolve(args[1]);
  else if (args.length > 0) throw new Error("usage: node build.js [--out DIR]");
  for (const t of TARGETS) {
    const { abi, bin } = compile(t);
    const dir = path.join(root, path.dirname(t.source));
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${t.contract}.abi`), abi);
    fs.writeFileSync(path.join(dir, `${t.contract}.bin`), bin);
    process.stdout.write(
      `solc ${solc.version()}: ${t.contract} ${(bin.length - 1) / 2} bytes of creation code -> ${path.relative(process.cwd(), dir) || "."}\n`,
    );
  }
}

main();
