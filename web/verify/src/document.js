// The checks of `cairn verify-proof`, on a document's text: a Merkle
// proof (GET /v1/compliance/merkle-proof) or a screening proof document
// (GET /v1/compliance/proofs/:id). Every check gives a verdict
// {name, ok, detail} (note: true for a remark that fails nothing,
// skipped: true for a check not made), so that a page shows which one
// failed; the document verifies when every verdict is ok.
import { utf8, text, sha256, toHex, fromHex, snapshotDigest, compareStrings } from './bytes.js';
import { parseHash, hashHex, leafHash, gapLeafHash, verifyProof, verifyMultiProof, inGap } from './merkle.js';
import { topLevelMembers, compact } from './rawjson.js';
import { statement, verifySignature, keyId } from './signature.js';

const SANCTIONS = 'sanctions';
const COMMUNITY = 'community';
const SOURCE_COMMUNITY = 'community';
const ZERO = new Uint8Array(32);

class DecodeError extends Error {}

// The readers of the document's fields, as Go's encoding/json reads them
// into verify-proof's types: null or absent is the zero value, another
// type fails the whole document.
function str(v, path) {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new DecodeError(`${path} is not a string`);
  return v;
}
function bool(v, path) {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'boolean') throw new DecodeError(`${path} is not a boolean`);
  return v;
}
function arr(v, path, each) {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new DecodeError(`${path} is not an array`);
  return v.map((x, i) => each(x, `${path}[${i}]`));
}
function obj(v, path) {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'object' || Array.isArray(v)) throw new DecodeError(`${path} is not an object`);
  return v;
}
function hash(v, path) {
  if (v === undefined || v === null) return ZERO;
  const h = parseHash(v);
  if (h === null) throw new DecodeError(`${path} ${JSON.stringify(v)} is not a 0x-prefixed 32-byte hex hash`);
  return h;
}
function optHash(v, path) {
  return v === undefined || v === null ? null : hash(v, path);
}
function strings(n) {
  return (v, path) => {
    if (!Array.isArray(v) || v.length !== n) throw new DecodeError(`${path} is not ${n} strings`);
    return v.map((x, i) => {
      if (typeof x !== 'string') throw new DecodeError(`${path}[${i}] is not a string`);
      return x;
    });
  };
}
function gap(v, path) {
  const o = obj(v, path);
  if (o === null) return null;
  return {
    value: strings(3)(o.value, `${path}.value`),
    leaf: hash(o.leaf, `${path}.leaf`),
    proof: arr(o.proof, `${path}.proof`, hash),
    root: hash(o.root, `${path}.root`),
  };
}
function multiproofs(v, path, width) {
  const o = obj(v, path);
  if (o === null) return null;
  const out = new Map();
  for (const [cls, mp] of Object.entries(o)) {
    const p = `${path}.${cls}`;
    const m = obj(mp, p) ?? {};
    out.set(cls, {
      root: hash(m.root, `${p}.root`),
      leaves: arr(m.leaves, `${p}.leaves`, hash),
      proof: arr(m.proof, `${p}.proof`, hash),
      proofFlags: arr(m.proofFlags, `${p}.proofFlags`, (f, fp) => {
        if (typeof f !== 'boolean') throw new DecodeError(`${fp} is not a boolean`);
        return f;
      }),
      values: arr(m.values, `${p}.values`, strings(width)),
    });
  }
  return out;
}

// decode reads what verify-proof reads of a document.
function decode(d, members) {
  const snaps = obj(d.dataSnapshots, 'dataSnapshots') ?? {};
  const dataSnapshots = new Map();
  for (const [name, s] of Object.entries(snaps)) {
    const o = obj(s, `dataSnapshots.${name}`) ?? {};
    dataSnapshots.set(name, { storageUrl: str(o.storageUrl, `dataSnapshots.${name}.storageUrl`), sha256: str(o.sha256, `dataSnapshots.${name}.sha256`) });
  }
  return {
    family: str(d.family, 'family'),
    canonicalAddress: str(d.canonicalAddress, 'canonicalAddress'),
    leaf: optHash(d.leaf, 'leaf'),
    proof: arr(d.proof, 'proof', hash),
    root: optHash(d.root, 'root'),
    listed: bool(d.listed, 'listed'),
    sanctioned: bool(d.sanctioned, 'sanctioned'),
    exclusionProof: gap(d.exclusionProof, 'exclusionProof'),
    communityExclusionProof: gap(d.communityExclusionProof, 'communityExclusionProof'),
    resultsHash: str(d.resultsHash, 'resultsHash'),
    results: members.get('results') ?? null,
    merkleRoot: str(d.merkleRoot, 'merkleRoot'),
    sanctionsRoot: str(d.sanctionsRoot, 'sanctionsRoot'),
    communityRoot: str(d.communityRoot, 'communityRoot'),
    merkleProofs: multiproofs(d.merkleProofs, 'merkleProofs', 2),
    exclusionRoot: str(d.exclusionRoot, 'exclusionRoot'),
    communityExclusionRoot: str(d.communityExclusionRoot, 'communityExclusionRoot'),
    exclusionProofs: multiproofs(d.exclusionProofs, 'exclusionProofs', 3),
    dataSources: arr(d.dataSources, 'dataSources', (s, p) => {
      if (typeof s !== 'string') throw new DecodeError(`${p} is not a string`);
      return s;
    }),
    dataSnapshots,
  };
}

const ok = (name, detail) => ({ name, ok: true, detail });
const fail = (name, detail) => ({ name, ok: false, detail });
const note = (name, detail) => ({ name, ok: true, note: true, detail });
const skipped = (name, detail) => ({ name, ok: true, skipped: true, detail });
const q = (s) => JSON.stringify(s);
const qv = (v) => '[' + v.map(q).join(' ') + ']';

// merkleProofCheck: the leaf is the leaf of (family, canonicalAddress)
// and the proof leads from it to root. onChain says that the roots are
// checked on chain afterwards: without that, a lone leaf that is its own
// root (an empty proof) fails, for anyone can write such a document.
function merkleProofCheck(doc, onChain) {
  const name = 'merkleProof';
  const leaf = leafHash(doc.family, doc.canonicalAddress);
  const who = `(${doc.family}, ${doc.canonicalAddress})`;
  const root = hashHex(doc.root);
  const claimed = doc.listed === true || doc.sanctioned === true;
  if (hashHex(leaf) !== hashHex(doc.leaf)) {
    return fail(name, `leaf ${hashHex(doc.leaf)} is not the leaf of (${q(doc.family)}, ${q(doc.canonicalAddress)}), ${hashHex(leaf)}`);
  }
  if (doc.proof.length === 0 && root !== hashHex(leaf)) {
    if (claimed) return fail(name, `the answer says ${who} is listed but holds no proof of it`);
    return note(name, `not listed: ${who} has no proof under root ${root}`);
  }
  if (!verifyProof(doc.root, leaf, doc.proof)) return fail(name, `the proof does not lead from ${who} to root ${root}`);
  if (doc.listed === false) return fail(name, `the answer says ${who} is not listed, yet proves it a leaf of root ${root}`);
  if (doc.proof.length === 0 && !onChain) {
    return fail(name, `the proof is empty and root ${root} is the leaf itself: a tree of one leaf, which anyone can write of any address; check that root on chain`);
  }
  return ok(name, `${who} is a leaf of root ${root} (${doc.proof.length} proof hashes)`);
}

// addressExclusionChecks: each exclusion proof's gap holds the address,
// its leaf is the gap's, and its proof leads to the exclusion root the
// answer names.
function addressExclusionChecks(doc) {
  const out = [];
  const who = `(${doc.family}, ${doc.canonicalAddress})`;
  for (const [cls, g, root] of [
    [SANCTIONS, doc.exclusionProof, doc.exclusionRoot],
    [COMMUNITY, doc.communityExclusionProof, doc.communityExclusionRoot],
  ]) {
    if (g === null) continue;
    const name = `exclusionProof.${cls}`;
    const groot = hashHex(g.root);
    if (!inGap(g.value, doc.family, doc.canonicalAddress)) out.push(fail(name, `the ${cls} exclusion gap ${qv(g.value)} does not hold ${who}`));
    else if (hashHex(g.leaf) !== hashHex(gapLeafHash(...g.value))) out.push(fail(name, `the ${cls} exclusion leaf ${hashHex(g.leaf)} is not the leaf of the gap ${qv(g.value)}`));
    else if (root !== '' && groot !== root) out.push(fail(name, `the ${cls} exclusion proof is against root ${groot}, the answer names ${root}`));
    else if (!verifyProof(g.root, g.leaf, g.proof)) out.push(fail(name, `the ${cls} exclusion proof does not lead from the gap ${qv(g.value)} to root ${groot}`));
    else out.push(ok(name, `${who} is not in the ${cls} tree: its gap ${qv(g.value)} is a leaf of exclusion root ${groot}`));
  }
  if (doc.exclusionProof === null && doc.proof.length === 0) {
    out.push(note('exclusionProof', 'no exclusionProof: that the address is not listed is not proven'));
  }
  return out;
}

// results decodes the results as verify-proof does: an array of results
// with status, family, canonicalAddress and matches (each with source).
function decodeResults(raw) {
  const v = JSON.parse(text(raw));
  return arr(v, 'results', (r, p) => {
    const o = obj(r, p) ?? {};
    return {
      status: str(o.status, `${p}.status`),
      family: str(o.family, `${p}.family`),
      canonical: str(o.canonicalAddress, `${p}.canonicalAddress`),
      matches: arr(o.matches, `${p}.matches`, (m, mp) => ({ source: str((obj(m, mp) ?? {}).source, `${mp}.source`) })),
    };
  });
}

function resultsHashCheck(doc) {
  const sum = toHex(sha256(compact(doc.results)));
  if (sum !== doc.resultsHash) return fail('resultsHash', `resultsHash ${doc.resultsHash} does not match the results (sha256 ${sum})`);
  return ok('resultsHash', `resultsHash ${doc.resultsHash} matches the results`);
}

// statusesCheck: clear and invalid_address have no match, flagged only
// community ones, sanctioned at least one of a sanctions source.
function statusesCheck(results) {
  for (const [i, r] of results.entries()) {
    const community = r.matches.filter((m) => m.source === SOURCE_COMMUNITY).length;
    const sanctions = r.matches.length - community;
    let good = false;
    if (r.status === 'clear' || r.status === 'invalid_address') good = sanctions + community === 0;
    else if (r.status === 'flagged') good = sanctions === 0 && community > 0;
    else if (r.status === 'sanctioned') good = sanctions > 0;
    if (!good) {
      return fail('statuses', `result ${i} (${r.family}, ${r.canonical}) is ${q(r.status)} with ${sanctions} sanctions and ${community} community match(es)`);
    }
  }
  return ok('statuses', "every result's status agrees with its matches");
}

// checkMultiproof: the multiproof of class leads to the root the document
// names, and its values are its leaves.
function checkMultiproof(what, cls, mp, roots, leafOf) {
  const root = roots.get(cls);
  const mroot = hashHex(mp.root);
  if (root === undefined || mroot !== root) return `the ${cls} ${what} is against root ${mroot}, the document names ${q(root ?? '')}`;
  if (mp.values.length !== mp.leaves.length) return `the ${cls} ${what} has ${mp.leaves.length} leaves and ${mp.values.length} values`;
  for (const [i, v] of mp.values.entries()) {
    if (hashHex(leafOf(v)) !== hashHex(mp.leaves[i])) return `leaf ${i} of the ${cls} ${what} is not the leaf of ${qv(v)}`;
  }
  if (!verifyMultiProof(mp.root, mp.leaves, mp.proof, mp.proofFlags)) return `the ${cls} ${what.replace(/proof$/, 'multiproof')} does not lead to root ${mroot}`;
  return null;
}

// listedCheck: every listed result is a leaf of the multiproof of its
// class, and each multiproof leads to the root the document names.
function listedCheck(doc, results) {
  const name = 'merkleProofs';
  const want = new Map();
  for (const r of results) {
    for (const m of r.matches) {
      const cls = m.source === SOURCE_COMMUNITY ? COMMUNITY : SANCTIONS;
      const vs = want.get(cls) ?? [];
      if (!vs.some((v) => v[0] === r.family && v[1] === r.canonical)) vs.push([r.family, r.canonical]);
      want.set(cls, vs);
    }
  }
  if (doc.merkleProofs === null) {
    if (want.size > 0) return note(name, 'no merkleProofs in this document (stored before they were kept): the listed results are not proven');
    return ok(name, 'no listed result');
  }
  const roots = new Map([
    [SANCTIONS, doc.sanctionsRoot || doc.merkleRoot],
    [COMMUNITY, doc.communityRoot],
  ]);
  for (const [cls, vs] of want) {
    const mp = doc.merkleProofs.get(cls);
    if (mp === undefined) return fail(name, `${vs.length} listed result(s) of class ${cls} and no Merkle proof of that class`);
    for (const v of vs) {
      if (!mp.values.some((x) => x[0] === v[0] && x[1] === v[1])) return fail(name, `the listed result (${v[0]}, ${v[1]}) is not a leaf of the ${cls} proof`);
    }
  }
  const proven = [];
  for (const [cls, mp] of doc.merkleProofs) {
    const err = checkMultiproof('proof', cls, mp, roots, (v) => leafHash(v[0], v[1]));
    if (err !== null) return fail(name, err);
    proven.push(`${mp.values.length} ${cls} listing(s) proven against root ${hashHex(mp.root)}`);
  }
  return ok(name, proven.join('; ') || 'no listed result');
}

// exclusionCheck: every result the document calls not sanctioned lies in
// a gap of the sanctions exclusion multiproof, and (when the community
// list was consulted) every clear one in a gap of the community one; each
// multiproof leads to the exclusion root the document names.
function exclusionCheck(doc, results) {
  const name = 'exclusionProofs';
  if (doc.exclusionProofs === null) {
    if (results.some((r) => r.status === 'clear')) {
      return note(name, 'no exclusionProofs in this document (stored before they were kept): its clear results are not proven');
    }
    return ok(name, 'no clear result');
  }
  const roots = new Map([
    [SANCTIONS, doc.exclusionRoot],
    [COMMUNITY, doc.communityExclusionRoot],
  ]);
  for (const [cls, mp] of doc.exclusionProofs) {
    const err = checkMultiproof('exclusion proof', cls, mp, roots, (v) => gapLeafHash(v[0], v[1], v[2]));
    if (err !== null) return fail(name, err);
  }
  const community = doc.dataSources.includes(SOURCE_COMMUNITY);
  const proven = { [SANCTIONS]: 0, [COMMUNITY]: 0 };
  for (const r of results) {
    const need = [];
    if (r.status === 'clear') need.push(SANCTIONS, ...(community ? [COMMUNITY] : []));
    else if (r.status === 'flagged') need.push(SANCTIONS);
    for (const cls of need) {
      const values = doc.exclusionProofs.get(cls)?.values ?? [];
      if (!values.some((v) => inGap(v, r.family, r.canonical))) {
        return fail(name, `the ${r.status} result (${r.family}, ${r.canonical}) lies in no gap of the ${cls} exclusion proof: its absence from the ${cls} tree is not proven`);
      }
      proven[cls]++;
    }
  }
  const said = [SANCTIONS, COMMUNITY]
    .filter((c) => proven[c] > 0)
    .map((c) => `${proven[c]} result(s) proven absent from the ${c} tree against exclusion root ${roots.get(c)}`);
  return ok(name, said.join('; ') || 'no result to prove absent');
}

// snapshotChecks fetches each data snapshot (fetchBytes: url ->
// Promise<Uint8Array>) and checks its digest; without fetchBytes they
// are skipped.
async function snapshotChecks(doc, fetchBytes) {
  const out = [];
  for (const name of [...doc.dataSnapshots.keys()].sort(compareStrings)) {
    const snap = doc.dataSnapshots.get(name);
    const check = `snapshot:${name}`;
    if (!fetchBytes || snap.storageUrl === '') {
      out.push(skipped(check, `snapshot of ${name} (sha256 ${snap.sha256}) not fetched`));
      continue;
    }
    let scheme = '';
    try {
      scheme = new URL(snap.storageUrl).protocol;
    } catch {
      scheme = '';
    }
    if (scheme !== 'http:' && scheme !== 'https:') {
      out.push(skipped(check, `snapshot of ${name} (sha256 ${snap.sha256}): only http(s) URLs are fetched, not ${q(snap.storageUrl)}`));
      continue;
    }
    let got;
    try {
      got = snapshotDigest(await fetchBytes(snap.storageUrl));
    } catch (e) {
      out.push(fail(check, `snapshot of ${name}: ${e.message}`));
      continue;
    }
    if (got !== snap.sha256) out.push(fail(check, `the snapshot of ${name} at ${snap.storageUrl} has sha256 ${got}, the document names ${snap.sha256}`));
    else out.push(ok(check, `snapshot of ${name} matches sha256 ${snap.sha256}`));
  }
  return out;
}

// header reads the signed statement's fields and the signature, as Go
// reads compliance.ProofDoc; it throws when the document's header does
// not decode.
function header(d, members) {
  let listVersion = '0';
  const raw = members.get('listVersion');
  if (raw !== undefined && text(raw) !== 'null') {
    const t = text(raw);
    if (!/^(0|[1-9][0-9]*)$/.test(t) || BigInt(t) > 0xffffffffffffffffn) throw new DecodeError(`listVersion ${t} is not an unsigned 64-bit integer`);
    listVersion = BigInt(t).toString();
  }
  const snaps = {};
  for (const [name, s] of Object.entries(obj(d.dataSnapshots, 'dataSnapshots') ?? {})) snaps[name] = str((obj(s, name) ?? {}).sha256, `dataSnapshots.${name}.sha256`);
  const sig = obj(d.signature, 'signature');
  return {
    screeningId: str(d.screeningId, 'screeningId'),
    timestamp: str(d.timestamp, 'timestamp'),
    resultsHash: str(d.resultsHash, 'resultsHash'),
    listVersion,
    merkleRoot: str(d.merkleRoot, 'merkleRoot'),
    sanctionsRoot: str(d.sanctionsRoot, 'sanctionsRoot'),
    communityRoot: str(d.communityRoot, 'communityRoot'),
    exclusionRoot: str(d.exclusionRoot, 'exclusionRoot'),
    communityExclusionRoot: str(d.communityExclusionRoot, 'communityExclusionRoot'),
    dataSources: arr(d.dataSources, 'dataSources', (s, p) => str(s, p)),
    dataSnapshots: snaps,
    proofUrl: str(d.proofUrl, 'proofUrl'),
    signature: sig === null ? null : { alg: str(sig.alg, 'signature.alg'), keyId: str(sig.keyId, 'signature.keyId'), value: str(sig.value, 'signature.value') },
  };
}

/**
 * signingKeysURL is where the issuer of a document publishes its keys: GET
 * /v1/compliance/signing-keys at the origin of the document's proofUrl,
 * else of the http(s) URL the document was read from; "" without either.
 */
export function signingKeysURL(proofUrl, sourceURL = '') {
  for (const raw of [proofUrl, sourceURL]) {
    let u;
    try {
      u = new URL(raw);
    } catch {
      continue;
    }
    if ((u.protocol === 'http:' || u.protocol === 'https:') && u.host !== '') return `${u.protocol}//${u.host}/v1/compliance/signing-keys`;
  }
  return '';
}

// signatureCheck checks the document's signature with opts.key (a public
// key in hex), opts.keys (the published keys), or the keys fetched from
// opts.keysUrl or the document's origin with opts.fetchBytes.
async function signatureCheck(d, members, opts) {
  const name = 'signature';
  let h;
  try {
    h = header(d, members);
  } catch (e) {
    return fail(name, `the document's header: ${e.message}`);
  }
  if (h.signature === null) {
    if (opts.allowUnsigned) return note(name, 'UNSIGNED: the document carries no signature: its results are not bound to the issuer');
    return fail(name, 'the document carries no signature, so anyone could have rewritten its results');
  }
  let keys = opts.keys;
  if (opts.key) {
    const pub = fromHex(opts.key.replace(/^0x/, ''));
    if (pub === null || pub.length !== 32) return fail(name, 'the key given is not a 64-hex-digit Ed25519 public key');
    keys = [{ keyId: keyId(pub), alg: 'Ed25519', publicKey: toHex(pub) }];
  } else if (!keys) {
    const u = opts.keysUrl || signingKeysURL(h.proofUrl, opts.sourceUrl);
    if (u === '' || !opts.fetchBytes) return fail(name, 'cannot check the signature: no signing keys given and none to fetch');
    try {
      keys = JSON.parse(text(await opts.fetchBytes(u))).keys ?? [];
    } catch (e) {
      return fail(name, `the signing keys: ${e.message}`);
    }
  }
  try {
    const k = verifySignature(h, h.signature, keys);
    return ok(name, `signed by ${k.keyId} (${k.current ? 'the current key' : 'a retired key'}, ${k.publicKey})`);
  } catch (e) {
    return fail(name, e.message);
  }
}

/**
 * verifyDocument checks a document the service returned, given as its
 * text or bytes exactly as served, as `cairn verify-proof` does:
 *   - a Merkle proof: its leaf, its path to root, and its exclusion
 *     proofs (verdicts merkleProof, exclusionProof.sanctions,
 *     exclusionProof.community);
 *   - a screening proof: resultsHash, statuses, merkleProofs,
 *     exclusionProofs, snapshot:NAME (each data snapshot) and signature.
 * Options: fetchBytes (url -> Promise<Uint8Array>: fetches the snapshots
 * and, without keys, the signing keys; without it snapshots are
 * skipped), keys (the signing-keys answer's keys), key (a trusted public
 * key in hex), keysUrl, sourceUrl (the URL the document was read from),
 * allowUnsigned, rootsCheckedOnChain (the roots are checked against the
 * contract by the caller: a lone leaf as its own root is then left to
 * that check).
 * It returns {kind: "merkle-proof" | "screening-proof" | null, ok, checks}.
 */
export async function verifyDocument(input, opts = {}) {
  const bytes = utf8(input);
  let d;
  let members;
  let doc;
  try {
    d = JSON.parse(text(bytes));
    if (d === null || typeof d !== 'object' || Array.isArray(d)) throw new DecodeError('not a JSON object');
    members = topLevelMembers(bytes);
    doc = decode(d, members);
  } catch (e) {
    return verdict(null, [fail('document', `not a proof document: ${e.message}`)]);
  }
  const checks = [];
  let kind = null;
  if (doc.root !== null && doc.leaf !== null) {
    kind = 'merkle-proof';
    checks.push(merkleProofCheck(doc, !!opts.rootsCheckedOnChain), ...addressExclusionChecks(doc));
  }
  if (doc.resultsHash !== '' && doc.results !== null && doc.results.length > 0) {
    kind = kind ?? 'screening-proof';
    checks.push(resultsHashCheck(doc));
    let results;
    try {
      results = decodeResults(doc.results);
    } catch (e) {
      const bad = (name) => fail(name, `the results do not decode: ${e.message}`);
      checks.push(bad('statuses'), bad('merkleProofs'), bad('exclusionProofs'));
    }
    if (results) checks.push(statusesCheck(results), listedCheck(doc, results), exclusionCheck(doc, results));
    checks.push(...(await snapshotChecks(doc, opts.fetchBytes)));
    checks.push(await signatureCheck(d, members, opts));
  }
  if (kind === null) {
    checks.push(fail('document', 'the document holds neither a Merkle proof (leaf, proof, root) nor results with a resultsHash'));
  }
  return verdict(kind, checks);
}

function verdict(kind, checks) {
  return { kind, ok: checks.every((c) => c.ok), checks };
}
