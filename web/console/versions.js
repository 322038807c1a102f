// The list versions page: every version with its counts, sources and
// changes (the addresses it added and removed), and a chart of the
// listed addresses over time.

import { call, message } from './api.js';
import { $, el, show, fmtInt, fmtTime } from './dom.js';
import { lineChart } from './chart.js';

const state = { versions: [], next: null, changes: { version: 0, next: null } };

function sourcesText(sources) {
  return Object.entries(sources || {}).sort(([a], [b]) => a.localeCompare(b)).map(([name, s]) => {
    const when = s.bundled ? `snapshot of ${s.snapshotDate}` : s.fetchedAt ? `fetched ${fmtTime(s.fetchedAt)}` : 'not fetched';
    const err = s.lastError ? `, last error: ${s.lastError}` : '';
    return `${name}: ${fmtInt(s.entries)} ${s.entries === 1 ? 'entry' : 'entries'}, ${when}${err}`;
  });
}

function drawChart() {
  const pts = [...state.versions].reverse().map((v) => ({
    t: Date.parse(v.builtAt), y: v.leafCount + v.communityLeafCount,
    label: `Version ${v.listVersion}, ${fmtTime(v.builtAt)}: ${fmtInt(v.leafCount)} sanctioned, ${fmtInt(v.communityLeafCount)} community`,
  }));
  $('versions-chart').replaceChildren(lineChart(pts, `Listed addresses over ${pts.length} list versions`));
}

function drawTable() {
  $('versions-table').tBodies[0].replaceChildren(...state.versions.map((v) => el('tr', { 'data-version': v.listVersion },
    el('th', { scope: 'row', text: v.listVersion }), el('td', { text: fmtTime(v.builtAt) }),
    el('td', { text: `${fmtInt(v.leafCount)} + ${fmtInt(v.communityLeafCount)} community` }),
    el('td', { text: fmtInt(v.added) }), el('td', { text: fmtInt(v.removed) }),
    el('td', {}, el('ul', { class: 'plain' }, ...sourcesText(v.sources).map((s) => el('li', { text: s })))),
    el('td', {}, el('button', { type: 'button', 'data-changes': v.listVersion, text: `Changes of ${v.listVersion}` })))));
  $('versions-more').hidden = !state.next;
}

// load reads the versions from the newest (more: the next page).
async function load(more) {
  show($('versions-error'), '');
  try {
    const q = more && state.next ? `&cursor=${encodeURIComponent(state.next)}` : '';
    const page = await call('GET', `/v1/compliance/versions?limit=100${q}`);
    state.versions = more ? state.versions.concat(page.versions) : page.versions;
    state.next = page.nextCursor;
    drawTable();
    drawChart();
  } catch (err) {
    show($('versions-error'), message(err));
  }
}

// loadChanges shows the addresses a version added and removed.
async function loadChanges(version, more) {
  const box = $('version-changes');
  box.hidden = false;
  show($('changes-error'), '');
  const c = state.changes;
  if (!more) Object.assign(c, { version, next: null });
  try {
    const q = more && c.next ? `&cursor=${encodeURIComponent(c.next)}` : '';
    const page = await call('GET', `/v1/compliance/versions/${c.version}/changes?limit=100${q}`);
    c.next = page.nextCursor;
    $('changes-title').textContent = `Changes of version ${c.version}`;
    const rows = page.changes.map((ch) => el('tr', { 'data-change': ch.change },
      el('td', {}, el('span', { class: `status status-${ch.change}`, text: ch.change })), el('td', { text: ch.family }),
      el('td', { class: 'mono', text: ch.address }), el('td', { text: ch.source }),
      el('td', { text: ch.entityName || ch.entityId })));
    const body = $('changes-table').tBodies[0];
    if (more) body.append(...rows);
    else body.replaceChildren(...rows);
    if (!more && !rows.length) body.append(el('tr', {}, el('td', { colspan: 5, text: 'This version changed no address.' })));
    $('changes-more').hidden = !c.next;
    if (!more) $('changes-title').focus();
  } catch (err) {
    show($('changes-error'), message(err));
  }
}

export function initVersions() {
  $('versions-more').addEventListener('click', () => load(true));
  $('changes-more').addEventListener('click', () => loadChanges(0, true));
  $('versions-table').addEventListener('click', (ev) => {
    const b = ev.target.closest('button[data-changes]');
    if (b) loadChanges(Number(b.dataset.changes), false);
  });
}

export function showVersions() {
  $('version-changes').hidden = true;
  return load(false);
}
