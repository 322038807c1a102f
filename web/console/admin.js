// The administrator's pages: the moderation queue (confirm, reject,
// delist with a reason) and agents and credits (look up, revoke, grant).

import { act, call, message } from './api.js';
import { $, el, facts, show, fmtInt, fmtTime } from './dom.js';

const mod = { next: null };

function reportRow(r) {
  const id = r.reportId;
  const decided = r.moderation ? `${r.moderation.action}: ${r.moderation.reason || 'no reason'} (${fmtTime(r.moderation.at)})` : '';
  const decision = r.status === 'pending'
    ? el('div', { class: 'decide' },
      el('label', { for: `reason-${id}`, class: 'visually-hidden', text: `Reason for the decision on ${r.address}` }),
      el('input', { id: `reason-${id}`, placeholder: 'Reason', 'data-reason': id }),
      el('button', { type: 'button', 'data-act': 'confirm', 'data-id': id, text: 'Confirm' }),
      el('button', { type: 'button', 'data-act': 'reject', 'data-id': id, text: 'Reject' }))
    : decided;
  const evidence = r.evidence.length ? el('ul', { class: 'plain' }, ...r.evidence.map((e) => el('li', { class: 'mono', text: e }))) : null;
  return el('tr', { 'data-report': id },
    el('td', { text: fmtTime(r.createdAt) }),
    el('td', {}, el('span', { class: 'mono', text: r.address }), el('br'), `${r.chain || r.family}${r.established ? ', established reporter' : ''}`),
    el('td', { text: r.category }), el('td', {}, r.reason || '', evidence),
    el('td', {}, el('span', { class: `status status-${r.status}`, text: r.status })), el('td', {}, decision));
}

async function loadReports(more) {
  show($('moderation-error'), '');
  try {
    const q = new URLSearchParams({ limit: '50' });
    if ($('moderation-status').value) q.set('status', $('moderation-status').value);
    if (more && mod.next) q.set('cursor', mod.next);
    const page = await call('GET', `/v1/admin/reports?${q}`);
    mod.next = page.nextCursor;
    const rows = page.reports.map(reportRow);
    const body = $('moderation-table').tBodies[0];
    if (more) body.append(...rows);
    else body.replaceChildren(...rows);
    if (!more && !rows.length) body.append(el('tr', {}, el('td', { colspan: 6, text: 'No report.' })));
    $('moderation-more').hidden = !mod.next;
  } catch (err) {
    show($('moderation-error'), message(err));
  }
}

function moderated(res) {
  const version = res.treeChanged ? ' The community list changed: a new list version was built.' : '';
  show($('moderation-done'), `${res.action}: ${res.address} (${res.reports.length} report${res.reports.length === 1 ? '' : 's'} updated).${version}`);
}

async function decide(ev) {
  const b = ev.target.closest('button[data-act]');
  if (!b) return;
  const id = b.dataset.id;
  const reason = document.querySelector(`input[data-reason="${CSS.escape(id)}"]`).value.trim();
  await act('moderation', async () => {
    moderated(await call('POST', `/v1/admin/reports/${encodeURIComponent(id)}/${b.dataset.act}`, reason ? { reason } : {}));
    await loadReports(false);
  });
}

async function delist(ev) {
  ev.preventDefault();
  await act('moderation', async () => {
    moderated(await call('POST', '/v1/admin/community/delist', {
      address: $('delist-address').value.trim(), chain: $('delist-chain').value.trim(), reason: $('delist-reason').value.trim(),
    }));
    await loadReports(false);
  });
}

let agent = null;

function showAgent(a) {
  agent = a;
  facts($('agent-facts'), [
    ['Agent', el('span', { class: 'mono', text: a.agentId })], ['Name', a.name], ['Developer', el('span', { class: 'mono', text: a.developerId })],
    ['Credits of the developer', fmtInt(a.creditBalance)], ['Created', fmtTime(a.createdAt)],
    ['Revoked', a.revoked ? `yes, ${fmtTime(a.revokedAt)}` : 'no'], ['Deposit address', el('span', { class: 'mono', text: a.depositAddress })],
  ]);
  $('agent-revoke').hidden = a.revoked;
  $('grant-developer').value = a.developerId;
}

async function lookUp(ev) {
  ev.preventDefault();
  show($('agents-error'), '');
  show($('agents-done'), '');
  try {
    showAgent(await call('GET', `/v1/admin/agents/${encodeURIComponent($('agent-id').value.trim())}`));
  } catch (err) {
    $('agent-facts').replaceChildren();
    $('agent-revoke').hidden = true;
    show($('agents-error'), message(err));
  }
}

async function revoke() {
  if (!agent) return;
  show($('agents-error'), '');
  try {
    const r = await call('POST', `/v1/admin/agents/${encodeURIComponent(agent.agentId)}/revoke`);
    show($('agents-done'), `Agent ${r.agentId} revoked at ${fmtTime(r.revokedAt)}: its key no longer works.`);
    showAgent(await call('GET', `/v1/admin/agents/${encodeURIComponent(agent.agentId)}`));
  } catch (err) {
    show($('agents-error'), message(err));
  }
}

async function grant(ev) {
  ev.preventDefault();
  await act('agents', async () => {
    const r = await call('POST', '/v1/admin/credits', {
      developerId: $('grant-developer').value.trim(), amount: Number($('grant-amount').value), reason: $('grant-reason').value.trim(),
    });
    show($('agents-done'), `${r.transaction.amount > 0 ? 'Granted' : 'Removed'} ${fmtInt(Math.abs(r.transaction.amount))} credits: ${r.developerId} now has ${fmtInt(r.creditBalance)}.`);
    if (agent && agent.developerId === r.developerId) showAgent({ ...agent, creditBalance: r.creditBalance });
  });
}

export function initAdmin() {
  $('moderation-status').addEventListener('change', () => loadReports(false));
  $('moderation-more').addEventListener('click', () => loadReports(true));
  $('moderation-table').addEventListener('click', decide);
  $('delist-form').addEventListener('submit', delist);
  $('agent-form').addEventListener('submit', lookUp);
  $('agent-revoke').addEventListener('click', revoke);
  $('grant-form').addEventListener('submit', grant);
}

export const showModeration = () => loadReports(false);
export const showAgents = () => {};
