// Compiles CairnVerifier.sol offline with solc-js and OpenZeppelin's
// sources from node_modules, and writes CairnVerifier.abi (JSON) and
// CairnVerifier.bin (hex creation code, no 0x) beside it.
//
//   node build.js              write the artifacts
//   node build.js --out DIR    write them to DIR instead
//
// The compile is deterministic: the same source, compiler and settings give
// the same bytes (the metadata hash covers the source text and settings).
"use strict";

const fs = require("fs");
const path = require("path");
const solc = require("solc");

const NAME = "CairnVerifier";
// shanghai: the newest fork the local test node (ganache 7.9) runs; no
// Cancun opcodes (MCOPY, TSTORE) are needed.
const settings = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: "shanghai",
  outputSelection: { [`${NAME}.sol`]: { [NAME]: ["abi", "evm.bytecode.object"] } },
};

function findImport(p) {
  const file = path.join(__dirname, "node_modules", p);
  if (!p.startsWith("@openzeppelin/contracts/") || !fs.existsSync(file)) {
    return { error: `import ${p} not found under node_modules` };
  }
  return { contents: fs.readFileSync(file, "utf8") };
}

function compile() {
  const input = {
    language: "Solidity",
    sources: { [`${NAME}.sol`]: { content: fs.readFileSync(path.join(__dirname, `${NAME}.sol`), "utf8") } },
    settings,
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport }));
  const errors = (out.errors || []).filter((e) => e.severity === "error");
  for (const e of out.errors || []) process.stderr.write(e.formattedMessage + "\n");
  if (errors.length > 0) throw new Error(`${errors.length} compile error(s)`);
  const c = out.contracts[`${NAME}.sol`][NAME];
  return { abi: JSON.stringify(c.abi, null, 2) + "\n", bin: c.evm.bytecode.object + "\n" };
}

function main() {
  const args = process.argv.slice(2);
  let dir = __dirname;
  if (args[0] === "--out" && args[1]) dir = path.resolve(args[1]);
  else if (args.length > 0) throw new Error("usage: node build.js [--out DIR]");
  const { abi, bin } = compile();
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${NAME}.abi`), abi);
  fs.writeFileSync(path.join(dir, `${NAME}.bin`), bin);
  process.stdout.write(`solc ${solc.version()}: ${NAME} ${(bin.length - 1) / 2} bytes of creation code -> ${dir}\n`);
}

main();
