// The proof report: fetches the screening proof document this page is
// about (as JSON), shows it, and checks it with the JavaScript verifier,
// trusting nothing the service says about it. Each check gets a visible
// verdict; the roots are read from the verifier contract by eth_call when
// the service names a public RPC URL for verifiers.
import { verifyDocument, selector, hashHex, parseHash, topLevelMembers } from './cairn-verify.js';

const main = document.getElementById('report');
const cfg = main.dataset;

const LABELS = {
  document: 'The document',
  resultsHash: 'Results hash (SHA-256 of the results)',
  statuses: 'Statuses agree with their matches',
  merkleProofs: 'Membership proofs of the listed addresses',
  exclusionProofs: 'Exclusion proofs of the addresses not listed',
  signature: "The issuer's signature (Ed25519)",
  chain: 'Roots on chain (eth_call)',
};

function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('data-')) e.setAttribute(k, v);
    else e[k] = v;
  }
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(String(c ?? '')));
  return e;
}

function label(name) {
  if (name.startsWith('snapshot:')) return `Data snapshot ${name.slice(9)} (SHA-256 of the file)`;
  return LABELS[name] ?? name;
}

function verdictWord(c) {
  if (!c.ok) return ['fail', 'Failed'];
  if (c.skipped) return ['skip', 'Not checked'];
  if (c.note) return ['note', 'Passed, with a remark'];
  return ['pass', 'Passed'];
}

function showCheck(list, c) {
  const [cls, word] = verdictWord(c);
  const li = el('li', { class: `check ${cls}`, 'data-check': c.name, 'data-verdict': cls },
    el('span', { class: 'mark', ariaHidden: 'true' }, cls === 'pass' || cls === 'note' ? '✓' : cls === 'fail' ? '✗' : '–'),
    el('strong', { class: 'word' }, word),
    ' ',
    el('span', { class: 'name' }, label(c.name)),
    el('p', { class: 'detail' }, c.detail));
  list.append(li);
}

// fetchBytes fetches what the verifier asks for: a data snapshot is read
// from this service's snapshot route by its digest (the document's
// sha256 decides; where the bytes come from does not matter), anything
// else from its own URL.
async function fetchBytes(url) {
  const m = /\/v1\/compliance\/snapshots\/([0-9a-f]{64})$/.exec(new URL(url, location.href).pathname);
  const target = m ? cfg.snapshots + m[1] : url;
  // A snapshot never changes under its digest: the browser's cache may keep it.
  const r = await fetch(target, { cache: m ? 'default' : 'no-store', credentials: 'omit' });
  if (!r.ok) throw new Error(`GET ${target}: ${r.status} ${r.statusText}`);
  return new Uint8Array(await r.arrayBuffer());
}

async function rpc(method, params) {
  const r = await fetch(cfg.rpc, {
    method: 'POST',
    credentials: 'omit',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  if (!r.ok) throw new Error(`${method}: HTTP ${r.status}`);
  const body = await r.json();
  if (body.error) throw new Error(`${method}: ${body.error.message ?? JSON.stringify(body.error)}`);
  return body.result;
}

const ZERO = '0x' + '0'.repeat(64);
const ROOTS = selector('roots()');

// rootsAt reads roots() of the contract at block (a tag or a number).
async function rootsAt(block) {
  const tag = typeof block === 'number' ? '0x' + block.toString(16) : block;
  const out = await rpc('eth_call', [{ to: cfg.contract, data: ROOTS }, tag]);
  if (typeof out !== 'string' || !/^0x[0-9a-fA-F]{384}$/.test(out)) throw new Error(`roots() answered ${JSON.stringify(out)}`);
  const w = (i) => '0x' + out.slice(2 + 64 * i, 2 + 64 * (i + 1)).toLowerCase();
  return { sanctions: w(0), community: w(1), exclusion: w(2), communityExclusion: w(3), listVersion: BigInt(w(4)).toString() };
}

// chainCheck reads the roots the contract holds for the document's list
// version (the current ones, else those at the block of its anchoring)
// and compares them with the roots the document names.
async function chainCheck(doc, listVersion) {
  const name = 'chain';
  if (!cfg.rpc) return { name, ok: true, skipped: true, detail: 'the service names no public RPC URL for verifiers (--public-evm-rpc-url): check the roots with cairn verify-proof --evm-rpc-url' };
  if (!cfg.contract) return { name, ok: true, skipped: true, detail: `list version ${listVersion} is not anchored by this service` };
  try {
    const chainId = BigInt(await rpc('eth_chainId', [])).toString();
    if (cfg.chainId && chainId !== cfg.chainId) return { name, ok: false, detail: `the RPC endpoint is chain ${chainId}, the anchor is on chain ${cfg.chainId}` };
    let at = 'latest';
    let got = await rootsAt(at);
    if (got.listVersion !== listVersion && Number(cfg.block) > 0) {
      at = Number(cfg.block);
      got = await rootsAt(at);
    }
    if (got.listVersion !== listVersion) {
      return { name, ok: false, detail: `contract ${cfg.contract} holds the roots of list version ${got.listVersion} (block ${at}), not of ${listVersion}` };
    }
    const want = {
      sanctions: doc.sanctionsRoot || doc.merkleRoot,
      community: doc.communityRoot,
      exclusion: doc.exclusionRoot,
      communityExclusion: doc.communityExclusionRoot,
    };
    for (const [k, v] of Object.entries(want)) {
      if (v === undefined || v === null || v === '') continue;
      const h = parseHash(v);
      const mine = h === null ? String(v) : hashHex(h);
      if (mine !== got[k]) return { name, ok: false, detail: `the document's ${k} root ${mine} is not the contract's ${got[k]} for list version ${listVersion}` };
    }
    const named = Object.values(want).filter((v) => v && v !== ZERO).length;
    return { name, ok: true, detail: `contract ${cfg.contract} on chain ${chainId} holds the document's roots for list version ${listVersion} (${named} non-zero, block ${at})` };
  } catch (e) {
    return { name, ok: false, detail: `reading the contract: ${e.message}` };
  }
}

function showResults(results) {
  const body = document.querySelector('#results tbody');
  body.replaceChildren();
  for (const [i, r] of (Array.isArray(results) ? results : []).entries()) {
    const matches = Array.isArray(r?.matches) ? r.matches : [];
    const entity = matches.map((m) => m?.entityName ?? '—').join('; ') || '—';
    // A match's sanctions programs (absent from plain lists, community
    // reports and documents stored before programs were kept).
    const program = matches.map((m) => (Array.isArray(m?.programs) && m.programs.length > 0 ? m.programs.join(', ') : '—')).join('; ') || '—';
    const source = matches.map((m) => `${m?.source ?? '?'} (${m?.category ?? '?'})`).join('; ') || '—';
    body.append(el('tr', { 'data-status': String(r?.status ?? '') },
      el('td', {}, i + 1),
      el('td', { class: 'hash' }, r?.address ?? '', r?.canonicalAddress && r.canonicalAddress !== r.address ? el('span', { class: 'canon' }, r.canonicalAddress) : ''),
      el('td', {}, r?.chain ?? ''),
      el('td', {}, el('span', { class: `status ${String(r?.status ?? '')}` }, r?.status ?? '')),
      el('td', {}, entity),
      el('td', { class: 'program' }, program),
      el('td', {}, source)));
  }
}

function showFacts(doc, listVersion) {
  const dl = document.getElementById('list-facts');
  const facts = [
    ['List version', listVersion],
    ['Screened at', doc.timestamp],
    ['Sources', (doc.dataSources ?? []).join(', ')],
    ['Sanctions root', doc.sanctionsRoot || doc.merkleRoot],
    ['Community root', doc.communityRoot],
    ['Exclusion root', doc.exclusionRoot],
    ['Community exclusion root', doc.communityExclusionRoot],
    ['Signing key', doc.signature?.keyId ?? 'none: the document is unsigned'],
  ];
  dl.replaceChildren(...facts.filter(([, v]) => v !== undefined && v !== '').flatMap(([k, v]) => [el('dt', {}, k), el('dd', { class: /root/.test(k) ? 'hash' : '' }, v)]));
  // The snapshot digests the document names, beside the dates the service records.
  const body = document.querySelector('#sources tbody');
  for (const [name, s] of Object.entries(doc.dataSnapshots ?? {})) {
    let row = body.querySelector(`tr[data-source="${CSS.escape(name)}"]`);
    if (!row) {
      row = el('tr', { 'data-source': name }, el('th', { scope: 'row' }, name), el('td', { class: 'hash' }), el('td', {}, s?.fetchedAt ?? ''), el('td'), el('td'));
      body.append(row);
    }
    row.children[1].textContent = s?.sha256 ?? '';
  }
}

function finish(checks) {
  const failed = checks.filter((c) => !c.ok);
  const v = document.getElementById('verdict');
  if (failed.length === 0) {
    const skipped = checks.filter((c) => c.skipped).length;
    v.className = 'verdict pass';
    v.textContent = `Verified: all ${checks.length - skipped} checks passed` + (skipped ? ` (${skipped} not checked)` : '') + '.';
  } else {
    v.className = 'verdict fail';
    v.textContent = `Not verified: ${failed.length} of ${checks.length} checks failed (${failed.map((c) => label(c.name)).join('; ')}).`;
  }
  main.dataset.verdict = failed.length === 0 ? 'pass' : 'fail';
}

async function run() {
  for (const s of document.querySelectorAll('.doc-url')) s.textContent = new URL(cfg.doc, location.href).href;
  const list = document.getElementById('checks');
  let bytes;
  try {
    const r = await fetch(cfg.doc, { headers: { Accept: 'application/json' }, cache: 'no-store', credentials: 'omit' });
    if (!r.ok) throw new Error(`HTTP ${r.status}`);
    bytes = new Uint8Array(await r.arrayBuffer());
  } catch (e) {
    const c = { name: 'document', ok: false, detail: `the document could not be fetched: ${e.message}` };
    showCheck(list, c);
    return finish([c]);
  }
  const text = new TextDecoder().decode(bytes);
  document.getElementById('raw').textContent = text;
  let doc = {};
  let listVersion = '0';
  try {
    doc = JSON.parse(text) ?? {};
    // As written: a list version can exceed what a JavaScript number holds.
    const raw = topLevelMembers(bytes).get('listVersion');
    if (raw !== undefined) listVersion = new TextDecoder().decode(raw);
  } catch {
    doc = {};
  }
  showResults(doc.results);
  showFacts(doc, listVersion);
  const res = await verifyDocument(bytes, { fetchBytes, keysUrl: cfg.keys, sourceUrl: location.href, rootsCheckedOnChain: false });
  const checks = [...res.checks];
  if (res.kind === 'screening-proof') checks.push(await chainCheck(doc, listVersion));
  for (const c of checks) showCheck(list, c);
  finish(checks);
}

run().catch((e) => {
  const c = { name: 'document', ok: false, detail: `the page failed: ${e.message}` };
  showCheck(document.getElementById('checks'), c);
  finish([c]);
});
