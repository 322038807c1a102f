// The calldata of the verifier contract's calls that a wallet or a dapp
// makes with a proof from cairn (for eth_call, or a transaction).
import { keccak256, toHex, fromHex, concat, word } from './bytes.js';
import { parseHash } from './merkle.js';

/** selector is the 4-byte function selector of a signature such as "isSanctioned(address,bytes32[])", as 0x hex. */
export function selector(signature) {
  return '0x' + toHex(keccak256(signature).subarray(0, 4));
}

const SIG_IS_SANCTIONED = 'isSanctioned(address,bytes32[])';
const SIG_IS_NOT_SANCTIONED = 'isNotSanctioned(address,address,address,bytes32[])';
const SIG_MULTI_PROOF_VERIFY = 'multiProofVerify(bytes32[],bool[],bytes32[])';

/** The selectors of the calls this module encodes. */
export const selectors = Object.freeze({
  isSanctioned: selector(SIG_IS_SANCTIONED),
  isNotSanctioned: selector(SIG_IS_NOT_SANCTIONED),
  multiProofVerify: selector(SIG_MULTI_PROOF_VERIFY),
});

function addressWord(a, name) {
  const b = typeof a === 'string' && /^0x[0-9a-fA-F]{40}$/.test(a) ? fromHex(a.slice(2)) : null;
  if (b === null) throw new TypeError(`${name} ${JSON.stringify(a)} is not a 0x-prefixed 20-byte hex address`);
  const w = new Uint8Array(32);
  w.set(b, 12);
  return w;
}

function hashWord(h, name) {
  const b = typeof h === 'string' ? parseHash(h) : h instanceof Uint8Array && h.length === 32 ? h : null;
  if (b === null) throw new TypeError(`${name}: ${JSON.stringify(h)} is not a 0x-prefixed 32-byte hex hash`);
  return b;
}

// array encodes a dynamic array's tail: its length, then its words.
function array(words) {
  return concat(word(words.length), ...words);
}

// encode is the selector, the head (static words, offsets of the
// dynamic arguments) and the tails.
function encode(signature, args) {
  const heads = [];
  const tails = [];
  let offset = 32 * args.length;
  for (const a of args) {
    if (a.static) {
      heads.push(a.static);
    } else {
      heads.push(word(offset));
      tails.push(a.tail);
      offset += a.tail.length;
    }
  }
  return selector(signature) + toHex(concat(...heads, ...tails));
}

const hashes = (hs, name) => ({ tail: array(Array.from(hs, (h, i) => hashWord(h, `${name}[${i}]`))) });

/**
 * encodeIsSanctioned is the calldata of isSanctioned(address account,
 * bytes32[] proof): true when the EVM account is a leaf of the anchored
 * sanctions root (the proof of GET /v1/compliance/merkle-proof).
 */
export function encodeIsSanctioned(account, proof) {
  return encode(SIG_IS_SANCTIONED, [{ static: addressWord(account, 'account') }, hashes(proof, 'proof')]);
}

const LOW_SENTINEL = '0x0000000000000000000000000000000000000000';
const HIGH_SENTINEL = '0xffffffffffffffffffffffffffffffffffffffff';

/**
 * encodeIsNotSanctioned is the calldata of isNotSanctioned(address
 * account, address low, address high, bytes32[] proof): true when
 * ("evm", low, high) is a gap of the anchored exclusion tree holding
 * account. low and high are the exclusionProof's; an open end "" is
 * written as the contract's sentinel (0x00..00 low, 0xff..ff high).
 */
export function encodeIsNotSanctioned(account, low, high, proof) {
  return encode(SIG_IS_NOT_SANCTIONED, [
    { static: addressWord(account, 'account') },
    { static: addressWord(low === '' ? LOW_SENTINEL : low, 'low') },
    { static: addressWord(high === '' ? HIGH_SENTINEL : high, 'high') },
    hashes(proof, 'proof'),
  ]);
}

/**
 * encodeMultiProofVerify is the calldata of multiProofVerify(bytes32[]
 * proof, bool[] flags, bytes32[] leaves): true when every leaf of the
 * multiproof (a screening document's merkleProofs.sanctions) is in the
 * anchored sanctions tree.
 */
export function encodeMultiProofVerify(proof, flags, leaves) {
  const bools = Array.from(flags, (f) => {
    if (typeof f !== 'boolean') throw new TypeError(`flags: ${JSON.stringify(f)} is not a boolean`);
    return word(f ? 1 : 0);
  });
  return encode(SIG_MULTI_PROOF_VERIFY, [hashes(proof, 'proof'), { tail: array(bools) }, hashes(leaves, 'leaves')]);
}
