// The issuer's signature of a screening proof document: Ed25519 over the
// document's statement (compliance/signing.go in the service).
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256, toHex, fromHex, utf8, compareStrings } from './bytes.js';

/** SIGNATURE_ALG is the only signature algorithm of proof documents. */
export const SIGNATURE_ALG = 'Ed25519';

const HEADER = 'cairn-screening-proof-statement-v1\n';

/** keyId names a 32-byte public key: "ed25519-" and the first 16 hex digits of its SHA-256. */
export function keyId(publicKey) {
  return 'ed25519-' + toHex(sha256(publicKey).subarray(0, 8));
}

/**
 * statement returns the bytes a document's signature signs, or throws
 * when the document has none (a value holding a line break, a source name
 * holding "," or a space). header holds the document's fields as strings:
 * screeningId, timestamp, resultsHash, listVersion (decimal), merkleRoot,
 * sanctionsRoot, communityRoot, exclusionRoot, communityExclusionRoot,
 * dataSources (names) and dataSnapshots (name -> sha256).
 */
export function statement(h) {
  const names = Object.keys(h.dataSnapshots).sort(compareStrings);
  for (const n of [...h.dataSources, ...names]) {
    if (/[, ]/.test(n)) throw new Error(`data source name ${JSON.stringify(n)} holds ',' or a space`);
  }
  const lines = [
    ['screeningId', h.screeningId],
    ['timestamp', h.timestamp],
    ['resultsHash', h.resultsHash],
    ['listVersion', h.listVersion],
    ['merkleRoot', h.merkleRoot],
    ['sanctionsRoot', h.sanctionsRoot],
    ['communityRoot', h.communityRoot],
    ['exclusionRoot', h.exclusionRoot],
    ['communityExclusionRoot', h.communityExclusionRoot],
    ['dataSources', h.dataSources.join(',')],
    ['dataSnapshots', names.map((n) => n + ' ' + h.dataSnapshots[n]).join(',')],
  ];
  let s = HEADER;
  for (const [name, value] of lines) {
    if (/[\n\r]/.test(value)) throw new Error(`${name} holds a line break`);
    s += name + '=' + value + '\n';
  }
  return utf8(s);
}

function base64(s) {
  s = s.replace(/[\r\n]/g, '');
  if (s.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(s)) return null;
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/**
 * verifySignature checks a signature {alg, keyId, value} of a document's
 * statement with the published keys ([{keyId, publicKey, current}], GET
 * /v1/compliance/signing-keys): the key it names must be among them and
 * the signature that key's. It returns the key, or throws saying why not.
 */
export function verifySignature(header, sig, keys) {
  if (sig.alg !== SIGNATURE_ALG) throw new Error(`signature algorithm ${JSON.stringify(sig.alg)} is not ${SIGNATURE_ALG}`);
  const key = keys.find((k) => k.keyId === sig.keyId);
  if (key === undefined) throw new Error(`signing key ${JSON.stringify(sig.keyId)} is not among the ${keys.length} published keys`);
  const pub = fromHex(key.publicKey);
  if (pub === null || pub.length !== 32 || keyId(pub) !== key.keyId) {
    throw new Error(`published key ${JSON.stringify(key.keyId)} is not a 32-byte hex Ed25519 key of that id`);
  }
  const value = base64(sig.value);
  if (value === null) throw new Error('the signature is not base64');
  const st = statement(header);
  let ok = false;
  try {
    ok = value.length === 64 && ed25519.verify(value, st, pub, { zip215: false });
  } catch {
    ok = false;
  }
  if (!ok) throw new Error(`the signature does not match the document (key ${key.keyId})`);
  return key;
}
