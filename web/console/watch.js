// The watchlists page (a developer token or an agent key): the account's
// watchlists and their addresses, the alerts with their proofs, and the
// webhooks with their deliveries.

import { act, call } from './api.js';
import { $, el, show, fmtInt, fmtTime } from './dom.js';
import { queries } from './csv.js';

let selected = null;
let alertCursor = null;

const addressCount = (n) => `${fmtInt(n)} ${n === 1 ? 'address' : 'addresses'}`;

function button(text, label, fn) {
  const b = el('button', { type: 'button', 'aria-label': label, text });
  b.addEventListener('click', () => act('watch', fn));
  return b;
}

function rejections(r) {
  const list = $('watch-rejected');
  list.replaceChildren(...(r.rejected || []).map((x) => el('li', {}, `Line ${x.index + 1}: `,
    el('span', { class: 'mono', text: x.address }), ` (${x.chain}): ${x.reason}`)));
  $('watch-rejected-box').hidden = !(r.rejected || []).length;
}

async function loadWatchlists() {
  const p = await call('GET', '/v1/compliance/watchlists?limit=100');
  $('watchlists-table').tBodies[0].replaceChildren(...p.watchlists.map((w) => el('tr', {},
    el('td', { text: w.name }), el('td', { class: 'mono', text: w.id }), el('td', { text: fmtInt(w.addressCount) }),
    el('td', { text: fmtTime(w.updatedAt) }),
    el('td', {}, button('Addresses', `Addresses of ${w.name}`, () => openWatchlist(w)),
      button('Delete', `Delete watchlist ${w.name}`, () => deleteWatchlist(w))))));
}

async function openWatchlist(w) {
  selected = w;
  const p = await call('GET', `/v1/compliance/watchlists/${encodeURIComponent(w.id)}/addresses?limit=100`);
  $('watched-title').textContent = `Addresses of ${w.name}`;
  $('watched-table').tBodies[0].replaceChildren(...p.addresses.map((a) => el('tr', {},
    el('td', { class: 'mono', text: a.address }), el('td', { text: a.chain }), el('td', { text: fmtTime(a.addedAt) }),
    el('td', {}, button('Remove', `Remove ${a.address}`, () => changeAddresses('DELETE', [{ address: a.address, chain: a.chain }]))))));
  $('watched').hidden = false;
}

async function deleteWatchlist(w) {
  await call('DELETE', `/v1/compliance/watchlists/${encodeURIComponent(w.id)}`);
  if (selected && selected.id === w.id) { selected = null; $('watched').hidden = true; }
  await loadWatchlists();
  return `Deleted the watchlist ${w.name}.`;
}

async function changeAddresses(method, list) {
  const r = await call(method, `/v1/compliance/watchlists/${encodeURIComponent(selected.id)}/addresses`, { addresses: list });
  rejections(r);
  await openWatchlist(r.watchlist);
  await loadWatchlists();
  return method === 'DELETE' ? `Removed ${addressCount(r.removed)}.` : `Added ${addressCount(r.added)} (${fmtInt(r.creditCharged)} credits).`;
}

async function createWatchlist() {
  const r = await call('POST', '/v1/compliance/watchlists', { name: $('watch-name').value.trim(),
    addresses: queries($('watch-addresses').value, $('watch-chain').value) });
  rejections(r);
  await loadWatchlists();
  return `Created ${r.watchlist.name} with ${addressCount(r.added)} (${fmtInt(r.creditCharged)} credits); ${fmtInt(r.rejected.length)} rejected.`;
}

async function loadAlerts(more) {
  const q = more && alertCursor ? `&cursor=${encodeURIComponent(alertCursor)}` : '';
  const p = await call('GET', `/v1/compliance/alerts?limit=50${q}`);
  const rows = p.alerts.map((a) => el('tr', {}, el('td', { text: fmtTime(a.createdAt) }),
    el('td', {}, el('span', { class: `status status-${a.change}`, text: a.change })),
    el('td', { class: 'mono', text: a.address }), el('td', { text: a.chain }), el('td', { text: a.listVersion }),
    el('td', { text: (a.matches || []).map((m) => m.entityName || m.source).join(', ') }),
    el('td', {}, el('a', { href: a.proofUrl, text: 'Proof' }))));
  if (more) $('alerts-table').tBodies[0].append(...rows);
  else $('alerts-table').tBodies[0].replaceChildren(...rows);
  alertCursor = p.nextCursor;
  $('alerts-more').hidden = !p.hasMore;
}

function secretShown(w, what) {
  $('hook-secret').textContent = w.secret;
  $('hook-secret-note').textContent = `The signing secret of ${w.url} (${what}). It is shown only now: copy it into the receiver's configuration; the service will not show it again.`;
  $('hook-secret-box').hidden = false;
}

function hookStatus(w) {
  if (w.enabled) return el('span', { class: 'status status-clear', text: 'enabled' });
  return el('span', {}, el('span', { class: 'status status-disabled', text: 'disabled' }), ` ${w.disabledReason || ''}`);
}

async function loadHooks() {
  const p = await call('GET', '/v1/webhooks?limit=100');
  $('hooks-table').tBodies[0].replaceChildren(...p.webhooks.map((w) => el('tr', {},
    el('td', { class: 'mono', text: w.url }), el('td', { text: w.events.join(', ') }), el('td', {}, hookStatus(w)),
    el('td', { text: fmtTime(w.createdAt) }),
    el('td', {}, button('Deliveries', `Deliveries of ${w.url}`, () => loadDeliveries(w)),
      button('Rotate secret', `Rotate the secret of ${w.url}`, async () => {
        secretShown(await call('POST', `/v1/webhooks/${encodeURIComponent(w.id)}/rotate-secret`), 'rotated');
        return 'Rotated the secret: the old one no longer signs.';
      }),
      w.enabled ? null : button('Enable', `Enable ${w.url}`, async () => {
        await call('POST', `/v1/webhooks/${encodeURIComponent(w.id)}/enable`);
        await loadHooks();
        return `Enabled ${w.url}.`;
      }),
      button('Delete', `Delete webhook ${w.url}`, async () => {
        await call('DELETE', `/v1/webhooks/${encodeURIComponent(w.id)}`);
        $('deliveries').hidden = true;
        await loadHooks();
        return `Deleted the webhook ${w.url}.`;
      })))));
}

async function loadDeliveries(w) {
  const p = await call('GET', `/v1/webhooks/${encodeURIComponent(w.id)}/deliveries?limit=50`);
  $('deliveries-title').textContent = `Deliveries to ${w.url}`;
  $('deliveries-table').tBodies[0].replaceChildren(...p.deliveries.map((d) => el('tr', {},
    el('td', { text: fmtTime(d.createdAt) }), el('td', { text: d.eventType }),
    el('td', {}, el('span', { class: `status status-${d.status}`, text: d.status })), el('td', { text: d.attempts }),
    el('td', { text: d.lastStatus === null ? '—' : d.lastStatus }), el('td', { class: 'error-text', text: d.lastError || '' }),
    el('td', {}, button('Redeliver', `Redeliver ${d.id}`, async () => {
      await call('POST', `/v1/webhooks/${encodeURIComponent(w.id)}/deliveries/${encodeURIComponent(d.id)}/redeliver`);
      await loadDeliveries(w);
      return `Queued ${d.id} again.`;
    })))));
  $('deliveries').hidden = false;
}

async function registerHook() {
  const events = [...document.querySelectorAll('#hook-events input:checked')].map((c) => c.value);
  const w = await call('POST', '/v1/webhooks', { url: $('hook-url').value.trim(), events });
  secretShown(w, 'new');
  await loadHooks();
  return `Registered ${w.url}.`;
}

function submit(id, fn) {
  $(id).addEventListener('submit', (ev) => { ev.preventDefault(); act('watch', fn); });
}

export function initWatch() {
  // The chains are the screening page's, in one place.
  $('watch-chain').append(...[...$('screen-chain').options].map((o) => o.cloneNode(true)));
  submit('watch-form', createWatchlist);
  submit('watched-form', () => changeAddresses('POST', queries($('watched-add').value, $('watch-chain').value)));
  submit('hook-form', registerHook);
  $('alerts-more').addEventListener('click', () => act('watch', () => loadAlerts(true)));
}

export function showWatch() {
  act('watch', async () => { await Promise.all([loadWatchlists(), loadAlerts(false), loadHooks()]); });
}
