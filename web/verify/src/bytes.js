// Bytes, hex and the two hash functions of the verifier.
import { keccak_256 } from '@noble/hashes/sha3.js';
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

/** utf8 returns the UTF-8 bytes of a string (bytes are returned as they are). */
export function utf8(s) {
  return typeof s === 'string' ? enc.encode(s) : s;
}

/** text decodes UTF-8 bytes (a string is returned as it is). */
export function text(b) {
  return typeof b === 'string' ? b : dec.decode(b);
}

/** toHex writes bytes as lower-case hex, without 0x. */
export function toHex(b) {
  let s = '';
  for (const x of b) s += x.toString(16).padStart(2, '0');
  return s;
}

/** fromHex reads hex (any case, no 0x); null when it is not hex. */
export function fromHex(s) {
  if (typeof s !== 'string' || s.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(s)) return null;
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** keccak256 of bytes (or of a string's UTF-8 bytes). */
export function keccak256(b) {
  return keccak_256(utf8(b));
}

/** sha256 of bytes (or of a string's UTF-8 bytes). */
export function sha256(b) {
  return nobleSha256(utf8(b));
}

/**
 * snapshotDigest is the digest a proof document names for a data
 * snapshot: the lower-case hex SHA-256 of the bytes fetched from its
 * storageUrl.
 */
export function snapshotDigest(bytes) {
  return toHex(sha256(bytes));
}

/** compareBytes orders byte strings as Go and Solidity do (unsigned, shorter first on a tie). */
export function compareBytes(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return a.length - b.length;
}

/** compareStrings orders strings by their UTF-8 bytes. */
export function compareStrings(a, b) {
  return compareBytes(enc.encode(a), enc.encode(b));
}

/** word is the 32-byte big-endian word of an unsigned integer, as the ABI encodes a uint256. */
export function word(n) {
  const w = new Uint8Array(32);
  let v = BigInt(n);
  for (let i = 31; i >= 0 && v > 0n; i--) {
    w[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return w;
}

export function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
