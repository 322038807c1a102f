// The screening page: a pasted list or a CSV of up to 10,000 addresses,
// the credits it will cost, screened in requests of 100 with a progress
// bar, results in a paged table filtered by status and chain, and
// downloads as CSV and JSON with each row's proof link.

import { call, message } from './api.js';
import { $, el, show, download, fmtInt } from './dom.js';
import { queries, formatCSV } from './csv.js';

export const maxAddresses = 10000;
export const batchSize = 100;
export const pageRows = 50;

const state = { items: [], results: [], running: false, stop: false, page: 0, cost: null, free: 0, pricing: 'unread' };

// load reads the pricing the estimate is made from.
async function loadPricing() {
  state.pricing = 'reading';
  try {
    const p = await call('GET', '/v1/billing/pricing');
    // Screening is priced per address, after a free window, as the
    // pricing's note states; a cost in operationCosts takes precedence.
    const m = /first (\d+) addresses per (\w+) per developer are free, then (\d+) credits? per address/i.exec(p.note || '');
    state.free = m ? Number(m[1]) : 0;
    state.window = m ? m[2] : 'hour';
    state.cost = p.operationCosts['compliance.screen'] ?? (m ? Number(m[3]) : null);
    state.pricing = 'read';
  } catch (err) {
    state.pricing = 'failed';
    show($('screen-error'), `The pricing could not be read: ${message(err)}`);
  }
  estimate();
}

// estimate parses the input and shows what the screening will cost
// before it starts.
function estimate() {
  state.items = queries($('screen-text').value, $('screen-chain').value);
  const n = state.items.length;
  const out = $('screen-estimate');
  const start = $('screen-start');
  if (n === 0) {
    out.textContent = 'No addresses yet.';
    start.disabled = true;
    return;
  }
  if (n > maxAddresses) {
    out.textContent = `${fmtInt(n)} addresses: at most ${fmtInt(maxAddresses)} per screening here. Split the list.`;
    start.disabled = true;
    return;
  }
  const requests = Math.ceil(n / batchSize);
  let cost = state.pricing === 'failed' ? 'its cost could not be read from the pricing' : 'reading the pricing…';
  if (state.pricing === 'read' && typeof state.cost === 'number') {
    const billable = Math.max(0, n - state.free);
    cost = `at most ${fmtInt(n * state.cost)} credits (${state.cost} per address; ` +
      `with the ${state.free} free addresses of the ${state.window} unused, ${fmtInt(billable * state.cost)})`;
  }
  out.textContent = `${fmtInt(n)} addresses in ${fmtInt(requests)} request${requests > 1 ? 's' : ''}: ${cost}.`;
  start.disabled = state.running || document.body.dataset.kind === 'admin';
}

async function readFile() {
  const f = $('screen-file').files[0];
  if (!f) return;
  $('screen-text').value = await f.text();
  estimate();
}

function setProgress(done, total) {
  const bar = $('screen-progress');
  bar.max = Math.max(total, 1);
  bar.value = done;
  $('screen-progress-text').textContent = `${fmtInt(done)} of ${fmtInt(total)} addresses screened`;
}

// rowsOf turns one screening answer into table rows, each with its proof.
function rowsOf(answer, offset) {
  const proof = answer.proof;
  const url = proof.proofUrl || `${location.origin}/v1/compliance/proofs/${proof.screeningId}`;
  return answer.results.map((r, i) => ({
    n: offset + i + 1, address: r.address, chain: r.chain, status: r.status, family: r.family,
    canonicalAddress: r.canonicalAddress, checksum: r.checksum, matches: r.matches, screenedAt: r.screenedAt,
    listVersion: proof.listVersion, screeningId: proof.screeningId, proofUrl: url,
  }));
}

// run screens the items batch by batch; a failure stops it with the
// problem's text and keeps the results so far.
async function run(ev) {
  ev.preventDefault();
  estimate();
  const items = state.items;
  if (!items.length || items.length > maxAddresses) return;
  Object.assign(state, { results: [], running: true, stop: false, page: 0 });
  show($('screen-error'), '');
  $('screen-start').disabled = true;
  $('screen-stop').hidden = false;
  setProgress(0, items.length);
  const community = $('screen-community').checked;
  try {
    for (let off = 0; off < items.length && !state.stop; off += batchSize) {
      const batch = items.slice(off, off + batchSize);
      let answer;
      try {
        answer = await call('POST', '/v1/compliance/screen', { addresses: batch, includeCommunity: community });
      } catch (err) {
        const at = err.doc && /^addresses\[(\d+)\]/.exec(err.doc.field || '');
        const where = at ? ` (line ${off + Number(at[1]) + 1}: ${batch[Number(at[1])].address})` : '';
        throw new Error(`Stopped after ${fmtInt(off)} addresses${where}. ${message(err)}`);
      }
      state.results.push(...rowsOf(answer, off));
      setProgress(state.results.length, items.length);
      render();
    }
  } catch (err) {
    show($('screen-error'), err.message);
  } finally {
    state.running = false;
    $('screen-stop').hidden = true;
    estimate();
    render();
  }
}

function filtered() {
  const st = $('filter-status').value, ch = $('filter-chain').value;
  return state.results.filter((r) => (!st || r.status === st) && (!ch || r.chain === ch));
}

function chainOptions() {
  const sel = $('filter-chain');
  const have = new Set([...sel.options].map((o) => o.value));
  for (const c of new Set(state.results.map((r) => r.chain))) {
    if (!have.has(c)) sel.append(el('option', { value: c, text: c }));
  }
}

// entityOf names a match's entity ('' when the source names none, as a
// plain list of addresses does).
const entityOf = (m) => m.entityName || m.entityId || '';

function matchText(r) {
  return r.matches.map((m) => (entityOf(m) ? `${entityOf(m)} (${m.source})` : m.source)).join('; ');
}

// render draws one page of the filtered results: the table never holds
// more than pageRows rows, whatever the number of results.
function render() {
  const box = $('screen-results');
  box.hidden = state.results.length === 0;
  if (box.hidden) return;
  chainOptions();
  const rows = filtered();
  const pages = Math.max(1, Math.ceil(rows.length / pageRows));
  state.page = Math.min(state.page, pages - 1);
  const from = state.page * pageRows;
  const shown = rows.slice(from, from + pageRows);
  const counts = {};
  for (const r of state.results) counts[r.status] = (counts[r.status] || 0) + 1;
  $('results-summary').textContent = `${fmtInt(state.results.length)} results: ` +
    Object.entries(counts).map(([s, n]) => `${fmtInt(n)} ${s}`).join(', ') + '.';
  $('results-caption').textContent = rows.length
    ? `Rows ${fmtInt(from + 1)}–${fmtInt(from + shown.length)} of ${fmtInt(rows.length)} matching the filters.`
    : 'No result matches the filters.';
  $('results-table').tBodies[0].replaceChildren(...shown.map((r) => el('tr', { 'data-status': r.status },
    el('td', { text: r.n }), el('td', { class: 'mono', text: r.address }), el('td', { text: r.chain }),
    el('td', {}, el('span', { class: `status status-${r.status}`, text: r.status })), el('td', { text: matchText(r) }),
    el('td', {}, el('a', { href: r.proofUrl, target: '_blank', rel: 'noopener noreferrer', text: 'proof' })))));
  $('page-prev').disabled = state.page === 0;
  $('page-next').disabled = state.page >= pages - 1;
}

const csvHeader = ['address', 'chain', 'status', 'family', 'canonicalAddress', 'entities', 'sources', 'listVersion', 'screeningId', 'proofUrl'];

function downloadCSV() {
  const rows = state.results.map((r) => [r.address, r.chain, r.status, r.family, r.canonicalAddress,
    r.matches.map(entityOf).filter(Boolean).join('; '), [...new Set(r.matches.map((m) => m.source))].join('; '),
    r.listVersion, r.screeningId, r.proofUrl]);
  download('cairn-screening.csv', 'text/csv', formatCSV(csvHeader, rows));
}

function downloadJSON() {
  const rows = state.results.map(({ n, ...r }) => r);
  download('cairn-screening.json', 'application/json', JSON.stringify(rows, null, 2) + '\n');
}

export function initScreen() {
  $('screen-text').addEventListener('input', estimate);
  $('screen-chain').addEventListener('change', estimate);
  $('screen-file').addEventListener('change', () => readFile().catch((err) => show($('screen-error'), message(err))));
  $('screen-form').addEventListener('submit', run);
  $('screen-stop').addEventListener('click', () => { state.stop = true; });
  for (const id of ['filter-status', 'filter-chain']) $(id).addEventListener('change', () => { state.page = 0; render(); });
  $('page-prev').addEventListener('click', () => { state.page--; render(); });
  $('page-next').addEventListener('click', () => { state.page++; render(); });
  $('download-csv').addEventListener('click', downloadCSV);
  $('download-json').addEventListener('click', downloadJSON);
}

export function showScreen() {
  $('screen-admin-note').hidden = document.body.dataset.kind !== 'admin';
  if (state.pricing === 'unread' || state.pricing === 'failed') loadPricing();
  else estimate();
}
